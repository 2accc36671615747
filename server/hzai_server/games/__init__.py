"""Per-game protobuf converters, one module per game named after it (hera_zeus.py for
"hera_zeus", legends.py for "legends"): the typed messages of hera_zeus.proto,
legends.proto and their like. The rest of the server never imports a game: it asks
`converter(name)` and packs what the module gives into the shared messages' `detail`
(a google.protobuf.Any); a game with no module here is served through the text and
JSON every shared message carries.

A converter module offers:
    RECORD                               the record message class (Position.record holds one)
    move_detail(game, move)              the typed move (Move.detail)
    redacted_move_detail(game, move)     what of a hidden move a seat may see
    record_data(message, field)          a RECORD message -> the game's record JSON
    view_detail(game, view)              View.detail
    status_detail(game, state)           MatchStatus.detail
    belief_detail(game, report)          Belief.detail; only a game with a belief report
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache

_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")


@lru_cache(maxsize=None)
def converter(game_name: str):
    """The converter module of a game, or None when the server has none for it."""
    if not _NAME.fullmatch(game_name):
        return None
    try:
        return importlib.import_module(f"hzai_server.games.{game_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"hzai_server.games.{game_name}":
            raise
        return None
