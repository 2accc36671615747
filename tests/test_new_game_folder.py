"""A game is one folder (issue 45): Toss-up, the example game with a C++ twin
(hzai/games/tossup), was added by files inside its folder only, plus its tests and the
docs that describe it. The registry finds the game by its folder (hzai.core.registry),
and the build's lists of games are globbed and generated (CMakeLists.txt,
native_games.hpp.in), so no shared source or list names a game, pyproject.toml included;
and docs/architecture.md's counts of what a new game touches are this folder's.

tests/native/test_tossup.py shows that it plays (the twin against the reference, the
searches, the arena, self-play, a server)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GAME = "tossup"
FOLDER = REPO / "hzai" / "games" / GAME
# The files outside the folder that may name the game, and why: its tests, and the prose
# that describes it as the example (no list: the registry finds the folder).
OUTSIDE = {
    "tests/native/test_tossup.py": "its tests",
    "tests/search/test_arena_game.py": "hzai arena --game's example of a game other than the default",
    "tests/web/test_game_list_browser.py": "the page's example of a game it has no drawing of",
    "tests/test_new_game_folder.py": "this test",
    "docs/architecture.md": "the example of (d) a new game",
    "docs/native.md": "the example of a new game's twin",
    "README.md": "the newcomer's pointer to the example game",
}
SKIP_DIRS = {".git", "build", "node_modules", "__pycache__", ".pytest_cache", "dist"}


def _repository_files() -> list[Path]:
    """Every file of the source tree (tracked or not, ignored ones left out: what a
    commit can hold); without git, every file outside the build's folders."""
    try:
        listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO, capture_output=True,
                                text=True, timeout=30, check=True).stdout.splitlines()
        return [REPO / name for name in listed if (REPO / name).is_file()]
    except (OSError, subprocess.SubprocessError):
        return [p for p in REPO.rglob("*") if p.is_file() and not SKIP_DIRS & set(p.relative_to(REPO).parts)]


def _naming(files: list[Path], word: str) -> set[str]:
    needle = word.encode()
    out = set()
    for path in files:
        if path.stat().st_size > 4_000_000:
            continue
        if needle in path.read_bytes().lower():
            out.add(path.relative_to(REPO).as_posix())
    return out


@pytest.fixture(scope="module")
def files() -> list[Path]:
    return _repository_files()


def test_the_game_is_named_outside_its_folder_only_where_expected(files):
    inside = f"hzai/games/{GAME}/"
    outside = {name for name in _naming(files, GAME) if not name.startswith(inside)}
    assert outside <= set(OUTSIDE), f"files outside {inside} that name the game: {sorted(outside - set(OUTSIDE))}"
    assert "pyproject.toml" not in outside, "the registry finds the game's folder: no entry point line"


def test_the_registry_finds_the_game_by_its_folder():
    from hzai.core import make_game, registry

    assert registry.folder_games()[GAME].value == f"hzai.games.{GAME}:make"
    assert make_game(GAME).name == GAME


def test_no_shared_source_lists_the_games_with_a_twin(files):
    """The build finds each twin by its folder and generates the registration calls: no
    source outside a game's folder names its register_<game> (0 lists to edit; the docs
    may)."""
    games = sorted(p.parent.name for p in (REPO / "hzai" / "games").glob("*/native") if list(p.glob("*bindings.cpp")))
    assert GAME in games and "legends" in games and "hera_zeus" in games
    for game in games:
        named = {n for n in _naming(files, f"register_{game}") if not n.endswith(".md")}
        assert named, f"register_{game} is defined in its folder"
        assert all(n.startswith(f"hzai/games/{game}/") for n in named), (game, sorted(named))
    cmake = (REPO / "CMakeLists.txt").read_text()
    assert "hzai/games/*/native" in cmake and "native_games.hpp.in" in cmake  # the glob and the generated list


def test_the_built_module_registered_the_twin_from_its_folder():
    native = pytest.importorskip("hzai._native")
    assert {"TossupGame", "TossupSearch", "TossupPimc", "TossupMoSearch"} <= set(dir(native))


def _folder_files() -> list[str]:
    return sorted(p.relative_to(FOLDER).as_posix() for p in FOLDER.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def test_the_folder_holds_what_the_docs_count():
    """docs/architecture.md, (d) and the counts: the example's files, and the twin's."""
    found = _folder_files()
    assert found == ["README.md", "__init__.py", "game.py", "native/tossup.hpp", "native/tossup_bindings.cpp",
                     "native/tossup_selftest.cpp", "parts.py"], found
    text = " ".join((REPO / "docs" / "architecture.md").read_text().split())
    whole = re.search(r"the example game `hzai/games/tossup/` is (\d+) files, (\d+) of them in `native/`", text)
    assert whole, "docs/architecture.md counts the example's files"
    assert int(whole.group(1)) == len(found)
    assert int(whole.group(2)) == sum(1 for f in found if f.startswith("native/"))


SERVER_MODULES = {"admission", "app", "convert", "decision", "errors", "rpc"}


def test_the_names_the_counts_give_are_in_the_code():
    """What docs/architecture.md says a new RPC, bot or card power touches names real
    members (`admission.DEFAULT_PRIORITY`, `rpc.add_guarded`, ...): a renamed one fails here
    (the page named an `admission.METHOD_PRIORITY` that never was)."""
    from importlib import import_module

    text = (REPO / "docs" / "architecture.md").read_text()
    section = text[text.index("## Files touched, counted"):]
    named = set(re.findall(r"`([a-z_]+)\.([A-Za-z_]+)(?:\([^`]*\))?`", section))
    checked = 0
    for module, member in sorted(named):
        where = f"hzai_server.{module}" if module in SERVER_MODULES else \
            "hzai.games.hera_zeus.cards" if module == "cards" else None
        if where is None or member in ("py", "js", "proto"):
            continue  # a file name (`convert.py`) or a game's part (`search.native_start`)
        assert hasattr(import_module(where), member), f"docs/architecture.md names {module}.{member}, which is not there"
        checked += 1
    assert checked >= 6, named
