"""The play app driven inside a real IPython kernel, as Voilà runs it."""

from __future__ import annotations

import json

import pytest

jupyter_client = pytest.importorskip("jupyter_client")

CODE = r"""
import json
from dragonkit.ui import GameConfig, PlayApp, SeatConfig
app = PlayApp(bot_delay=0.01, config=GameConfig(
    seats=(SeatConfig("Ann", "human"), SeatConfig("Bot", "threshold")), preset="mini", seed=1))
game = app.game
app.buttons["hold"].click()                      # illegal at the start of a turn
refused = "must reveal" in app.message.value and not game.actions
app.buttons["reveal"].click()
if game.phase.value == "choose":
    app._last_click = (None, 0.0)
    app.buttons["hold"].click()
print(json.dumps({"refused": refused, "actions": len(game.actions), "board": "<svg" in app.board.value,
                  "bot_to_move": not game.is_over and app.bots[game.to_move] is not None}))
"""

WAIT = r"""
import asyncio, json
for _ in range(400):                             # the bots play by themselves on the kernel's event loop
    if app.game.is_over or app.bots[app.game.to_move] is None:
        break
    await asyncio.sleep(0.01)
print(json.dumps({"actions": len(app.game.actions),
                  "bot_waits": app.game.is_over or app.bots[app.game.to_move] is None}))
"""


def _run(client, code: str) -> dict:
    lines = []

    def collect(msg):
        if msg["msg_type"] == "stream":
            lines.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            lines.append("ERROR " + msg["content"]["ename"] + ": " + msg["content"]["evalue"])

    reply = client.execute_interactive(code, timeout=120, output_hook=collect)
    assert reply["content"]["status"] == "ok", "".join(lines)
    return json.loads("".join(lines).strip().splitlines()[-1])


@pytest.mark.slow
def test_play_app_in_a_kernel():
    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    try:
        first = _run(client, CODE)
        assert first == {"refused": True, "actions": 2, "board": True, "bot_to_move": True}
        later = _run(client, WAIT)
        assert later["bot_waits"] and later["actions"] > first["actions"]  # the bot moved on its own
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


PROGRESS = r"""
from dragonkit.simulate import round_robin
result = round_robin(["threshold:10", "random"], 30, seed=1, progress=True)
print(int(result.standings["games"].sum()))
"""


@pytest.mark.slow
def test_tournament_progress_bar_is_a_widget_in_a_kernel():
    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    mimes = []
    try:
        reply = client.execute_interactive(
            PROGRESS,
            timeout=120,
            output_hook=lambda msg: (
                mimes.extend(msg["content"].get("data", {})) if msg["msg_type"] == "display_data" else None
            ),
        )
        assert reply["content"]["status"] == "ok"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert "application/vnd.jupyter.widget-view+json" in mimes  # tqdm.auto chose the notebook bar


RECORDED = r"""
import asyncio, json
from dragonkit.record import session
from dragonkit.ui import GameConfig, PlayApp, SeatConfig
app = PlayApp(bot_delay=0.01, config=GameConfig(
    seats=(SeatConfig("Ann", "human"), SeatConfig("Bot", "threshold")), preset="mini", seed=1))
clicks = 0
while not app.game.is_over and clicks < 12:
    if app.bots[app.game.to_move] is None:
        app._last_click = (None, 0.0)
        app.buttons["reveal" if "reveal" in {a.value for a in app.game.legal_actions()} else "decline"].click()
        clicks += 1
    await asyncio.sleep(0.02)                    # the record's rows, then the bots, on the kernel's event loop
beating = app._recorder.visit._heartbeat is not None
print(json.dumps({"clicks": clicks, "written": session.flush(), "heartbeat": beating}))
"""


@pytest.mark.slow
def test_the_play_app_in_a_kernel_writes_to_the_record(recording):
    """The kernel inherits the record's URL (``dragonkit serve`` gives it): its visit keeps a heartbeat on the event
    loop, and each click's row is written after the click."""
    from dragonkit.record import reading
    from dragonkit.record.store import connect

    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    try:
        done = _run(client, RECORDED)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert done["written"] and done["heartbeat"] and done["clicks"] >= 1
    engine = connect(recording)
    decisions = reading.decisions(engine)
    assert len(decisions) == done["clicks"] and set(decisions.nickname) == {"Ada"}
    assert list(reading.present(engine, "3B").page) == ["play"]


CLICKABLE = r"""
import json
from dragonkit.ui import GameConfig, PlayApp, SeatConfig
app = PlayApp(bot_delay=0.01, config=GameConfig(
    seats=(SeatConfig("Ann", "human"), SeatConfig("Bot", "threshold")), preset="mini", seed={seed}))
print(json.dumps({{"reveal": app.buttons["reveal"].model_id}}))
"""

REVEALS = r"""
import json
print(json.dumps({"reveals": sum(a.value == "reveal" for a in app.game.actions)}))  # all Ann's: her turn goes on
"""


def _three_safe_reveals(seed: int) -> bool:
    """Whether Ann, the first to move, can reveal three cards in a row in ``seed``'s game (the turn still hers)."""
    from dragonkit.engine import Action, Game
    from dragonkit.rules import Ruleset

    game = Game(("Ann", "Bot"), Ruleset.preset("mini"), seed=seed)
    for _ in range(3):
        if game.to_move != 0 or Action.REVEAL not in game.legal_actions():
            return False
        game.apply(Action.REVEAL, by=0)
    return game.to_move == 0


@pytest.mark.slow
def test_a_double_click_is_told_by_the_browsers_clock_not_by_the_kernels():
    """Two clicks on Reveal that a browser made a second apart are two reveals, even when the kernel (busy) handles
    them one right after the other; two made 0.1 s apart are a double click: one reveal. The clicks are sent as
    ipywidgets' front end sends them, a ``comm_msg`` whose header's ``date`` is the browser's clock."""
    from datetime import UTC, datetime, timedelta

    from ..room_decks import first_seed

    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    try:
        button = _run(client, CLICKABLE.format(seed=first_seed(_three_safe_reveals)))["reveal"]
        start = datetime.now(UTC)

        def click(after: float) -> None:
            content = {"comm_id": button, "data": {"method": "custom", "content": {"event": "click"}}}
            message = client.session.msg("comm_msg", content)
            message["header"]["date"] = start + timedelta(seconds=after)
            client.shell_channel.send(message)

        click(0.0)
        click(1.0)  # sent at once: the kernel handles it right after the first, though it was made a second later
        assert _run(client, REVEALS) == {"reveals": 2}
        click(2.0)
        click(2.1)  # the second half of a double click
        assert _run(client, REVEALS) == {"reveals": 3}
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
