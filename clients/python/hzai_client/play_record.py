"""What `hzai play --save` writes.

At the end of a game the server sends the whole record (MatchStatus.record_json, the
game's own JSON record): it is written as it came, so that the library's commands
(`hzai replay`, `hzai analyze-game`) read it. Before the end only what the seat may know
is written: the moves as the server showed them to the seat (hidden cards as the
server redacted them), in the format `hzai-seat-view/1`, which is not a record and
says so.
"""

from __future__ import annotations

import json
from pathlib import Path

SEAT_VIEW_FORMAT = "hzai-seat-view/1"


def seat_view_json(game: str, seat: str, match_id: str, seen: list[dict]) -> dict:
    return {
        "format": SEAT_VIEW_FORMAT,
        "note": f"the game so far as {seat} saw it; not a game record: what {seat} could not see is hidden",
        "game": game,
        "seat": seat,
        "match_id": match_id,
        "finished": False,
        "moves": seen,
    }


def write_record(path: str, record_json: str) -> str | None:
    """The server's record, laid out one field a line; its `format`."""
    data = json.loads(record_json)
    write_json(path, data)
    return data.get("format") if isinstance(data, dict) else None


def write_json(path: str, data: dict) -> None:
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
