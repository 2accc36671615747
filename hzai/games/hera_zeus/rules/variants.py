"""Variants (R-VAR) and the fixed sizes of the table: the bottom of the rules package."""

from __future__ import annotations

from dataclasses import dataclass

from hzai.games.hera_zeus.cards import PLAYERS
from hzai.text import quoted, shorten

HAND_LIMIT = 12  # R-ACT-1
COLUMNS = 3
COLUMN_DEPTH = 4  # rows r1..r4 (R-ACT-2)
HAND_AT_DEAL = 9  # R-SETUP-1
FIGURE_AP = 4  # R-TURN-3, R-GOD-2
# R-TURN-7's safeguard may be raised up to this many turns (50 times the default): far
# beyond any real game, and it keeps every record's length bounded (record.py) and the
# native core's int turn counter far from overflow.
MAX_TURN_LIMIT = 10_000


class VariantError(ValueError):
    """A variant name or value is not known; the message names it."""


VARIANT_CHOICES = {
    "first_player": ("hera", "zeus"),
    "figure_removal": ("action", "pegasus"),
    "pythia_defence": ("normal", "always_loses"),
}


@dataclass(frozen=True)
class Variants:
    first_player: str = "hera"
    figure_removal: str = "action"
    pythia_defence: str = "normal"
    turn_limit: int = 200

    @classmethod
    def from_dict(cls, data: dict | None) -> "Variants":
        data = dict(data or {})
        unknown = set(data) - set(VARIANT_CHOICES) - {"turn_limit"}
        if unknown:
            raise VariantError(f"unknown variant(s): {shorten(', '.join(sorted(map(str, unknown))))}")
        for name, choices in VARIANT_CHOICES.items():
            if name in data and data[name] not in choices:
                raise VariantError(f"variant {name} must be one of {', '.join(choices)}, not {quoted(data[name])}")
        limit = data.get("turn_limit", 200)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_TURN_LIMIT:
            shown = limit if isinstance(limit, int) and abs(limit) < 10**30 else quoted(limit, 40)
            raise VariantError(f"variant turn_limit must be a positive whole number, at most {MAX_TURN_LIMIT}, not {shown}")
        return cls(**data)

    def to_dict(self) -> dict:
        return {
            "first_player": self.first_player,
            "figure_removal": self.figure_removal,
            "pythia_defence": self.pythia_defence,
            "turn_limit": self.turn_limit,
        }

    @property
    def first_player_index(self) -> int:
        return PLAYERS.index(self.first_player)
