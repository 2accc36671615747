"""Every rule of RULES.md is named by at least one rule test (its name or docstring)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
RULES = REPO / ".." / "shared" / "RULES.md"

# A rule is defined by a list item that starts with its ID: "- R-CH-3. ..." / "- R-ACT-1 Draw."
RULE_LINE = re.compile(r"^- (R-[A-Z]+-[A-Z]?\d+)\b", re.MULTILINE)
VARIANT_ROW = re.compile(r"^\| (\w+) \| .+\| .+\|$", re.MULTILINE)


def rule_ids() -> list[str]:
    text = RULES.read_text(encoding="utf-8")
    ids = RULE_LINE.findall(text)
    if "(R-VAR)" in text:
        ids.append("R-VAR")
    return ids


def variant_names() -> list[str]:
    text = RULES.read_text(encoding="utf-8")
    section = text[text.index("(R-VAR)"):]
    return [name for name in VARIANT_ROW.findall(section) if name != "name"]


def collect_texts() -> dict[str, str]:
    """'file::test name' -> name and docstring of every rule test."""
    out = {}
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                out[f"{path.name}::{node.name}"] = node.name + "\n" + (ast.get_docstring(node) or "")
    return out


def id_pattern(rule: str) -> re.Pattern:
    parts = [re.escape(p) for p in rule.split("-")]
    return re.compile(r"(?<![A-Za-z0-9])" + r"[-_]".join(parts) + r"(?![0-9])")


def covering(rule: str, texts: dict[str, str]) -> list[str]:
    pattern = id_pattern(rule)
    return [name for name, text in texts.items() if pattern.search(text)]


def test_rules_md_is_found_and_parsed():
    ids = rule_ids()
    assert len(ids) >= 50, "RULES.md moved or its format changed"
    for sample in ("R-DECK-1", "R-PEG-H2", "R-PEG-3", "R-INFO-4", "R-VAR"):
        assert sample in ids
    assert set(variant_names()) >= {"first_player", "figure_removal", "pythia_defence", "turn_limit", "deck"}


def test_every_rule_id_has_a_test():
    texts = collect_texts()
    missing = [rule for rule in rule_ids() if not covering(rule, texts)]
    assert not missing, f"rules without a test naming them: {', '.join(missing)}"


def test_every_variant_has_a_test():
    texts = {k: v for k, v in collect_texts().items() if re.search(r"R[-_]VAR", v)}
    missing = [name for name in variant_names() if not any(name in text for text in texts.values())]
    assert not missing, f"variants without an R-VAR test naming them: {', '.join(missing)}"


def test_every_rule_id_has_a_row_in_rule_coverage_md():
    table = (HERE / "RULE_COVERAGE.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| (R-[A-Z]+(?:-[A-Z]?\d+)?) \|", table, re.MULTILINE))
    missing = [rule for rule in rule_ids() if rule not in rows]
    assert not missing, f"RULE_COVERAGE.md lacks rows for: {', '.join(missing)}"


if __name__ == "__main__":  # regenerate RULE_COVERAGE.md: python -m tests.rules.test_coverage
    texts = collect_texts()
    lines = ["# Rule coverage", "",
             "Each rule ID of `../shared/RULES.md` and the tests in `tests/rules/` that name it",
             "(regenerate with `python -m tests.rules.test_coverage`; `test_coverage.py` checks it).", "",
             "| rule | tests |", "|---|---|"]
    for rule in rule_ids():
        names = covering(rule, texts)
        if rule == "R-VAR":
            names = [n for n in names if n.startswith("test_variants.py")]
        lines.append(f"| {rule} | " + "<br>".join(f"`{n}`" for n in sorted(set(names))) + " |")
    (HERE / "RULE_COVERAGE.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
