"""A game's rules never import its other parts (hzai.core.game: the Game in parts): its
search support, its native twin, its beliefs, its service or its presentation, directly
or through another module, lazily or not. The import graph is tests/test_imports.py's
(every import statement anywhere in a module, and the library's late imports). Nor do
they reach those parts at run time through the game they are handed: no rules module
reads a part (`game.search`, ...) or the capabilities read from them."""

from __future__ import annotations

import ast

import pytest

from hzai.core import make_game
from hzai.core.registry import folder_games
from tests.test_imports import imports_of, layer, modules


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found) | {"hzai._native"}
    graph = {name: imports_of(name, path, known) for name, path in found.items()}
    graph["hzai._native"] = set()
    return graph


# Each game's rules: the modules below its Game's other parts (records, search support,
# model, presentation), which its package assembles (hzai/games/<game>/__init__.py).
# Hera and Zeus' card kinds and action blocks are read from the table file it shares with
# its C++ twin (native/tables.py, a text reader): rules data, no compiled code.
RULES = {
    "hera_zeus": ("hzai.games.hera_zeus.rules", "hzai.games.hera_zeus.cards", "hzai.games.hera_zeus.native.tables"),
    "legends": tuple(f"hzai.games.legends.{name}" for name in ("game", "rules", "state", "table", "moves", "data",
                                                                 "record")),
}


# Any other game folder (hzai.core.registry.folder_games: Toss-up, a later one) without
# editing this file: its rules are the module that defines its Game class.
for _name, _point in folder_games().items():
    if _name not in RULES:
        RULES[_name] = (type(make_game(_name)).__module__,)


TABLE_READERS = {"hzai.native.tables"}  # game-free: reads a table file, imports no compiled code


def is_rules(game: str, module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in RULES[game])


def rules_escapes(graph: dict[str, set[str]], game: str) -> list[str]:
    """Every path by which a rules module of `game` reaches, by any import (lazy ones
    too), a module that is neither its rules nor the game-free core and utilities: its
    search support, native twin, beliefs, service or presentation, or any other game."""
    found = []
    for start in sorted(m for m in graph if is_rules(game, m)):
        seen, stack = {start: [start]}, [start]
        while stack:
            node = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt in seen:
                    continue
                seen[nxt] = seen[node] + [nxt]
                if is_rules(game, nxt):
                    stack.append(nxt)
                elif (layer(nxt) > 1 and nxt not in TABLE_READERS) or nxt == "hzai._native":
                    found.append(" -> ".join(seen[nxt]))
    return found


@pytest.mark.parametrize("game", sorted(RULES))
def test_a_games_rules_never_import_its_other_parts(graph, game):
    assert [m for m in graph if is_rules(game, m)], f"no rules modules of {game} found"
    assert rules_escapes(graph, game) == []


def test_the_rules_check_sees_a_lazy_import_two_modules_down():
    doctored = {"hzai.games.hera_zeus.rules.game": {"hzai.games.hera_zeus.rules.state", "hzai.core.game"},
                "hzai.games.hera_zeus.rules.state": {"hzai.games.hera_zeus.presentation"},
                "hzai.games.hera_zeus.presentation": set(), "hzai.core.game": set()}
    assert rules_escapes(doctored, "hera_zeus") == [
        "hzai.games.hera_zeus.rules.game -> hzai.games.hera_zeus.rules.state -> hzai.games.hera_zeus.presentation",
        "hzai.games.hera_zeus.rules.state -> hzai.games.hera_zeus.presentation"]
    assert rules_escapes({"hzai.games.legends.state": {"hzai._native"}}, "legends") == [
        "hzai.games.legends.state -> hzai._native"]


# The Game's members that are its other parts, or read from them (tests/core/test_parts.py's ASSEMBLY).
PARTS = ("records", "search", "model", "presentation", "capabilities")


def part_reads(source: str) -> list[str]:
    """Each `X.<part>` a module's code reads, with its line (docstrings and comments are
    no code)."""
    return [f"{node.lineno}: {ast.unparse(node)}" for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr in PARTS]


@pytest.mark.parametrize("game", sorted(RULES))
def test_a_games_rules_never_reach_its_other_parts(game):
    """Such as a State whose view is asked of `game.search` (its view is the core State's,
    which asks the search support) or that names a seat through `game.presentation`."""
    found = {name: part_reads(path.read_text(encoding="utf-8")) for name, path in modules().items()
             if is_rules(game, name)}
    assert found and {name: reads for name, reads in found.items() if reads} == {}


def test_the_part_check_sees_a_read_in_code_only():
    source = ('"""Asks game.search in words."""\n'
              "def view(self, seat):\n"
              "    # not game.presentation either\n"
              "    return self.game.search.view_of(self, self.game.presentation.seat_index(seat))\n")
    assert part_reads(source) == ["4: self.game.search", "4: self.game.presentation"]
