"""One rating list over the strength levels and the other bots of Hera and Zeus.

    python -m benchmarks.rating                       # the published run (~30 min, one process)
    python -m benchmarks.rating --players "level 1" "level 10" heuristic random --rounds 1   # a quick look

A seat-swapped round robin: every pair of players plays `--rounds` deals, each deal
twice with the seats swapped (pairs with OpenSpiel's slow ISMCTS play
`--openspiel-rounds` deals). The games are played round by round (deal r of every
pair, then deal r+1), so a run stopped early (`--minutes`) still covers every pair.
Ratings are Elo by maximum likelihood (Bradley-Terry over all games, a draw half a
win each), with one virtual draw per pair that met, so a player that won or lost every
game still gets a finite rating; anchored at random = 0. 95% intervals: 2.5 and 97.5
percentiles over `--bootstrap` refits on the games drawn with replacement.

Writes benchmarks/results/rating.json, rating.md and rating.png (with matplotlib).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from hzai.search.levels import LEVELS

from benchmarks import harness

CONCERN = "strength"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
GAME = "hera_zeus"
LEVEL_BUDGET = 4000  # iterations the levels are asked for: level N is ISMCTS at this budget
OPENSPIEL = "openspiel-ismcts"

# The players: name -> (bot spec for make_bot, iterations per decision). OpenSpiel's
# ISMCTS is not a make_bot spec; its row is the iterations it gets.
PLAYERS: dict[str, tuple[str, int]] = {
    **{f"level {lv.number}": (f"level:{lv.number}", LEVEL_BUDGET) for lv in LEVELS},
    "ismcts-v2": ("ismcts-v2", LEVEL_BUDGET),  # the default before the learned models, at the levels' budget
    "ismcts-v1": ("ismcts-v1", 1000),  # the search as it was before issue 15, at 1000 iterations
    "pimc": ("pimc", 1000),
    "heuristic": ("heuristic", 1),
    "random": ("random", 1),
    OPENSPIEL: ("", 40),
}
ANCHOR = "random"
UCT_C = 2.0  # OpenSpiel's UCT constant (as benchmarks/openspiel_match.py)


@dataclass
class Game:
    first: str  # the player in seat 0
    second: str
    deal: int
    score: float  # seat 0's result: 1 win, 0.5 draw, 0 loss
    moves: int


def _decide(spec: str, iterations: int, view, seed: int):
    from hzai.search import Limits, make_bot

    return make_bot(spec).decide(view, Limits(iterations=iterations), seed).move


def play(first: str, second: str, deal_seed: int) -> Game:
    """One game of Hera and Zeus, `first` in seat 0, each player at its own iterations
    (harness.play_game); OpenSpiel's bot through its own game."""
    if OPENSPIEL in (first, second):
        return _play_openspiel(first, second, deal_seed)
    from hzai.search import Limits

    (spec_a, iterations_a), (spec_b, iterations_b) = PLAYERS[first], PLAYERS[second]
    played = harness.play_game(spec_a, spec_b, 0, deal_seed, Limits(iterations=iterations_a),
                               Limits(iterations=iterations_b), GAME)
    return Game(first, second, deal_seed, played.a_points, played.moves)


def _play_openspiel(first: str, second: str, deal_seed: int) -> Game:
    import numpy as np

    from benchmarks.openspiel_match import chance_step, dealt_state, openspiel_bot
    from hzai.games.hera_zeus import openspiel
    from hzai.rng import mix_seed

    game = openspiel.load_game()
    theirs = 0 if first == OPENSPIEL else 1
    other = second if theirs == 0 else first
    bot = openspiel_bot(game, deal_seed, theirs, UCT_C, PLAYERS[OPENSPIEL][1])
    referee = np.random.RandomState(deal_seed ^ 0xA7E4A)
    state = dealt_state(game, deal_seed)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, referee)
            continue
        player = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif player == theirs:
            action = int(bot.step(state))
        else:
            view = state.view(player)
            spec, iterations = PLAYERS[other]
            move = _decide(spec, iterations, view, mix_seed(deal_seed, moves))
            action = {state.action_to_string(player, a): a for a in legal}[view.game.move_text(move)]
        state.apply_action(action)
        moves += 1
    returns = state.returns()
    return Game(first, second, deal_seed, (returns[0] + 1) / 2, moves)


# ----- ratings -----------------------------------------------------------------------
def fit(names: list[str], games: list[Game], anchor: str = ANCHOR, virtual_draws: float = 1.0,
        steps: int = 2000) -> dict[str, float]:
    """Bradley-Terry by minorization-maximization (Hunter 2004), draws half a win each,
    `virtual_draws` per pair that met; Elo = 400 log10 of the strength, anchor = 0."""
    import numpy as np

    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = np.zeros((k, k))  # wins[i, j]: points i scored against j
    for g in games:
        a, b = index[g.first], index[g.second]
        wins[a, b] += g.score
        wins[b, a] += 1 - g.score
    met = (wins + wins.T) > 0
    wins = wins + met * (virtual_draws / 2)
    played = wins + wins.T
    total = wins.sum(axis=1)
    gamma = np.ones(k)
    for _ in range(steps):
        denominator = (played / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denominator > 0, total / np.maximum(denominator, 1e-300), gamma)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(gamma))) < 1e-10:
            gamma = new
            break
        gamma = new
    elo = 400 * np.log10(gamma)
    zero = elo[index[anchor]] if anchor in index else 0.0
    return {n: float(elo[i] - zero) for n, i in index.items()}


def bootstrap(names: list[str], games: list[Game], samples: int, seed: int) -> dict[str, list[float]]:
    """Each player's rating in `samples` refits on the games drawn with replacement."""
    import numpy as np

    rng = np.random.default_rng(seed)
    draws = {n: [] for n in names}
    for _ in range(samples):
        picked = [games[i] for i in rng.integers(0, len(games), len(games))]
        for n, r in fit(names, picked, steps=500).items():
            draws[n].append(r)
    return draws


def intervals(draws: dict[str, list[float]]) -> dict[str, tuple[float, float]]:
    """95% intervals: the 2.5 and 97.5 percentiles of the bootstrap ratings (interpolated)."""
    return {n: harness.interval95(v, rule="linear") for n, v in draws.items()}


def above(draws: dict[str, list[float]], upper: str, lower: str) -> float:
    """The share of bootstrap refits that rate `upper` above `lower`."""
    pairs = list(zip(draws[upper], draws[lower]))
    return sum(u > v for u, v in pairs) / len(pairs) if pairs else 0.0


def pair_scores(names: list[str], games: list[Game]) -> dict[str, dict[str, list[float]]]:
    """[points, games] of each player against each other one."""
    table = {a: {b: [0.0, 0] for b in names if b != a} for a in names}
    for g in games:
        table[g.first][g.second][0] += g.score
        table[g.first][g.second][1] += 1
        table[g.second][g.first][0] += 1 - g.score
        table[g.second][g.first][1] += 1
    return table


def checks(ratings: dict[str, float], table: dict, draws: dict[str, list[float]] | None = None) -> dict:
    """Whether the levels' ratings strictly increase, their span, level 1 against the
    heuristic bot; with bootstrap `draws`, how often each level is rated above the one
    below it and level 1 below the heuristic bot."""
    levels = [f"level {lv.number}" for lv in LEVELS if f"level {lv.number}" in ratings]
    values = [ratings[n] for n in levels]
    out = {"levels_strictly_increasing": all(a < b for a, b in zip(values, values[1:])),
           "level_span": values[-1] - values[0] if len(values) > 1 else 0.0}
    if draws is not None:
        out["above_the_level_below"] = {b: above(draws, b, a) for a, b in zip(levels, levels[1:])}
    if "level 1" in ratings and "heuristic" in ratings:
        points, n = table["level 1"]["heuristic"]
        out["level1_minus_heuristic"] = ratings["level 1"] - ratings["heuristic"]
        out["level1_vs_heuristic_score"] = points / n if n else None
        out["level1_vs_heuristic_games"] = n
        if draws is not None:
            out["level1_below_heuristic_share"] = above(draws, "heuristic", "level 1")
    return out


# ----- the run -------------------------------------------------------------------------
def schedule(names: list[str], rounds: int, openspiel_rounds: int, seed: int) -> list[list[tuple[str, str, int]]]:
    """Per round, the games (seat 0, seat 1, deal seed): every pair, each deal both ways."""
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    plan = []
    for r in range(rounds):
        games = []
        for p, (a, b) in enumerate(pairs):
            if OPENSPIEL in (a, b) and r >= openspiel_rounds:
                continue
            deal = seed + 1000 * r + p
            games += [(a, b, deal), (b, a, deal)]
        plan.append(games)
    return plan


def _played(calls, jobs: int):
    if jobs == 1:
        yield from (play(*c) for c in calls)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play, *zip(*calls))


def markdown(report: dict) -> str:
    c = report["checks"]
    lines = [
        "# Rating list: strength levels and the other bots (Hera and Zeus)",
        "",
        f"Command: `{report['command']}`  ",
        f"Machine: {harness.machine_text(report['machine'])}; {report['games']} games in {report['seconds'] / 60:.1f} min "
        f"({report['jobs']} process{'es' if report['jobs'] > 1 else ''}); levels asked for {report['level_budget']} "
        f"iterations a decision.",
        "",
        "Elo by maximum likelihood (Bradley-Terry over all games, a draw half a win, one virtual draw per pair "
        f"that met), anchored at {report['anchor']} = 0; 95% intervals from {report['bootstrap']} bootstrap refits "
        "over the games.",
        "",
        "| rank | player | bot | iterations | Elo | 95% interval | games | score |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for rank, p in enumerate(report["players"], 1):
        low, high = p["ci95"]
        lines.append(f"| {rank} | {p['name']} | `{p['spec'] or 'open_spiel ISMCTSBot'}` | {p['iterations']} | "
                     f"{p['elo']:.0f} | {low:.0f} – {high:.0f} | {p['games']} | {p['score']:.1%} |")
    lines += [
        "",
        f"- Levels strictly increasing in rating: **{'yes' if c['levels_strictly_increasing'] else 'no'}**.",
        f"- Span from level 1 to the top level: **{c['level_span']:.0f}** Elo.",
    ]
    if "above_the_level_below" in c:
        shares = ", ".join(f"{name.removeprefix('level ')} {share:.0%}" for name, share in c["above_the_level_below"].items())
        lines.append(f"- Share of bootstrap refits that rate each level above the one below it: {shares}.")
    if "level1_minus_heuristic" in c:
        lines.append(f"- Level 1 minus heuristic: **{c['level1_minus_heuristic']:+.0f}** Elo; level 1 scored "
                     f"{c['level1_vs_heuristic_score']:.1%} in its {c['level1_vs_heuristic_games']} games against it"
                     + (f"; {c['level1_below_heuristic_share']:.0%} of the refits rate it below"
                        if "level1_below_heuristic_share" in c else "") + ".")
    if "level1_minus_heuristic" in c:
        lines.append(f"- Targets: a span of at least 800 Elo **{'met' if c['level_span'] >= 800 else 'missed'}**; "
                     f"level 1 below the heuristic bot **{'met' if c['level1_minus_heuristic'] < 0 else 'missed'}**.")
    per_pair = sorted({v[1] for row in report["pairs"].values() for v in row.values()})
    lines.append(f"- Games a pair: {', '.join(map(str, per_pair))} (each deal from both seats); pairs with "
                 f"{OPENSPIEL} play fewer, its ISMCTS runs about 300 iterations a second in Python.")
    lines += ["", "Levels (hzai/search/levels.py):", ""]
    lines += [f"- {line}" for line in report["levels"]]
    return "\n".join(lines) + "\n"


def plot(report: dict, path: Path) -> bool:
    plt = harness.pyplot()
    if plt is None:
        return False
    players = report["players"][::-1]
    fig, ax = plt.subplots(figsize=(8, 0.38 * len(players) + 1.2))
    y = range(len(players))
    elo = [p["elo"] for p in players]
    errors = [[p["elo"] - p["ci95"][0] for p in players], [p["ci95"][1] - p["elo"] for p in players]]
    colours = ["tab:blue" if p["name"].startswith("level") else "tab:orange" for p in players]
    ax.errorbar(elo, y, xerr=errors, fmt="none", ecolor="grey", capsize=3)
    ax.scatter(elo, y, c=colours, zorder=3)
    ax.set_yticks(list(y), [p["name"] for p in players])
    ax.set_xlabel(f"Elo (anchored: {report['anchor']} = 0), 95% bootstrap interval")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"Hera and Zeus rating list ({report['games']} games)")
    fig.tight_layout()
    harness.save_plot(fig, path)
    return True


def report_of(names, games, args, seconds: float, command: str) -> dict:
    ratings = fit(names, games)
    draws = bootstrap(names, games, args.bootstrap, args.seed)
    ci = intervals(draws)
    table = pair_scores(names, games)
    players = []
    for n in sorted(names, key=lambda n: -ratings[n]):
        points = sum(v[0] for v in table[n].values())
        count = sum(v[1] for v in table[n].values())
        players.append({"name": n, "spec": PLAYERS[n][0], "iterations": PLAYERS[n][1], "elo": ratings[n],
                        "ci95": ci[n], "games": count, "score": points / count if count else 0.0})
    return {
        "command": command,
        "machine": harness.machine(),
        "jobs": args.jobs, "seed": args.seed, "level_budget": LEVEL_BUDGET, "anchor": ANCHOR,
        "bootstrap": args.bootstrap, "games": len(games), "seconds": round(seconds, 1),
        "levels": [lv.describe(LEVEL_BUDGET) for lv in LEVELS],
        "players": players, "checks": checks(ratings, table, draws), "pairs": table,
        "results": [g.__dict__ for g in games],
    }


def write(report: dict, out: Path) -> None:
    harness.write_json(out / "rating.json", report)
    (out / "rating.md").write_text(markdown(report))
    plot(report, out / "rating.png")


def refit(out: Path, args) -> int:
    """The ratings of the games an earlier run stored, fitted again (same command line)."""
    earlier = json.loads((out / "rating.json").read_text())
    games = [Game(**g) for g in earlier["results"]]
    names = [p["name"] for p in earlier["players"]]
    args.jobs, args.seed = earlier["jobs"], earlier["seed"]
    write(report_of(names, games, args, earlier["seconds"], earlier["command"]), out)
    print(markdown(json.loads((out / "rating.json").read_text())))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", nargs="+", default=list(PLAYERS), help="names from PLAYERS (default: all)")
    parser.add_argument("--rounds", type=int, default=3, help="deals per pair, each played from both seats")
    parser.add_argument("--openspiel-rounds", type=int, default=1, help="deals per pair with OpenSpiel's bot")
    parser.add_argument("--minutes", type=float, default=None, help="start no new round after this long")
    parser.add_argument("--bootstrap", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--out", default=str(RESULTS), help="results folder")
    parser.add_argument("--refit", action="store_true",
                        help="play nothing: fit again the games of rating.json in --out and rewrite its files")
    args = parser.parse_args(argv)
    if args.refit:
        return refit(Path(args.out), args)
    unknown = [n for n in args.players if n not in PLAYERS]
    if unknown:
        parser.error(f"unknown player {unknown[0]!r}; choose from {', '.join(PLAYERS)}")
    names = list(dict.fromkeys(args.players))
    command = harness.command("rating", argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    games: list[Game] = []
    start = time.time()
    report = None
    for r, calls in enumerate(schedule(names, args.rounds, args.openspiel_rounds, args.seed)):
        if args.minutes is not None and games and time.time() - start > args.minutes * 60:
            print(f"time is up after {r} rounds", file=sys.stderr)
            break
        for i, game in enumerate(_played(calls, args.jobs), 1):
            games.append(game)
            print(f"\rround {r + 1}: {i}/{len(calls)} games, {time.time() - start:.0f}s", end="", file=sys.stderr,
                  flush=True)
        print(file=sys.stderr)
        report = report_of(names, games, args, time.time() - start, command)
        write(report, out)
    if report is None:
        return 1
    c = report["checks"]
    print(markdown(report))
    print(f"levels strictly increasing: {c['levels_strictly_increasing']}; span {c['level_span']:.0f} Elo"
          + (f"; level 1 - heuristic {c['level1_minus_heuristic']:+.0f} Elo" if "level1_minus_heuristic" in c else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
