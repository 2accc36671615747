"""The one protocol every bot speaks, and what an analysis answer holds.

    decide(view, limits, seed, stop=None, progress=None) -> PlayResult

A bot reads a View only (never a State): two positions that look the same to the seat
get the same move for the same seed and budget. `stop` is polled while a search runs
(True: answer with the best move so far); `progress` receives partial Analysis answers
from bots that search. Analysis values are from the deciding seat's point of view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Protocol

from hzai.core.game import Move
from hzai.core.limits import Limits
from hzai.core.view import View


class BotError(ValueError):
    """An unknown bot or a bad bot option; the message names it."""


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (draws count half)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class MoveInfo:
    move: Move
    visits: int
    value: float  # mean result for the seat to decide: win 1, draw 0.5, loss 0
    ci_low: float
    ci_high: float
    availability: int  # iterations in which the move was legal in the sampled world
    order: int  # rank by visits (0 = the suggested move)
    pv: list[Move] = field(default_factory=list)  # the move, then the most visited replies


@dataclass
class Analysis:
    """Every searched move of the seat to decide, modelled on KataGo's analysis answers."""

    perspective: str  # seat name: values are this seat's results
    to_move: str
    iterations: int
    millis: float
    best: Move | None
    value: float  # of the suggested move
    moves: list[MoveInfo]
    seed: int
    finished: bool = True  # False: a progress report, or a search stopped early
    belief: dict | None = None

    def to_json(self, move_text: Callable[[Move], str] = str) -> dict:
        """Plain JSON, moves written by `move_text` (the game's notation)."""
        return {
            "perspective": self.perspective,
            "to_move": self.to_move,
            "iterations": self.iterations,
            "millis": self.millis,
            "best": "" if self.best is None else move_text(self.best),
            "value": self.value,
            "moves": [
                {"move": move_text(m.move), "visits": m.visits, "value": m.value, "ci_low": m.ci_low,
                 "ci_high": m.ci_high, "availability": m.availability, "order": m.order,
                 "pv": [move_text(p) for p in m.pv]}
                for m in self.moves
            ],
            "seed": self.seed,
            "finished": self.finished,
            "belief": self.belief,
        }


@dataclass
class PlayResult:
    move: Move
    analysis: Analysis | None = None  # what the search saw, for bots that search
    stopped_early: bool = False  # stopped, or out of time, before the budget was spent
    iterations: int = 0  # search iterations behind the move, all trees and worlds together


Stop = Callable[[], bool]
Progress = Callable[[Analysis], None]


class Bot(Protocol):
    name: str

    def decide(self, view: View, limits: Limits, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None) -> PlayResult: ...
