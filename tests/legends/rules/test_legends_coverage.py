"""Every rule ID of Legends of Hellas is named by a rule test (its name or docstring)
and has a row in RULE_COVERAGE.md. The IDs come from the repository's docs/legends.md
when it exists, else from the list kept in contract.py (the tests never read anything
outside the repository)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.legends.rules.contract import RULE_IDS

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
DOC = REPO / "docs" / "legends.md"
# A rule is defined where a line starts with its ID (a list item, a bold label or a table row).
ID = re.compile(r"^\s*(?:[-*|]\s*)?(?:\*\*)?(L-[A-Z]+-\d+)\b", re.MULTILINE)
ROW = re.compile(r"^\| (L-[A-Z]+-\d+) \|", re.MULTILINE)


def rule_ids() -> list[str]:
    ids = list(RULE_IDS)
    if DOC.exists():
        for found in ID.findall(DOC.read_text(encoding="utf-8")):
            if found not in ids:
                ids.append(found)
    return ids


def test_texts() -> dict[str, str]:
    """'file::test' -> the test's name and docstring, for every rule test here."""
    out = {}
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                out[f"{path.name}::{node.name}"] = node.name + "\n" + (ast.get_docstring(node) or "")
    return out


test_texts.__test__ = False  # a helper, not a test


def covering(rule: str, texts: dict[str, str]) -> list[str]:
    parts = [re.escape(p) for p in rule.split("-")]
    pattern = re.compile(r"(?<![A-Za-z0-9])" + r"[-_]".join(parts) + r"(?![0-9])")
    return sorted(name for name, text in texts.items() if pattern.search(text))


def test_the_rule_list_has_every_family():
    ids = rule_ids()
    assert len(ids) == len(set(ids)) and len(RULE_IDS) == 73
    families = {i.rsplit("-", 1)[0] for i in ids}
    assert families >= {"L-COMP", "L-VAR", "L-SETUP", "L-TURN", "L-FIGHT", "L-DI", "L-CHIM", "L-ABIL", "L-MOVE",
                        "L-RECOVER", "L-SUPPORT", "L-ORACLE", "L-MISSION", "L-END", "L-INFO"}


def test_every_rule_id_is_named_by_a_test():
    texts = test_texts()
    missing = [rule for rule in rule_ids() if not covering(rule, texts)]
    assert not missing, f"rules no test names: {', '.join(missing)}"


def test_every_rule_id_has_a_row_in_rule_coverage_md():
    rows = ROW.findall((HERE / "RULE_COVERAGE.md").read_text(encoding="utf-8"))
    missing = [rule for rule in rule_ids() if rule not in rows]
    assert not missing, f"RULE_COVERAGE.md lacks rows for: {', '.join(missing)}"
    listed = {rule: row for rule, row in zip(rows, rows)}
    assert len(listed) == len(rows), "a rule has two rows"


def test_every_test_named_in_rule_coverage_md_exists():
    texts = test_texts()
    named = re.findall(r"`(test_legends_\w+\.py::\w+)`", (HERE / "RULE_COVERAGE.md").read_text(encoding="utf-8"))
    assert named
    unknown = [n for n in named if n not in texts]
    assert not unknown, f"RULE_COVERAGE.md names tests that do not exist: {unknown}"


# Where the rules text leaves a detail open, the reading the tests take (shown in the table).
READINGS = {
    "L-COMP-5": "reading: a data file the loader rejects makes replay exit 2 with one line, like a malformed "
                "record; the data file is named relative to the record; a name written twice as a JSON key "
                "repeats (engine: accepted, xfail strict)",
    "L-VAR-3": "reading: the default turn_limit 200 is not played out (the classic data ends a mission by turn "
               "62, L-END-5); defaults are checked by equal states with and without the keys",
    "L-SETUP-3": "reading: 'shuffled' is checked as: the same seed deals the same, different seeds deal differently",
    "L-SETUP-4": "reading: with an explicit setup the hands are as written; the dealing order only matters for "
                 "seed records, whose shuffle the tests cannot know",
    "L-CHIM-1": "reading: played on a data mission `1: C` (L-COMP-5) instead of five classic defeats; the classic "
                "trigger is played in the mission 2 and 8 tests",
    "L-CHIM-3": "the count limit and the count defeat on a data mission `1: C`",
    "L-CHIM-5": "on a data mission `1: 2C`; classic mission 8 in test_legends_missions.py",
    "L-MISSION-6": "reading: 'beneath the discard pile' is its bottom (discard_pile is bottom to top) and the "
                   "chance order is written top to bottom; who is recorded as `by` for those cards is not asserted",
    "L-MISSION-7": "E reaching 6 and the chimera at the 6th defeat are played through; that no normal monster "
                   "enters once E = 6 is seen on slays only (a count defeat at E = 6 is not set up)",
    "L-MISSION-8": "reading: Hades on a data mission `1: H` (the rules make Hades mission 12's H trigger); the "
                   "classic 6th-defeat entry is not played through",
    "L-END-5": "only an explicit turn_limit; the default 200 cannot be reached with the classic data",
    "L-INFO-1": "reading: views keep the state JSON's keys; other hands and unknown pile places may be a number or "
                "a list, a hidden face is `?` in `card`",
    "L-INFO-3": "reading: knowledge is checked as views that differ when a seat can follow a card and are equal "
                "when it cannot; the layout of tracked knowledge is the engine's",
    "L-INFO-5": "what the contract can show: no move outside the notation exists",
    "L-INFO-6": "reading: the project's bots (random, heuristic, ismcts, pimc through hzai.core) stand for "
                "'a seat's bot'; the rules text names none",
}


if __name__ == "__main__":  # regenerate: python -m tests.legends.rules.test_legends_coverage
    texts = test_texts()
    lines = ["# Legends of Hellas: rule coverage", "",
             "Each rule ID of the Legends of Hellas rules and the tests in `tests/legends/rules/` that name it",
             "(regenerate with `python -m tests.legends.rules.test_legends_coverage`; that module checks it).",
             "A *reading* is the literal interpretation taken where the rules text says nothing more.",
             "How much the tests notice a broken rule: `python -m tests.legends.rules.mutants`.", "",
             "| rule | tests | notes |", "|---|---|---|"]
    for rule in rule_ids():
        names = "<br>".join(f"`{n}`" for n in covering(rule, texts))
        lines.append(f"| {rule} | {names} | {READINGS.get(rule, '')} |")
    (HERE / "RULE_COVERAGE.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
