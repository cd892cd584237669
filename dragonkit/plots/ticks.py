"""The tick labels of a matplotlib axis, written in a language (:func:`dragonkit.plots.render.localize_ticks`)."""

from __future__ import annotations

from typing import Any

from matplotlib.ticker import Formatter

from .labels import number_label

__all__ = ["LanguageFormatter"]


class LanguageFormatter(Formatter):
    """An axis's formatter (a :class:`~matplotlib.ticker.ScalarFormatter`) whose labels and offset are
    written in a language (:func:`number_label`): it computes them, this writes them."""

    def __init__(self, inner: Formatter, lang: str | None = None):
        self.inner, self.lang = inner, lang

    def set_axis(self, axis: Any) -> None:
        super().set_axis(axis)
        self.inner.set_axis(axis)

    def set_locs(self, locs: Any) -> None:
        super().set_locs(locs)
        self.inner.set_locs(locs)

    def __call__(self, x: float, pos: int | None = None) -> str:
        return number_label(self.inner(x, pos), self.lang)

    def format_ticks(self, values: Any) -> list[str]:
        return [number_label(label, self.lang) for label in self.inner.format_ticks(values)]

    def get_offset(self) -> str:
        return number_label(self.inner.get_offset(), self.lang)

    def format_data(self, value: float) -> str:
        return number_label(self.inner.format_data(value), self.lang)

    def format_data_short(self, value: float) -> str:
        return number_label(self.inner.format_data_short(value), self.lang)
