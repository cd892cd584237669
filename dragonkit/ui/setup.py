"""The setup form: how many players, who sits where (a human or which bot), the
names, the edition and the seed; in the current language of :mod:`dragonkit.i18n`,
redrawn when it changes."""

from __future__ import annotations

import contextlib
import functools
import re
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import i18n
from ..bots import Bot, BotKind, make_bot
from ..i18n import N_, tr
from ..rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Message, Ruleset
from ..teach.notes import close_widgets
from ..topics.editions import edition_label

__all__ = ["SEAT_KINDS", "GameConfig", "SeatConfig", "SetupForm", "kind_label"]

#: Seat choices offered in the form, in this order: kind -> label (English, the msgid of its translation).
#: Every kind of :data:`dragonkit.bots.BOTS` is offered (a test checks it).
SEAT_KINDS: dict[BotKind, str] = {
    BotKind.HUMAN: N_("human"),
    BotKind.COACH: N_("coach bot (most gems per turn)"),
    BotKind.WIN: N_("win bot (plays to win the game)"),
    BotKind.THRESHOLD: N_("threshold bot"),
    BotKind.RANDOM: N_("random bot"),
}

#: How the players table and the status line name a kind, where shorter than its label in the form (msgids).
_SHORT_KINDS = {BotKind.COACH: N_("coach bot"), BotKind.WIN: N_("win bot")}

#: The name a seat takes with a bot of these kinds while the user has not typed another (msgids): a name that says
#: the kind must follow it ("Coach" is no name for the win bot).
_KIND_NAMES = {BotKind.COACH: N_("Coach"), BotKind.WIN: N_("Victor")}

#: The seats as the form first shows them: name (a msgid: each language has its own names) and kind.
_DEFAULT_SEATS = [
    ("Alex", BotKind.HUMAN),
    (N_("Coach"), BotKind.COACH),
    ("Tess", BotKind.THRESHOLD),
    ("Randi", BotKind.RANDOM),
    ("Ada", BotKind.THRESHOLD),
    ("Blaise", BotKind.COACH),
]


def kind_label(kind: BotKind) -> str:
    """How the players table and the status line name ``kind``, in English (a msgid, to translate with
    :func:`~dragonkit.i18n.tr`): ``"human"``, ``"coach bot"``, ``"threshold bot"`` ..."""
    return _SHORT_KINDS.get(kind, SEAT_KINDS[kind])


@dataclass(frozen=True)
class SeatConfig:
    """One seat: a name, a kind from :data:`SEAT_KINDS` and, for a threshold
    bot, the pot at which it holds (gems).

    The kind may be given as its value (``"human"``, ``"coach"`` ...): it is kept as a
    :class:`~dragonkit.bots.BotKind`; ValueError for any other.
    """

    name: str
    kind: BotKind = BotKind.HUMAN
    threshold: int = 20

    def __post_init__(self) -> None:
        try:
            kind = BotKind(self.kind)
        except ValueError:
            raise ValueError(
                f"unknown kind of seat {str(self.kind)!r}; choose one of {', '.join(SEAT_KINDS)}"
            ) from None
        object.__setattr__(self, "kind", kind)

    @property
    def is_human(self) -> bool:
        return self.kind is BotKind.HUMAN

    @property
    def label(self) -> str:
        """The kind in short, in English (a msgid): ``"human"``, ``"coach bot"``, ``"threshold bot"`` ..."""
        return kind_label(self.kind)

    def make_bot(self, seed: int) -> Bot | None:
        """The bot for this seat (None for a human)."""
        kind = self.kind
        if kind is BotKind.HUMAN:
            return None
        if kind is BotKind.THRESHOLD:
            return make_bot(kind, threshold=self.threshold)
        if kind is BotKind.RANDOM:
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


def _width(width: str) -> widgets.Layout:
    """A field's layout: ``width`` (CSS), never wider than the page (at 200 % zoom, on a phone)."""
    return widgets.Layout(width=width, max_width="100%")


class SetupForm(widgets.VBox):
    """The form shown before a game.  :meth:`config` reads it.

    Its labels, options and placeholder are in the current language of
    :mod:`dragonkit.i18n` and follow it when it changes; so do the default names
    of the seats, until the user types another name.

    Parameters
    ----------
    on_start : callable, optional
        Called with no argument when the Start button is clicked.
    """

    def __init__(self, on_start: Callable[[], None] | None = None, **kwargs: Any) -> None:
        self.n_players = widgets.Dropdown(
            options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=3, layout=_width("160px")
        )
        self.preset = widgets.Dropdown(
            options=[(edition_label(p), p) for p in PRESETS], value="dragon-stripes", layout=_width("260px")
        )
        self.seed = widgets.Text(value="", layout=_width("220px"))
        self.seed.add_class("dk-seed")
        self.names, self.kinds, self.thresholds, self.rows = [], [], [], []
        self._relabelling = False  # the kinds' options rewritten in another language: no kind changes
        self._naming = False  # the form writes a name: not the user's
        self._typed = [False] * len(_DEFAULT_SEATS)  # seats whose name the user typed: the form never rewrites it
        for seat, (name, kind) in enumerate(_DEFAULT_SEATS):
            name_w = widgets.Text(value=tr(name), layout=_width("240px"))
            kind_w = widgets.Dropdown(options=self._kind_options(), value=kind, layout=_width("340px"))
            thr_w = widgets.BoundedIntText(
                value=20 if seat != 4 else 12,
                min=0,
                max=10_000,
                style={"description_width": "initial"},
                layout=_width("210px"),
            )
            kind_w.add_class("dk-sr-label")  # named for screen readers; the row shows whose seat it is
            kind_w.observe(self._update_rows, names="value")
            kind_w.observe(functools.partial(self._follow_kind, seat), names="value")
            name_w.observe(functools.partial(self._on_typed, seat), names="value")
            self.names.append(name_w)
            self.kinds.append(kind_w)
            self.thresholds.append(thr_w)
            self.rows.append(widgets.HBox([name_w, kind_w, thr_w], layout=widgets.Layout(flex_flow="row wrap")))
        self.start = widgets.Button(button_style="success", icon="play", layout=_width("200px"))
        self.start.add_class("dk-start")
        if on_start is not None:
            self.start.on_click(lambda _button: on_start())
        self.n_players.observe(self._update_rows, names="value")
        self.preset.observe(self._update_rows, names="value")
        self.intro = widgets.HTML()
        self.note = widgets.HTML()  # where the win bot plays as the coach
        self.message = widgets.HTML()
        super().__init__(
            [
                self.intro,
                widgets.HBox([self.n_players, self.preset, self.seed], layout=widgets.Layout(flex_flow="row wrap")),
                *self.rows,
                self.note,
                self.start,
                self.message,
            ],
            **kwargs,
        )
        self.add_class("dk-setup")
        self._label()
        self._update_rows()
        i18n.settings.observe(self._on_language, names="language")
        self._following = True

    def close(self) -> None:
        """Stop following the language and close the form with all its fields; closing twice is harmless."""
        if getattr(self, "_following", False):
            self._following = False
            with contextlib.suppress(ValueError):  # removed already: nothing left to stop
                i18n.settings.unobserve(self._on_language, names="language")
        children = self.children
        super().close()
        for child in children:
            close_widgets(child)

    @staticmethod
    def _kind_options() -> list[tuple[str, BotKind]]:
        return [(tr(label), kind) for kind, label in SEAT_KINDS.items()]

    def _label(self) -> None:
        """Write every label, option and placeholder in the current language."""
        self.intro.value = (
            "<h2>Dragon Stripes</h2><p>"
            + escape(
                tr(
                    "Choose the players: each seat is a human (hot seat) or a bot. The seed "
                    "makes a game repeatable; leave it empty for a fresh shuffle."
                )
            )
            + "</p>"
        )
        self.n_players.description = tr("players")
        self.preset.description = tr("edition")
        edition = self.preset.value
        with self.preset.hold_sync():  # the editions' names in the language, the same edition chosen
            self.preset.options = [(edition_label(p), p) for p in PRESETS]
            self.preset.value = edition
        self.seed.description = tr("seed")
        self.seed.placeholder = tr("random")
        self.start.description = tr("Start the game")
        options = self._kind_options()
        for seat, (name_w, kind_w, thr_w) in enumerate(zip(self.names, self.kinds, self.thresholds)):
            name_w.description = tr("seat {n}", n=seat + 1)
            kind_w.description = tr("who plays seat {n}", n=seat + 1)
            thr_w.description = tr("holds at (gems)")
            kind = kind_w.value  # new options select the first one: keep the chosen kind
            self._relabelling = True
            try:
                with kind_w.hold_sync():  # the browser receives the new labels and the same choice at once
                    kind_w.options = options
                    kind_w.value = kind
            finally:
                self._relabelling = False
        self._write_note()

    def _on_language(self, change: Mapping[str, Any]) -> None:
        for seat in range(len(self.names)):  # a name the form wrote follows the language
            if not self._typed[seat]:
                for old, new in zip(self._form_names(seat, change["old"]), self._form_names(seat, change["new"])):
                    if self.names[seat].value == old:
                        self._name(seat, new)
                        break
        self._label()

    def _on_typed(self, seat: int, _change: Mapping[str, Any]) -> None:
        if not self._naming:
            self._typed[seat] = True

    def _name(self, seat: int, name: str) -> None:
        self._naming = True
        try:
            self.names[seat].value = name
        finally:
            self._naming = False

    @staticmethod
    def _form_names(seat: int, lang: str | None = None) -> list[str]:
        """The names the form may give a seat, in ``lang``: its default, then the names that say a kind (the kinds'
        own, and "Player n")."""
        names = [_DEFAULT_SEATS[seat][0], *_KIND_NAMES.values()]
        return [tr(name, lang) for name in names] + [tr("Player {n}", lang, n=seat + 1)]

    def _follow_kind(self, seat: int, change: Mapping[str, Any]) -> None:
        """A name that says the seat's kind ("Coach", or "Player n"), as the form wrote it, follows a new kind: the
        seat's default name for its default kind, else the kind's own name, else the seat's default name if it names
        no kind, else "Player n".  A person's name ("Ada") and a name the user typed stay."""
        default, default_kind = _DEFAULT_SEATS[seat]
        if self._relabelling or self._typed[seat] or self.names[seat].value not in self._form_names(seat)[1:]:
            return
        new = change["new"]
        if new == default_kind or (new not in _KIND_NAMES and default not in _KIND_NAMES.values()):
            name = tr(default)
        else:
            name = tr(_KIND_NAMES[new]) if new in _KIND_NAMES else tr("Player {n}", n=seat + 1)
        self._name(seat, name)

    def _write_note(self) -> None:
        """Say where a seated win bot cannot play to win: with more than two players it plays as the coach bot
        (:class:`~dragonkit.bots.WinBot`)."""
        shown = self.n_players.value if self.n_players.value in self.n_players.options else MIN_PLAYERS
        seated = any(k.value is BotKind.WIN for k in self.kinds[:shown])
        if not seated or self.preset.value not in PRESETS:
            self.note.value = ""
            return
        text = ""
        if shown > 2:
            text = tr(
                "With more than two players the win bot plays as the coach bot: the kit computes chances of winning "
                "for two players only."
            )
        self.note.value = f'<div class="dk-message dk-info">{escape(text)}</div>' if text else ""

    def _update_rows(self, _change: object = None) -> None:
        shown = self.n_players.value if self.n_players.value in self.n_players.options else MIN_PLAYERS
        for seat, row in enumerate(self.rows):
            row.layout.display = None if seat < shown else "none"
            is_threshold = self.kinds[seat].value is BotKind.THRESHOLD
            # gone, not only hidden: on a narrow page, where the rows wrap, it would leave an empty line
            self.thresholds[seat].layout.display = None if is_threshold else "none"
        self._write_note()

    def config(self) -> GameConfig:
        """The configuration the form describes.

        Raises
        ------
        ValueError
            For a seed that is not a whole number, or empty or repeated names; raised with a
            :class:`~dragonkit.rules.Message`, so that the app can show it in any language.
        """
        text = self.seed.value.strip()
        if text and not re.fullmatch(r"[0-9]{1,18}", text):
            raise ValueError(
                Message(
                    "the seed must be a whole number from 0, of at most 18 digits (or empty for a random one), "
                    "not {value}",
                    value=reprlib.repr(text),
                )
            )
        if self.n_players.value not in self.n_players.options:
            raise ValueError(Message("choose {min} to {max} players", min=MIN_PLAYERS, max=MAX_PLAYERS))
        if self.preset.value not in PRESETS:
            raise ValueError(Message("choose an edition among {editions}", editions=", ".join(PRESETS)))
        for seat in range(self.n_players.value):
            if self.kinds[seat].value not in SEAT_KINDS:
                raise ValueError(Message("choose who plays seat {seat}: a human or a bot", seat=seat + 1))
        seats = tuple(
            SeatConfig(self.names[i].value.strip(), self.kinds[i].value, int(self.thresholds[i].value))
            for i in range(self.n_players.value)
        )
        for seat, config in enumerate(seats, start=1):
            if not config.name:
                raise ValueError(Message("seat {seat} needs a name", seat=seat))
        names = [s.name for s in seats]
        if len({n.casefold() for n in names}) != len(names):
            raise ValueError(Message("each player needs a different name"))
        return GameConfig(seats=seats, preset=self.preset.value, seed=int(text) if text else None)
