"""The kit's colours, by role: one palette for the SVG board, the stylesheet and every figure.

The categorical hues are those of Okabe & Ito, *Color Universal Design* (2008), the
palette recommended for readers with a colour-vision deficiency (Wong, "Points of view:
Color blindness", *Nature Methods* 8, 441, 2011): under simulated deuteranopia,
protanopia and tritanopia (Machado, Oliveira & Fernandes 2009) any two of them stay
at least 10 apart in CIECAM02-UCS, where two colours side by side are told apart
from about 1.  ``tests/test_palette.py`` checks this for every categorical set below.

Some Okabe–Ito hues are too light for text: vermillion reaches 3.9:1 against white,
bluish green 3.4:1, orange 2.3:1, where WCAG 2.1 asks 4.5:1 for body text (success
criterion 1.4.3, level AA).  Text, and fills that carry white text (a card, a badge),
therefore use darker shades of the same hues, each at least 4.5:1 against white and
against the light tint it is written on:

==================  =========  ===========================================
name                against    shade of
==================  =========  ===========================================
:data:`BLUE`        5.2:1      Okabe–Ito blue, as it is
:data:`GREEN`       5.5:1      bluish green, darkened
:data:`RED`         5.3:1      vermillion, darkened and turned to red
:data:`AMBER`       6.4:1      orange, darkened (the pot's gold)
:data:`INFO`        5.1:1      teal, an "info" button's fill
:data:`INK`         15.9:1     near-black, the body text
:data:`TEXT_MUTED`  7.0:1      grey, secondary text
==================  =========  ===========================================

Colour never carries meaning alone in the kit: every card, verdict and stage is also
written in words, and marked by a shape where a glance needs one (a cross in each danger
revealed on the board, ✓ or ✗ before a verdict).  Matplotlib takes these strings as they are (``color=palette.GOOD``);
the stylesheet and the board write them into CSS and SVG.  This module imports nothing.
"""

from __future__ import annotations

__all__ = [
    "AMBER",
    "BAD",
    "BAD_TINT",
    "BLUE",
    "BLUISH_GREEN",
    "BORDER",
    "CARD",
    "CARD_TEXT",
    "DANGER",
    "DIVERGING",
    "DRAGON_BODY",
    "DRAGON_EYE",
    "DRAGON_HEAD",
    "DRAGON_HORN",
    "DRAGON_OUTLINE",
    "DRAGON_STRIPES",
    "EXACT",
    "FOCUS",
    "FOOTPRINT",
    "FOOTPRINT_SHADES",
    "GOLD_TINT",
    "GOOD",
    "GOOD_TINT",
    "GREEN",
    "GRID",
    "HIGHLIGHT",
    "HOLD",
    "INFO",
    "INK",
    "KNIGHT",
    "KNIGHT_OUTLINE",
    "KNIGHT_STRIPE",
    "NEUTRAL",
    "ORANGE",
    "PAPER",
    "PLAYERS",
    "POT",
    "RED",
    "REDDISH_PURPLE",
    "REVEAL",
    "RULE",
    "SEQUENTIAL",
    "SERIES",
    "SKY_BLUE",
    "STAGES",
    "STOP",
    "SURFACE",
    "TEXT_MUTED",
    "TINT",
    "TREASURE_TINT",
    "VERMILLION",
    "WHITE",
    "YELLOW",
]

# -- Okabe–Ito hues (graphics: bars, lines, markers) ------------------------------------------------------------
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"

# -- their shades for text and for fills under white text (>= 4.5:1 against white) ----------------------------
GREEN = "#00785A"
RED = "#C23B22"
AMBER = "#7A5A00"
INFO = "#00798A"  #: the fill of an "info" button (Next hand) under white text: ipywidgets' own is 3.5:1, this 5.1:1

# -- greys and backgrounds --------------------------------------------------------------------------------------
INK = "#222222"  #: body text, outlines of dark marks
TEXT_MUTED = "#595959"  #: secondary text: notes, decimals, hints
GRID = "#999999"  #: reference lines, axes, the unsolved
BORDER = "#BBBBBB"  #: outlines of empty slots, edges of a tree
RULE = "#DDDDDD"  #: table and box borders
SURFACE = "#FAFAFA"  #: a panel's background
TINT = "#EEF3FB"  #: the current player, a status line, table headers
GOLD_TINT = "#FFF3C4"  #: the pot's bubble, a game's end, a warning, a highlighted row (AMBER on it: 5.7:1)
WHITE = "#FFFFFF"
PAPER = "#F3EFE2"  #: the board's background
#: The keyboard focus outline: at least 3:1 against every background it is drawn on (WCAG 2.2, 1.4.11 and 2.4.13).
FOCUS = BLUE

# -- the cards --------------------------------------------------------------------------------------------------
FOOTPRINT = GREEN
STOP = ORANGE
DANGER = RED
#: Colour of a card by kind (the board, the trainer, the lesson figures).
CARD = {"footprint": FOOTPRINT, "stop": STOP, "danger": DANGER}
#: Colour of a word written on a card of that kind (>= 4.5:1 against its fill).
CARD_TEXT = {"footprint": WHITE, "stop": INK, "danger": WHITE}
#: Footprint cards of 1, 2, 3 ... steps, light to dark (bluish green mixed with white, then with black).
FOOTPRINT_SHADES = ("#C7EAE0", "#8CD3C0", "#4CBB9D", "#009E73", "#007656", "#00573F")

# -- the board --------------------------------------------------------------------------------------------------
KNIGHT = BLUE
KNIGHT_OUTLINE = "#1B2F52"
KNIGHT_STRIPE = YELLOW  #: the stripe the knight stands on (its number in INK: 12:1)
POT = ORANGE  #: the outline of the pot and of the treasure (their words in AMBER)
TREASURE_TINT = "#FFF8E1"
#: The dragon's back, alternating (white numbers on them: 4.8:1 and 6.2:1).
DRAGON_STRIPES = ("#37804A", "#2C6E3C")
DRAGON_BODY = "#1E5631"
DRAGON_OUTLINE = "#112233"
DRAGON_HEAD = "#8E1B1B"
DRAGON_HORN = "#6B1212"
DRAGON_EYE = "#FFD54A"

# -- what the figures compare -----------------------------------------------------------------------------------
#: The stages 0, 1, 2 ... of a ruleset (danger cards revealed).
STAGES = (BLUE, ORANGE, VERMILLION, REDDISH_PURPLE, BLUISH_GREEN)
#: The seats of a game, in order (up to six players).
PLAYERS = (BLUE, ORANGE, BLUISH_GREEN, VERMILLION, REDDISH_PURPLE, SKY_BLUE)
REVEAL = BLUE
HOLD = ORANGE
GOOD = GREEN  #: a gain, a right answer, a pay-off
BAD = RED  #: a loss, a wrong answer, a danger
NEUTRAL = GRID  #: neither (a gain of zero)
GOOD_TINT = "#E6F4EE"  #: background of a success message (GOOD on it: 4.8:1)
BAD_TINT = "#FCEAE6"  #: background of an error message (BAD on it: 4.6:1)

# -- on paper (dragonkit.paper, and a page printed from the browser): black on white, greys for the rest --------
PRINT_INK = "#000000"  #: text, the lines to write on, boxes to tick
PRINT_SOFT = "#333333"  #: a running footer, a kicker over a title
PRINT_CUT = "#555555"  #: the dashed lines to cut along
PRINT_BORDER = "#777777"  #: a table's borders
PRINT_FILL = "#E8E8E8"  #: a table's header, the dragon's ends
SERIES = SKY_BLUE  #: the data a figure shows (bars, samples)
EXACT = BLUE  #: exact values drawn over them (lines, marks)
HIGHLIGHT = ORANGE  #: the one bar or point the text is about
#: Matplotlib colour maps: diverging around zero (blue above, red below) and sequential; both read in grey.
DIVERGING = "RdBu"
SEQUENTIAL = "viridis"
