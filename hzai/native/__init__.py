"""The native rules core (C++, module `hzai._native`) behind a small Python API.

    >>> from hzai.games.hera_zeus.rules import Game, Record
    >>> from hzai.native import NativeState, random_playouts
    >>> state = NativeState.from_state(Record(Game.create(), seed=7).start())
    >>> state.legal_texts()[:1], state.apply(state.legal_actions()[0])
    >>> winners, lengths, turns = random_playouts(state, 1000, seed=1, threads=2)

Card ids, action ids (hzai.games.hera_zeus.rules.actions) and the state JSON (`to_json`) are those of
the reference engine `hzai.games.hera_zeus.rules`; the differential tests in tests/native keep the two
equal move by move.

Importing this package loads nothing: the compiled module and the handles
(hzai/native/state.py) are imported on first use of a name below, so that the reference
engine can read the shared tables (`hzai.native.tables`, pure Python) without an import
loop through the rules it is built from.
"""

from __future__ import annotations

from importlib import import_module

__all__ = ["NativeState", "native_game", "random_playouts"]

_FROM_STATE = frozenset({"NativeState", "native_game", "random_playouts", "raw_of", "_card_specs"})


def __getattr__(name: str):
    if name in _FROM_STATE:
        return getattr(import_module("hzai.native.state"), name)
    raise AttributeError(f"module 'hzai.native' has no attribute {name!r}")
