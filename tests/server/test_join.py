"""The join page (dragonkit.server.join), without a server: only paths of this server are followed, the nickname
joins the request's query as the browser's own would, and the page is labelled in the visitor's language; then served
by a server with a record (tests/record_server.py): the join page in the page's place, the cookie, and the nickname
in the kernel's query, a preheated kernel's included."""

from __future__ import annotations

import html
import re
import time
import urllib.parse
from email.message import Message

import pytest
from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine

from dragonkit.record.nicknames import NicknameError, NicknameProblem
from dragonkit.server.join import NICKNAME_COOKIE, add_to_query, join_page, same_server

from ..conftest import voila_server
from ..record_server import TOKEN, Client, marker, write_notebook


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
    ],
)
def test_the_nickname_joins_the_query_as_if_the_browser_had_asked_it(uri, query):
    request = HTTPServerRequest(
        start_line=RequestStartLine("GET", uri, "HTTP/1.1"), headers=HTTPHeaders({"Host": "127.0.0.1:8866"})
    )
    add_to_query(request, "nickname", "Ada L.")
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
    page = join_page("it", "", given='"><script>', refused=NicknameError(NicknameProblem.CHARACTER, '"'))
    assert 'aria-invalid="true"' in page and 'role="alert"' in page
    assert "Un soprannome non può contenere «&#34;»: usa lettere, cifre, spazi e . &#39; - _" in page
    assert "nickname-error" in page.split('aria-describedby="', 1)[1].split('"', 1)[0]
    assert "<script>" not in page and "&#34;&gt;&lt;script&gt;" in page
    assert "Scrivi un soprannome da 1 a 24 caratteri." in join_page(
        "it", "", refused=NicknameError(NicknameProblem.EMPTY)
    )


# -- served: a server with a record (tests/record_server.py) ---------------------------------------------------------


def _xsrf(client: Client, server: str) -> str:
    """The ``_xsrf`` field of the join page's form (its cookie kept by ``client``)."""
    status, _headers, page = client.request("GET", f"{server}/dragonkit/join?next=/")
    assert status == 200, page
    return re.search(r'name="_xsrf" value="([^"]+)"', page)[1]


def _join(client: Client, join_url: str, nickname: str) -> tuple[int, Message, str]:
    """Send the join page's form as a browser does: its ``_xsrf`` field and cookie, the nickname."""
    server = join_url.split("/dragonkit/join", 1)[0]
    return client.request("POST", join_url, {"_xsrf": _xsrf(client, server), "nickname": nickname})


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

    status, _, refused = _join(student, join, " <> ")
    assert status == 400 and "non può contenere «&lt;»" in refused and student.cookie(NICKNAME_COOKIE) is None
    logged = len(record_server.log.read_text(errors="replace"))
    status, _, expired = student.request("POST", join, {"nickname": "Ada L."})  # no _xsrf: forged, or a cookie gone
    assert status == 403 and student.cookie(NICKNAME_COOKIE) is None
    assert '<html lang="it">' in expired and "<h1>Questo modulo è scaduto</h1>" in expired  # the kit's page, not empty
    assert "Traceback" not in record_server.log.read_text(errors="replace")[logged:]  # jupyter_server's page failed

    status, headers, _ = _join(student, join, "  Ada   L. ")
    assert status == 303 and headers["Location"] == page.removeprefix(record_server.url)
    cookie = student.cookie(NICKNAME_COOKIE)
    assert cookie is not None and cookie.has_nonstandard_attr("HttpOnly")
    assert cookie.expires - time.time() == pytest.approx(12 * 3600, abs=120)
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
    assert _join(student, join, "Bo")[0] == 303
    record_server.wait_for_the_pool()
    status, _, body = student.request("GET", f"{record_server.url}/voila/render/play.ipynb?probe={probe}")
    assert status == 200 and "a stand-in page" in body
    seen = record_server.probe(probe)
    assert seen["VOILA_PREHEAT"] == "True" and "nickname=Bo" in seen["QUERY_STRING"]
    assert seen["DRAGONKIT_TEACHER_KEY"] is None and seen["DRAGONKIT_CLASS"] == "3B"


def test_a_nickname_in_the_address_wins_over_the_cookie(record_server):
    student, probe = Client(), marker()
    student.request("GET", f"{record_server.url}/?token={TOKEN}")
    assert _join(student, f"{record_server.url}/dragonkit/join?next=/", "Cy")[0] == 303
    status, _, _ = student.request("GET", f"{record_server.url}/voila/render/lesson.ipynb?nickname=Di&probe={probe}")
    query = urllib.parse.parse_qs(record_server.probe(probe)["QUERY_STRING"])
    assert status == 200 and query["nickname"] == ["Di"]


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
    student, probe = Client(), marker()
    student.request("GET", f"{record_server.url}/?token={TOKEN}")
    assert _join(student, f"{record_server.url}/dragonkit/join?next=/", "Cy")[0] == 303
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
    status, headers, _ = _join(student, join, "Ada")
    assert status == 400 and "Location" not in headers and student.cookie(NICKNAME_COOKIE) is None


@pytest.mark.browser
def test_without_a_record_no_join_page_and_no_redirection(tmp_path):
    write_notebook(tmp_path / "lesson.ipynb", "print('a lesson')")
    with voila_server(tmp_path, "no-record.log", pool=0) as url:
        client = Client()
        assert client.request("HEAD", f"{url}/voila/render/lesson.ipynb")[0] == 200
        assert client.request("GET", f"{url}/dragonkit/join?next=/")[0] == 404
