"""How many kernels a class may start: a budget for the machine and one for each visitor.

Every page of the kit runs its own kernel (about 90 MiB for the play app, 135 MiB once a game's end
has drawn its figure), so a machine's memory bounds a class, and one visitor reloading a page in a
loop must not take the others' share.  The budget is checked before a page starts (or takes from
the pool) a kernel; what it refuses costs the server a short page, not a kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..rules import whole_number

__all__ = ["KERNEL_MIB", "KernelBudget", "default_max_kernels"]

#: Memory to plan per kernel (MiB): a play app after a whole game, with room to spare.
KERNEL_MIB = 160

#: Memory left to the server, the system and the browser of a teacher on the same machine (MiB).
RESERVE_MIB = 1024


def default_max_kernels(meminfo: Path = Path("/proc/meminfo"), kernel_mib: int = KERNEL_MIB) -> int:
    """The kernels the machine's memory holds: its available memory less a reserve, over ``kernel_mib``.

    Parameters
    ----------
    meminfo : Path
        Linux's ``/proc/meminfo`` (its ``MemAvailable`` line, in kB).
    kernel_mib : int
        Memory planned per kernel (MiB).

    Returns
    -------
    int
        At least 2; 64 where the memory cannot be read (not Linux).
    """
    try:
        fields = dict(line.split(":", 1) for line in meminfo.read_text().splitlines() if ":" in line)
        available_mib = int(fields["MemAvailable"].split()[0]) // 1024
    except (OSError, KeyError, ValueError):
        return 64
    return max(2, (available_mib - RESERVE_MIB) // kernel_mib)


@dataclass(frozen=True)
class KernelBudget:
    """The kernels a server may run.

    Attributes
    ----------
    max_kernels : int
        Kernels on the machine, the preheated pool's included (0: no limit).
    per_client : int
        Kernels of one visitor's address (0: no limit): a student's open pages, the play app and a
        lesson or two, and the pages they reloaded in the last minute.

    Raises
    ------
    ValueError
        If a limit is negative or not a whole number.
    """

    max_kernels: int
    per_client: int = 10

    def __post_init__(self) -> None:
        for name in ("max_kernels", "per_client"):
            object.__setattr__(self, name, whole_number(getattr(self, name), name, minimum=0))

    def refusal(self, kernels: int, of_client: int) -> str | None:
        """Why a page may not start a kernel now, or None if it may.

        Parameters
        ----------
        kernels : int
            Kernels running or being started for a page, the pool's included.
        of_client : int
            Those of the visitor asking (their address's).

        Returns
        -------
        str or None
            ``"full"`` (the machine's budget is spent), ``"client"`` (this visitor's is), or None.
        """
        if self.max_kernels and kernels >= self.max_kernels:
            return "full"
        if self.per_client and of_client >= self.per_client:
            return "client"
        return None
