"""Reading a game record from a file, for any registered game: the one loader of the
command line's record commands (hzai.cli).

The file is read once, bounded in size, as JSON (hzai.jsonread: no hostile shape gets
through); its `format` names the game through the registry (`record_formats`), and that
game's own `game.records.read` makes the record, with the file's folder as `base` (a local
record may name files beside it: a Hera and Zeus deck, a Legends data file). Every
problem is a RecordError naming the file and what is wrong with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hzai import jsonread
from hzai.core import make_game, record_formats
from hzai.core.record import RecordError, refuse_seat_view
from hzai.text import quoted

MAX_RECORD_BYTES = 4 << 20  # far more than the longest record of any game here


def read_json(path: str | Path) -> Any:
    """The parsed JSON of the file at `path`: RecordError when it cannot be read, is
    larger than MAX_RECORD_BYTES, is not UTF-8 or is not JSON of a sane shape."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{path}: larger than {MAX_RECORD_BYTES} bytes, more than any game record")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text") from None
    try:
        return jsonread.loads(text, str(path))
    except jsonread.JsonShapeError as exc:
        raise RecordError(str(exc)) from None


def game_of_record(data: Any):
    """The game (default parameters) whose records have the `format` of `data`;
    RecordError listing the known formats when there is none."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    refuse_seat_view(data)
    formats = record_formats()
    known = ", ".join(f"{fmt} ({name})" for fmt, name in sorted(formats.items())) or "none"
    if "format" not in data:
        raise RecordError(f"the record names no format; the formats read here: {known}")
    name = formats.get(data["format"]) if isinstance(data["format"], str) else None
    if name is None:
        raise RecordError(f"unknown record format {quoted(data['format'])}; the formats read here: {known}")
    return make_game(name)


def record_of(data: Any, base: str | Path | None = None):
    """The record `data` (parsed JSON) is, read by its game's `game.records.read`; `base`: the
    folder of the local file it came from (None: from anyone)."""
    return game_of_record(data).records.read(data, base=None if base is None else Path(base))


def load_record(path: str | Path):
    """The record in the file at `path`, read by its game (see the module's text);
    RecordError saying what is wrong (the file's name where it cannot be read as JSON)."""
    return record_of(read_json(path), Path(path).resolve().parent)
