"""Every rule of docs/rules.md is named by at least one rule test (its name or docstring),
and tests/rules/RULE_COVERAGE.md has a row for it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
RULES = REPO / "docs" / "rules.md"

# A rule is defined by a paragraph that starts with its ID in bold: "**R-CH-3** Both cards ..."
RULE_LABEL = re.compile(r"^\*\*(R-[A-Z]+(?:-[A-Z]?\d+)?)\*\*", re.MULTILINE)
# Any mention of a rule or of a family of rules: "R-CH-3", "R-PEG-H1", "R-PEG"
RULE_MENTION = re.compile(r"\bR-[A-Z]+(?:-[A-Z]?\d+)?\b")
VARIANT_ROW = re.compile(r"^\| (\w+) \| .+\| .+\|$", re.MULTILINE)


def rules_text() -> str:
    return RULES.read_text(encoding="utf-8")


def rule_ids() -> list[str]:
    return RULE_LABEL.findall(rules_text())


def variant_names() -> list[str]:
    text = rules_text()
    section = text[text.index("(R-VAR)"):]
    section = section.split("\n## ", 1)[0]
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
    assert len(ids) >= 50, "docs/rules.md lost rules, or its rule labels changed format"
    for sample in ("R-DECK-1", "R-PEG-H2", "R-PEG-3", "R-INFO-4", "R-VAR"):
        assert sample in ids
    assert len(ids) == len(set(ids)), f"rules defined twice: {sorted({i for i in ids if ids.count(i) > 1})}"
    assert set(variant_names()) >= {"first_player", "figure_removal", "pythia_defence", "turn_limit", "deck"}


def test_every_rule_mentioned_in_rules_md_is_defined_there():
    """A cross-reference names a defined rule, or a family whose rules are defined."""
    ids = set(rule_ids())
    families = {i.rsplit("-", 1)[0] for i in ids} | {re.sub(r"\d+$", "", i) for i in ids}
    unknown = sorted({m for m in RULE_MENTION.findall(rules_text()) if m not in ids and m not in families})
    assert not unknown, f"docs/rules.md mentions undefined rules: {', '.join(unknown)}"


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
             "Each rule ID of [docs/rules.md](../../docs/rules.md) and the tests in `tests/rules/` that name it",
             "(regenerate with `python -m tests.rules.test_coverage`; `test_coverage.py` checks it).", "",
             "| rule | tests |", "|---|---|"]
    for rule in rule_ids():
        names = covering(rule, texts)
        if rule == "R-VAR":
            names = [n for n in names if n.startswith("test_variants.py")]
        lines.append(f"| {rule} | " + "<br>".join(f"`{n}`" for n in sorted(set(names))) + " |")
    (HERE / "RULE_COVERAGE.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
