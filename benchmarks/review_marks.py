"""Issue 42, item 4: are review marks and analysis intervals honest at the defaults?

Three measures, each for the defaults as they are now ("after": what `hzai analyze-game`
and `hzai analyze` run, read from their own parser and analyst) and for the search
before the change ("before": the plain default bot, one search, marks from the value
lost alone, the played move's value wherever the analysis happened to visit it):

1. Marks. Every decision of each record is reviewed twice, with review seeds 0 and 7, at
   analyze-game's default budget: the share of decisions whose marks agree (both
   unmarked counts as agreeing), the marks given, and the marks standing on a played
   move searched fewer than 20 times. Records: the 173-move record of
   benchmarks/results/analyze_game_record.json, and GAMES held-out games of Hera and
   Zeus played here by two ISMCTS bots (deals FIRST_DEAL.., never trained on: the
   self-play of docs/learning.md dealt 0.. by rounds of 100,000, its matches 900000..
   970000..); their records are kept in review_marks_games.json beside the figures.
2. Intervals. POSITIONS decisions of each held-out game are analysed as `hzai analyze`
   does by default (its budget) with seeds 0..3: the share of positions where the
   interval of seed 0's best move is at least as wide as the value of the position (the
   best move's value, the figure `hzai analyze` leads with) spreads across the four
   seeds (max - min); pooled over the four seeds' best moves; and against the spread of
   seed 0's best move's own value over the analyses that searched it 20 times or more.
   Also how many positions the four seeds give one best move.
3. Cost. The time of one analysis at a fixed iteration budget with and without the
   replicas, and of the reviews above.

    python -m benchmarks.review_marks                       # 20 games, ~10 min on 2 cores
    python -m benchmarks.review_marks --games 2 --positions 1 --out /tmp/marks.json
    python -m benchmarks.review_marks --games 10 --positions 0 --review-budget 5000 \
        --out benchmarks/results/review_marks_5000.json         # marks at a larger budget

Figures go to benchmarks/results/review_marks.json (and a table in review_marks.md);
nothing is asserted.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import time
from pathlib import Path

from benchmarks import harness
from benchmarks.analyze_game import play
from benchmarks.harness import machine
from hzai.analysis_cli import analyse, analyst_of, review_record
from hzai.cli import _cut, build_parser
from hzai.core import Limits
from hzai.record_file import load_record, record_of
from hzai.review import explicit
from hzai.search.bot import ANALYSIS_BOT, DEFAULT_BOT, make_bot
from hzai.search.review import BLUNDER, DUBIOUS, decision_seed, resolve_move

CONCERN = "strength"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
LONG_RECORD = RESULTS / "analyze_game_record.json"
FIRST_DEAL = 990000  # held out: no self-play or match of docs/learning.md dealt these
LOW_VISITS = 20  # the "searched fewer than 20 times"
REVIEW_SEEDS = (0, 7)
ANALYSIS_SEEDS = (0, 1, 2, 3)


def cli_args(*argv: str):
    """The parsed arguments of a real `hzai` command line (its defaults included)."""
    return build_parser().parse_args(list(argv))


def old_mark(loss: float | None) -> str:
    """The mark before issue 42: from the value lost alone."""
    if loss is None:
        return ""
    return "??" if loss >= BLUNDER else ("?" if loss >= DUBIOUS else "")


def review_after(record, path: str, seed: int, budget: str | None = None) -> list[dict]:
    """`hzai analyze-game PATH --seed SEED` as the command runs it (its defaults; its
    default budget unless `budget` is given)."""
    args = cli_args("analyze-game", path, "--seed", str(seed), "--quiet", *(["--budget", budget] if budget else []))
    rows = review_record(record, args, Limits.parse(args.budget, args.threads), io.StringIO())
    return [{"index": r.index, "mark": r.mark, "played_visits": r.played_visits} for r in rows]


def review_before(record, seed: int, limits: Limits) -> list[dict]:
    """The review as it was: the plain default bot's analysis of each decision, the
    played move's numbers wherever that analysis visited it, marks from the loss."""
    game = record.game
    full = explicit(record)
    bot = make_bot(DEFAULT_BOT, game)
    state = game.records.start_of(full)
    rows = []
    for index, text in enumerate(full.moves):
        move = resolve_move(state, text)
        if state.current_seat is not None:
            analysis = bot.analyze(state.view(state.current_seat), limits, decision_seed(seed, index))
            action = game.action_of(move)
            mine = next((m for m in analysis.moves if game.action_of(m.move) == action and m.visits > 0), None)
            loss = None if mine is None else max(0.0, analysis.moves[0].value - mine.value)
            rows.append({"index": index, "mark": old_mark(loss), "played_visits": 0 if mine is None else mine.visits})
        state.apply(move)
    return rows


def agreement(runs: list[list[dict]]) -> dict:
    """Marks of two reviews of the same records: agreement and low-visit marks."""
    pairs = [(a, b) for first, second in zip(runs[0], runs[1]) for a, b in zip(first, second)]
    assert all(a["index"] == b["index"] for a, b in pairs)
    marks = [r for a, b in pairs for r in (a, b) if r["mark"]]
    return {
        "decisions": len(pairs),
        "agree": sum(a["mark"] == b["mark"] for a, b in pairs),
        "agree_share": round(sum(a["mark"] == b["mark"] for a, b in pairs) / max(1, len(pairs)), 4),
        "marked_decisions": sum(bool(a["mark"] or b["mark"]) for a, b in pairs),
        "marks_in_both": sum(bool(a["mark"]) and a["mark"] == b["mark"] for a, b in pairs),
        "marks": len(marks),
        "marks_low_visits": sum(r["played_visits"] < LOW_VISITS for r in marks),
    }


def marks_part(records: list[tuple[str, object]], budget: str) -> dict:
    out: dict = {}
    for label, chosen in (("record_173", records[:1]), ("held_out", records[1:])):
        if not chosen:
            continue
        entry = {}
        for config in ("after", "before"):
            start = time.perf_counter()
            runs = []
            for seed in REVIEW_SEEDS:
                if config == "after":
                    runs.append([review_after(record, path, seed, budget) for path, record in chosen])
                else:
                    runs.append([review_before(record, seed, Limits.parse(budget)) for _, record in chosen])
            entry[config] = agreement(runs) | {"seconds": round(time.perf_counter() - start, 2)}
            print(f"marks {label} {config}: {json.dumps(entry[config])}", flush=True)
        out[label] = entry
    return out


def positions_of(record, count: int) -> list[int]:
    """`count` decision indexes spread over the record (the first decision at or after
    each of 1/(count+1), 2/(count+1), ... of its moves)."""
    game = record.game
    state = game.records.start_of(record)
    decisions = []
    for index, text in enumerate(record.moves):
        if state.current_seat is not None:
            decisions.append(index)
        state.apply(resolve_move(state, text))
    chosen = []
    for k in range(1, count + 1):
        at = next((d for d in decisions if d >= len(record.moves) * k / (count + 1)), None)
        if at is not None and at not in chosen:
            chosen.append(at)
    return chosen


def width(info) -> float:
    return info.ci_high - info.ci_low


def honest(analyses: list) -> dict:
    """The four analyses of one position (seeds 0..3). `spread`: how far the value of
    the position (each analysis' best move's value) moves across them; `honest`: seed
    0's best move's interval is at least as wide; `pooled`: how many of the four best
    moves' intervals are. `move_spread`: the spread of seed 0's best move's own value
    over the analyses that searched it at least 20 times, `move_honest` against it."""
    bests = [a.moves[0] for a in analyses]
    spread = max(b.value for b in bests) - min(b.value for b in bests)
    first = bests[0]
    same = [m for a in analyses for m in a.moves if m.move == first.move and m.visits >= LOW_VISITS]
    move_spread = max(m.value for m in same) - min(m.value for m in same)
    return {"width": round(width(first), 4), "spread": round(spread, 4), "honest": width(first) >= spread,
            "pooled": sum(width(b) >= spread for b in bests), "move_spread": round(move_spread, 4),
            "move_honest": width(first) >= move_spread, "move_searched": len(same)}


def intervals_part(records: list[tuple[str, object]], count: int) -> dict:
    out = {}
    for config in ("after", "before"):
        rows, iterations = [], []
        start = time.perf_counter()
        for path, record in records:
            for upto in positions_of(record, count):
                argv = ["analyze", path, "--upto", str(upto)] + (["--bot", DEFAULT_BOT] if config == "before" else [])
                args = cli_args(*argv)
                limits = Limits.parse(args.budget, args.threads)
                view = record.game.records.decision_view(record.game.records.replay(_cut(record, upto)))
                analyses = []
                for seed in ANALYSIS_SEEDS:
                    analyses.append(analyse(analyst_of(args, record.game), view, limits, seed))
                    iterations.append(analyses[-1].iterations)
                rows.append({"record": path, "upto": upto, **honest(analyses),
                             "distinct_best": len({record.game.move_text(a.moves[0].move) for a in analyses})})
        n = len(rows)
        out[config] = {
            "budget": str(limits), "bot": args.bot or "(default)", "positions": n,
            "honest": sum(r["honest"] for r in rows), "honest_share": round(sum(r["honest"] for r in rows) / max(1, n), 4),
            "pooled_honest_share": round(sum(r["pooled"] for r in rows) / max(1, n * len(ANALYSIS_SEEDS)), 4),
            "move_honest_share": round(sum(r["move_honest"] for r in rows) / max(1, n), 4),
            "median_width": round(statistics.median(r["width"] for r in rows), 4) if rows else None,
            "median_spread": round(statistics.median(r["spread"] for r in rows), 4) if rows else None,
            "positions_one_best": sum(r["distinct_best"] == 1 for r in rows),
            "median_iterations": statistics.median(iterations) if iterations else None,
            "seconds": round(time.perf_counter() - start, 2),
            "rows": rows,
        }
        print(f"intervals {config}: " + json.dumps({k: v for k, v in out[config].items() if k != "rows"}), flush=True)
    return out


def cost_part(records: list[tuple[str, object]], iterations: int, count: int) -> dict:
    """Seconds for one analysis at `iterations` with the analysis default (replicas)
    and with the plain default bot, over the same positions and seed."""
    times: dict[str, list[float]] = {"after": [], "before": []}
    for path, record in records:
        for upto in positions_of(record, count):
            view = record.game.records.decision_view(record.game.records.replay(_cut(record, upto)))
            for config in ("after", "before"):
                argv = ["analyze", path, "--budget", str(iterations)] + (["--bot", DEFAULT_BOT] if config == "before" else [])
                args = cli_args(*argv)
                bot = analyst_of(args, record.game)
                start = time.perf_counter()
                analyse(bot, view, Limits.parse(args.budget), 0)
                times[config].append(time.perf_counter() - start)
    after, before = sum(times["after"]), sum(times["before"])
    out = {"iterations": iterations, "positions": len(times["after"]), "seconds_after": round(after, 3),
           "seconds_before": round(before, 3), "ratio": round(after / before, 3) if before else None}
    print(f"cost: {json.dumps(out)}", flush=True)
    return out


def table(figures: dict) -> str:
    lines = ["# Review marks and analysis intervals at the defaults (issue 42, item 4)", "",
             f"`{figures['command']}` (reviews at {figures['review_budget']}) on {figures['machine']['cpus']} CPUs "
             f"(load average {figures['machine']['load_average']}).", "",
             "| records | config | decisions | marks agree (seeds 0, 7) | marks (both runs) | marked alike | "
             "marks on < 20 visits | seconds |", "|---|---|---|---|---|---|---|---|"]
    for label, entry in figures["marks"].items():
        for config, e in entry.items():
            lines.append(f"| {label} | {config} | {e['decisions']} | {100 * e['agree_share']:.1f}% | {e['marks']} | "
                         f"{e['marks_in_both']} | {e['marks_low_visits']} | {e['seconds']} |")
    if figures["intervals"]:
        lines += intervals_table(figures["intervals"])
    c = figures["cost"]
    lines += ["", f"Cost at {c['iterations']} iterations over {c['positions']} positions: {c['seconds_after']} s with "
              f"the replicas against {c['seconds_before']} s for the single search (ratio {c['ratio']})."]
    return "\n".join(lines) + "\n"


def intervals_table(intervals: dict) -> list[str]:
    lines = ["", "| `hzai analyze` | positions | best's interval ≥ spread of the value over 4 seeds (seed 0) | "
              "the same, every seed's best | seed 0's best ≥ spread of its own value | median width | median spread | "
              "one best over 4 seeds | median iterations |", "|---|---|---|---|---|---|---|---|---|"]
    for config, e in intervals.items():
        bot = f"default, {ANALYSIS_BOT}" if e["bot"] == "(default)" else f"--bot {e['bot']}"
        lines.append(f"| {config} ({bot}, {e['budget']}) | {e['positions']} | {100 * e['honest_share']:.1f}% | "
                     f"{100 * e['pooled_honest_share']:.1f}% | {100 * e['move_honest_share']:.1f}% | "
                     f"{e['median_width']} | {e['median_spread']} | {e['positions_one_best']} | "
                     f"{e['median_iterations']} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="held-out games (default 20)")
    parser.add_argument("--first-deal", type=int, default=FIRST_DEAL, help=f"deal of the first game (default {FIRST_DEAL})")
    parser.add_argument("--play-budget", type=int, default=300, help="iterations a move while the games are played")
    parser.add_argument("--positions", type=int, default=2,
                        help="positions a game for the interval measure (default 2; 0: no interval measure)")
    parser.add_argument("--cost-iterations", type=int, default=20000, help="iterations of the cost measure")
    parser.add_argument("--review-budget", default=None, metavar="BUDGET",
                        help="the reviews' budget (default: hzai analyze-game's own default)")
    parser.add_argument("--out", type=Path, default=RESULTS / "review_marks.json", help="the JSON figures (a .md beside)")
    args = parser.parse_args()
    if args.games < 0 or args.positions < 0:
        parser.error("--games and --positions must be at least 0")
    games_file = args.out.parent / "review_marks_games.json"  # shared by the runs written to one folder
    kept = json.loads(games_file.read_text()) if games_file.exists() else {}
    records = [(str(LONG_RECORD), load_record(LONG_RECORD))]
    start = time.perf_counter()
    for deal in range(args.first_deal, args.first_deal + args.games):
        key = f"{deal}@{args.play_budget}"  # a game is its deal and the budget it was played at
        if key not in kept:
            kept[key] = play(deal, args.play_budget).to_json()
        records.append((f"held-out game {key}", record_of(kept[key], None)))
    if args.games:
        games_file.write_text(json.dumps(kept) + "\n")
    print(f"{args.games} held-out games ready in {time.perf_counter() - start:.1f} s ({games_file})", flush=True)
    review_budget = args.review_budget or cli_args("analyze-game", str(LONG_RECORD)).budget
    figures = {
        "command": harness.command("review_marks", [
            x for k, v in vars(args).items() if k != "out" and v is not None for x in (f"--{k.replace('_', '-')}", str(v))]),
        "deals": [args.first_deal, args.first_deal + args.games - 1] if args.games else [],
        "review_budget": review_budget,
        "marks": marks_part(records, review_budget),
        "intervals": intervals_part(records[1:], args.positions) if args.games and args.positions else {},
        "cost": cost_part(records[1:] or records, args.cost_iterations, 1),
        "machine": machine(),
    }
    args.out.write_text(json.dumps(figures, indent=1) + "\n")
    args.out.with_suffix(".md").write_text(table(figures))
    print(f"written: {args.out} and {args.out.with_suffix('.md').name}")


if __name__ == "__main__":
    main()
