"""Hera and Zeus' tables shared with the C++ core, read from their one source,
tables.def beside this file (the core compiles it; hzai.native.tables.read_tables reads it).

    PHASES        ("setup", "play", "over")
    PENDING_KINDS ("chance", "place", "top")
    REASONS       (None, "hostage_found", ...)   None: no reason (running game)
    ACTION_BLOCKS (("draw", "1"), ("play", "R * 12"), ...)   kind and size expression
    KINDS         ("hostage", "god", "plain", "myth")   card kinds, numbered as the core's
    POWERS        ("pegasus", "pythia", ...)            myth powers, likewise
"""

from __future__ import annotations

import re
from pathlib import Path

from hzai.native.tables import read_tables

SOURCE = Path(__file__).with_name("tables.def")

_SIZE = re.compile(r"^[0-9NR+* ()]+$")


def block_size(expression: str, names: int) -> int:
    """The size of an action block for a deck of `names` distinct card names."""
    if not _SIZE.match(expression):
        raise ValueError(f"an action block size uses integers, N, R, + and * only: {expression!r}")
    return int(eval(expression, {"__builtins__": {}}, {"N": names, "R": 3 * names}))  # checked above


def action_offsets(names: int) -> list[int]:
    """Start of every action block, then the total: the core's `Game.offsets`."""
    offsets = [0]
    for _, size in ACTION_BLOCKS:
        offsets.append(offsets[-1] + block_size(size, names))
    return offsets


_TABLES = read_tables(SOURCE, "HZ")
PHASES = tuple(text for _, text, _ in _TABLES["PHASE"])
PENDING_KINDS = tuple(text for _, text, _ in _TABLES["PENDING"])
REASONS = tuple(text or None for _, text, _ in _TABLES["REASON"])
ACTION_BLOCKS = tuple((text, size) for _, text, size in _TABLES["ACTION"])
KINDS = tuple(text for _, text, _ in _TABLES["KIND"])
POWERS = tuple(text for _, text, _ in _TABLES["POWER"])
