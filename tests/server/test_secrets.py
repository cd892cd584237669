"""The server's log keeps no secret of an address: the students' token, a teacher's key (a wrong one too), a
nickname and a room's code are written ``[secret]`` (Voilà's own access log wrote every address whole: 500 wrong keys
tried, 500 keys in the teacher's log). Served by a server with a record (tests/record_server.py)."""

from __future__ import annotations

import logging
import time
import urllib.parse
from types import SimpleNamespace

from dragonkit.server.app import SecretsHidden, without_secrets
from dragonkit.server.join import NICKNAME_COOKIE

from ..record_server import TOKEN, Client, joined, marker


def test_the_access_log_hides_tokens_keys_nicknames_and_room_codes(record_server):
    """A nickname refused in an address, a room's code and a wrong key: each written [secret]; the secret of a
    nickname held, in its cookie, is never written either (only addresses are)."""
    browser = joined(record_server.url)
    logged = len(record_server.log.read_text(errors="replace"))
    wrong_key = f"wrong-key-{marker()}"
    nickname, code = f"Nick{marker()}", "QZXWV"
    requests = {
        403: f"/voila/render/dashboard.ipynb?token={TOKEN}&key={wrong_key}",
        400: f"/voila/render/lesson.ipynb?token={TOKEN}&nickname={nickname}&nickname=Bo",
        404: f"/voila/render/nothing-here.ipynb?token={TOKEN}&nickname={nickname}&room={code}",
    }
    for status, address in requests.items():
        assert browser.request("GET", f"{record_server.url}{address}")[0] == status, address
    back = urllib.parse.quote(f"/voila/render/play.ipynb?token={TOKEN}&room={code}", safe="")
    joining = f"{record_server.url}/dragonkit/join?next={back}"  # the join page's way back to a room's page
    newcomer = Client()
    newcomer.request("GET", f"{record_server.url}/?token={TOKEN}")
    assert newcomer.join(joining, nickname)[0] == 303
    expected = (
        "403 GET /voila/render/dashboard.ipynb?token=[secret]&key=[secret] ",
        "400 GET /voila/render/lesson.ipynb?token=[secret]&nickname=[secret]&nickname=[secret] ",
        "404 GET /voila/render/nothing-here.ipynb?token=[secret]&room=[secret]&nickname=[secret] ",  # the held one
        "POST /dragonkit/join?next=[secret] ",
    )
    deadline = time.monotonic() + 30  # the server writes a request's line once its answer is sent
    while not all(line in (log := record_server.log.read_text(errors="replace")[logged:]) for line in expected):
        assert time.monotonic() < deadline, f"not all of {expected} in the server's log: {log}"
        time.sleep(0.1)
    held = browser.cookie(NICKNAME_COOKIE)
    assert held is not None
    for secret in (TOKEN, wrong_key, nickname, code, held.value):
        assert secret not in log, f"{secret} in the server's log: {log}"


def test_every_line_of_the_log_is_written_without_secrets():
    """Tornado's own lines (an uncaught exception gives its request whole, as ``%r`` of the request) go through the
    same filter as the access log's."""
    line = logging.LogRecord(
        "tornado.application",
        logging.ERROR,
        __file__,
        1,
        "Uncaught exception %s\n%r",
        (
            "GET /voila/render/play.ipynb?token=t0k3n&room=QZXWV&lang=it (127.0.0.1)",
            SimpleNamespace(uri="/voila/render/play.ipynb?token=t0k3n&room=QZXWV&lang=it"),  # the request
        ),
        None,
    )
    assert SecretsHidden().filter(line)
    assert line.getMessage() == (
        "Uncaught exception GET /voila/render/play.ipynb?token=[secret]&room=[secret]&lang=it (127.0.0.1)\n"
        "namespace(uri='/voila/render/play.ipynb?token=[secret]&room=[secret]&lang=it')"
    )
    assert without_secrets("xsrf_token=abc|def&_xsrf=q&teacher_key=k&page=2") == (
        "xsrf_token=[secret]&_xsrf=[secret]&teacher_key=[secret]&page=2"
    )
