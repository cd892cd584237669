"""Markdown with formulas into HTML with MathML (dragonkit/paper/markdown.py)."""

from __future__ import annotations

from dragonkit.paper.markdown import markdown_html


def test_formulas_become_mathml_and_the_rest_the_pages_html():
    markdown = "## The break-even pot\n\nIt is $p^*$:\n$$p^* = \\frac{342 - 130}{13}$$\n\n| a |\n|---|\n| 1 |"
    html = markdown_html(markdown)
    assert "<h2>The break-even pot</h2>" in html  # no anchor link on paper
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><msup>' in html
    assert 'display="block"' in html and "<mfrac>" in html
    assert "<table>" in html and "$" not in html
