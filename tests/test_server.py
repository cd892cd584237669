"""The classroom server's parts that need no server: the kernel budget and the page of a refused visitor."""

from __future__ import annotations

import re

import pytest

from dragonkit.server.budget import KERNEL_MIB, RESERVE_MIB, KernelBudget, default_max_kernels
from dragonkit.server.pages import STATUS, refusal_page


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


@pytest.mark.parametrize(
    "reason, query, lang, title",
    [
        ("full", "", "en", "The class is full"),
        ("full", "lang=it", "it", "La classe è al completo"),
        ("client", "", "en", "Too many pages at once"),
        ("client", "x=1&lang=it", "it", "Troppe pagine aperte insieme"),
    ],
)
def test_a_refused_visitor_gets_a_short_page_in_their_language(reason, query, lang, title):
    page = refusal_page(reason, {"QUERY_STRING": query}, retry=60)
    assert f'<html lang="{lang}">' in page and f"<h1>{title}</h1>" in page
    assert '<meta http-equiv="refresh" content="60">' in page and re.search(r'<a href="">\w+( \w+)?</a>', page)
    assert "<main>" in page and "http" not in page.replace('http-equiv="refresh"', "")  # nothing from outside
    assert STATUS[reason] in (429, 503)


def test_the_servers_language_is_the_default_of_the_page():
    page = refusal_page("full", {"QUERY_STRING": "", "DRAGONKIT_LANG": "it"})
    assert '<html lang="it">' in page and "Riprova" in page
    with pytest.raises(KeyError):
        refusal_page("busy", {})
