"""The games with a C++ twin are listed once (hzai/native/native_games.hpp): every game of
the list gets the same searches, light move and arena on its handle from the same
binding code, and the binding files name no game's search class themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hzai.core import make_game

NATIVE = Path(__file__).resolve().parents[2] / "hzai" / "native"
HANDLE_METHODS = ("search", "pimc", "mo_search", "light_move", "arena", "arena_kinds", "arena_needs_text_ranks")


def listed_games() -> list[str]:
    text = (NATIVE / "native_games.hpp").read_text(encoding="utf-8")
    (body,) = re.findall(r"using NativeGames = GameList<([^>]*)>;", text)
    return [name.strip() for name in body.split(",")]


def test_the_list_holds_both_twins_and_the_binding_files_read_it():
    assert listed_games() == ["HeraZeus", "lg::Legends"]
    for name in ("search_bindings.cpp", "arena_bindings.cpp"):
        text = (NATIVE / name).read_text(encoding="utf-8")
        assert "for_each_native_game(NativeGames{}" in text
        assert not re.search(r"(Ismcts|MoIsmcts|Pimc)<(HeraZeus|lg::Legends)>", text), f"{name} binds one game's search"
        assert not re.search(r'\(m, "(Legends)?(Mo)?(Search|Pimc)"', text), f"{name} names one game's search class"


@pytest.mark.parametrize("name", ["hera_zeus", "legends"])
def test_every_native_game_handle_has_the_same_search_api(name):
    from hzai import _native

    game = make_game(name) if name == "hera_zeus" else make_game(name, mission=1, heroes=["Perseus"])
    handle = game.native
    for method in HANDLE_METHODS:
        assert hasattr(handle, method), f"{name}'s native handle lacks {method}"
    prefix = "" if name == "hera_zeus" else "Legends"
    for cls in ("Search", "Pimc", "MoSearch"):
        assert hasattr(_native, prefix + cls)

