"""Tables shared with the C++ core, read from the `.def` file the core compiles.

A `.def` file holds one macro call a line, `PREFIX_TABLE(ID, "text")` or
`PREFIX_TABLE(ID, "text", SIZE)`, and // comments; the C++ side includes it with the
macros defined, Python reads the same lines as text (`read_tables`), so neither side
restates a table (docs/native.md). Pure Python: it needs no compiled module.

    PLAYOUTS      {"random": 0, "light": 1}   the native search's playout policies
    ARENA_BOTS    {"random": 0, "light": 1, "ismcts": 2, "pimc": 3}   native arena bot kinds

A game's own tables are read by the game (hzai.games.<game>.native.tables).
"""

from __future__ import annotations

import re
from pathlib import Path

SOURCE = Path(__file__).with_name("tables.def")
_ENTRY = re.compile(r'^([A-Z]+)_(\w+)\((\w+), "([^"]*)"(?:, (.+))?\)$')


def read_tables(path: Path, prefix: str) -> dict[str, list[tuple[str, str, str | None]]]:
    """Table name -> [(ID, text, size or None)] in file order, for the entries whose
    macro starts with `prefix` (`HZ` for HZ_PHASE, ...); a line that is no entry is a
    RuntimeError naming the file and line."""
    tables: dict[str, list[tuple]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("//", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        match = _ENTRY.match(line)
        if match is None or match.group(1) != prefix:
            raise RuntimeError(f"{path.name}:{number}: not a {prefix}_ table entry: {line!r}")
        _, table, ident, text, size = match.groups()
        tables.setdefault(table, []).append((ident, text, size))
    return tables


_TABLES = read_tables(SOURCE, "HZ")
PLAYOUTS = {text: i for i, (_, text, _) in enumerate(_TABLES["PLAYOUT"])}
ARENA_BOTS = {text: i for i, (_, text, _) in enumerate(_TABLES["ARENA_BOT"])}
