"""The kit's one stylesheet (the apps, the hand trainer, the exercises and the lesson widgets), sent once
per view as an HTML widget: ``widgets.HTML(CSS)`` as the first child of a composite widget.

Its ``@media print`` rules make any page printed from the browser come out whole and clean: Voilà's page is a
window-high panel that scrolls (a printout would stop at the first screen), so on paper it grows with its content;
what only a screen can use goes (the language links and switch, the buttons, the headings' anchors, the folded
tables of a figure's numbers); text is black on white, a figure, a table or an exercise is not cut across two
pages, and a link to another site shows its address.

It lives below every view package (:mod:`dragonkit.teach`, :mod:`dragonkit.ui`, :mod:`dragonkit.lessons`),
so each of them can style its widgets without importing another.

It draws the projector's view too (:mod:`dragonkit.view`): on a page where a widget carries
:data:`PROJECTOR_CLASS` (:func:`dragonkit.teach.notes.mark_view`), every cell of the page, prose and widgets alike,
is drawn :data:`~dragonkit.view.PROJECTOR_ZOOM` times larger (CSS ``zoom``, as a browser's zoom draws it, figures and
sliders included), no text smaller than 14 px (28 px on a 1920-pixel-wide board), and the apps' two columns share
the full width.
"""

import json
from string import Template

from . import palette
from .view import PROJECTOR_ZOOM

__all__ = ["CSS", "PROJECTOR_CLASS", "page_script"]

#: The class of a widget that marks its page as drawn for the projector.
PROJECTOR_CLASS = "dk-projector"

# The rules name the palette's roles ($INK, $TINT ...), filled in once below.
_RULES = """<style>
.dk-app, .dk-lesson { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 13px; color: $INK; }
.dk-app h2 { margin: 4px 0; }
/* coloured buttons in the kit's colours, every label at least 4.5:1 against its fill (WCAG 1.4.3) */
.dk-app .jupyter-button.mod-warning { background-color: $HOLD; color: $INK; }
.dk-app .jupyter-button.mod-success { background-color: $GOOD; }
.dk-app .jupyter-button.mod-info, .dk-app .jupyter-button.mod-info:hover:enabled,
.dk-app .jupyter-button.mod-info:active:enabled { background-color: $INFO; color: $WHITE; }
/* the keyboard's focus: a 3px outline in $FOCUS, 2px off the control, at least 3:1 against every background
   of the kit (WCAG 2.4.7, 1.4.11); ipywidgets' own is 1px of light blue, and none on its lists and fields
   (its text fields' "outline: none !important" is outdone by the selectors with "input") */
.dk-app :focus-visible, .dk-app .jupyter-button:focus-visible, .dk-app select:focus-visible,
.dk-app input:focus-visible, .dk-lesson :focus-visible, .dk-lesson input:focus-visible, .dk-exercise :focus-visible,
.dk-exercise input:focus-visible, .dk-languages a:focus-visible, .dk-figure summary:focus-visible {
  outline: 3px solid $FOCUS !important; outline-offset: 2px !important; }
/* read by screen readers, not drawn: a label the layout already makes plain to the eye */
.dk-app .dk-sr-only, .dk-lesson .dk-sr-only,
.dk-sr-label .widget-label { position: absolute; width: 1px; height: 1px;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.dk-status { font-size: 15px; padding: 4px 8px; background: $TINT; border-radius: 6px; margin-bottom: 4px; }
.dk-status.dk-over { background: $GOLD_TINT; font-size: 16px; }
.dk-players { border-collapse: collapse; width: 330px; margin-right: 10px; }
.dk-players th, .dk-players td { padding: 1px 6px; line-height: 22px; border-bottom: 1px solid $RULE;
                                 text-align: left; }
.dk-players small { color: $TEXT_MUTED; }
.dk-player.dk-current { background: $TINT; }
.dk-gems { font-size: 15px; font-weight: bold; text-align: right !important; }
.dk-badge { display: inline-block; padding: 1px 6px; margin: 1px; border-radius: 8px; font-size: 11px;
            color: $WHITE; }
.dk-owner { background: $TEXT_MUTED; } .dk-active { background: $BLUE; }
.dk-offer-badge { background: $GOOD; } .dk-winner { background: $AMBER; }
.dk-log { width: 440px; border: 1px solid $RULE; border-radius: 6px; padding: 4px 8px; background: $SURFACE; }
/* the event list shows 9 whole lines of 17px and scrolls line by line: no line is ever cut */
.dk-log-lines { height: 153px; overflow-y: auto; margin-top: 4px; scroll-snap-type: y mandatory; }
.dk-log ol { margin: 0; padding-left: 36px; font-size: 12px; line-height: 17px; }
.dk-log li { margin: 0; line-height: 17px; scroll-snap-align: start; }
.dk-ev-danger, .dk-ev-stopped { color: $BAD; } .dk-ev-game_over { font-weight: bold; }
.dk-ev-pot_collected, .dk-ev-bounty_paid { color: $AMBER; } .dk-ev-turn_started { color: $TEXT_MUTED; }
.dk-coach { border: 1px solid $RULE; border-radius: 8px; padding: 4px 10px; background: $SURFACE; }
.dk-coach h2, .dk-coach h3 { margin: 4px 0 6px 0; font-size: 15px; }
.dk-coach table { border-collapse: collapse; margin: 4px 0 8px 0; }
.dk-coach td, .dk-coach th { padding: 0 10px 0 0; text-align: left; line-height: 21px; }
.dk-languages ul { list-style: none; display: flex; gap: 1em; margin: 0.5em 0; padding: 0; }
.dk-languages [aria-current] { font-weight: bold; }
.dk-frac { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; word-break: break-all; }
.dk-dec { color: $TEXT_MUTED; }
.dk-advice { font-weight: bold; color: $BLUE; font-size: 15px; }
.dk-best { margin: 2px 0 6px 0; }
.dk-values td { vertical-align: top; padding-bottom: 4px !important; }
.dk-values small { color: $TEXT_MUTED; }
/* the coach's two views: each option's row, its best marks in words, the estimate's intervals, the flag */
.dk-coach table.dk-views { width: 100%; }
.dk-views th, .dk-views td { vertical-align: top; }
.dk-views th[scope=row] { white-space: nowrap; }
.dk-views td:nth-of-type(1) { min-width: 150px; }
.dk-views th[scope=col] { font-size: 12px; line-height: 15px; padding-bottom: 3px; }
.dk-mark { white-space: nowrap; }
.dk-ci { white-space: nowrap; }
.dk-coach .dk-verdict { margin: 2px 0 8px 0; line-height: 19px; }
.dk-coach .dk-verdict p { margin: 2px 0; line-height: 18px; }
.dk-disagree { background: $GOLD_TINT; border-left: 4px solid $AMBER; border-radius: 4px; padding: 3px 8px; }
.dk-figure { margin: 4px 0; }
.dk-figure details { margin: 2px 0 6px 0; }
.dk-figure table { border-collapse: collapse; font-size: 12px; }
.dk-figure th, .dk-figure td { padding: 1px 10px 1px 0; text-align: left; }
.dk-offer { background: $GOOD_TINT; border-radius: 6px; padding: 4px 6px; margin: 4px 0; }
.dk-note { color: $TEXT_MUTED; font-size: 11px; margin: 4px 0; line-height: 14px; }
.dk-message { padding: 3px 8px; border-radius: 6px; margin: 2px 0; }
.dk-warning { background: $GOLD_TINT; color: $AMBER; } .dk-danger { background: $BAD_TINT; color: $BAD; }
.dk-info { background: $TINT; } .dk-success { background: $GOOD_TINT; color: $GOOD; }
.dk-exercise { border-left: 4px solid $BLUE; padding: 2px 0 4px 10px; margin: 8px 0; }
.dk-question { font-size: 14px; margin: 2px 0 4px 0; }
.dk-hints { color: $TEXT_MUTED; margin: 2px 0; }
.dk-exercise .widget-radio-box { max-width: 760px; }
.dk-exercise .widget-radio-box label { white-space: normal; height: auto; line-height: 18px; margin: 2px 0; }
.dk-lesson h3, .dk-lesson h4 { margin: 6px 0 2px 0; font-size: 14px; }
.dk-lesson .dk-status { margin: 0 0 6px 0; }
.dk-rooms { margin-top: 14px; padding-top: 6px; border-top: 1px solid $RULE; max-width: 830px; }
.dk-rooms h2, .dk-lobby h2 { font-size: 17px; margin: 4px 0; }
.dk-join-room { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 8px 0; }
.dk-join-room input[name=code] { font: 600 18px monospace; letter-spacing: 3px; width: 9ch; text-transform: uppercase;
  padding: 2px 6px; }
.dk-join-room button { padding: 4px 12px; }
.dk-room-code { font: 700 1.3em monospace; letter-spacing: 4px; background: $TINT; padding: 0 6px; border-radius: 4px; }
.dk-lobby .dk-room-code { font-size: 30px; }
.dk-lobby .dk-table td { max-width: 520px; }
.dk-lobby .dk-table caption { text-align: left; font-weight: 600; padding: 6px 0 2px 0; }
.dk-room-line { font-size: 14px; padding: 2px 8px; margin-bottom: 4px; border-left: 4px solid $RULE; }
.dk-review h3 { font-size: 15px; margin: 10px 0 4px 0; }
.dk-table { border-collapse: collapse; margin: 4px 0 8px 0; font-size: 12px; }
.dk-table th { background: $TINT; text-align: left; padding: 2px 10px 2px 4px; vertical-align: bottom; }
.dk-table td { border-bottom: 1px solid $RULE; padding: 1px 10px 1px 4px; line-height: 20px; vertical-align: top;
               max-width: 220px; }
.dk-table tr.dk-sum td { background: $TINT; }
/* the teacher's dashboard: its tables' captions as the small headings they are, and room for a list of names */
.dk-dashboard .dk-table caption { text-align: left; font-weight: 600; padding: 6px 0 2px 0; }
.dk-dashboard .dk-table td { max-width: 560px; }
.dk-dashboard .dk-table th[scope=row] { vertical-align: top; }
.dk-glossary { width: 100%; max-width: 1100px; font-size: 14px; margin-bottom: 16px; table-layout: auto !important; }
.dk-glossary caption { text-align: left; font-weight: 600; font-size: 16px; padding: 8px 0 4px 0; }
.dk-glossary th, .dk-glossary td { text-align: left !important; vertical-align: top; max-width: none; }
.dk-glossary th[scope="row"] { background: none; }
.dk-glossary dfn { font-style: normal; }
.dk-glossary td:nth-child(3) { width: 60%; }
.dk-matrix { border-collapse: collapse; font-size: 12px; margin: 4px 0; }
.dk-matrix th, .dk-matrix td { border: 1px solid $RULE; padding: 1px 6px; text-align: center; white-space: nowrap; }
.dk-matrix th { background: $TINT; font-weight: normal; }
.dk-matrix td.dk-zero { color: $TEXT_MUTED; }
.dk-matrix tr.dk-row-on td, .dk-matrix tr.dk-row-on th { background: $GOLD_TINT; }
.dk-caption { color: $TEXT_MUTED; margin: 2px 0 4px 0; }
.dk-read { background: $SURFACE; border-radius: 6px; padding: 4px 10px; }
.dk-read ul { margin: 2px 0 2px 0; padding-left: 22px; }
.dk-read li { line-height: 20px; }
.dk-card { display: inline-block; min-width: 64px; padding: 3px 8px; margin-right: 6px; border-radius: 6px;
           font-weight: bold; text-align: center; }
/* the latest move, beside the board on the projector: its card large, then a sentence a line */
.dk-move { border: 1px solid $RULE; border-left: 6px solid $BLUE; border-radius: 8px; padding: 6px 10px;
           margin-bottom: 6px; background: $SURFACE; }
.dk-move p { margin: 2px 0; font-size: 16px; line-height: 22px; }
.dk-move .dk-move-card { margin: 2px 0 8px 0; }
.dk-move .dk-move-card .dk-card { font-size: 28px; line-height: 36px; padding: 8px 22px; }
.dk-trainer .dk-verdict { font-size: 14px; margin: 4px 0 6px 0; }
.dk-trainer .dk-verdict-values td:first-child { width: 220px; }
.dk-trainer .dk-deck td, .dk-trainer .dk-deck th { white-space: nowrap; font-size: 12px; padding-right: 9px; }
.dk-trainer .dk-deck td:nth-child(3) { white-space: normal; }
.dk-trainer .dk-recent td, .dk-trainer .dk-recent th { padding: 0 10px 0 0; line-height: 19px; font-size: 12px; }
.dk-trainer .dk-next { margin: 6px 0; line-height: 22px; }
/* a narrow page (200 % zoom, a phone): nothing wider than the page; the board and the figures shrink to fit */
.dk-app .widget-html { max-width: calc(100% - 2 * var(--jp-widgets-margin, 2px)); }
.dk-app .widget-html > .widget-html-content { min-width: 0; }
.dk-app .dk-board { max-width: 100%; height: auto; }
.dk-app img { max-width: 100%; height: auto; }
.dk-players { max-width: 100%; }
.dk-log { max-width: calc(100% - 18px); }
/* the apps' two columns shrink a little on a desktop, and stack where they would shrink too much */
@media (max-width: 1000px) { .dk-app .dk-columns { flex-wrap: wrap; } }
@media (max-width: 700px) {
  .dk-trainer .dk-deck td, .dk-trainer .dk-deck th { white-space: normal; }
  .dk-trainer .dk-verdict-values td:first-child { width: auto; }
}
@media print {
  @page { margin: 14mm; }
  /* Voilà's shell is as high as the window (a panel of fixed size: Lumino's inline styles) and scrolls inside:
     on paper it grows with its content, and every page of it is printed */
  html, body, #main, #jp-main-content-panel, #rendered_cells { height: auto !important; width: auto !important;
    overflow: visible !important; position: static !important; contain: none !important; }
  body, #rendered_cells, .jp-Notebook, .jp-Cell { background: $WHITE !important; color: $PRINT_INK !important; }
  .dk-app, .dk-lesson, .dk-exercise, .dk-message, .dk-note, .dk-hints, .dk-dec, .dk-caption, .dk-status,
  .dk-log, .dk-coach, .dk-question { color: $PRINT_INK !important; background: $WHITE !important; }
  .dk-badge { color: $PRINT_INK !important; background: none !important; border: 1px solid $PRINT_INK; }
  /* what a page on paper cannot use */
  .dk-languages, .dk-language, .jupyter-button, .dk-figure details, a.anchor-link, .jp-InternalAnchorLink {
    display: none !important; }
  .dk-figure, .dk-figure img, .dk-svg, .dk-table, .dk-matrix, .dk-players, .dk-exercise, figure, table, img, svg,
  .jp-RenderedMarkdown pre { break-inside: avoid; }
  h1, h2, h3, h4 { break-after: avoid; }
  a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 0.85em; word-break: break-all; }
}
/* the projector (?view=projector): every cell of the page $ZOOM times larger, as a browser's zoom draws it (Voilà's
   cells are inside a box of fixed size, which is left alone); no text under 14px (the widgets' controls follow their
   variables); the apps' two columns share the full width, their inline widths giving way */
body:has(.$PROJECTOR) .jp-Cell { zoom: $ZOOM; }
body:has(.$PROJECTOR) { --jp-widgets-font-size: 14px; --jp-ui-font-size1: 14px; }
body:has(.$PROJECTOR) :is(.dk-app, .dk-lesson, .dk-app small, .dk-badge, .dk-log ol, .dk-views th[scope=col],
  .dk-frac, .dk-figure table, .dk-note, .dk-table, .dk-matrix, .dk-trainer .dk-deck :is(td, th),
  .dk-trainer .dk-recent :is(td, th)) { font-size: 14px; }
body:has(.$PROJECTOR) :is(.dk-note, .dk-views th[scope=col]) { line-height: 18px; }
body:has(.$PROJECTOR) .jupyter-button { min-width: fit-content; }  /* a label never cut: the button grows */
/* the event list: 6 whole lines of 20px, which it scrolls line by line */
body:has(.$PROJECTOR) .dk-log :is(ol, li) { line-height: 20px; }
body:has(.$PROJECTOR) .dk-log-lines { height: 120px; }
body:has(.$PROJECTOR) .dk-app .dk-columns { flex-wrap: wrap; }
body:has(.$PROJECTOR) .dk-app .dk-columns > :first-child { flex: 3 1 520px; width: auto !important; }
body:has(.$PROJECTOR) .dk-app .dk-columns > :last-child { flex: 2 1 340px; width: auto !important; }
/* a lesson's rows of widgets wrap where the page is too narrow for them, rather than squeeze a slider's readout */
body:has(.$PROJECTOR) .dk-lesson .widget-hbox { flex-wrap: wrap; }
/* the trainer's situation, with its table of the deck, takes half */
body:has(.$PROJECTOR) .dk-trainer .dk-columns > :is(:first-child, :last-child) { flex: 1 1 420px; }
body:has(.$PROJECTOR) .dk-trainer .dk-deck :is(td, th) { white-space: normal; }
</style>"""

#: The stylesheet, its colours taken from :mod:`dragonkit.palette`.
CSS = Template(_RULES).substitute(vars(palette), PROJECTOR=PROJECTOR_CLASS, ZOOM=PROJECTOR_ZOOM)


def page_script(lang: str) -> str:
    """A script for a page in ``lang``: what a screen reader needs and the notebook cannot write itself.

    It gives the document its language (``<html lang="it">``, so the page is read aloud in Italian; on an app's
    page, the language of its live region, which follows the app's language switch), makes the
    notebook's cells the page's main landmark (Voilà's template has no ``<main>``), makes the apps' announcement
    widgets (``.dk-announce``) live regions that stay on the page, and names each slider's
    handle after its label (or the nearest text before it, its prompt), again whenever a label changes
    (ipywidgets draws the handle with ``role="slider"`` and no accessible name, so a screen reader would say
    only "slider"), and says whether each toggle button is pressed (``aria-pressed``: ipywidgets marks it by a class
    only, which a screen reader does not read), again whenever it changes.

    Parameters
    ----------
    lang : str
        The page's language code (``"en"``, ``"it"``).

    Returns
    -------
    str
        A ``<script>`` element, to be displayed as HTML output (where the page runs scripts).
    """
    return _PAGE_SCRIPT.substitute(lang=json.dumps(lang))


_PAGE_SCRIPT = Template("""<script>
(function () {
  document.documentElement.lang = $lang;
  var cells = document.getElementById('rendered_cells');
  if (cells && !document.querySelector('main, [role=main]')) { cells.setAttribute('role', 'main'); }
  if (window.dkSliderNames) { return; }
  window.dkSliderNames = true;
  function name() {
    var spoken = document.querySelector('.dk-announce [lang]');  // an app's language, which its buttons switch
    if (spoken && document.documentElement.lang !== spoken.lang) { document.documentElement.lang = spoken.lang; }
    document.querySelectorAll('.dk-announce:not([aria-live])').forEach(function (region) {
      region.setAttribute('role', 'status');  // the widget's own box, which stays: its changes are read out
      region.setAttribute('aria-live', 'polite');
      region.setAttribute('aria-atomic', 'true');
    });
    document.querySelectorAll('.widget-slider').forEach(function (slider) {
      var handle = slider.querySelector('.noUi-handle');
      if (!handle) { return; }
      var label = slider.querySelector('.widget-label');
      var text = label ? label.textContent.trim() : '';
      for (var near = slider; !text && near && near !== document.body; near = near.parentElement) {
        var before = near.previousElementSibling;  // the nearest text before the slider: its prompt
        text = before ? before.textContent.trim().slice(0, 200) : '';
      }
      if (text && handle.getAttribute('aria-label') !== text) { handle.setAttribute('aria-label', text); }
    });
    document.querySelectorAll('.widget-toggle-button').forEach(function (button) {
      var pressed = String(button.classList.contains('mod-active'));  // ipywidgets marks a pressed toggle by its class
      if (button.getAttribute('aria-pressed') !== pressed) { button.setAttribute('aria-pressed', pressed); }
    });
  }
  new MutationObserver(name).observe(document.body,
    {subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class']});
  name();
})();
</script>""")
