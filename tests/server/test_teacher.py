"""The teacher's key (dragonkit.server.teacher): without a server, what a key is, that it leaves the environment,
which page is the teacher's, and the page everyone else gets; then the guard of a server (tests/record_server.py)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import psutil
import pytest

from dragonkit.server.teacher import (
    KEY_COOKIE,
    TEACHER_KEY_FD,
    TeacherKey,
    checked_key,
    is_dashboard,
    new_key,
    take_key,
    teacher_page,
    write_key,
)

from ..record_server import KEY, TOKEN, Client


def test_a_new_key_is_a_key_and_a_bad_one_is_refused():
    assert checked_key(new_key()) and new_key() != new_key()
    assert checked_key("x" * 16) == "x" * 16
    for bad in ("short", "fifteen-chars-1", "with space in it", "x" * 129, "ключ-учителя-для-класса"):
        with pytest.raises(ValueError, match="16 to 128 letters"):
            checked_key(bad)
    with pytest.raises(ValueError):
        TeacherKey("short")


def test_the_key_comes_through_a_pipe_read_once():
    """The key is read from the pipe whose descriptor the environment names, which is closed: no kernel the server
    starts later finds either; a variable that is no descriptor, or a pipe that holds no key, is refused."""
    pipe = write_key("teacher-key-0001")
    environ = {TEACHER_KEY_FD: str(pipe), "HOME": "/home/t"}
    assert take_key(environ) == "teacher-key-0001"
    assert environ == {"HOME": "/home/t"}
    with pytest.raises(OSError):
        os.fstat(pipe)  # closed
    assert take_key(environ) is None
    with pytest.raises(ValueError, match="file descriptor"):
        take_key({TEACHER_KEY_FD: "three"})
    read, write = os.pipe()
    os.write(write, b"bad key")
    os.close(write)
    with pytest.raises(ValueError, match="16 to 128"):
        take_key({TEACHER_KEY_FD: str(read)})
    with pytest.raises(ValueError):
        write_key("short")


def test_the_servers_key_is_in_no_environment_and_no_command_line(record_server):
    """Neither the server nor any kernel it started holds the key in its environment or its command line, which any
    process of the same user may read (``/proc/<pid>/environ``: a variable the server took out stayed readable
    there); the dashboard opens with it all the same (tests/server/test_teacher.py, below)."""
    server = psutil.Process(record_server.pid)
    for process in [server, *server.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            assert KEY not in Path(f"/proc/{process.pid}/environ").read_bytes().decode(errors="replace"), process
            assert KEY not in " ".join(process.cmdline()), process


def test_the_key_opens_and_its_cookie_is_not_the_key():
    key = TeacherKey("teacher-key-0001")
    assert key.opens("teacher-key-0001") and not key.opens("teacher-key-0002") and not key.opens(None)
    assert not key.opens("chiave-è")  # not ASCII: refused, not an error
    assert key.knows(key.cookie()) and "teacher-key-0001" not in key.cookie()
    assert not key.knows(TeacherKey("teacher-key-0002").cookie()) and not key.knows(None) and not key.knows("")
    assert "teacher-key-0001" not in repr(key)


def test_a_teachers_cookie_opens_for_this_run_and_12_hours_only():
    """The cookie was a fixed digest of the key: valid on every later day the same key was used, by any server."""
    key, now = TeacherKey("teacher-key-0001"), 1_800_000_000
    cookie = key.cookie(now)
    assert key.knows(cookie, now) and key.knows(cookie, now + 12 * 3600)
    assert not key.knows(cookie, now + 12 * 3600 + 1)  # kept too long by the browser
    assert not key.knows(cookie, now - 3600)  # made in the future
    assert not TeacherKey("teacher-key-0001").knows(cookie, now)  # the same key, another run of the server
    made, digest = cookie.split(".")
    assert not key.knows(f"{int(made) + 3600}.{digest}", now + 3600)  # its time moved on by hand
    last = "1" if digest.endswith("0") else "0"  # the digest is random per run: one in 16 already ends in "0"
    for forged in ("", ".", "x.y", f"{made}.", f"-{made}.{digest}", digest, f"{made}.{digest[:-1]}{last}"):
        assert not key.knows(forged, now), forged


@pytest.mark.parametrize(
    "path, teachers",
    [
        ("dashboard.ipynb", True),
        ("it/dashboard.ipynb", True),
        ("Dashboard.IPYNB", True),  # the same file on a case-insensitive disk
        ("it/../dashboard.ipynb", True),
        ("play.ipynb", False),
        ("dashboard.ipynb.bak", False),
        ("", False),
    ],
)
def test_the_dashboard_is_the_teachers_page_in_any_folder(path, teachers):
    assert is_dashboard(path) is teachers


@pytest.mark.parametrize(
    "query, lang, title",
    [("", "en", "This page is the teacher&#39;s"), ("lang=it", "it", "Questa pagina è dell&#39;insegnante")],
)
def test_everyone_else_gets_a_page_that_says_whose_it_is_and_how_a_teacher_opens_it(query, lang, title):
    page = teacher_page({"QUERY_STRING": query})
    assert f'<html lang="{lang}">' in page and f"<h1>{title}</h1>" in page
    assert "?key=" in page and "dragonkit serve" in page


# -- served: the guard of a server with a record, a token and a teacher's key (tests/record_server.py) ---------------


def test_the_dashboard_opens_with_the_teachers_key_and_then_its_cookie_and_with_nothing_else(record_server):
    """Without the key (the students' token alone, a wrong key, an empty one) the dashboard answers 403 with the
    teacher's page in the visitor's language, HEAD as GET, and starts no kernel; with the key, a cookie (HttpOnly)
    and the same address without the key; then the page, and later the cookie alone opens it. The teacher is never
    asked a nickname."""
    dashboard = f"{record_server.url}/voila/render/dashboard.ipynb"
    ran = record_server.dashboards_run()  # by the worker's earlier tests on the same server
    student = Client()
    for query, title in (
        (f"token={TOKEN}", "This page is the teacher&#39;s"),
        (f"token={TOKEN}&lang=it", "Questa pagina è dell&#39;insegnante"),
        (f"token={TOKEN}&key=wrong-key-123", "This page is the teacher&#39;s"),
        (f"token={TOKEN}&key=", "This page is the teacher&#39;s"),
        (f"token={TOKEN}&key={KEY.upper()}", "This page is the teacher&#39;s"),
    ):
        status, headers, page = student.request("GET", f"{dashboard}?{query}")
        assert status == 403 and f"<h1>{title}</h1>" in page, query
        assert headers["Cache-Control"] == "no-store"
    assert student.request("HEAD", f"{dashboard}?token={TOKEN}")[:3:2] == (403, "")
    assert student.cookie(KEY_COOKIE) is None and record_server.dashboards_run() == ran

    teacher = Client()
    status, headers, _ = teacher.request("GET", f"{dashboard}?token={TOKEN}&lang=it&key={KEY}")
    assert status == 302 and headers["Location"] == f"/voila/render/dashboard.ipynb?token={TOKEN}&lang=it"
    cookie = teacher.cookie(KEY_COOKIE)
    assert cookie is not None and cookie.has_nonstandard_attr("HttpOnly") and KEY not in cookie.value
    status, _, page = teacher.request("GET", record_server.url + headers["Location"])
    assert status == 200 and "stand-in dashboard" in page
    assert record_server.dashboards_run() == ran + 1
    assert teacher.request("HEAD", dashboard)[:3:2] == (200, "")
    status, _, page = teacher.request("GET", dashboard)
    assert status == 200 and record_server.dashboards_run() == ran + 2
