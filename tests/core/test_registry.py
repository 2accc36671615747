"""Games are found through the `hzai.games` entry points (pyproject.toml), which the
core reads without importing any game by name; a source tree's pyproject.toml is read
too, so a run from a tree that was not reinstalled still finds the built-in games."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint

import pytest

from hzai.core import make_game, registry
from hzai.core.registry import GROUP, UnknownGameError

REPO_PYPROJECT = registry._SOURCE_TREE


def test_the_built_in_games_are_declared_under_their_own_names():
    declared = registry.declared_games()
    assert {"hera_zeus", "legends"} <= set(declared)
    for name in ("hera_zeus", "legends"):
        assert declared[name].group == GROUP
        assert make_game(name).name == name, "the entry point's name is the game's"


def test_the_installed_distribution_declares_the_games():
    """pip install writes pyproject's entry points into the installed metadata."""
    from importlib.metadata import entry_points

    installed = {ep.name: ep.value for ep in entry_points(group=GROUP)}
    assert installed.get("hera_zeus") == "hzai.games.hera_zeus:make"
    assert installed.get("legends") == "hzai.games.legends:make"


def test_the_source_tree_declares_the_same_games(tmp_path):
    assert REPO_PYPROJECT.is_file()
    from_tree = {ep.name: ep.value for ep in registry._source_tree_entry_points()}
    # One entry point for each game package of the tree, found by its folder (no list of names here).
    folders = sorted(p.parent.name for p in (REPO_PYPROJECT.parent / "hzai" / "games").glob("*/__init__.py"))
    assert {"hera_zeus", "legends"} <= set(folders)
    assert from_tree == {name: f"hzai.games.{name}:make" for name in folders}
    other = tmp_path / "pyproject.toml"
    other.write_text('[project]\nname = "other"\n[project.entry-points."hzai.games"]\nx = "m:f"\n', encoding="utf-8")
    assert registry._source_tree_entry_points(other) == [], "another project's file is not hzai's"
    assert registry._source_tree_entry_points(tmp_path / "missing.toml") == []
    broken = tmp_path / "broken.toml"
    broken.write_text("[project\n", encoding="utf-8")
    assert registry._source_tree_entry_points(broken) == []


def test_a_declared_game_is_loaded_on_first_use(monkeypatch, tmp_path):
    module = tmp_path / "hzai_registry_probe.py"
    module.write_text("LOADED = []\ndef make(**params):\n    LOADED.append(params)\n    return ('probe', params)\n",
                      encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    declared = dict(registry.declared_games())
    declared["probe-game"] = EntryPoint("probe-game", "hzai_registry_probe:make", GROUP)
    monkeypatch.setattr(registry, "declared_games", lambda: declared)
    monkeypatch.delitem(registry._FACTORIES, "probe-game", raising=False)
    assert "probe-game" in registry.game_names()
    assert "hzai_registry_probe" not in sys.modules, "naming the games loads none"
    assert make_game("probe-game", a=1) == ("probe", {"a": 1})
    assert make_game("probe-game") == ("probe", {})
    assert sys.modules["hzai_registry_probe"].LOADED == [{"a": 1}, {}]
    registry._FACTORIES.pop("probe-game")
    monkeypatch.delitem(sys.modules, "hzai_registry_probe")


def test_an_unknown_name_lists_the_declared_games():
    with pytest.raises(UnknownGameError, match="registered: .*hera_zeus.*legends"):
        make_game("chess")
    with pytest.raises(UnknownGameError, match="unknown game"):
        make_game(None)
