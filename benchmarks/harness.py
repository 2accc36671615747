"""The pieces every benchmark shares: the command that produced a result, the machine it
ran on, percentiles and 95% intervals, plots, the results file, and the two ways the
strength benchmarks play: paired seat-swapped matches of two bots (`paired_match`) and
team runs of a cooperative game (`team_games`, `team_tally`, `paired_difference`).

One copy of each, so that two benchmarks never describe a machine, draw a bootstrap
interval, guard matplotlib or play a match in two ways. Importing this module imports
nothing heavy (numpy, matplotlib and hzai's search are loaded by the functions that need
them).
"""

from __future__ import annotations

import json
import math
import os
import platform
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

CONCERN = None  # a shared piece, not a benchmark: `python -m benchmarks list` shows it apart

# The groups `python -m benchmarks list` sorts the benchmarks into; every benchmark module
# names one as its CONCERN.
CONCERNS = {
    "strength": "how well the bots play: matches, ratings, ceilings, ablations",
    "service": "hzai-server under load, failure and hostile input",
    "engine": "speed of the rules engine, the search and the arena",
    "learning": "the learned models and the beliefs: calibration, heads, exploitability",
    "legends": "Legends of Hellas: strength, beliefs, sampler and speed",
    "suite": "the whole suite's report (`python -m benchmarks --size ...`)",
}

Z95 = 1.96  # the normal quantile of every two-sided 95% interval here


def command(module: str, argv=None) -> str:
    """The command line that reproduces a run of benchmarks.<module> with `argv` (the
    process's own arguments when None), as stored in its results file."""
    args = list(sys.argv[1:] if argv is None else argv)
    return " ".join(["python -m benchmarks." + module, *([shlex.join(args)] if args else [])])


def machine() -> dict:
    """The machine a figure was measured on: cores, Python, platform, processor and the
    load average when it was asked (other work skews every figure)."""
    return {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
            "processor": platform.machine(), "load_average": [round(x, 2) for x in os.getloadavg()]}


def machine_text(described) -> str:
    """A machine() for a Markdown line; a description already written as text (results
    files from before this harness) comes back as it is."""
    if isinstance(described, str):
        return described
    text = f"{described.get('processor', '?')}, {described.get('cpus', '?')} cores, Python {described.get('python', '?')}"
    if described.get("load_average"):
        text += f", load average {described['load_average'][0]}"
    return text


def _rank(n: int, q: float, rule: str) -> int:
    if rule == "nearest-rank":  # the smallest value with at least q of the values at or below it
        index = math.ceil(q * n - 1e-9) - 1  # q n = 19.000000000000004 is rank 19
    elif rule == "floor":  # the value at position floor(q n), 0-based
        index = int(q * n)
    elif rule == "lower":  # numpy's "lower": position floor(q (n - 1))
        index = int(q * (n - 1))
    else:
        raise ValueError(f"percentile rule {rule!r} is not one of {sorted(RULES)}")
    return max(0, min(n - 1, index))


RULES = ("nearest-rank", "floor", "lower", "linear")


def percentile(values, q: float, rule: str = "nearest-rank"):
    """The q-quantile (q in 0..1) of `values` by `rule`; None when there are none.

    nearest-rank: the smallest value with at least a share q of all at or below it (the
    service's latency percentiles); floor: the value at 0-based position floor(q n);
    lower: at floor(q (n - 1)); linear: interpolated between neighbours (numpy's default).
    Each benchmark keeps the rule its published figures were computed with.
    """
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"percentile q must lie in 0..1, not {q!r}")
    if rule not in RULES:
        raise ValueError(f"percentile rule {rule!r} is not one of {list(RULES)}")
    ordered = sorted(values)
    if not ordered:
        return None
    if rule == "linear":
        import numpy as np

        return float(np.percentile(ordered, 100 * q))
    return ordered[_rank(len(ordered), q, rule)]


def interval95(draws, rule: str = "floor") -> tuple:
    """The 95% percentile interval of bootstrap draws: their 2.5% and 97.5% quantiles."""
    return percentile(draws, 0.025, rule), percentile(draws, 0.975, rule)


def mean_interval(values) -> tuple[float, float, float]:
    """Mean of per-deal values (paired differences, pair scores) and its 95% interval by
    the normal approximation: mean ± 1.96 sd / sqrt(n); ± 1 when fewer than two."""
    values = [float(v) for v in values]
    n = len(values)
    if n == 0:
        raise ValueError("mean_interval needs at least one value")
    mean = sum(values) / n
    if n < 2:
        return mean, mean - 1.0, mean + 1.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def pyplot():
    """matplotlib's pyplot on the file-only Agg backend, or None without matplotlib (the
    benchmark then writes its numbers and skips its plot)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def save_plot(fig, path, dpi: int = 110) -> Path:
    """Write a figure to `path` (PNG) and release it."""
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return Path(path)


def write_json(path, data, indent: int | None = 1) -> Path:
    """Write a results file (its folder made when missing); the data should carry its
    "command" (see command()) so the file says how to produce it again."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=indent) + "\n")
    return path


# ----- arena runs: paired, seat-swapped matches of two bots ------------------------------
def play_game(a: str, b: str, index: int, deal: int, limits_a, limits_b, game: str = "hera_zeus",
              params: dict | None = None):
    """One game of the Python arena's loop (hzai.search.arena.play_game: the deal, the
    referee's draws and each decision's seed follow from `deal`) with a budget of its own
    for each bot: A (`a`, `limits_a`) in the first seat for index 0, B (`b`, `limits_b`)
    for index 1. Its GameResult."""
    from hzai.core import make_game
    from hzai.rng import SplitMix64, mix_seed
    from hzai.search import make_bot
    from hzai.search.arena import GameResult, referee_step

    the_game = make_game(game, **(params or {}))
    labels = ("A", "B") if index == 0 else ("B", "A")
    bots = {"A": make_bot(a), "B": make_bot(b)}
    budget = {"A": limits_a, "B": limits_b}
    state = the_game.new_state(deal)
    referee = SplitMix64(deal ^ 0xA7E4A)
    think, decisions, moves = {"A": 0.0, "B": 0.0}, {"A": 0, "B": 0}, 0
    while not state.is_terminal:
        if state.is_chance:
            referee_step(state, referee)
            continue
        p = state.current_seat
        who = labels[p]
        start = time.perf_counter()
        move = bots[who].decide(state.view(p), budget[who], mix_seed(deal, moves)).move
        think[who] += time.perf_counter() - start
        decisions[who] += 1
        state.apply(move)
        moves += 1
    returns = state.returns()
    winner = "draw" if returns[0] == returns[1] else the_game.seats[0 if returns[0] > returns[1] else 1]
    return GameResult(index, deal, dict(zip(the_game.seats, labels)), winner, moves, getattr(state, "turn", moves),
                      think, decisions, getattr(state, "reason", None), None)


def play_pair(a: str, b: str, deal: int, limits, game: str = "hera_zeus", params: dict | None = None,
              limits_b=None) -> list:
    """Both games of one pair: the deal `deal` played with A (`a`) in the first seat,
    then with B first (hzai.search.arena's game index 0 and 1); their GameResults.
    `limits_b`: B's own budget (default `limits`, the arena's loop; otherwise play_game)."""
    if limits_b is None or limits_b == limits:
        from hzai.search.arena import play_game as arena_game

        return [arena_game(game, params, a, b, index, limits, deal - index) for index in (0, 1)]
    return [play_game(a, b, index, deal, limits, limits_b, game, params) for index in (0, 1)]


@dataclass
class PairedMatch:
    """A paired match: pair k's score is A's mean over its two games (0, 0.25, ... 1)."""
    scores: dict  # pair k -> A's score over the pair
    seconds: float

    @property
    def games(self) -> int:
        return 2 * len(self.scores)

    def interval(self) -> tuple[float, float, float]:
        """A's mean score and its 95% interval over the pairs (hzai.learn.match.interval,
        the same as `hzai match` reports)."""
        return _pair_interval(list(self.scores.values()))

    def pair_scores(self) -> list[float]:
        return [self.scores[k] for k in sorted(self.scores)]


def _pair_interval(scores: list[float]) -> tuple[float, float, float]:
    import numpy as np

    from hzai.learn.match import interval

    return interval(np.asarray(scores))


def paired_match(play, jobs: list, processes: int, on_pair=None) -> PairedMatch:
    """Every pair of `jobs` played by `play(job)`, a module-level function run in
    `processes` spawned worker processes, which returns (k, score, *more): pair k and A's
    score over its two games (see play_pair). A line on stderr after each pair: games
    played and A's score with its interval so far; `on_pair(*more)` takes the rest."""
    import multiprocessing as mp

    scores: dict = {}
    started = time.perf_counter()
    with mp.get_context("spawn").Pool(processes) as pool:
        for k, score, *more in pool.imap_unordered(play, jobs):
            scores[k] = score
            if on_pair is not None:
                on_pair(*more)
            mean, low, high = _pair_interval(list(scores.values()))
            print(f"\r{2 * len(scores)}/{2 * len(jobs)} games: A {100 * mean:.1f}% [{100 * low:.1f}-{100 * high:.1f}] "
                  f"{time.perf_counter() - started:.0f} s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return PairedMatch(scores, time.perf_counter() - started)


# ----- team runs: one bot in every seat of a cooperative game -----------------------------
def _team_game(job):
    game, params, spec, all_seeing, index, limits, seed = job
    from hzai.search.arena import play_team_game

    return play_team_game(game, params, spec, index, limits, seed, all_seeing)


def team_games(spec: str, games: int, limits, seed: int, params: dict | None = None, game: str = "legends",
               all_seeing: bool = False, jobs: int = 1, pool=None, native_only: bool = False) -> list:
    """The TeamGames of one team run, game i dealt from seed + i. With `pool` (a
    multiprocessing pool) the Python loop, one game a task; with `native_only` the native
    arena alone on `jobs` threads, a game it could not play through being an error (no
    deal is left out); else hzai.search.arena.run_team (the native arena where the bot
    has one, the Python loop otherwise)."""
    from hzai.search.arena import run_team

    if pool is not None:
        return pool.map(_team_game, [(game, params, spec, all_seeing, i, limits, seed) for i in range(games)])
    if native_only:
        from hzai.core import make_game
        from hzai.search.arena import native_arena, native_team_results

        the_game = make_game(game, **(params or {}))
        bots = None if all_seeing else native_arena(the_game, [spec], limits)
        if bots is None:
            raise SystemExit(f"team {spec} does not play in the native arena")
        played = native_team_results(the_game, bots[0], list(range(games)), seed, max(1, jobs))
        failed = [i for i, r in enumerate(played) if r is None]
        if failed:
            raise RuntimeError(f"team {spec}: the native arena could not play games {failed} through (seed {seed})")
        return played
    return run_team(spec, games, limits, seed, params, game, all_seeing=all_seeing, jobs=jobs).results


def team_tally(games: list) -> dict:
    """A team run's figures: games won, the won share with its 95% Wilson interval,
    turns a game and ms a decision (think time over decisions)."""
    from hzai.core.bot import wilson_interval

    n = len(games)
    won = sum(int(g.won) for g in games)
    decisions = sum(g.moves for g in games)
    think = sum(g.think_seconds for g in games)
    return {"games": n, "won": won, "share": won / n if n else 0.0, "ci95": list(wilson_interval(won, n)),
            "mean_turns": sum(g.turns for g in games) / n if n else 0.0,
            "ms_per_decision": 1000 * think / decisions if decisions else 0.0}


def paired_difference(a: list, b: list) -> tuple[float, float, float]:
    """Mean of a - b over paired deals (two teams' wins on the same deals) and its 95%
    interval (mean_interval)."""
    return mean_interval([x - y for x, y in zip(a, b)])
