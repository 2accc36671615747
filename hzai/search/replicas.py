"""Independent searches of one position read as one, for intervals that say how far the
answer would move with another seed.

A search's value of a move is not an average of independent trials: its visits share
one pool of sampled worlds and one tree, so the spread of that value across seeds is
several times what a binomial interval over its visits claims (measured in
benchmarks/results/learned.md: a median width of 0.008 against a spread of 0.037 across
four seeds at 1 s). Analysis therefore runs REPLICAS searches, each with its own seed
and its own worlds, on an equal share of the budget, and reads them as one:
  * a move's visits, value and availability are the replicas' summed;
  * its interval is the wider of the binomial (Wilson) interval over all its visits and
    a t interval over the replicas' means (their standard error, Student's t with one
    degree of freedom fewer than the replicas that tried the move);
  * its principal variation is the one of the replica that visited it most.
The iterations are dealt to the replica that has run fewest (the first on a tie), so
an iteration budget gives the same answer for the same seed whatever the clock does.
Nothing here names a game.
"""

from __future__ import annotations

import math
import time

from hzai.core import wilson_interval
from hzai.rng import MASK64, mix_seed

REPLICAS = 4  # analysis' independent searches (1: one search, the interval Wilson's alone)
MAX_REPLICAS = 16
MIN_SHARE = 4  # iterations a replica gets at least per root move, or fewer replicas run
REPLICA_SALT = 0x2E911CA  # replica r > 0 searches with mix_seed(seed, REPLICA_SALT + r)

# Student's t at 97.5% for 1..10 degrees of freedom (more: the normal's 1.96 is close)
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228)


def t975(freedom: int) -> float:
    return _T975[freedom - 1] if freedom <= len(_T975) else 1.96 + 2.4 / freedom


def replica_seed(seed: int, r: int) -> int:
    """The seed of replica r: the analysis' own for the first, so one replica is the
    plain search."""
    return seed & MASK64 if r == 0 else mix_seed(seed, REPLICA_SALT + r)


def replicas_for(replicas: int, limits, moves: int) -> int:
    """How many of `replicas` an iteration budget affords: each must get MIN_SHARE
    iterations a root move (so that every move is tried in each), else fewer run, down
    to the single search. A budget in wall time keeps them all."""
    if limits.iterations is None:
        return replicas
    return max(1, min(replicas, limits.iterations // (MIN_SHARE * max(1, moves))))


class Replicas:
    """Native searches of one position (each built from its own seed) behind the
    interface `searched` reads: run, iterations, root_player, root_stats,
    principal_variation, and `intervals` for the moves' 95% intervals."""

    def __init__(self, searches: list):
        if not searches:
            raise ValueError("no searches to read")
        self.searches = list(searches)

    @property
    def root_player(self) -> int:
        return self.searches[0].root_player

    @property
    def iterations(self) -> int:
        return sum(s.iterations for s in self.searches)

    def run(self, iterations: int, millis: float) -> int:
        """Up to `iterations` more in all (dealt a share at a time to the replica that
        has run fewest), within `millis` of wall time (<0: no limit)."""
        start = time.perf_counter()
        share = max(1, math.ceil(iterations / len(self.searches)))
        done = 0
        while done < iterations:
            left = -1.0
            if millis >= 0:
                left = millis - (time.perf_counter() - start) * 1000
                if left <= 0:
                    break
            behind = min(range(len(self.searches)), key=lambda i: (self.searches[i].iterations, i))
            ran = self.searches[behind].run(min(share, iterations - done), left)
            if ran == 0:
                break
            done += ran
        return done

    def root_stats(self) -> list[tuple[int, int, float, int]]:
        """(action, visits, value, availability) summed over the replicas."""
        merged: dict[int, list] = {}
        for search in self.searches:
            for action, visits, value, availability in search.root_stats():
                row = merged.setdefault(action, [0, 0.0, 0])
                row[0] += visits
                row[1] += value
                row[2] += availability
        return [(action, v, value, a) for action, (v, value, a) in merged.items()]

    def principal_variation(self, action: int) -> list[int]:
        visits = [dict((a, v) for a, v, _, _ in s.root_stats()).get(action, 0) for s in self.searches]
        return self.searches[max(range(len(visits)), key=lambda i: (visits[i], -i))].principal_variation(action)

    def intervals(self) -> dict[int, tuple[float, float]]:
        """Each root move's 95% interval (module docstring), by action."""
        rows: dict[int, tuple[list[float], list]] = {}
        for search in self.searches:
            for action, visits, value, _ in search.root_stats():
                means, totals = rows.setdefault(action, ([], [0, 0.0]))
                if visits > 0:
                    means.append(value / visits)
                    totals[0] += visits
                    totals[1] += value
        return {action: spread_interval(means, value, visits) for action, (means, (visits, value)) in rows.items()}


def spread_interval(means: list[float], value: float, visits: int) -> tuple[float, float]:
    """The wider of Wilson's interval over `visits` (summing to `value`) and a t interval
    over the replicas' `means` around the pooled mean."""
    low, high = wilson_interval(value, visits)
    if len(means) >= 2 and visits > 0:
        k = len(means)
        centre = sum(means) / k
        sd = math.sqrt(sum((m - centre) ** 2 for m in means) / (k - 1))
        half = t975(k - 1) * sd / math.sqrt(k)
        pooled = value / visits
        low, high = min(low, pooled - half), max(high, pooled + half)
    return max(0.0, low), min(1.0, high)


__all__ = ["MAX_REPLICAS", "REPLICAS", "Replicas", "replica_seed", "replicas_for", "spread_interval", "t975"]
