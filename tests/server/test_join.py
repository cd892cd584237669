"""The join page (dragonkit.server.join), without a server: only paths of this server are followed, the nickname
held joins the request's query as the browser's own would, and the page is labelled in the visitor's language; then
served by a server with a record (tests/record_server.py): the join page in the page's place, the hold's cookie, and
the nickname held in the kernel's query, a preheated kernel's included; a nickname another browser holds refused until
the teacher releases it."""

from __future__ import annotations

import asyncio
import html
import re
import time
import urllib.parse
import uuid

import pytest
from sqlalchemy import select
from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine
from tornado.websocket import websocket_connect

from dragonkit.record import holds
from dragonkit.record.schema import NicknameHold
from dragonkit.record.store import connect
from dragonkit.server.join import HOLD_DAYS, NICKNAME_COOKIE, join_page, put_in_query, same_server

from ..conftest import voila_server
from ..record_server import TOKEN, Client, joined, marker, write_notebook


@pytest.mark.parametrize("target", ["/voila/render/play.ipynb", "/voila/render/it/01-a.ipynb?lang=it&token=abc", "/"])
def test_a_path_of_this_server_is_followed(target):
    assert same_server(target) == target


@pytest.mark.parametrize(
    "target",
    [
        "https://elsewhere.example/",
        "//elsewhere.example/voila",
        "/\\elsewhere.example",
        "http:/elsewhere.example",
        "voila/render/play.ipynb",
        "",
        "/voila\n/render",
        "javascript:alert(1)",
    ],
)
def test_anything_that_could_leave_the_server_is_refused(target):
    with pytest.raises(ValueError, match="not a path of this server"):
        same_server(target)


@pytest.mark.parametrize(
    "uri, query",
    [
        ("/voila/render/play.ipynb", "nickname=Ada+L."),
        ("/voila/render/play.ipynb?lang=it&view=projector", "lang=it&view=projector&nickname=Ada+L."),
        ("/voila/render/play.ipynb?nickname=Eve&lang=it&nickname=Bo", "lang=it&nickname=Ada+L."),
    ],
)
def test_the_nickname_held_is_the_querys_one_as_if_the_browser_had_asked_it(uri, query):
    request = HTTPServerRequest(
        start_line=RequestStartLine("GET", uri, "HTTP/1.1"), headers=HTTPHeaders({"Host": "127.0.0.1:8866"})
    )
    put_in_query(request, "nickname", "Ada L.")
    assert request.query == query and request.uri == f"/voila/render/play.ipynb?{query}"
    assert request.full_url() == f"http://127.0.0.1:8866/voila/render/play.ipynb?{query}"
    assert request.query_arguments["nickname"] == [b"Ada L."] == request.arguments["nickname"]


@pytest.mark.parametrize(
    "lang, label, kept", [("en", "Your nickname", "Only your nickname is kept"), ("it", "Il tuo soprannome", "solo")]
)
def test_the_join_page_has_one_labelled_field_a_sentence_on_what_is_kept_and_a_button(lang, label, kept):
    page = join_page(lang, "x")
    assert f'<html lang="{lang}">' in page and page.count("<h1>") == 1
    assert f'<label for="nickname">{label}</label>' in page and 'id="nickname" name="nickname"' in page
    assert 'maxlength="24"' in page and "required" in page and kept in page
    assert '<button type="submit">' in page and 'name="_xsrf"' in page and 'method="post"' in page
    assert "aria-invalid" not in page and 'role="alert"' not in page


def test_a_refused_nickname_is_shown_again_with_the_field_marked_and_the_error_read_aloud():
    page = join_page("it", "", given='"><script>', error='Un soprannome non può contenere «"»: usa lettere')
    assert 'aria-invalid="true"' in page and 'role="alert"' in page
    assert "Un soprannome non può contenere «&#34;»: usa lettere" in page
    assert "nickname-error" in page.split('aria-describedby="', 1)[1].split('"', 1)[0]
    assert "<script>" not in page and "&#34;&gt;&lt;script&gt;" in page


# -- served: a server with a record (tests/record_server.py) ---------------------------------------------------------


def test_a_page_without_a_nickname_sends_the_student_to_join_and_back_and_the_kernel_learns_it(record_server):
    """The lesson asked with no nickname answers with the join page (in the page's language; no kernel), whose form
    refuses a nickname that cleans to nothing and a POST without its _xsrf (the kit's page saying the form expired,
    no traceback in the server's log), then sets the cookie and sends the student back; the page's kernel finds the
    nickname in its QUERY_STRING, the record's URL and the class in its environment, and not the teacher's key."""
    student, probe = Client(), marker()
    page = f"{record_server.url}/voila/render/lesson.ipynb?token={TOKEN}&lang=it&probe={probe}"
    status, _, asking = student.request("GET", page)
    assert status == 200 and '<html lang="it">' in asking and "a stand-in page" not in asking
    action = re.search(r'<form method="post" action="([^"]+)"', asking)
    assert action is not None
    join = urllib.parse.urljoin(record_server.url, html.unescape(action[1]))
    asked = urllib.parse.parse_qs(urllib.parse.urlsplit(join).query)
    assert urllib.parse.urlsplit(join).path == "/dragonkit/join" and asked["lang"] == ["it"]
    assert asked["next"] == [page.removeprefix(record_server.url)]
    status, _, form = student.request("GET", join)
    assert status == 200 and '<html lang="it">' in form and '<label for="nickname">Il tuo soprannome</label>' in form

    status, _, refused = student.join(join, " <> ")
    assert status == 400 and "non può contenere «&lt;»" in refused and student.cookie(NICKNAME_COOKIE) is None
    logged = len(record_server.log.read_text(errors="replace"))
    status, _, expired = student.request("POST", join, {"nickname": "Ada L."})  # no _xsrf: forged, or a cookie gone
    assert status == 403 and student.cookie(NICKNAME_COOKIE) is None
    assert '<html lang="it">' in expired and "<h1>Questo modulo è scaduto</h1>" in expired  # the kit's page, not empty
    assert "Traceback" not in record_server.log.read_text(errors="replace")[logged:]  # jupyter_server's page failed

    status, headers, _ = student.join(join, "  Ada   L. ")
    assert status == 303 and headers["Location"] == page.removeprefix(record_server.url)
    cookie = student.cookie(NICKNAME_COOKIE)
    assert cookie is not None and cookie.has_nonstandard_attr("HttpOnly") and not cookie.secure
    assert cookie.expires - time.time() == pytest.approx(HOLD_DAYS * 86400, abs=120)
    assert "Ada" not in cookie.value and len(cookie.value) == 43  # the hold's secret, not the nickname
    with connect(record_server.record).connect() as connection:  # the record keeps its digest only
        kept = connection.execute(select(NicknameHold.digest).where(NicknameHold.nickname == "Ada L.")).scalars()
        assert list(kept) == [holds.digest(cookie.value)]
    status, _, body = student.request("GET", page)
    assert status == 200 and "a stand-in page" in body
    seen = record_server.probe(probe)
    assert "nickname=Ada+L." in seen["QUERY_STRING"] and seen["VOILA_PREHEAT"] == "False"
    assert seen["DRAGONKIT_RECORD"] == record_server.record and seen["DRAGONKIT_CLASS"] == "3B"
    assert seen["DRAGONKIT_TEACHER_KEY"] is None


def test_a_preheated_kernel_learns_the_nickname_with_its_visitors_request(record_server):
    """play.ipynb runs before its visitor comes (the pool): the nickname of the cookie reaches it through Voilà's
    request-info socket, in the same query."""
    student, probe = Client(), marker()
    student.request("GET", f"{record_server.url}/?token={TOKEN}")  # logged in
    join = f"{record_server.url}/dragonkit/join?next=/voila/render/play.ipynb"
    assert student.join(join, "Bo")[0] == 303
    record_server.wait_for_the_pool()
    status, _, body = student.request("GET", f"{record_server.url}/voila/render/play.ipynb?probe={probe}")
    assert status == 200 and "a stand-in page" in body
    seen = record_server.probe(probe)
    assert seen["VOILA_PREHEAT"] == "True" and "nickname=Bo" in seen["QUERY_STRING"]
    assert seen["DRAGONKIT_TEACHER_KEY"] is None and seen["DRAGONKIT_CLASS"] == "3B"


def test_sockets_opened_and_closed_for_a_made_up_kernel_leave_the_preheated_kernel_its_visitors_request(record_server):
    """Voilà's request-info socket asks for no token, and the closing of a socket it did not keep deleted the last
    one it kept, the preheated kernel's: a script opening two sockets for a made-up kernel id and closing them made
    the next visitor's kernel deaf (no nickname, no room's code). The second socket of an id is refused."""

    async def open_and_close() -> str | bytes | None:
        made_up = f"{record_server.url.replace('http', 'ws')}/voila/query/{uuid.uuid4()}"
        first, second = await websocket_connect(made_up), await websocket_connect(made_up)
        try:
            refused = await asyncio.wait_for(second.read_message(), 30)  # None: the server closed it
        except TimeoutError:
            refused = "still open"
        second.close()
        first.close()
        await asyncio.sleep(0.5)  # the server's on_close of both
        return refused

    record_server.wait_for_the_pool()
    refused = asyncio.run(open_and_close())
    student, probe = joined(record_server.url, "Kai"), marker()  # a nickname no other test of the server takes
    status, _, body = student.request("GET", f"{record_server.url}/voila/render/play.ipynb?probe={probe}")
    assert status == 200 and "a stand-in page" in body
    seen = record_server.probe(probe, timeout=60)
    assert seen["VOILA_PREHEAT"] == "True" and "nickname=Kai" in seen["QUERY_STRING"]
    assert refused is None


def test_the_nickname_held_wins_over_one_in_the_address(record_server):
    """A browser that holds "Cy" asks a page as "Di": the kernel is given "Cy", its own, and nothing is written as
    Di (an address names anyone; a hold is the browser's)."""
    student, probe = joined(record_server.url, "Cy"), marker()
    status, _, _ = student.request("GET", f"{record_server.url}/voila/render/lesson.ipynb?nickname=Di&probe={probe}")
    query = urllib.parse.parse_qs(record_server.probe(probe)["QUERY_STRING"])
    assert status == 200 and query["nickname"] == ["Cy"]


def test_a_nickname_in_the_address_of_a_browser_that_holds_none_is_written_in_the_join_page(record_server):
    """A link a teacher sent with ``?nickname=Ed``: the join page, its field holding Ed (no kernel, nothing held)."""
    student = Client()
    student.request("GET", f"{record_server.url}/?token={TOKEN}")
    status, _, page = student.request("GET", f"{record_server.url}/voila/render/lesson.ipynb?nickname=Ed&probe=x")
    assert status == 200 and "a stand-in page" not in page and 'value="Ed"' in page
    assert student.cookie(NICKNAME_COOKIE) is None


def test_a_nickname_another_browser_holds_is_refused_until_the_teacher_releases_it(record_server):
    """Fay's laptop joined as "Fay"; a second browser typing "Fay" is told it is taken (409), holds nothing and starts
    no kernel, whatever its address says; the teacher releases Fay (a student who changed laptops): the first
    browser's pages ask it to join again, and the second browser, joining now, holds Fay and is served as her."""
    first = joined(record_server.url, "Fay")
    second = Client()
    second.request("GET", f"{record_server.url}/?token={TOKEN}")
    join = f"{record_server.url}/dragonkit/join?next=/voila/render/lesson.ipynb"
    status, _, page = second.join(join, "Fay")
    assert status == 409 and "“Fay” is taken in this class by another browser" in page and 'value="Fay"' in page
    assert second.cookie(NICKNAME_COOKIE) is None
    status, _, page = second.request("GET", f"{record_server.url}/voila/render/lesson.ipynb?nickname=Fay&probe=x")
    assert status == 200 and "a stand-in page" not in page and "Join the class" in page

    assert holds.release(connect(record_server.record), "3B", "Fay")
    status, _, page = first.request("GET", f"{record_server.url}/voila/render/lesson.ipynb?probe=x")
    assert status == 200 and "a stand-in page" not in page and "Join the class" in page
    assert "Your teacher released the nickname “Fay” that this browser held" in page and 'value="Fay"' in page
    assert second.join(join, "Fay")[0] == 303
    probe = marker()
    status, _, page = second.request("GET", f"{record_server.url}/voila/render/lesson.ipynb?probe={probe}")
    assert status == 200 and "a stand-in page" in page
    assert urllib.parse.parse_qs(record_server.probe(probe)["QUERY_STRING"])["nickname"] == ["Fay"]
    assert first.join(join, "Fay")[0] == 409  # the first laptop's turn to be told


def test_a_page_left_open_by_a_browser_whose_nickname_was_released_is_ended(record_server):
    """Ivy's old laptop keeps a page open; the teacher releases Ivy: the server shuts that page's kernel down within
    its next look (every 5 s), so that the old tab writes nothing more as Ivy; another student's page goes on."""
    old, other = joined(record_server.url, "Ivy"), joined(record_server.url)
    kernels = []
    for browser in (old, other):
        status, _, page = browser.request("GET", f"{record_server.url}/voila/render/lesson.ipynb?probe={marker()}")
        assert status == 200 and "a stand-in page" in page
        kernels.append(re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)[1])

    def running(kernel: str) -> bool:
        return old.request("GET", f"{record_server.url}/api/kernels/{kernel}?token={TOKEN}")[0] == 200

    assert all(running(kernel) for kernel in kernels)
    assert holds.release(connect(record_server.record), "3B", "Ivy")
    deadline = time.monotonic() + 30
    while running(kernels[0]):
        assert time.monotonic() < deadline, "the released nickname's page still has its kernel"
        time.sleep(0.5)
    assert running(kernels[1])
    assert "page(s) of a nickname the teacher released ended" in record_server.log.read_text(errors="replace")


def test_a_browser_that_joins_with_another_nickname_gives_up_the_one_it_held(record_server):
    browser = joined(record_server.url, "Gil")
    join = f"{record_server.url}/dragonkit/join?next=/"
    assert browser.join(join, "Gil")[0] == 303  # its own again: nothing changes
    assert browser.join(join, "Hal")[0] == 303
    assert joined(record_server.url, "Gil").cookie(NICKNAME_COOKIE) is not None  # free for another browser


@pytest.mark.parametrize(
    ("query", "why"),
    [
        ("nickname=Ada&nickname=%3C%3E", "This address gives more than one nickname: write yours here."),
        ("nickname=Ada&nickname=Ada", "This address gives more than one nickname: write yours here."),
        ("nickname=Zo%C3%AB+%F0%9F%90%89", "A nickname cannot hold “🐉”: use letters, digits, spaces and . &#39; - _"),
    ],
)
def test_an_address_whose_nickname_is_refused_gets_the_join_page_saying_why(record_server, query, why):
    """Two nicknames in an address (the server read the first, the kernel the last: a visit with an empty nickname),
    or one with a character a nickname may not hold (it was kept without it): the join page in the page's place
    (400, before Voilà's handler starts a kernel), saying why, its form sending the student back to the address
    without the nickname; the nickname of the cookie does not stand in for the one refused."""
    student, probe = joined(record_server.url), marker()
    page = f"/voila/render/lesson.ipynb?probe={probe}&{query}&lang=en"
    status, _, answer = student.request("GET", f"{record_server.url}{page}")
    assert status == 400 and "a stand-in page" not in answer and why in answer, answer
    assert 'aria-invalid="true"' in answer
    action = html.unescape(re.search(r'<form method="post" action="([^"]+)"', answer)[1])
    back = urllib.parse.parse_qs(urllib.parse.urlsplit(action).query)["next"][0]
    assert back == f"/voila/render/lesson.ipynb?probe={probe}&lang=en"


@pytest.mark.parametrize(
    "target", ["https://elsewhere.example/", "//elsewhere.example/x", "/\\elsewhere.example", "voila/render/play.ipynb"]
)
def test_the_join_page_sends_nobody_to_another_server(record_server, target):
    student = Client()
    student.request("GET", f"{record_server.url}/?token={TOKEN}")
    join = f"{record_server.url}/dragonkit/join?" + urllib.parse.urlencode({"next": target})
    status, _, page = student.request("GET", join)
    assert status == 400 and "This link does not lead to the kit" in page
    status, headers, _ = student.join(join, "Ada")
    assert status == 400 and "Location" not in headers and student.cookie(NICKNAME_COOKIE) is None


@pytest.mark.browser
def test_without_a_record_no_join_page_and_no_redirection(tmp_path):
    write_notebook(tmp_path / "lesson.ipynb", "print('a lesson')")
    with voila_server(tmp_path, "no-record.log", pool=0) as url:
        client = Client()
        assert client.request("HEAD", f"{url}/voila/render/lesson.ipynb")[0] == 200
        assert client.request("GET", f"{url}/dragonkit/join?next=/")[0] == 404
