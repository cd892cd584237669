"""The palette: the only place colours are typed, readable text, categories told apart by every reader.

Contrast is WCAG 2.1's (success criterion 1.4.3: 4.5:1 for text, level AA). Colour-vision
deficiencies are simulated with colorspacious, which implements Machado, Oliveira & Fernandes,
"A physiologically-based model for simulation of color vision deficiency", IEEE TVCG 15 (2009),
at severity 100 (dichromacy); differences are measured in CAM02-UCS (Luo, Cui & Li 2006), where
two colours side by side are told apart from a ΔE of about 1.  The Okabe–Ito set itself keeps
every pair at least 11 apart under the three simulations: the threshold below is 10.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import colorspacious
import numpy as np
import pytest

from dragonkit import palette
from dragonkit.style import CSS

PACKAGE = Path(palette.__file__).parent
HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?\b")
DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")
MIN_DELTA_E = 10


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255


def _luminance(colour: str) -> float:
    """Relative luminance (WCAG 2.1)."""
    c = _rgb(colour)
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(c @ [0.2126, 0.7152, 0.0722])


def _contrast(a: str, b: str) -> float:
    dark, light = sorted((_luminance(a), _luminance(b)))
    return (light + 0.05) / (dark + 0.05)


def test_no_colour_is_typed_outside_the_palette():
    typed = [
        f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "palette.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HEX.search(line)
    ]
    assert typed == []


def test_every_colour_is_a_six_digit_hex_and_the_stylesheet_uses_them():
    colours = {name: value for name, value in vars(palette).items() if name.isupper() and isinstance(value, str)}
    assert all(re.fullmatch(r"#[0-9A-F]{6}", v) for k, v in colours.items() if k not in ("DIVERGING", "SEQUENTIAL"))
    assert "$" not in CSS and palette.INK in CSS and palette.TINT in CSS


# every text colour against the backgrounds it is written on
TEXT_ON = [
    *((text, palette.WHITE) for text in (palette.INK, palette.TEXT_MUTED, palette.BLUE, palette.GOOD, palette.BAD)),
    *((text, palette.WHITE) for text in (palette.AMBER, palette.FOOTPRINT, palette.DANGER)),
    (palette.INK, palette.TINT),
    (palette.TEXT_MUTED, palette.TINT),
    (palette.TEXT_MUTED, palette.SURFACE),
    (palette.TEXT_MUTED, palette.PAPER),
    (palette.INK, palette.PAPER),
    (palette.AMBER, palette.GOLD_TINT),
    (palette.AMBER, palette.TREASURE_TINT),
    (palette.GOOD, palette.GOOD_TINT),
    (palette.BAD, palette.BAD_TINT),
    (palette.INK, palette.KNIGHT_STRIPE),
    *((palette.WHITE, fill) for fill in palette.DRAGON_STRIPES),
    (palette.WHITE, palette.DRAGON_HEAD),
    (palette.WHITE, palette.TEXT_MUTED),  # badges
    (palette.WHITE, palette.BLUE),
    (palette.WHITE, palette.INFO),  # an "info" button (the trainer's Next hand)
    *((palette.CARD_TEXT[kind], palette.CARD[kind]) for kind in palette.CARD),
]


@pytest.mark.parametrize(("text", "background"), TEXT_ON)
def test_text_reaches_wcag_aa_contrast(text, background):
    assert _contrast(text, background) >= 4.5


#: Every background a focused control of the apps sits on (its outline is drawn 2px outside it).
FOCUS_BACKGROUNDS = (palette.WHITE, palette.SURFACE, palette.TINT, palette.PAPER, palette.GOLD_TINT, palette.GOOD_TINT)


@pytest.mark.parametrize("background", FOCUS_BACKGROUNDS)
def test_the_focus_outline_stands_out_from_every_background(background):
    """WCAG 2.1, 1.4.11 (non-text contrast): 3:1 for what shows the keyboard's focus."""
    assert _contrast(palette.FOCUS, background) >= 3


def test_the_contrast_formula_on_known_pairs():
    assert _contrast("#000000", "#FFFFFF") == pytest.approx(21)
    assert _contrast("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.01)  # the lightest AA grey on white


CATEGORIES = {
    "cards": tuple(palette.CARD.values()),
    "stages": palette.STAGES,
    "players": palette.PLAYERS,
    "reveal/hold": (palette.REVEAL, palette.HOLD),
    "gain/zero/loss": (palette.GOOD, palette.NEUTRAL, palette.BAD),
    "series/exact/highlight": (palette.SERIES, palette.EXACT, palette.HIGHLIGHT),
}


#: What the apps tell apart by colour, beside the words or shapes that also tell it (pairs: only these must
#: differ): the deck meters (each card's kind, and a meter's empty part), the stage markers (a danger
#: revealed, filled, and one to come, empty), the knight's stripe against the dragon's, and the verdicts of
#: the coach and the trainer (a good choice, a loss).
APP_PAIRS = {
    "deck meters": list(itertools.combinations((*palette.CARD.values(), palette.SURFACE), 2)),
    "stage markers": [(palette.DANGER, palette.WHITE)],
    "the knight's stripe": [(palette.KNIGHT_STRIPE, stripe) for stripe in palette.DRAGON_STRIPES],
    "verdicts": [(palette.GOOD, palette.BAD)],
}


def _seen_with(colours, deficiency: str | None) -> list[np.ndarray]:
    rgb = [_rgb(c) for c in colours]
    if deficiency is None:
        return rgb
    space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
    return [np.clip(colorspacious.cspace_convert(c, space, "sRGB1"), 0, 1) for c in rgb]


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
@pytest.mark.parametrize("name", CATEGORIES)
def test_categories_stay_distinguishable_with_colour_vision_deficiencies(name, deficiency):
    seen = _seen_with(CATEGORIES[name], deficiency)
    closest = min(colorspacious.deltaE(a, b, input_space="sRGB1") for a, b in itertools.combinations(seen, 2))
    assert closest >= MIN_DELTA_E, (name, deficiency, closest)


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
@pytest.mark.parametrize("name", APP_PAIRS)
def test_what_the_apps_tell_apart_stays_apart_with_colour_vision_deficiencies(name, deficiency):
    closest = min(colorspacious.deltaE(*_seen_with(pair, deficiency), input_space="sRGB1") for pair in APP_PAIRS[name])
    assert closest >= MIN_DELTA_E, (name, deficiency, closest)
