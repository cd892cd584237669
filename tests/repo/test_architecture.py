"""docs/architecture.md tells the layers as the import-linter contract of ``pyproject.toml`` keeps them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_layers_table_names_the_contract_s_layers_in_its_order():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "layers"]
    contract = [name.strip(" ()") for layer in layers for name in layer.split("|")]
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("## The layers", 1)[1].split("```mermaid", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \|", table, flags=re.M)
    documented = [name.strip() for row in rows for name in row.replace("\\|", "|").split("|")]
    assert documented == contract
