"""The apps on a narrow page, in headless Chromium: at 200 % zoom and on a phone.

Zoom is not ``device_scale_factor`` (that draws the same CSS page with more pixels): 200 % zoom of a
1280 x 900 window lays the page out in 640 x 450 CSS pixels, so that is the viewport here.  The phone is
390 x 844 CSS pixels, a mobile browser with touch.  Either way the page must not scroll sideways
(WCAG 2.1, success criterion 1.4.10, reflow) and every control must lie within the page's width; the
screenshots are saved in ``tests/artifacts/`` to be looked at.
"""

from __future__ import annotations

import pytest

from ..conftest import ARTIFACTS, play_until_over

pytestmark = pytest.mark.browser

SIZES = {
    "zoom-200": {"viewport": {"width": 640, "height": 450}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}

#: How wide the page is against the viewport, every box of the app that scrolls sideways (Voilà's page
#: scrolls in its own box, #rendered_cells, and ipywidgets' boxes scroll what overflows them), and every
#: control shown that sticks out of the viewport sideways.
WIDTHS_JS = """() => {
  const width = document.documentElement.clientWidth;
  const sideways = [];
  for (const box of [document.scrollingElement, ...document.querySelectorAll('#rendered_cells, .dk-app, .dk-app *')]) {
    const style = getComputedStyle(box);
    if (box !== document.scrollingElement && !['auto', 'scroll'].includes(style.overflowX)) continue;
    if (box.scrollWidth > box.clientWidth + 1) {
      sideways.push(`${box.tagName}.${box.className}: ${box.clientWidth} < ${box.scrollWidth}`);
    }
  }
  const outside = [];
  for (const c of document.querySelectorAll('.dk-app button, .dk-app select, .dk-app input, .dk-app [tabindex]')) {
    if (c.offsetParent === null || getComputedStyle(c).visibility === 'hidden') continue;
    const box = c.getBoundingClientRect();
    if (box.left < -1 || box.right > width + 1) {
      outside.push(`${(c.textContent || c.value || c.tagName).trim()}: ${box.left}..${box.right}`);
    }
  }
  const apps = [...document.querySelectorAll('.dk-app')].map(a => a.getBoundingClientRect().right);
  return {sideways: sideways, width: width, app: Math.max(...apps), outside: outside};
}"""


def _check(page, name: str) -> None:
    """A screenshot of the whole app, then: nothing scrolls sideways and no control is out of reach."""
    page.wait_for_timeout(500)  # the last redraw laid out
    measured = page.evaluate(WIDTHS_JS)
    # Voilà's page scrolls in its own box: to see the whole app at once, the window grows as tall as the
    # app for the screenshot (as tall only: the width, and so the layout, stay)
    viewport = page.viewport_size
    tall = page.evaluate("Math.ceil(document.querySelector('#rendered_cells').scrollHeight)")
    page.set_viewport_size({"width": viewport["width"], "height": max(tall, viewport["height"])})
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.set_viewport_size(viewport)
    assert measured["sideways"] == [], (name, measured)
    assert measured["app"] <= measured["width"] + 1, (name, measured)
    assert measured["outside"] == [], (name, measured)


@pytest.mark.parametrize("size", SIZES)
def test_the_play_app_fits_a_narrow_page(voila_url, browser, size):
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    page.goto(f"{voila_url}/voila/render/play.ipynb?lang=en", timeout=120_000)
    page.wait_for_selector("text=Start the game", timeout=120_000)
    _check(page, f"small-{size}-play-setup")

    page.select_option(".dk-setup select >> nth=0", "2")  # Alex (human) against the coach bot
    page.fill(".dk-seed input", "2024")
    page.click("text=Start the game")
    page.wait_for_selector(".dk-coach >> text=Coach for", timeout=120_000)
    _check(page, f"small-{size}-play-game")

    play_until_over(page, ("Reveal", "Decline"))  # the human reveals whenever asked, declines every takeover
    page.wait_for_selector(".dk-app svg.dk-gems-over-game", state="visible", timeout=60_000)
    _check(page, f"small-{size}-play-over")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_trainer_fits_a_narrow_page(voila_url, browser, size):
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    page.goto(f"{voila_url}/voila/render/trainer.ipynb?lang=en", timeout=120_000)
    page.wait_for_selector(".dk-board", timeout=120_000)
    page.click("button:has-text('Show probabilities')")
    page.wait_for_selector("th:has-text('chance')", timeout=30_000)
    _check(page, f"small-{size}-trainer-hand")
    page.click("button:has-text('Reveal')")
    page.wait_for_selector(".dk-verdict", timeout=30_000)
    _check(page, f"small-{size}-trainer-verdict")
    context.close()
