"""hzai.core names no game: it imports only itself and the small utilities beside it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hzai.core import Limits, make_game, register_game
from hzai.core.registry import UnknownGameError

CORE = Path(__file__).resolve().parents[2] / "hzai" / "core"


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_core_imports_no_game_and_no_algorithm():
    files = sorted(CORE.glob("*.py"))
    assert len(files) >= 6
    for path in files:
        for name in _imports(path):
            if name.startswith("hzai"):
                assert name.startswith(("hzai.core", "hzai.text")), f"{path.name} imports {name}"


def test_unknown_game_names_the_registered_ones():
    with pytest.raises(UnknownGameError, match="hera_zeus"):
        make_game("chess")


def test_registering_a_factory():
    register_game("core-test-game", lambda **p: ("made", p))
    assert make_game("core-test-game", x=1) == ("made", {"x": 1})


def test_limits_live_in_the_core():
    assert str(Limits(iterations=5, millis=3)) == "5 iterations, 3 ms"
