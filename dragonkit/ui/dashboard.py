"""The teacher's dashboard: the class's record while the class plays, in seven sections with headings — who is
playing now; the rooms (tables students share from their own pages) and their games; the class's reveal-or-hold
decisions over the optimal policy map, by edition and stage; the expected gems they gave up; the class's win rate
against each bot; each exercise's answers; the nicknames the students' browsers hold, each one's releases, and the
control that releases one (a student who changed laptops: the next browser to join with it holds it,
:mod:`dragonkit.record.holds`).

It reads the record of ``$DRAGONKIT_RECORD`` for the class of ``$DRAGONKIT_CLASS`` (:mod:`dragonkit.record.where`)
once as the page is made, so that the page Voilà sends shows the class, and then **updates itself**: every
:data:`UPDATE_SECONDS` a task on the kernel's event loop reads, in a thread of its own (a slow database never freezes
the page), only the rows after the last ones it has (:class:`~dragonkit.topics.class_feed.ClassFeed`); when nothing is
new it redraws nothing, and when rows arrived it says how many in a live region that a screen reader reads when idle
(:mod:`dragonkit.ui.announce`).

The updates start once the browser has drawn the dashboard (the widget's ``_view_count``, which ipywidgets' front end
counts), never while it is still fetching the widgets' state: a kernel that changes its widgets or keeps its event
loop busy drawing figures while the page connects races the front end's handshake (ipywidgets asks every widget's
state on a control channel and, when the kernel has not answered in 4 s, asks again widget by widget), and a page may
then be left without its widgets. A dashboard no browser shows reads nothing after its first read. A database that
cannot be read shows a note, and the next update tries again; never a traceback. Without a record it says so and
offers a simulated class (:mod:`dragonkit.topics.sample_class`), labelled as a sample everywhere it is shown.

It speaks the visitor's language (``?lang=it``; the buttons at the top right switch it, and every section is redrawn
from the numbers it has, without reading the record again), like the play app (:mod:`dragonkit.ui.app`).
"""

from __future__ import annotations

import asyncio
import logging
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import i18n
from ..bots import BotKind
from ..i18n import ntr, tr
from ..i18n.numbers import integer_text
from ..record.where import class_name, record_url
from ..rules import Message
from ..style import CSS
from ..teach import language_picker
from ..teach.notes import close_widgets, mark_view
from ..topics import class_summary as summary
from ..topics.class_feed import ClassFeed, NewRows
from ..topics.editions import edition_label
from ..topics.our_class import SAMPLE_SEED, SAMPLE_STUDENTS  # the lessons' sample: one file in the kit's cache
from .announce import announcement_html, display_page, live_region
from .controls import MessageLine, guarded, running_loop
from .dashboard_tables import render_exercises, render_gems_given_up, render_holds, render_playing, render_rooms
from .figures import FigureView
from .setup import kind_label
from .shown import count_views, when_drawn
from .visitor import follow_the_visitor

__all__ = ["UPDATE_SECONDS", "DashboardApp"]

log = logging.getLogger("dragonkit.ui")

#: Seconds between two reads of the record.
UPDATE_SECONDS = 5.0


class DashboardApp(MessageLine):
    """The teacher's dashboard; displaying it shows :attr:`widget` (Voilà renders it too).

    Parameters
    ----------
    url : str, optional
        The record's SQLAlchemy URL; default ``$DRAGONKIT_RECORD`` (none: the page offers a sample class).
    klass : str, optional
        The class shown; default ``$DRAGONKIT_CLASS``.
    interval : float
        Seconds between two reads of the record once a browser shows the dashboard, while the kernel's event loop
        runs (Jupyter, Voilà); elsewhere :meth:`update` reads it. The first read is made at once, either way.
    language_switch : bool
        Show the English/Italian buttons at the top right.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The whole dashboard.
    feed : ClassFeed or None
        The rows read so far; None without a record until the sample class is asked for.
    picker : ipywidgets.Dropdown
        The edition and stage of the policy map.
    sample_button : ipywidgets.Button
        Shows the sample class (shown only without a record).
    announce : ipywidgets.HTML
        The live region: how many decisions and answers arrived at the last update.
    sections : dict of str to ipywidgets.HTML
        ``playing``, ``map``, ``gems``, ``wins``, ``exercises``: each section's heading and words (the figures are in
        :attr:`map_figure` and :attr:`wins_figure`).
    unreachable : bool
        Whether the last read of the record failed.

    Raises
    ------
    ValueError
        If ``$DRAGONKIT_RECORD`` (or ``url``) is not a database URL.
    """

    def __init__(
        self,
        url: str | None = None,
        klass: str | None = None,
        interval: float = UPDATE_SECONDS,
        language_switch: bool = True,
    ) -> None:
        self.url = record_url() if url is None else url
        self.class_name = class_name() if klass is None else klass
        self.interval = interval
        self.feed: ClassFeed | None = ClassFeed.of_record(self.url, self.class_name) if self.url else None
        self.unreachable = False
        self._closed = False
        self._reads = 0
        self._task: asyncio.Task[None] | None = None
        self._quiet = False  # set while the picker's options are written: not the teacher's choice
        self._last_arrival: tuple[int, int, int] | None = None  # the last update's new rows, for a new language

        self.title = widgets.HTML()
        self.status, self.message = widgets.HTML(), widgets.HTML()
        self.sample_button = widgets.Button(icon="users", button_style="info", layout=widgets.Layout(width="auto"))
        self.sample_button.on_click(lambda _b: self.show_sample())
        self.announce = live_region()
        names = ("playing", "rooms", "map", "gems", "wins", "exercises", "nicknames")
        self.sections = {name: widgets.HTML() for name in names}
        self.release_picker = widgets.Dropdown(
            layout=widgets.Layout(width="auto", min_width="22em"), style={"description_width": "initial"}
        )
        self.release_picker.observe(lambda _change: self._enable_release(), names="value")
        self.release_button = widgets.Button(icon="unlock", layout=widgets.Layout(width="auto"))
        self.release_button.on_click(lambda _b: self.release(self.release_picker.value))
        self.released = widgets.HTML()  # what the last release did, said where the teacher clicked
        self.release_row = widgets.HBox(
            [self.release_picker, self.release_button], layout=widgets.Layout(flex_flow="row wrap")
        )
        self.picker = widgets.Dropdown(layout=widgets.Layout(width="auto"), style={"description_width": "initial"})
        self.picker.observe(self._on_pick, names="value")
        self.map_figure = FigureView("760px")
        self.map_caption = widgets.HTML()
        self.wins_figure = FigureView("720px")
        self.language = language_picker() if language_switch else None
        top = [self.title]
        if self.language is not None:
            self.language.style.button_width = "64px"
            top.append(self.language)
        header = widgets.HBox(top, layout=widgets.Layout(justify_content="space-between", flex_flow="row wrap"))
        self.body = widgets.VBox(
            [
                self.sections["playing"],
                self.sections["rooms"],
                self.sections["map"],
                self.picker,
                self.map_figure,
                self.map_caption,
                self.sections["gems"],
                self.sections["wins"],
                self.wins_figure,
                self.sections["exercises"],
                self.sections["nicknames"],
                self.release_row,
                self.released,
            ]
        )
        self.widget = widgets.VBox(
            [widgets.HTML(CSS), header, self.status, self.sample_button, self.message, self.body, self.announce],
            layout=widgets.Layout(width="1000px", max_width="100%"),
        )
        self.widget.add_class("dk-app")
        self.widget.add_class("dk-dashboard")
        mark_view(self.widget)
        count_views(self.widget)  # the page's updates wait for the browser to draw it
        i18n.settings.observe(self._on_language, names="language")
        follow_the_visitor()
        self._label()
        self._draw()
        if self.feed is not None:
            self.update()  # as the page is made: the page the browser gets shows the class
            self._follow_once_shown()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        """IPython's display hook: the page's script for screen readers, then the dashboard (:func:`display_page`)."""
        display_page(self.widget)

    def close(self) -> None:
        """Stop updating, stop following the language, close the record's connections and every widget; closing
        twice is harmless."""
        if self._closed:
            return
        self._closed = True
        if self._task is not None:
            self._task.cancel()
        i18n.settings.unobserve(self._on_language, names="language")
        if self.feed is not None:
            self.feed.close()
        close_widgets(self.widget)

    # -- reading the record ---------------------------------------------------------------------------------------

    def _follow_once_shown(self) -> None:
        """Read the record every :attr:`interval` seconds on the kernel's event loop, from the moment a browser has
        drawn the dashboard (:func:`~.shown.when_drawn`); without an event loop (a script, a test), nothing:
        :meth:`update` reads it."""
        loop = running_loop()
        if loop is None:
            return

        def start() -> None:
            if self._task is None and not self._closed:
                self._task = loop.create_task(self._keep_reading())

        when_drawn(self.widget, start)

    async def _keep_reading(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closed and self.feed is not None:
            await asyncio.sleep(self.interval)
            feed = self.feed
            if feed is None or self._closed:
                return
            try:
                new = await loop.run_in_executor(None, feed.read)  # the database in a thread: the page never waits
            except Exception as error:  # any failure of the database: a note, and the next update tries again
                self._unreachable(error)
            else:
                if feed is self.feed and not self._closed:
                    self._arrived(new)

    def update(self) -> None:
        """Read the rows that arrived since the last read, and redraw what they change (nothing when nothing is new);
        a record that cannot be read leaves a note, and what was shown stays."""
        if self.feed is None:
            return
        try:
            new = self.feed.read()
        except Exception as error:  # any failure of the database
            self._unreachable(error)
            return
        self._arrived(new)

    def _unreachable(self, error: Exception) -> None:
        if not self.unreachable:
            log.warning("dragonkit: the dashboard cannot read the class's record now (%s); trying again", error)
        self.unreachable = True
        seconds = integer_text(max(1, round(self.interval)))
        self._say(
            Message("The class's record cannot be read right now; trying again every {seconds} s.", seconds=seconds),
            "warning",
        )

    @guarded
    def _arrived(self, new: NewRows) -> None:
        feed = self.feed
        assert feed is not None
        first = self._reads == 0
        if self.unreachable or first:
            self.unreachable = False
            self._say("")  # the note of a record that could not be read, or of the first read
        self._reads += 1
        feed.keep(new)
        counts = (new.count("decisions"), new.count("attempts"), new.count("games"))
        self.sections["playing"].value = self._playing_html()
        self.sections["rooms"].value = self._rooms_html()
        self._draw_nicknames()
        if not any(counts) and not first:
            return  # nothing new: nothing redrawn
        self._last_arrival = counts
        self._draw()
        self._announce(counts, first)

    def show_sample(self) -> None:
        """Show a simulated class of :data:`~dragonkit.topics.our_class.SAMPLE_STUDENTS` students
        (:func:`~dragonkit.topics.sample_class.sample_class`, simulated once per machine), labelled as a sample;
        nothing where the page reads a record."""
        if self.url is not None:
            return
        from ..topics.sample_class import saved_sample_class

        self._say(Message("Simulating a class of {n} students…", n=SAMPLE_STUDENTS), "info")
        self.feed = ClassFeed.of_sample(saved_sample_class(SAMPLE_STUDENTS, SAMPLE_SEED))
        self._say("")
        self._label()
        self.update()
        self.picker.focus()  # the button pressed is gone: the keyboard goes on to the page's first control

    # -- drawing ----------------------------------------------------------------------------------------------------

    @property
    def sample(self) -> bool:
        """Whether the page shows the simulated class."""
        return self.feed is not None and self.feed.sample

    def _heading(self, words: str) -> str:
        """A section's heading, which says "sample class" when the page shows one."""
        text = tr("{heading} (sample class)", heading=words) if self.sample else words
        return f"<h2>{escape(text)}</h2>"

    def _label(self) -> None:
        """The words that do not depend on the record: the title, the status, the button, the picker's label."""
        title = tr("Teacher's dashboard")
        self.title.value = f"<h1>{escape(title)}</h1>"
        self.sample_button.description = tr("Show a sample class")
        self.sample_button.layout.display = "none" if self.url is not None or self.sample else None
        self.picker.description = tr("Edition and stage")
        if self.url is None and not self.sample:
            status = tr(
                "This page has no class record: the kit keeps one when the class plays through its server "
                "(dragonkit serve). You can look at a sample class instead: simulated students, not a real class."
            )
            self.status.value = f'<div class="dk-message dk-info">{escape(status)}</div>'
        elif self.sample:
            status = tr(
                "A sample class: {n} simulated students (the kit's bots with a student's slips), not a real class.",
                n=SAMPLE_STUDENTS,
            )
            self.status.value = f'<div class="dk-message dk-warning"><strong>{escape(status)}</strong></div>'
        else:
            status = tr("Class {name}: the page updates itself while the class plays.", name=self.class_name)
            self.status.value = f'<p class="dk-caption">{escape(status)}</p>'

    def _playing_html(self) -> str:
        feed = self.feed
        if feed is None:
            return ""
        return self._heading(tr("Who is playing now")) + render_playing(feed.playing, feed.now())

    def _rooms_html(self) -> str:
        """The rooms section: the class's rooms and their games (none for a sample class, which has no rooms)."""
        feed = self.feed
        if feed is None or feed.sample:
            return ""
        return self._heading(tr("Rooms")) + render_rooms(feed.rooms, feed.games)

    def _draw(self) -> None:
        """Every section, from the rows held (none without a record: the sections wait for the sample)."""
        feed = self.feed
        shown = feed is not None
        self.body.layout.display = None if shown else "none"
        if feed is None:
            return
        self.sections["playing"].value = self._playing_html()
        self.sections["rooms"].value = self._rooms_html()
        self._draw_map_section()
        self.sections["gems"].value = self._heading(tr("Expected gems given up")) + render_gems_given_up(
            summary.gems_given_up(feed.decisions)
        )
        self._draw_wins()
        self.sections["exercises"].value = self._heading(tr("Exercises")) + render_exercises(
            summary.exercise_summary(feed.attempts)
        )
        self._draw_nicknames()

    def _draw_nicknames(self) -> None:
        """The nicknames section and its release control (neither for a sample class, whose students hold nothing)."""
        feed = self.feed
        shown = feed is not None and not feed.sample
        for part in (self.sections["nicknames"], self.release_row, self.released):
            part.layout.display = None if shown else "none"
        if feed is None or not shown:
            return
        self.sections["nicknames"].value = self._heading(tr("Nicknames")) + render_holds(feed.holds)
        held = sorted(feed.holds.loc[feed.holds["held"].astype(bool), "nickname"]) if len(feed.holds) else []
        kept = self.release_picker.value if self.release_picker.value in held else None
        self.release_picker.options = held
        self.release_picker.value = kept  # none chosen until the teacher chooses: never one they did not pick
        self.release_picker.description = tr("Nickname to release")
        self.release_button.description = tr("Release the nickname")
        self._enable_release()
        self.release_row.layout.display = None if held else "none"

    def _enable_release(self) -> None:
        """The release button works once a nickname is chosen (after a release none is: pressing it twice releases
        one nickname, not the next one in the list)."""
        self.release_button.disabled = self.release_picker.value is None

    def release(self, nickname: str | None) -> bool:
        """Release ``nickname`` in the class (:func:`dragonkit.record.holds.release`): the browser that held it holds
        it no more, and the next browser to join with it holds it. Says what happened beside the control, and reads
        the record again. Nothing for a sample class or no nickname.

        Returns
        -------
        bool
            Whether a hold was released.
        """
        feed = self.feed
        if nickname is None or feed is None or feed.engine is None:
            return False
        from sqlalchemy.exc import SQLAlchemyError

        from ..record.holds import release

        try:
            done = release(feed.engine, self.class_name, nickname)
        except SQLAlchemyError as error:
            self._unreachable(error)
            return False
        if done:
            said = tr(
                "{nickname} released: the next browser to join the class with this nickname holds it.",
                nickname=nickname,
            )
        else:
            said = tr("{nickname} was not held by any browser: nothing to release.", nickname=nickname)
        self.released.value = f'<p class="dk-caption" role="status">{escape(said)}</p>'
        self.release_picker.value = None
        self.update()
        return done

    def _draw_map_section(self) -> None:
        feed = self.feed
        assert feed is not None
        choices = summary.map_choices(feed.choices)
        self.sections["map"].value = self._heading(tr("Decisions over the optimal policy")) + (
            "" if choices else f"<p>{escape(tr('No decision between revealing and holding yet.'))}</p>"
        )
        options = [
            (
                ntr(
                    "{edition}, stage {d}: {n} decision",
                    "{edition}, stage {d}: {n} decisions",
                    n,
                    edition=edition_label(edition),
                    d=stage,
                    n=integer_text(n),
                ),
                (edition, stage),
            )
            for edition, stage, n in choices
        ]
        kept = self.picker.value if any(value == self.picker.value for _, value in options) else None
        self._quiet = True
        try:
            self.picker.options = options
            self.picker.value = kept if kept is not None else (options[0][1] if options else None)
        finally:
            self._quiet = False
        for part in (self.picker, self.map_figure, self.map_caption):
            part.layout.display = None if options else "none"
        self._draw_map()

    def _draw_map(self) -> None:
        from ..plots.class_record import class_map_figure, class_map_text

        feed = self.feed
        if feed is None or self.picker.value is None:
            return
        edition, stage = self.picker.value
        found = summary.class_map(feed.choices, edition, stage)
        self.map_figure.show(class_map_figure(found, self.sample), class_map_text(found, self.sample))
        caption = tr(
            "The map is the optimal policy at a turn's start (a full deck but for the dangers of earlier stages, the "
            "starting gems, the whole treasure). Each decision is judged by its own exact expected gems: later in a "
            "game, with another deck or other gems, the boundary moves, so a mark may disagree with the colour under "
            "it."
        )
        self.map_caption.value = f'<p class="dk-caption">{escape(caption)}</p>'

    def _draw_wins(self) -> None:
        from ..plots.class_record import class_win_rates, class_win_rates_text

        feed = self.feed
        assert feed is not None
        rates = summary.win_rates(feed.games)
        labels = {kind.value: tr(kind_label(kind)) for kind in BotKind if kind is not BotKind.HUMAN}
        heading = self._heading(tr("Win rate against the bots"))
        if rates.empty:
            self.sections["wins"].value = heading + f"<p>{escape(tr('No game against the bots yet.'))}</p>"
            self.wins_figure.layout.display = "none"
            return
        self.sections["wins"].value = heading
        self.wins_figure.layout.display = None
        self.wins_figure.show(
            class_win_rates(rates, labels, sample=self.sample), class_win_rates_text(rates, labels, sample=self.sample)
        )

    def _announce(self, counts: tuple[int, int, int], first: bool, lang: str | None = None) -> None:
        """Say in the live region what the last update brought (a screen reader reads it when idle)."""
        decisions, answers, games = counts
        parts = [
            ntr("{n} decision", "{n} decisions", decisions, lang, n=integer_text(decisions, lang)),
            ntr("{n} answer", "{n} answers", answers, lang, n=integer_text(answers, lang)),
            ntr("{n} game", "{n} games", games, lang, n=integer_text(games, lang)),
        ]
        if first:
            sentence = tr("The class's record so far: {parts}.", lang, parts=", ".join(parts))
        else:
            shown = [part for part, n in zip(parts, counts) if n]
            sentence = tr("New in the class's record: {parts}.", lang, parts=", ".join(shown))
        self.announce.value = announcement_html([sentence], lang)

    def _put_message(self, html: str) -> None:
        self.message.value = html

    @guarded
    def _on_pick(self, _change: object = None) -> None:
        if not self._quiet:
            self._draw_map()

    @guarded
    def _on_language(self, _change: object = None) -> None:
        self._label()
        self._draw()
        self._show_message()
        if self._last_arrival is not None:
            self._announce(self._last_arrival, self._reads <= 1)
