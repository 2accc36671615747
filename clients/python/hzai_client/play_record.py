"""What `hzai play --save` writes, and the seat's own log of what it saw.

At the end of a game the server sends the whole record (MatchStatus.record): it is
written as an hzai-record/1 file that `hzai replay` and `hzai analyze-game` read. Before
the end only what the seat may know is written: the moves as the seat saw them, the
other player's face-down cards as `?`, in the format `hzai-seat-view/1`, which is not a
record and says so.

When a server sends no narrated events, the moves it reports are shown and logged
through `redacted_text`: the other player's `setup` and `play` cards become `?`, the
rule of hzai.games.hera_zeus.rules.observed applied to the text alone.
"""

from __future__ import annotations

import json
from pathlib import Path

from hzai.games.hera_zeus.rules.observed import HIDDEN

SEAT_VIEW_FORMAT = "hzai-seat-view/1"


def redacted_text(text: str) -> str:
    """A move of the other player with its face-down cards hidden."""
    words = text.split()
    if words and words[0] == "setup":
        return "setup " + " ".join("-" if w == "-" else HIDDEN for w in words[1:])
    if words and words[0] == "play" and len(words) == 3:
        return f"play {HIDDEN} {words[2]}"
    return text


def record_json(record) -> dict:
    """An hzai.v1.GameRecord as the hzai-record/1 JSON of docs/notation.md."""
    out: dict = {"format": "hzai-record/1"}
    variants = {k: v for k, v in (("first_player", record.variants.first_player),
                                  ("figure_removal", record.variants.figure_removal),
                                  ("pythia_defence", record.variants.pythia_defence),
                                  ("turn_limit", record.variants.turn_limit)) if v}
    if variants:
        out["variants"] = variants
    if record.deck:
        out["deck"] = record.deck
    if record.WhichOneof("start") == "setup":
        out["setup"] = {p: {"hand": list(getattr(record.setup, p).hand), "deck": list(getattr(record.setup, p).deck)}
                        for p in ("hera", "zeus")}
    else:
        out["seed"] = record.seed
    out["moves"] = list(record.moves)
    return out


def seat_view_json(seat: str, match_id: str, seen: list[dict]) -> dict:
    return {
        "format": SEAT_VIEW_FORMAT,
        "note": f"the game so far as {seat} saw it; not a game record: the other player's face-down "
                f"cards are '{HIDDEN}'",
        "seat": seat,
        "match_id": match_id,
        "finished": False,
        "moves": seen,
    }


def write_json(path: str, data: dict) -> None:
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
