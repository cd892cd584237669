"""The kernel budget (dragonkit.server.budget): past the machine's limit, then past a visitor's; impossible
budgets refused; the default from the memory."""

from __future__ import annotations

import pytest

from dragonkit.server.budget import KERNEL_MIB, RESERVE_MIB, KernelBudget, default_max_kernels


def test_the_budget_refuses_past_the_machines_limit_then_past_a_visitors():
    budget = KernelBudget(max_kernels=5, per_client=2)
    assert budget.refusal(kernels=4, of_client=1) is None
    assert budget.refusal(kernels=4, of_client=2) == "client"
    assert budget.refusal(kernels=5, of_client=0) == "full"
    assert KernelBudget(max_kernels=4).refusal(kernels=3, of_client=3) is None  # the visitor's limit, 10, is above
    assert KernelBudget(0, 0).refusal(kernels=500, of_client=500) is None  # 0: no limit


@pytest.mark.parametrize(
    "fields, error",
    [
        ({"max_kernels": -1}, "max_kernels must be a whole number"),
        ({"max_kernels": 4, "per_client": True}, "per_client must be a whole number"),
        ({"max_kernels": 2.5}, "max_kernels must be a whole number"),
    ],
)
def test_an_impossible_budget_is_refused(fields, error):
    with pytest.raises(ValueError, match=error):
        KernelBudget(**fields)


def test_the_default_budget_is_what_the_memory_holds(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:   16777216 kB\n")  # 16 GiB available
    assert default_max_kernels(meminfo) == (16 * 1024 - RESERVE_MIB) // KERNEL_MIB == 96
    meminfo.write_text("MemAvailable:   1048576 kB\n")  # 1 GiB: the reserve alone
    assert default_max_kernels(meminfo) == 2
    assert default_max_kernels(tmp_path / "missing") == 64
