"""What an analysis answer holds, modelled on KataGo's analysis engine: every legal
move with its visits, value and confidence, the principal variation, a root summary,
and whose point of view the values are from (always the player to decide)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field


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
    move: str  # notation
    visits: int
    value: float  # mean result for the player to decide: win 1, draw 0.5, loss 0
    ci_low: float
    ci_high: float
    availability: int  # iterations in which the move was legal in the sampled world
    order: int  # rank by visits (0 = the suggested move)
    pv: list[str] = field(default_factory=list)  # the move, then the most visited replies


@dataclass
class Analysis:
    perspective: str  # values are win probabilities of this player
    to_move: str
    iterations: int
    millis: float
    best: str
    value: float  # of the suggested move
    moves: list[MoveInfo]
    seed: int
    finished: bool = True  # False: a progress report or a search stopped early
    belief: dict | None = None

    def to_json(self) -> dict:
        return asdict(self)
