"""A preheated kernel meets its visitor (dragonkit.ui.visitor): the play app, built before the page was requested,
switches to the language and the view of the visitor's address once Voilà sends the request."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid

import pytest

from dragonkit import i18n, view
from dragonkit.style import PROJECTOR_CLASS
from dragonkit.ui import PlayApp


@pytest.mark.parametrize(
    "query, lang, projector",
    [("lang=it", "it", False), ("lang=it&view=projector", "it", True), ("view=projector", "en", True)],
)
def test_a_preheated_kernel_switches_to_the_language_and_the_view_of_its_visitor(monkeypatch, query, lang, projector):
    """``dragonkit serve --pool`` runs the page before its visitor comes: the app waits, on the kernel's loop, for
    the request that Voilà's own request-info socket sends once the page is requested."""
    import tornado.web
    from voila.request_info_handler import RequestInfoSocketHandler

    kernel_id = str(uuid.uuid4())  # Voilà's handler keeps a request it could not send, by kernel: one id a case

    async def scenario():
        server = tornado.web.Application([(r"/voila/query/(.*)", RequestInfoSocketHandler)]).listen(0, "127.0.0.1")
        port = next(iter(server._sockets.values())).getsockname()[1]
        monkeypatch.setenv("VOILA_PREHEAT", "True")
        monkeypatch.setenv("VOILA_KERNEL_ID", kernel_id)
        monkeypatch.setenv("VOILA_APP_IP", "127.0.0.1")
        monkeypatch.setenv("VOILA_APP_PORT", str(port))
        monkeypatch.setenv("VOILA_SERVER_URL", "/")
        monkeypatch.setenv("QUERY_STRING", "")
        app = PlayApp()
        assert app.setup_form.start.description == "Start the game"  # built before the visitor came
        assert PROJECTOR_CLASS not in app.widget._dom_classes
        await asyncio.sleep(0.3)
        assert i18n.get_language() == "en" and not view.settings.projector  # still waiting for its visitor
        # the visitor requests the page: Voilà's handler sends the request to the kernel's socket
        RequestInfoSocketHandler.send_updates({"kernel_id": kernel_id, "payload": {"QUERY_STRING": query}})
        for _ in range(300):
            if os.environ["QUERY_STRING"] == query:
                break
            await asyncio.sleep(0.01)
        server.stop()
        return app

    app = asyncio.run(scenario())
    assert os.environ["QUERY_STRING"] == query
    assert i18n.get_language() == lang and app.language.value == lang
    assert app.setup_form.start.description == {"en": "Start the game", "it": "Inizia la partita"}[lang]
    assert view.settings.projector is projector
    assert (PROJECTOR_CLASS in app.widget._dom_classes) is projector
    coach = {("en", False): "Coach", ("it", False): "Allenatore", ("en", True): "Show the coach"}
    assert app.show_coach.description == coach.get((lang, projector), "Mostra l'allenatore")


def test_a_kernel_of_the_play_app_does_not_import_the_jupyter_server():
    """Voilà's ``wait_for_request`` imports the whole Jupyter server (1.8 CPU-seconds a kernel): the app speaks
    the request-info socket itself."""
    code = (
        "import sys; from dragonkit.ui import PlayApp; PlayApp(); print(sorted({m.split('.')[0] for m in sys.modules}))"
    )
    env = {**os.environ, "VOILA_PREHEAT": "True", "VOILA_KERNEL_ID": "x", "VOILA_APP_PORT": "9"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=True)
    loaded = set(json.loads(out.stdout.strip().splitlines()[-1].replace("'", '"')))
    assert not loaded & {"voila", "jupyter_server", "nbconvert", "jupyterlab_server"}
