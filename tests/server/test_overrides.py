"""No address chooses what a page loads: Voilà's template and theme overrides are off (``?template=reveal`` and
``?template=classic`` made a page load scripts and style sheets from public CDNs; ``?theme=dark`` another theme).
Every kind of page of the server with a record (tests/record_server.py: a lesson, the play app with its preheated
kernel, the teacher's dashboard), asked with each override, is the page asked without one, and names no other host.
(The kit's own pages asked so in Chromium, every request watched: tests/browser/test_lesson_pages*.py, and
test_accessibility.py for the apps.)"""

from __future__ import annotations

import re

import pytest

from ..record_server import KEY, TOKEN, Client, joined, marker

#: What a forged address may ask of Voilà.
OVERRIDES = ("template=reveal&theme=dark", "template=classic&theme=dark")

#: A URL of another host in a page: an absolute or protocol-relative address in an attribute or a style sheet.
OTHER_HOST = re.compile(
    r"""(?:src|href)\s*=\s*["'](?:https?:)?//|url\(\s*["']?(?:https?:)?//|import\s+["'](?:https?:)?//"""
)


def _page(record_server, client: Client, name: str, query: str) -> str:
    url = f"{record_server.url}/voila/render/{name}?token={TOKEN}&probe={marker()}"
    status, _, body = client.request("GET", f"{url}&{query}" if query else url)
    assert status == 200, (name, query, status)
    return body


def _shape(body: str) -> str:
    """The page without what changes from one request to the next (its kernel, its probe, its _xsrf token)."""
    body = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "ID", body)
    body = re.sub(r"probe=[0-9a-f]{12}", "probe=P", body)
    return re.sub(r"(?:_xsrf|xsrf_token|xsrfToken)[\"'=:\s]+[\w|-]+", "XSRF", body)


@pytest.mark.parametrize("name", ["lesson.ipynb", "play.ipynb", "dashboard.ipynb"])
def test_no_query_string_changes_the_template_or_the_theme_of_a_page(record_server, name):
    client = joined(record_server.url)
    if name == "dashboard.ipynb":  # the teacher's key leaves its cookie, and the browser is sent on without it
        address = f"{record_server.url}/voila/render/{name}?token={TOKEN}&key={KEY}"
        assert client.request("GET", address)[0] == 302
    plain = _page(record_server, client, name, "")
    assert "a stand-in page" in plain or "dashboard" in plain
    assert not OTHER_HOST.search(plain), OTHER_HOST.search(plain)
    for query in OVERRIDES:
        body = _page(record_server, client, name, query)
        found = OTHER_HOST.search(body)
        assert found is None, f"{name}?{query} names another host: {body[found.start() : found.start() + 120]}"
        assert '"jupyterLabTheme": "light"' in body.replace("'", '"'), f"{name}?{query}: not the kit's theme"
        assert _shape(body) == _shape(plain), f"{name}?{query} is not the page asked without it"
