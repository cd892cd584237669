"""The setup form: how many players, who sits where (a human or which bot), the
names, the edition and the seed."""

from __future__ import annotations

import re
import reprlib
from dataclasses import dataclass

import ipywidgets as widgets

from ..bots import Bot, make_bot
from ..rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Ruleset

__all__ = ["SeatConfig", "GameConfig", "SetupForm", "SEAT_KINDS"]

#: Seat choices offered in the form: label -> bot kind (None for a human).
SEAT_KINDS = {
    "human": None,
    "coach bot (exact optimum)": "coach",
    "threshold bot": "threshold",
    "random bot": "random",
}

_DEFAULT_SEATS = [
    ("Alex", "human"),
    ("Coach", "coach bot (exact optimum)"),
    ("Tess", "threshold bot"),
    ("Randi", "random bot"),
    ("Ada", "threshold bot"),
    ("Blaise", "coach bot (exact optimum)"),
]


@dataclass(frozen=True)
class SeatConfig:
    """One seat: a name, a kind from :data:`SEAT_KINDS` and, for a threshold
    bot, the pot at which it holds (gems)."""

    name: str
    kind: str = "human"
    threshold: int = 20

    @property
    def is_human(self) -> bool:
        return SEAT_KINDS.get(self.kind) is None

    def make_bot(self, seed: int) -> Bot | None:
        """The bot for this seat (None for a human)."""
        kind = SEAT_KINDS[self.kind]
        if kind is None:
            return None
        if kind == "threshold":
            return make_bot(kind, threshold=self.threshold)
        if kind == "random":
            return make_bot(kind, seed=seed)
        return make_bot(kind)


@dataclass(frozen=True)
class GameConfig:
    """Everything needed to start a game from the form."""

    seats: tuple[SeatConfig, ...]
    preset: str = "dragon-stripes"
    seed: int | None = None

    @property
    def rules(self) -> Ruleset:
        return Ruleset.preset(self.preset)


class SetupForm(widgets.VBox):
    """The form shown before a game.  :meth:`config` reads it.

    Parameters
    ----------
    on_start : callable, optional
        Called with no argument when the Start button is clicked.
    """

    def __init__(self, on_start=None, **kwargs):
        self.n_players = widgets.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=3,
                                          description="players", layout=widgets.Layout(width="160px"))
        self.preset = widgets.Dropdown(options=list(PRESETS), value="dragon-stripes", description="edition",
                                       layout=widgets.Layout(width="260px"))
        self.seed = widgets.Text(value="", placeholder="random", description="seed",
                                 layout=widgets.Layout(width="220px"))
        self.names, self.kinds, self.thresholds, self.rows = [], [], [], []
        for seat, (name, kind) in enumerate(_DEFAULT_SEATS):
            name_w = widgets.Text(value=name, description=f"seat {seat + 1}", layout=widgets.Layout(width="240px"))
            kind_w = widgets.Dropdown(options=list(SEAT_KINDS), value=kind, layout=widgets.Layout(width="230px"))
            thr_w = widgets.BoundedIntText(value=20 if seat != 4 else 12, min=0, max=10_000, description="holds at",
                                           layout=widgets.Layout(width="150px"))
            kind_w.observe(self._update_rows, names="value")
            self.names.append(name_w)
            self.kinds.append(kind_w)
            self.thresholds.append(thr_w)
            self.rows.append(widgets.HBox([name_w, kind_w, thr_w]))
        self.start = widgets.Button(description="Start the game", button_style="success", icon="play",
                                    layout=widgets.Layout(width="200px"))
        if on_start is not None:
            self.start.on_click(lambda _button: on_start())
        self.n_players.observe(self._update_rows, names="value")
        intro = widgets.HTML(
            "<h2>Dragon Stripes</h2><p>Choose the players: each seat is a human (hot seat) or a bot. "
            "The seed makes a game repeatable; leave it empty for a fresh shuffle.</p>"
        )
        self.message = widgets.HTML()
        super().__init__(
            [intro, widgets.HBox([self.n_players, self.preset, self.seed]), *self.rows, self.start, self.message],
            **kwargs,
        )
        self.add_class("dk-setup")
        self._update_rows()

    def _update_rows(self, _change=None) -> None:
        shown = self.n_players.value if self.n_players.value in self.n_players.options else MIN_PLAYERS
        for seat, row in enumerate(self.rows):
            row.layout.display = None if seat < shown else "none"
            is_threshold = SEAT_KINDS.get(self.kinds[seat].value) == "threshold"
            self.thresholds[seat].layout.visibility = "visible" if is_threshold else "hidden"

    def config(self) -> GameConfig:
        """The configuration the form describes.

        Raises
        ------
        ValueError
            For a seed that is not a whole number, or empty or repeated names.
        """
        text = self.seed.value.strip()
        if text and not re.fullmatch(r"[0-9]{1,18}", text):
            raise ValueError(f"the seed must be a whole number of at most 18 digits (or empty for a random one), "
                             f"not {reprlib.repr(text)}")
        if self.n_players.value not in self.n_players.options:
            raise ValueError(f"choose {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if self.preset.value not in PRESETS:
            raise ValueError(f"choose an edition among {', '.join(PRESETS)}")
        for seat in range(self.n_players.value):
            if self.kinds[seat].value not in SEAT_KINDS:
                raise ValueError(f"choose who plays seat {seat + 1}: {', '.join(SEAT_KINDS)}")
        seats = tuple(
            SeatConfig(self.names[i].value.strip(), self.kinds[i].value, int(self.thresholds[i].value))
            for i in range(self.n_players.value)
        )
        for seat, config in enumerate(seats, start=1):
            if not config.name:
                raise ValueError(f"seat {seat} needs a name")
        names = [s.name for s in seats]
        if len({n.casefold() for n in names}) != len(names):
            raise ValueError("each player needs a different name")
        return GameConfig(seats=seats, preset=self.preset.value, seed=int(text) if text else None)
