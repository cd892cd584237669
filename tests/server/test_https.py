"""``dragonkit serve --certfile --keyfile``: the class served over HTTPS, every cookie it sets ``Secure`` (the login,
the ``_xsrf`` token, the nickname's hold, the teacher's key), plain HTTP refused; ``--behind-proxy``: a reverse
proxy's ``X-Forwarded-Proto: https`` makes the cookies ``Secure`` too. A certificate of the test's own (openssl)."""

from __future__ import annotations

import http.client
import re
import shutil
import ssl
import subprocess
import urllib.parse
from pathlib import Path

import pytest

from dragonkit.cli import ServeOptions, voila_command
from dragonkit.server.join import NICKNAME_COOKIE
from dragonkit.server.teacher import KEY_COOKIE

from ..conftest import voila_process
from ..record_server import KEY, TOKEN, Client, write_stand_ins

pytestmark = pytest.mark.browser  # a server of its own


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (PEM), made by openssl."""
    openssl = shutil.which("openssl")
    assert openssl is not None, "openssl makes the test's certificate (Debian's package openssl)"
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2"]
        + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True,
        capture_output=True,
    )
    return cert, key


def _served(tmp_path: Path, log: str, **options: object):
    folder, probes = tmp_path / "served", tmp_path / "probes"
    folder.mkdir()
    probes.mkdir()
    write_stand_ins(folder, probes)
    record = f"sqlite:///{tmp_path / 'record.sqlite'}"
    from dragonkit.record.command import prepare

    prepare(record)
    everything = {"pool": 0, "token": TOKEN, "teacher_key": KEY, "record": record, "class_name": "3B", **options}
    return voila_process(folder, log, **everything)


def _assert_every_cookie_secure(client: Client, base: str) -> None:
    """Log in with the token, join the class, open a page and the dashboard: each cookie set is Secure."""
    assert client.request("GET", f"{base}/?token={TOKEN}")[0] in (200, 302)
    status, _, page = client.join(f"{base}/dragonkit/join?next=/voila/render/lesson.ipynb", "Ada")
    assert status == 303, page
    status, _, _ = client.request("GET", f"{base}/voila/render/dashboard.ipynb?key={KEY}")
    assert status == 302
    names = {cookie.name: cookie for cookie in client.jar}
    assert {NICKNAME_COOKIE, "_xsrf", KEY_COOKIE} <= set(names), sorted(names)
    assert any(name.startswith("username-") for name in names), sorted(names)  # the login's
    assert all(cookie.secure for cookie in names.values()), {n: c.secure for n, c in names.items()}


def test_a_class_served_over_https_sets_every_cookie_secure_and_refuses_plain_http(certificate, tmp_path):
    cert, key = certificate
    with _served(tmp_path, "https.log", certfile=str(cert), keyfile=str(key)) as (url, _process):
        base = url.replace("http://", "https://", 1)
        _assert_every_cookie_secure(Client(ssl.create_default_context(cafile=str(cert))), base)
        plain = http.client.HTTPConnection("127.0.0.1", int(url.rsplit(":", 1)[1]), timeout=10)
        with pytest.raises((ConnectionError, http.client.HTTPException, OSError)):
            plain.request("GET", "/")
            plain.getresponse().read()


def test_behind_a_proxy_that_says_https_the_cookies_are_secure(tmp_path):
    """The proxy's headers, as nginx's ``proxy_set_header X-Forwarded-Proto $scheme`` sends them: the login's, the
    ``_xsrf`` and the hold's cookies are set ``Secure`` (read from the answers' headers: a cookie jar sends no Secure
    cookie back over the plain HTTP between the proxy and the server)."""
    proxy = {"X-Forwarded-Proto": "https", "X-Real-Ip": "10.1.2.3"}
    with _served(tmp_path, "proxied.log", behind_proxy=True) as (url, _process):
        host = url.removeprefix("http://")
        connection = http.client.HTTPConnection(host, timeout=60)
        connection.request("GET", f"/dragonkit/join?next=/&token={TOKEN}", headers=proxy)
        answer = connection.getresponse()
        page, set_cookies = answer.read().decode(), answer.headers.get_all("Set-Cookie")
        assert answer.status == 200 and len(set_cookies) == 2 and all("; Secure" in c for c in set_cookies)
        cookies = "; ".join(cookie.split(";", 1)[0] for cookie in set_cookies)
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)[1]
        form = urllib.parse.urlencode({"_xsrf": xsrf, "nickname": "Bo"})
        headers = {**proxy, "Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"}
        connection.request("POST", f"/dragonkit/join?next=/&token={TOKEN}", body=form, headers=headers)
        answer = connection.getresponse()
        answer.read()
        held = [c for c in answer.headers.get_all("Set-Cookie") if c.startswith(f"{NICKNAME_COOKIE}=")]
        assert answer.status == 303 and len(held) == 1 and "; Secure" in held[0] and "; HttpOnly" in held[0]


def test_the_options_of_https_are_checked_and_the_addresses_say_https(certificate, tmp_path):
    cert, key = certificate
    options = ServeOptions(certfile=str(cert), keyfile=str(key), token="tok-12345678")
    options.check()
    assert options.url.startswith("https://127.0.0.1:8866/") and options.dashboard_url.startswith("https://")
    command = voila_command(options, tmp_path)
    assert f"--ClassroomVoila.certfile={cert}" in command and f"--ClassroomVoila.keyfile={key}" in command
    assert "--ClassroomVoila.trust_xheaders=True" in voila_command(ServeOptions(behind_proxy=True), tmp_path)
    with pytest.raises(ValueError, match="--keyfile needs --certfile"):
        ServeOptions(keyfile=str(key)).check()
    with pytest.raises(ValueError, match="not a certificate and its private key in PEM"):
        ServeOptions(certfile=str(key)).check()  # a key where the certificate goes
    with pytest.raises(ValueError, match="not a certificate and its private key in PEM"):
        ServeOptions(certfile=str(tmp_path / "missing.pem")).check()
