"""How pytest-xdist shares the tests among the workers (``-n auto``), whatever the tests run on.

A notebook's cells are one unit of work: nbval runs them in order in one kernel, so they must all go, together, to
one worker. So must the tests of one module of ``tests/browser/``, which share that module's Chromium and the worker's
Voilà server: every test that drives Chromium or reads a page Voilà serves lives there, one module per page or app
(the play app, the trainer, the lessons' pages, accessibility, the keyboard, small screens, Italian...), so that no
module is long enough to hold the others up. The whole of ``tests/paper/`` goes to one worker too: its modules read
the PDFs that one run of ``dragonkit paper`` prints. And so do the classroom's load tests
(``tests/server/test_classroom.py``), which spend most of their time waiting (for the culling, for a storm's
reloads): one worker takes them one after the other, early, while the others compute; as units of their own they came
last, to the three workers at once, and left the two cores a fifth idle for a minute. Every other test (the rest of
``tests/``, laid out as the package is) is a unit of its own, sent to whichever worker is free.

The units are read from the test ids alone (``notebooks/04-absorbing-chain.ipynb::Cell 3``): pytest-xdist's
``xdist_group`` mark worked by rewriting an item's private ``_nodeid``, which pytest 9.2 no longer reads, and the
cells of one notebook were then spread over the workers (each cell run in a kernel that had not run the ones before).
This file is at the root so that pytest loads it for every path it is given.
"""

from __future__ import annotations

import pytest

#: Test ids under these folders (or of this file) go to a worker a whole file at a time.
WHOLE_FILES = ("notebooks/", "tests/browser/", "tests/server/test_classroom.py")
#: Test ids under these folders go to a worker all together.
WHOLE_FOLDERS = ("tests/paper/",)


def unit_of_work(nodeid: str) -> str:
    """The unit of work of the test ``nodeid``: its folder for a test of :data:`WHOLE_FOLDERS`, its file for a
    notebook's cell or a browser test, else itself."""
    path = nodeid.split("::", 1)[0]
    folder = next((folder for folder in WHOLE_FOLDERS if path.startswith(folder)), None)
    if folder is not None:
        return folder
    if path.endswith(".ipynb") or path.startswith(WHOLE_FILES):
        return path
    return nodeid


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: a worker more than the machine has cores (at most ``--maxprocesses``): the browser and server
    tests spend much of their time waiting for a page or a kernel, while another worker computes."""
    import os

    return (os.cpu_count() or 1) + 1


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """With ``-n``: :func:`unit_of_work`'s units, the largest first (the notebooks with the most cells)."""
    from xdist.scheduler import LoadScopeScheduling

    class UnitScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of_work(nodeid)

    return UnitScheduling(config, log)


def pytest_configure(config):
    """The tests keep their own cache (``tests/artifacts/cache``), never the user's: what the kit computes once per
    machine is computed once per checkout here, and a fresh clone starts with none. Set before pytest-xdist starts
    its workers and before any server, so that they and their kernels share it.

    The win tables missing from it (a few CPU-minutes on a fresh clone) are solved at once by a process of their own,
    as ``dragonkit serve`` does, while the tests that do not need them run; a coach that needs one waits for it
    (``DRAGONKIT_WAIT_FOR_TABLES``) instead of saying that it is being prepared, so that what a test sees never
    depends on how far that process got."""
    import os

    os.environ.setdefault("DRAGONKIT_CACHE", str(config.rootpath / "tests" / "artifacts" / "cache"))
    os.environ["DRAGONKIT_WAIT_FOR_TABLES"] = "1"
    if not hasattr(config, "workerinput") and not config.option.collectonly:  # once, in the main process
        _compile_the_kit(config)
        from dragonkit.analysis.win.model import prepare_in_background

        prepare_in_background(lowest_priority=False, progress=False)


def _compile_the_kit(config) -> None:
    """Compile the kit's modules into their ``__pycache__`` once, before any worker, server or kernel imports them,
    where the environment asks Python to write no bytecode (``PYTHONDONTWRITEBYTECODE``: Docker images set it, and CI's
    machine does). Python still reads bytecode there; it only never writes it, so each of the few hundred kernels,
    servers and commands the tests start would otherwise compile the modules it imports from their source again
    (0.05-0.1 CPU-s a kernel, 0.09 a server). Elsewhere the first process to import a module writes its bytecode."""
    import compileall
    import sys

    if sys.flags.dont_write_bytecode:
        compileall.compile_dir(config.rootpath / "dragonkit", quiet=1)
