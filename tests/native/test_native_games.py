"""A game with a C++ twin is one folder (docs/native.md, "One folder a game"): its C++
and its pybind registration live in hzai/games/<game>/native/, CMake finds them by a glob
and generates the module's list of register functions, and hzai/native keeps only what
every game shares and names no game. Every native game's handle gets the same searches,
light move and arena from the same templates (hzai/native/game_bindings.hpp)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hzai.core import make_game

ROOT = Path(__file__).resolve().parents[2]
NATIVE = ROOT / "hzai" / "native"
GAMES = ROOT / "hzai" / "games"
HANDLE_METHODS = ("search", "pimc", "mo_search", "light_move", "arena", "arena_kinds", "arena_needs_text_ranks")


def native_games() -> list[str]:
    """The games CMake registers: those whose native folder has binding files."""
    return sorted(d.parent.name for d in GAMES.glob("*/native") if any(d.glob("*bindings.cpp")))


def shared_cpp() -> list[Path]:
    return sorted(p for p in NATIVE.rglob("*") if p.suffix in (".cpp", ".hpp", ".def", ".in"))


def test_each_twin_registers_itself_from_its_own_folder():
    assert {"hera_zeus", "legends"} <= set(native_games())  # and any other game folder with a twin
    for game in native_games():
        folder = GAMES / game / "native"
        defined = [p.name for p in folder.glob("*bindings.cpp")
                   if re.search(rf"^void register_{game}\(py::module_& m\) {{", p.read_text(encoding="utf-8"), re.M)]
        assert len(defined) == 1, f"{game}: register_{game} defined in {defined}"


def test_the_shared_lists_are_globbed_and_generated():
    cmake = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    assert "hzai/games/*/native" in cmake and "configure_file(" in cmake
    for game in native_games():
        assert game not in cmake, f"CMakeLists.txt names {game}"
    template = (NATIVE / "native_games.hpp.in").read_text(encoding="utf-8")
    assert "@HZAI_NATIVE_REGISTER_CALLS@" in template
    assert not (NATIVE / "native_games.hpp").exists()  # generated into the build folder only


def test_the_shared_native_code_names_no_game():
    assert shared_cpp()
    for path in shared_cpp():
        text = re.sub(r"//.*", "", path.read_text(encoding="utf-8"))  # code, not comments
        name = path.relative_to(ROOT)
        assert not re.search(r'#include "[^"]*(hera_zeus|legends|core|knowledge|replay|hz_learn)[^"]*"', text), \
            f"{name} includes a game's header"
        assert not re.search(r"\b(HeraZeus|lg::|GameDef|PyGame|LgGame)\b", text), f"{name} names a game's types"
        assert not re.search(r"(Ismcts|MoIsmcts|Pimc)<(HeraZeus|lg::Legends)>", text), f"{name} binds one game's search"
        assert not re.search(r'\(m, "(Legends)?(Mo)?(Search|Pimc)"', text), f"{name} names one game's search class"


@pytest.mark.parametrize("name", ["hera_zeus", "legends"])
def test_every_native_game_handle_has_the_same_search_api(name):
    from hzai import _native

    game = make_game(name) if name == "hera_zeus" else make_game(name, mission=1, heroes=["Perseus"])
    handle = game.search.native
    for method in HANDLE_METHODS:
        assert hasattr(handle, method), f"{name}'s native handle lacks {method}"
    prefix = "" if name == "hera_zeus" else "Legends"
    for cls in ("Search", "Pimc", "MoSearch"):
        assert hasattr(_native, prefix + cls)
