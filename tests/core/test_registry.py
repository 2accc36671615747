"""hzai's games are found by their folders (each package under hzai/games/ that assembles
a game, read as text, none imported); another distribution's games by its `hzai.games`
entry points; a name given to two different factories is an error that names both."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hzai.core import make_game, registry
from hzai.core.registry import GROUP, DuplicateGameError, NotAGameError, UnknownGameError

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_declarations():
    """declared_games() read again for the test, and again after it (the sys.path the
    test changed is restored by then)."""
    registry.declared_games.cache_clear()
    yield
    registry.declared_games.cache_clear()


def _distribution(root: Path, name: str, games: dict[str, str]) -> None:
    """An installed distribution `name` in `root` (its .dist-info) declaring `games`."""
    info = root / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    lines = "".join(f"{game} = {value}\n" for game, value in games.items())
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{lines}", encoding="utf-8")


def test_every_game_folder_is_a_game_under_its_folders_name():
    folders = sorted(p.parent.name for p in registry.GAMES_FOLDER.glob("*/__init__.py")
                     if "assemble(" in p.read_text(encoding="utf-8"))
    assert {"hera_zeus", "legends"} <= set(folders) and len(folders) >= 3
    declared = registry.declared_games()
    for name in folders:
        assert declared[name].value == f"hzai.games.{name}:make"
        assert declared[name].group == GROUP
        assert make_game(name).name == name, "the folder's name is the game's"


def test_the_folders_are_found_without_any_installed_metadata(monkeypatch, fresh_declarations):
    """A fresh install writes no `hzai.games` entry point for hzai's own games (an old one's
    metadata may still list them, with the same factories): the folders alone name them."""
    monkeypatch.setattr(registry, "entry_points", lambda group: [])
    assert set(registry.declared_games()) == set(registry.folder_games()) >= {"hera_zeus", "legends"}
    assert all(point.dist is None for point in registry.declared_games().values())


def test_pyproject_lists_no_game_of_the_tree():
    """Issue 45: a new game edits no shared list; hzai's own entry point table is gone."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "hzai"
    assert GROUP not in project.get("entry-points", {}), project.get("entry-points")


def test_naming_the_games_imports_none():
    code = ("import sys; from hzai.core import registry; names = registry.game_names(); "
            "games = sorted(m for m in sys.modules if m.startswith('hzai.games.')); "
            "print(','.join(names)); print(','.join(games))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True,
                         cwd=REPO).stdout.splitlines()
    assert set(registry.folder_games()) <= set(out[0].split(",")) and "hera_zeus" in out[0]
    assert out[1] == "", f"listing the games imported {out[1]}"


def test_a_folder_is_a_game_when_its_package_assembles_one(tmp_path, monkeypatch):
    games = tmp_path / "probe_games"
    packages = {
        "alpha": "from hzai.core.game import assemble\nclass G: pass\nassemble(G)\ndef make(**p):\n    return ('alpha', p)\n",
        "beta": "import hzai.core.game as core\nfrom probe_games.alpha import make as make\ncore.assemble(object)\n",
        "gamma": "from hzai.core.game import assemble\nGame = assemble(object)\nmake = lambda: 'gamma'\n",
        "helpers": "def make():\n    return 'not a game: it assembles nothing'\n",
        "inside": "def f():\n    assemble(object)\nmake = f\n",  # a call inside a function assembles nothing here
        "lacking": "from hzai.core.game import assemble\nassemble(object)\n",
        "broken": "assemble(\n",
        "_private": "assemble(object)\nmake = 1\n",
    }
    for name, text in packages.items():
        (games / name).mkdir(parents=True)
        (games / name / "__init__.py").write_text(text, encoding="utf-8")
    (games / "no_init").mkdir()
    (games / "no-name").mkdir()
    (games / "no-name" / "__init__.py").write_text("assemble(object)\nmake = 1\n", encoding="utf-8")
    (games / "notes.py").write_text("assemble(object)\nmake = 1\n", encoding="utf-8")
    found = registry.folder_games(games, "probe_games")
    assert {name: point.value for name, point in found.items()} == {
        "alpha": "probe_games.alpha:make", "beta": "probe_games.beta:make", "gamma": "probe_games.gamma:make",
        "lacking": "probe_games.lacking", "broken": "probe_games.broken:make"}
    assert not any(m.startswith("probe_games") for m in sys.modules), "read as text, not imported"
    assert registry.folder_games(tmp_path / "missing") == {}

    monkeypatch.setattr(registry, "declared_games", lambda: found)
    with pytest.raises(NotAGameError, match=r"game 'lacking': probe_games.lacking assembles a game, but .* no `make`"):
        make_game("lacking")
    assert "lacking" not in registry._FACTORIES
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(NotAGameError, match=r"game 'broken': cannot import probe_games.broken:make \(the folder "
                                            r"probe_games/broken/\): SyntaxError"):
        make_game("broken")  # listed (unreadable), and making it says which folder fails and why
    assert "broken" not in registry._FACTORIES
    for name in [m for m in sys.modules if m.startswith("probe_games")]:
        monkeypatch.delitem(sys.modules, name)


def test_another_distributions_game_is_loaded_on_first_use(tmp_path, monkeypatch, fresh_declarations):
    folder_game = sorted(registry.folder_games())[-1]
    (tmp_path / "hzai_registry_probe.py").write_text(
        "LOADED = []\ndef make(**params):\n    LOADED.append(params)\n    return ('probe', params)\n", encoding="utf-8")
    _distribution(tmp_path, "probe_dist", {"probe-game": "hzai_registry_probe:make",
                                           folder_game: f"hzai.games.{folder_game}:make"})  # as an old hzai's own metadata
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(registry._FACTORIES, "probe-game", raising=False)
    declared = registry.declared_games()
    assert declared["probe-game"].dist.name == "probe_dist"
    assert declared[folder_game].dist is None, "the folder's declaration stands: the same game"
    assert "probe-game" in registry.game_names()
    assert "hzai_registry_probe" not in sys.modules, "naming the games loads none"
    assert make_game("probe-game", a=1) == ("probe", {"a": 1})
    assert make_game("probe-game") == ("probe", {})
    assert sys.modules["hzai_registry_probe"].LOADED == [{"a": 1}, {}]
    registry._FACTORIES.pop("probe-game")
    monkeypatch.delitem(sys.modules, "hzai_registry_probe")


def test_a_name_given_to_two_factories_is_an_error_naming_both(tmp_path, monkeypatch, fresh_declarations):
    game = sorted(registry.folder_games())[0]
    _distribution(tmp_path / "a", "shadow_dist", {game: "shadow:make"})
    monkeypatch.syspath_prepend(str(tmp_path / "a"))
    with pytest.raises(DuplicateGameError, match=rf"game '{game}' is declared twice: the folder hzai/games/{game}/ "
                                                 rf"makes it with hzai.games.{game}:make, distribution shadow_dist's "
                                                 r"entry point with shadow:make"):
        registry.declared_games()
    monkeypatch.syspath_prepend(str(tmp_path / "b"))
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(tmp_path / "a")])
    _distribution(tmp_path / "b", "first_dist", {"twice": "one:make"})
    _distribution(tmp_path / "b", "second_dist", {"twice": "two:make"})
    registry.declared_games.cache_clear()
    with pytest.raises(DuplicateGameError, match=r"game 'twice' is declared twice: distribution \w+_dist's entry "
                                                 r"point makes it with (one|two):make"):
        registry.declared_games()


def test_the_command_line_says_the_duplicate_in_one_line(tmp_path):
    game = sorted(registry.folder_games())[0]
    _distribution(tmp_path, "shadow_dist", {game: "shadow:make"})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "hzai.cli", "--help"], capture_output=True, text=True, timeout=60,
                          env=env, cwd=REPO)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [f"hzai: game '{game}' is declared twice: the folder hzai/games/{game}/ makes "
                                        f"it with hzai.games.{game}:make, distribution shadow_dist's entry point "
                                        f"with shadow:make; rename one of them"], proc.stderr


def test_an_unknown_name_lists_the_games():
    with pytest.raises(UnknownGameError, match="registered: .*hera_zeus.*legends"):
        make_game("chess")
    with pytest.raises(UnknownGameError, match="unknown game"):
        make_game(None)
