"""Strength levels a player can choose: level 1 (a casual player can beat it) up to
MAX_LEVEL (the full-strength bot at the budget asked for).

A level below the top plays like a weaker player rather than a random one. Where the
game ships a learned model with a policy (docs/learning.md), the levels are built on it
(POLICY_LEVELS):
  * level 1 does not search: it draws its move from the policy with a temperature
    (`Level.temperature`), as a player who plays what looks natural without reading
    ahead;
  * the levels above it search a part of the budget with the learned search, spaced
    evenly on a log scale between a floor (FLOOR_ITERATIONS, FLOOR_MILLIS) and the whole
    budget (`Level.step`: 0 the floor, 1 the budget), then draw the move from the root's
    visits, a policy's worth of visits (POLICY_VISITS) added so that a move the search
    did not reach can still be played, sharpened by the temperature: p ~ (N + k P)^(1/T);
  * the top level is the full-strength bot: the whole budget, the most visited move.
Where the game ships no model (VALUE_LEVELS) the levels below the top search a part of
the budget unguided, with a belief that does not read the opponent, and pick by a
softmax over the root moves' values with the temperature; a value seen in few visits is
drawn toward the root's mean by PRIOR_VISITS visits' worth.
Nothing here names a game: it reads the search's root statistics and the game's
`policy_of` only. The same seed, view and budget give the same move (the draw follows
the seed).

    >>> from hzai.search import make_bot
    >>> make_bot("level:3").decide(view, Limits(iterations=1000), seed=1).move
    >>> LevelBot(3).level_for(game)   # Level(number=3, step=0.2, temperature=0.5, policy=True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from hzai.core import Limits, PlayResult, View
from hzai.core.bot import BotError, Progress, RootMoves, Stop
from hzai.rng import SplitMix64, mix_seed
from hzai.search.ismcts import DEFAULT_EXPLORATION, IsmctsBot
from hzai.search.options import whole_option

FLOOR_ITERATIONS = 16  # the search of the lowest searching step
FLOOR_MILLIS = 5  # the same for a budget in wall time
PRIOR_VISITS = 2.0  # value levels: how far a root value is drawn toward the root mean (in visits)
POLICY_VISITS = 4.0  # policy levels: the policy's worth of visits added to the root's before the draw
SOFTMAX_SALT = 0x1E7E1  # the draw's generator is mix_seed(seed, SOFTMAX_SALT)


def _part(amount: int, floor: int, step: float) -> int:
    """floor * (amount / floor) ** step: evenly spaced on a log scale, never over amount."""
    if amount <= floor:
        return amount
    return max(1, min(amount, round(floor * (amount / floor) ** step)))


@dataclass(frozen=True)
class Level:
    """One strength level: where its search budget lies between the floor (step 0) and
    the budget asked for (step 1) on a log scale (step None: no search, a draw from the
    policy), and the temperature of its draw (0: the most visited move, as the
    full-strength bot). `policy`: a level of the policy table (drawn from visits and
    policy) rather than of the value table (a softmax over values)."""

    number: int
    step: float | None
    temperature: float
    policy: bool = False

    @property
    def searches(self) -> bool:
        return self.step is not None

    @property
    def reads_opponent(self) -> bool:
        """Whether the level's worlds follow the game's opponent model (the game's
        default): the full-strength level, and every level of the policy table (their
        search is the learned one, its card model included). A value level below the
        top believes uniformly over what was seen, as a player who does not read the
        opponent's choices."""
        return self.full_strength or self.policy

    @property
    def full_strength(self) -> bool:
        return self.step is not None and self.step >= 1.0 and self.temperature == 0.0

    def limits(self, limits: Limits) -> Limits:
        """The budget this level searches with, out of the one asked for: its part of
        the iterations, the wall time left as a cap (a deadline's, say); its part of
        the wall time when the budget is given in time only. A level that does not
        search is given the floor (it is not spent: see LevelBot)."""
        step = 0.0 if self.step is None else self.step
        if step >= 1.0:
            return limits
        if limits.iterations is not None:
            return replace(limits, iterations=_part(limits.iterations, FLOOR_ITERATIONS, step))
        return replace(limits, millis=_part(limits.millis, FLOOR_MILLIS, step))

    def describe(self, budget: int = 1000) -> str:
        if self.full_strength:
            return f"level {self.number}: full strength (the whole budget, the most visited move)"
        if not self.searches:
            return f"level {self.number}: no search, a move drawn from the policy at temperature {self.temperature:g}"
        searched = f"level {self.number}: {self.limits(Limits(iterations=budget)).iterations} of {budget} iterations"
        if self.policy:
            return f"{searched} of the learned search, a move drawn from visits and policy at temperature " \
                   f"{self.temperature:g}"
        return f"{searched}, softmax over move values at temperature {self.temperature:g}"


# Where the game ships a model with a policy. Calibrated with benchmarks/rating.py
# (benchmarks/results/rating.md) at a budget of 4000 iterations.
POLICY_LEVELS: tuple[Level, ...] = (
    Level(1, None, 0.5, True),
    Level(2, 0 / 6, 0.5, True),
    Level(3, 1 / 6, 0.4, True),
    Level(4, 2 / 6, 0.3, True),
    Level(5, 3 / 6, 0.2, True),
    Level(6, 4 / 6, 0.12, True),
    Level(7, 5 / 6, 0.06, True),
    Level(8, 6 / 6, 0.0, True),
)
# Where it ships none. Calibrated with benchmarks/rating.py at 4000 iterations before
# the learned models: the temperature weighs most at the low levels (at 16-80
# iterations a softmax at 0.5-0.12 keeps them below the heuristic bot) and the budget at
# the high ones.
VALUE_LEVELS: tuple[Level, ...] = (
    Level(1, 0 / 7, 0.5),
    Level(2, 1 / 7, 0.25),
    Level(3, 2 / 7, 0.12),
    Level(4, 3 / 7, 0.07),
    Level(5, 4 / 7, 0.04),
    Level(6, 5 / 7, 0.02),
    Level(7, 6 / 7, 0.01),
    Level(8, 7 / 7, 0.0),
)
LEVELS = POLICY_LEVELS  # the table of the games that ship a model (Hera and Zeus)
MIN_LEVEL = 1
MAX_LEVEL = len(LEVELS)
assert len(VALUE_LEVELS) == MAX_LEVEL
LEVEL_HELP = (f"strength level {MIN_LEVEL}..{MAX_LEVEL}: {MAX_LEVEL} is the full-strength bot at the budget; "
              "lower levels search a smaller share of it (level 1 not at all) and draw their move from the "
              "learned policy and the search's visits with a temperature, erring like a weaker player")


def level_number(number) -> int:
    """`number` (an int or its text) checked against the range (BotError names it)."""
    return whole_option("level", number, MIN_LEVEL, MAX_LEVEL)


def level_of(number, policy: bool = True) -> Level:
    """The Level numbered `number` of the policy table (policy=False: the value table)."""
    return (POLICY_LEVELS if policy else VALUE_LEVELS)[level_number(number) - 1]


def weighted_pick(weights: list[float], rng: SplitMix64) -> int:
    """An index drawn with probability proportional to its weight (not all zero)."""
    point = rng.next_u64() / 2**64 * sum(weights)
    for index, weight in enumerate(weights):
        point -= weight
        if point < 0:
            return index
    return max(i for i, w in enumerate(weights) if w > 0)


def softmax_pick(values: list[float], temperature: float, rng: SplitMix64) -> int:
    """An index drawn with probability proportional to exp(value / temperature)."""
    top = max(values)
    return weighted_pick([math.exp((v - top) / temperature) for v in values], rng)


def sharpened(weights: list[float], temperature: float) -> list[float]:
    """weights ** (1 / temperature), scaled so that the largest is 1 (no overflow)."""
    top = max(weights)
    return [(w / top) ** (1.0 / temperature) if w > 0 else 0.0 for w in weights]


class LevelBot:
    """The bot at a strength level (module docstring). `c` and `playout` as IsmctsBot's."""

    name = "level"

    def __init__(self, level: int | str = MAX_LEVEL, c: float | str = DEFAULT_EXPLORATION, playout: str | None = None):
        self.number = level_number(level)
        self.full = IsmctsBot(c, playout)  # the top level, and the policy levels' search
        value = level_of(self.number, policy=False)
        # A value level below the top searches unguided with a uniform belief.
        self.unguided = IsmctsBot(c, playout, infer=None if value.reads_opponent else 0, value=0, policy=0, cards=0)

    @property
    def level(self) -> Level:
        """This bot's level in the table of the games that ship a model."""
        return level_of(self.number)

    def level_for(self, game) -> Level:
        """The level this bot plays `game` at: of the policy table where the game's
        model has a policy the game reads out (capability model_policy), else of the
        value table."""
        guide = self.full.guide(game)
        return level_of(self.number, policy=guide is not None and guide.policy and game.capabilities.model_policy)

    def search_for(self, game) -> IsmctsBot:
        """The search this bot runs on `game`."""
        level = self.level_for(game)
        return self.full if level.policy or level.full_strength else self.unguided

    def decide(self, view: View, limits: Limits, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None, *, root_moves: RootMoves | None = None) -> PlayResult:
        level = self.level_for(view.game)
        if level.full_strength:
            return self.full.decide(view, limits, seed, stop, progress, root_moves=root_moves)
        rng = SplitMix64(mix_seed(seed, SOFTMAX_SALT))
        if level.policy:
            return self._policy_pick(level, view, limits, seed, stop, progress, root_moves, rng)
        result = self.unguided.decide(view, level.limits(limits), seed, stop, progress, root_moves=root_moves)
        if result.analysis is None:
            return result
        tried = [m for m in result.analysis.moves if m.visits > 0]
        if len(tried) < 2:
            return result
        visits = sum(m.visits for m in tried)
        mean = sum(m.value * m.visits for m in tried) / visits
        values = [(m.value * m.visits + mean * PRIOR_VISITS) / (m.visits + PRIOR_VISITS) for m in tried]
        return _chosen(result, tried[softmax_pick(values, level.temperature, rng)])

    def _policy_pick(self, level: Level, view: View, limits: Limits, seed: int, stop, progress, root_moves,
                     rng: SplitMix64) -> PlayResult:
        guide = self.full.guide(view.game)
        legal = list(view.legal_moves())
        policy = view.game.model.policy_of(view, guide.model)
        if policy is None or len(policy) != len(legal):
            raise BotError(f"game {view.game.name}: its model's policy does not cover the legal moves")
        allowed = None if root_moves is None else {str(m) for m in root_moves}
        if not level.searches:
            weights = [p if allowed is None or str(m) in allowed else 0.0 for m, p in zip(legal, policy)]
            if not any(weights):
                weights = [1.0 if allowed is None or str(m) in allowed else 0.0 for m in legal]
            pick = legal[weighted_pick(sharpened(weights, level.temperature), rng)]
            return PlayResult(pick, iterations=0)
        result = self.full.decide(view, level.limits(limits), seed, stop, progress, root_moves=root_moves)
        if result.analysis is None:
            return result
        prior = {str(m): p for m, p in zip(legal, policy)}
        moves = list(result.analysis.moves)
        weights = [m.visits + POLICY_VISITS * prior.get(str(m.move), 0.0) for m in moves]
        if len(moves) < 2 or not any(weights):
            return result
        return _chosen(result, moves[weighted_pick(sharpened(weights, level.temperature), rng)])


def _chosen(result: PlayResult, pick) -> PlayResult:
    """`result` with `pick` (one of its analysis's moves) as the move played."""
    analysis = replace(result.analysis, best=pick.move, value=pick.value)
    return replace(result, move=pick.move, analysis=analysis)


__all__ = ["LEVELS", "LEVEL_HELP", "Level", "LevelBot", "MAX_LEVEL", "MIN_LEVEL", "POLICY_LEVELS", "VALUE_LEVELS",
           "level_of", "softmax_pick", "weighted_pick"]
