"""AnalyzeGame through the service: one streamed review against one Analyze call per
decision, and what a running review does to an interactive SuggestMove's latency.

1. The first `--decisions` decisions of benchmarks/results/analyze_game_record.json (a
   game two ISMCTS bots played, written by `python -m benchmarks.analyze_game`).
2. AnalyzeGame over them at `--budget` iterations a decision, timed from the request to
   the summary; then the same decisions as separate Analyze calls on each prefix with
   the seed rule (seed + index), timed; every call must equal its row (the figure is
   void otherwise).
3. SuggestMove latency (`--suggestions` calls, `--suggest-budget` iterations, one after
   the other) on an idle server, then while AnalyzeGame reviews the same game again and
   again on another channel: p50 and p99 of both, and their ratio.

Both parts run on a server started here on 127.0.0.1 with `--max-searches 2 --search-queue 8`
(a review and a suggestion each get a slot) and again with `--max-searches 1
--search-queue 8` (the suggestion must wait for the review's current decision, then goes
first). Figures go to benchmarks/results/analyze_game_service.json. Not a test.

    python -m benchmarks.analyze_game_service --decisions 100 --budget 1000
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path

from benchmarks.harness import machine
from benchmarks.service import LocalServer, summary_ms

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
RECORD = RESULTS / "analyze_game_record.json"


def first_decisions(record: dict, count: int) -> dict:
    """The record cut right after its `count`-th decision (chance results kept)."""
    from hzai.core import make_game
    from hzai.search.review import resolve_move

    game = make_game("hera_zeus")
    state = game.records.start_of(game.records.read({**record, "moves": []}))
    seen = 0
    for index, text in enumerate(record["moves"]):
        if state.current_seat is not None:
            seen += 1
        state.apply(resolve_move(state, text))
        if seen == count:
            return {**record, "moves": record["moves"][: index + 1]}
    raise SystemExit(f"the record has only {seen} decisions; ask for fewer")


def table(analysis) -> list:
    return [(m.move.text, m.visits, m.value) for m in analysis.moves]


def review_vs_calls(target: str, record: dict, budget: int, seed: int) -> dict:
    from hzai_client import HzaiClient

    with HzaiClient(target, timeout=600) as client:
        start = time.perf_counter()
        replies = list(client.analyze_game(record, iterations=budget, seed=seed))
        review_s = time.perf_counter() - start
        rows = [r.decision for r in replies if r.WhichOneof("item") == "decision"]
        assert replies[-1].summary.complete
        start = time.perf_counter()
        for row in rows:
            alone = client.analyze({**record, "moves": record["moves"][: row.index]}, iterations=budget,
                                   seed=seed + row.index, priority="batch")
            assert table(alone) == table(row.analysis), f"decision {row.index} differs"
        calls_s = time.perf_counter() - start
    return {"decisions": len(rows), "analyze_game_seconds": round(review_s, 3),
            "analyze_calls_seconds": round(calls_s, 3), "ratio_game_to_calls": round(review_s / calls_s, 3),
            "ms_per_decision_game": round(1000 * review_s / len(rows), 2)}


def suggestion_latency(target: str, record: dict, count: int, budget: int) -> list[float]:
    from hzai_client import HzaiClient

    position = {**record, "moves": record["moves"][:30]}
    out = []
    with HzaiClient(target, timeout=60) as client:
        client.suggest_move(position, iterations=budget, seed=0)  # warm: channel, caches
        for i in range(count):
            start = time.perf_counter()
            client.suggest_move(position, iterations=budget, seed=i + 1)
            out.append(1000 * (time.perf_counter() - start))
    return out


def latency_under_review(target: str, record: dict, count: int, suggest_budget: int, budget: int) -> dict:
    from hzai_client import HzaiClient

    idle = suggestion_latency(target, record, count, suggest_budget)
    done = threading.Event()
    reviewed = [0]

    def review_forever():
        with HzaiClient(target, timeout=600) as client:
            while not done.is_set():
                for reply in client.analyze_game(record, iterations=budget, seed=1):
                    if reply.WhichOneof("item") == "decision":
                        reviewed[0] += 1
                    if done.is_set():
                        break

    worker = threading.Thread(target=review_forever, daemon=True)
    worker.start()
    while reviewed[0] < 3:  # the review is under way
        time.sleep(0.01)
    busy = suggestion_latency(target, record, count, suggest_budget)
    done.set()
    worker.join(120)
    idle_s, busy_s = summary_ms(idle), summary_ms(busy)
    return {"idle": idle_s, "during_review": busy_s, "decisions_reviewed_meanwhile": reviewed[0],
            "p50_ratio": round(busy_s["p50_ms"] / idle_s["p50_ms"], 3),
            "p99_ratio": round(busy_s["p99_ms"] / idle_s["p99_ms"], 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--budget", type=int, default=1000, help="iterations a reviewed decision")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--suggestions", type=int, default=100, help="SuggestMove calls per latency series")
    parser.add_argument("--suggest-budget", type=int, default=1000, help="iterations of each SuggestMove")
    parser.add_argument("--out", default=str(RESULTS / "analyze_game_service.json"))
    args = parser.parse_args(argv)
    record = first_decisions(json.loads(RECORD.read_text()), args.decisions)
    figures = {"record": str(RECORD.relative_to(RESULTS.parent.parent)), "moves": len(record["moves"]),
               "budget": args.budget, "suggest_budget": args.suggest_budget, "machine": machine(), "runs": {}}
    for slots in (2, 1):
        with LocalServer(max_searches=slots, extra=["--search-queue", "8"]) as server:
            run = {"review_vs_calls": review_vs_calls(server.target, record, args.budget, args.seed),
                   "suggest_latency": latency_under_review(server.target, record, args.suggestions,
                                                           args.suggest_budget, args.budget)}
        figures["runs"][f"max_searches={slots}"] = run
        print(json.dumps({f"max_searches={slots}": run}, indent=1), flush=True)
    figures["machine_after"] = machine()
    Path(args.out).write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
