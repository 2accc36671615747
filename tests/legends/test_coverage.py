"""Every rule of docs/legends.md is named by at least one test under tests/legends/
(its name or docstring, any subfolder included), and every rule ID the docs mention is
defined there. Modelled on tests/rules/test_coverage.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.rules.test_coverage import (
    id_pattern,  # "L-FIGHT-3" or "L_FIGHT_3" in a test's name
)

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DOC = REPO / "docs" / "legends.md"

RULE_LABEL = re.compile(r"^\*\*(L-[A-Z]+-\d+)\*\*", re.MULTILINE)  # "**L-FIGHT-3** A card ..."
RULE_MENTION = re.compile(r"\bL-[A-Z]+-\d+\b")


def rule_ids() -> list[str]:
    return RULE_LABEL.findall(DOC.read_text(encoding="utf-8"))


def collect_texts() -> dict[str, str]:
    """'file::test name' -> the name and docstring of every test function."""
    out = {}
    for path in sorted(HERE.rglob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                out[f"{path.relative_to(HERE)}::{node.name}"] = node.name + "\n" + (ast.get_docstring(node) or "")
    return out


def test_the_rules_are_found_and_defined_once():
    ids = rule_ids()
    assert len(ids) == 73, f"docs/legends.md defines {len(ids)} rules, expected the 73 of the rules text"
    assert len(set(ids)) == len(ids)
    for sample in ("L-COMP-1", "L-FIGHT-3", "L-MISSION-9", "L-INFO-6"):
        assert sample in ids


def test_every_rule_mentioned_is_defined():
    ids = set(rule_ids())
    unknown = sorted({m for m in RULE_MENTION.findall(DOC.read_text(encoding="utf-8")) if m not in ids})
    assert not unknown, f"docs/legends.md mentions undefined rules: {', '.join(unknown)}"


def test_every_rule_id_has_a_test():
    texts = collect_texts()
    missing = [rule for rule in rule_ids() if not any(id_pattern(rule).search(t) for t in texts.values())]
    assert not missing, f"rules without a test naming them: {', '.join(missing)}"


def test_the_engine_cites_only_defined_rules():
    ids = set(rule_ids())
    cited = set()
    for path in (REPO / "hzai" / "games" / "legends").glob("*.py"):
        cited |= set(RULE_MENTION.findall(path.read_text(encoding="utf-8")))
    assert cited and not cited - ids, f"the engine cites undefined rules: {sorted(cited - ids)}"
