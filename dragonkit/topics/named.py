"""The policies the lessons offer by name.

* :func:`named_policy` — ``"threshold"``, ``"cautious"``, ``"greedy"`` or ``"optimal"``;
* :func:`menu_policy` — a menu's choice, ``"optimal"`` or a threshold in gems.
"""

from __future__ import annotations

from collections.abc import Callable

from ..analysis.turn.policies import HoldAfterReveals, HoldAtPot, NeverHold, OptimalPolicy, Policy

__all__ = ["NAMED", "menu_policy", "named_policy"]


#: The named policies of the lessons: key -> a factory.
NAMED: dict[str, Callable[[], Policy]] = {
    "cautious": lambda: HoldAfterReveals(1),
    "greedy": NeverHold,
    "optimal": OptimalPolicy,
}


def named_policy(kind: str, threshold: int = 1) -> Policy:
    """A policy by name: ``"threshold"`` (hold at ``threshold`` gems), ``"cautious"``
    (hold after one card), ``"greedy"`` (never hold) or ``"optimal"``.

    Raises
    ------
    ValueError
        For another name, or a threshold that is not a whole number >= 0.
    """
    if kind == "threshold":
        return HoldAtPot(threshold)
    if kind not in NAMED:
        raise ValueError(f"policy must be one of threshold, {', '.join(NAMED)}, not {kind!r}")
    return NAMED[kind]()


def menu_policy(choice: str | int) -> Policy:
    """A policy as the lessons' menus name it — ``"optimal"`` or a threshold h (gems) —
    as :class:`~dragonkit.analysis.OptimalPolicy` or :class:`~dragonkit.analysis.HoldAtPot`.

    Raises
    ------
    ValueError
        For anything else.
    """
    return OptimalPolicy() if choice == "optimal" else HoldAtPot(choice)  # type: ignore[arg-type]
