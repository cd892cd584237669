"""The projector's view as the browser tests measure it: a 1920 x 1080 board, the size the text is drawn at there,
and nothing of the page outside the board's width (tests/browser/test_projector*.py)."""

from __future__ import annotations

from ..conftest import ARTIFACTS

#: An interactive whiteboard, or a projector, of 1920 x 1080 pixels.
BOARD = {"width": 1920, "height": 1080}

#: The smallest size, in pixels on the board, of the text a class reads from the back of the room.
LARGE = 28

#: The size an element's text is drawn at on the board, in pixels: its computed font size times the zoom of the page's
#: cells (the projector's CSS ``zoom``), which the computed font size leaves out.
DRAWN_SIZE_JS = "element => parseFloat(getComputedStyle(element).fontSize) * element.currentCSSZoom"

#: What the board cannot show whole: every element of the page's cells whose right edge lies beyond the width of the
#: page's box (Voilà's ``#rendered_cells``, its scroll bar left out), and every box that hides part of what it holds
#: sideways (it scrolls, or clips). Visually hidden labels for screen readers, and MathJax's own stretched glyphs, are
#: not drawn as they are laid out, and are left out.
OUTSIDE_JS = """() => {
  const limit = document.querySelector('#rendered_cells').getBoundingClientRect().left
    + document.querySelector('#rendered_cells').clientWidth;
  const outside = [];
  for (const element of document.querySelectorAll('.jp-Cell *')) {
    if (element.closest('.dk-sr-only, mjx-container') || element.matches('.dk-sr-label .widget-label')) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const name = `${element.tagName}.${element.className} "${(element.textContent || '').trim().slice(0, 40)}"`;
    if (box.right > limit + 1) outside.push(`${name}: its right edge at ${box.right}`);
    const style = getComputedStyle(element);
    if (style.overflowX !== 'visible' && element.scrollWidth > element.clientWidth + 1) {
      outside.push(`${name}: ${element.scrollWidth} wide in ${element.clientWidth}`);
    }
  }
  return outside;
}"""


def drawn_size(locator) -> float:
    """The size, in pixels on the board, of the text of ``locator``'s first element (one that is drawn: a hidden one
    has no zoom of its own)."""
    return locator.first.evaluate(DRAWN_SIZE_JS)


def assert_on_the_board(page, name: str) -> None:
    """A screenshot of what the board shows (``tests/artifacts/<name>.png``, to be looked at), then: nothing of the page
    lies beyond the board's width, and nothing is hidden in a box too narrow for it."""
    page.wait_for_timeout(500)  # the last redraw laid out
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    outside = page.evaluate(OUTSIDE_JS)
    assert outside == [], (name, outside)
