"""Strength levels a player can choose: level 1 (a casual player can beat it) up to
MAX_LEVEL (the full-strength ISMCTS bot at the budget asked for).

A level below the top plays like a weaker player rather than a random one:
  * it searches a part of the budget, spaced evenly on a log scale between a floor
    (FLOOR_ITERATIONS, FLOOR_MILLIS) and the whole budget (`Level.step`: 0 the floor,
    1 the budget), so it looks at fewer sampled worlds — its picture of the hidden
    cards is rougher, and its values of the moves are noisier;
  * it then picks among the root moves its search tried by a softmax over their
    values (win probabilities) with a temperature (`Level.temperature`): a move that
    looks nearly as good as the best is often played instead, a move that looks much
    worse almost never is. A value seen in few visits counts for less: it is drawn
    toward the root's mean by PRIOR_VISITS visits' worth;
  * its belief about the hidden cards is uniform over what it saw: it does not read
    the opponent's choices (`Level.reads_opponent`; the top level searches with the
    game's default, `Game.default_infer`).
Nothing here names a game: it reads the search's root statistics only. The same seed,
view and budget give the same move (the softmax draws from the seed).

    >>> from hzai.search import make_bot
    >>> make_bot("level:3").decide(view, Limits(iterations=1000), seed=1).move
    >>> LevelBot(3).level          # Level(number=3, step=0.285..., temperature=0.12)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from hzai.core import Limits, PlayResult, View
from hzai.core.bot import BotError, Progress, RootMoves, Stop
from hzai.rng import SplitMix64, mix_seed
from hzai.search.ismcts import DEFAULT_EXPLORATION, IsmctsBot
from hzai.search.options import whole_option

FLOOR_ITERATIONS = 16  # the search of the lowest step
FLOOR_MILLIS = 5  # the same for a budget in wall time
PRIOR_VISITS = 2.0  # how far a root value is drawn toward the root mean (in visits)
SOFTMAX_SALT = 0x1E7E1  # the softmax's generator is mix_seed(seed, SOFTMAX_SALT)


def _part(amount: int, floor: int, step: float) -> int:
    """floor * (amount / floor) ** step: evenly spaced on a log scale, never over amount."""
    if amount <= floor:
        return amount
    return max(1, min(amount, round(floor * (amount / floor) ** step)))


@dataclass(frozen=True)
class Level:
    """One strength level: where its search budget lies between the floor (step 0) and
    the budget asked for (step 1) on a log scale, and the temperature of the softmax
    over root values (0: the most visited move, as the full-strength bot)."""

    number: int
    step: float
    temperature: float

    @property
    def reads_opponent(self) -> bool:
        """Whether the level's worlds follow the game's opponent model (the game's
        default, `Game.default_infer`): the full-strength level only. Below it the belief
        is uniform over what was seen, as a player who does not read the opponent's
        choices."""
        return self.full_strength

    @property
    def full_strength(self) -> bool:
        return self.step >= 1.0 and self.temperature == 0.0

    def limits(self, limits: Limits) -> Limits:
        """The budget this level searches with, out of the one asked for: its part of
        the iterations, the wall time left as a cap (a deadline's, say); its part of
        the wall time when the budget is given in time only."""
        if self.step >= 1.0:
            return limits
        if limits.iterations is not None:
            return replace(limits, iterations=_part(limits.iterations, FLOOR_ITERATIONS, self.step))
        return replace(limits, millis=_part(limits.millis, FLOOR_MILLIS, self.step))

    def describe(self, budget: int = 1000) -> str:
        if self.full_strength:
            return f"level {self.number}: full strength (the whole budget, the most visited move)"
        return (f"level {self.number}: {self.limits(Limits(iterations=budget)).iterations} of {budget} iterations, "
                f"softmax over move values at temperature {self.temperature:g}")


# Calibrated with benchmarks/rating.py (benchmarks/results/rating.md) at a budget of
# 4000 iterations: a first short run showed the temperature weighs most at the low
# levels (at 16-80 iterations a softmax at 0.5-0.12 keeps them below the heuristic bot)
# and the budget at the high ones.
LEVELS: tuple[Level, ...] = (
    Level(1, 0 / 7, 0.5),
    Level(2, 1 / 7, 0.25),
    Level(3, 2 / 7, 0.12),
    Level(4, 3 / 7, 0.07),
    Level(5, 4 / 7, 0.04),
    Level(6, 5 / 7, 0.02),
    Level(7, 6 / 7, 0.01),
    Level(8, 7 / 7, 0.0),
)
MIN_LEVEL = 1
MAX_LEVEL = len(LEVELS)
LEVEL_HELP = (f"strength level {MIN_LEVEL}..{MAX_LEVEL}: {MAX_LEVEL} is the full-strength bot at the budget; "
              "lower levels search a smaller share of it and pick among the moves by a softmax over their "
              "values, erring like a weaker player")


def level_of(number) -> Level:
    """The Level numbered `number` (an int or its text); BotError names the range."""
    return LEVELS[whole_option("level", number, MIN_LEVEL, MAX_LEVEL) - 1]


def softmax_pick(values: list[float], temperature: float, rng: SplitMix64) -> int:
    """An index drawn with probability proportional to exp(value / temperature)."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    point = rng.next_u64() / 2**64 * sum(weights)
    for index, weight in enumerate(weights):
        point -= weight
        if point < 0:
            return index
    return len(values) - 1


class LevelBot:
    """The ISMCTS bot at a strength level (module docstring). `c` and `playout` as
    IsmctsBot's."""

    name = "level"

    def __init__(self, level: int | str = MAX_LEVEL, c: float | str = DEFAULT_EXPLORATION, playout: str | None = None):
        self.level = level_of(level)
        # The full-strength level is the default bot (the learned search where the game
        # ships a model); the levels below search unguided, as before it.
        guided = None if self.level.full_strength else 0
        self.search = IsmctsBot(c, playout, infer=None if self.level.reads_opponent else 0, value=guided,
                                policy=guided, cards=guided)

    def decide(self, view: View, limits: Limits, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None, *, root_moves: RootMoves | None = None) -> PlayResult:
        level = self.level
        result = self.search.decide(view, level.limits(limits), seed, stop, progress, root_moves=root_moves)
        if level.temperature == 0.0 or result.analysis is None:
            return result
        tried = [m for m in result.analysis.moves if m.visits > 0]
        if len(tried) < 2:
            return result
        visits = sum(m.visits for m in tried)
        mean = sum(m.value * m.visits for m in tried) / visits
        values = [(m.value * m.visits + mean * PRIOR_VISITS) / (m.visits + PRIOR_VISITS) for m in tried]
        pick = tried[softmax_pick(values, level.temperature, SplitMix64(mix_seed(seed, SOFTMAX_SALT)))]
        analysis = replace(result.analysis, best=pick.move, value=pick.value)
        return replace(result, move=pick.move, analysis=analysis)


__all__ = ["LEVELS", "LEVEL_HELP", "Level", "LevelBot", "MAX_LEVEL", "MIN_LEVEL", "level_of", "softmax_pick"]
