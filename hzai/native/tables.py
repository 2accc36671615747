"""The tables shared with the C++ core, read from their one source, tables.def.

The C++ core compiles hzai/native/tables.def with macros; this module reads the same
file as text, so neither side restates a table (docs/native.md). Pure Python: it needs
no compiled module.

    PHASES        ("setup", "play", "over")
    PENDING_KINDS ("chance", "place", "top")
    REASONS       (None, "hostage_found", ...)   None: no reason (running game)
    ACTION_BLOCKS (("draw", "1"), ("play", "R * 12"), ...)   kind and size expression
    PLAYOUTS      {"random": 0, "light": 1}
"""

from __future__ import annotations

import re
from pathlib import Path

SOURCE = Path(__file__).with_name("tables.def")
_ENTRY = re.compile(r'^HZ_(\w+)\((\w+), "([^"]*)"(?:, (.+))?\)$')
_SIZE = re.compile(r"^[0-9NR+* ()]+$")


def _read(path: Path = SOURCE) -> dict[str, list[tuple]]:
    tables: dict[str, list[tuple]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("//", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        match = _ENTRY.match(line)
        if match is None:
            raise RuntimeError(f"{path.name}:{number}: not a table entry: {line!r}")
        table, ident, text, size = match.groups()
        tables.setdefault(table, []).append((ident, text, size))
    return tables


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


_TABLES = _read()
PHASES = tuple(text for _, text, _ in _TABLES["PHASE"])
PENDING_KINDS = tuple(text for _, text, _ in _TABLES["PENDING"])
REASONS = tuple(text or None for _, text, _ in _TABLES["REASON"])
ACTION_BLOCKS = tuple((text, size) for _, text, size in _TABLES["ACTION"])
PLAYOUTS = {text: i for i, (_, text, _) in enumerate(_TABLES["PLAYOUT"])}
