"""Per-game protobuf converters, one module per game named after it (hera_zeus.py for
"hera_zeus"): the structured messages of hera_zeus.proto and their like. The rest of the
server never imports a game: it asks `converter(name)`, and a game with no module here
is served through the text and JSON every generic message carries.

A converter module offers:
    move_detail(game, move)              the structured move (Move.<game>)
    redacted_move_detail(game, move)     what of a hidden move a seat may see
    record_data(message, field)          a record message -> the game's record JSON
    view_detail(game, view)              View.<game>
    belief_detail(game, report)          Belief.<game>
    status_detail(game, state)           MatchStatus.<game>
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
