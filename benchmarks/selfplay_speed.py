"""Self-play games an hour (hzai selfplay), cheap and full, with a model guiding the search.

    nice -n 10 python -m benchmarks.selfplay_speed                   # writes benchmarks/results/selfplay_speed.{json,md}
    nice -n 10 python -m benchmarks.selfplay_speed --seconds 30 --model path/to/model.npz

Three ways of playing, each for about --seconds of wall clock on --threads threads, in
shards of --shard games written to a scratch folder as `hzai selfplay` writes them (deal,
play, records, compression and the write included):
- policy-only: every decision the model's policy alone (--full-share 0, --keep 0.03);
- cheap: --full-share 0.1 full searches of --budget iterations, the rest the policy alone
  (--keep 0.03);
- full: every decision a full search of --budget iterations (--full-share 1, today's).
A machine shared with other work slows the wall clock, so the figures are given twice:
games an hour of wall clock on the threads, and games an hour two whole cores would play
at the measured CPU seconds of this process (CPU time counts every thread's work, so other
processes on the machine slow it far less). The load average is recorded beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from benchmarks import harness

CONCERN = "learning"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
MODES = (("policy-only", 0.0), ("cheap (full share 0.1)", 0.1), ("full search", 1.0))


def measure(label: str, full_share: float, args, model: str) -> dict:
    from hzai.learn.selfplay import SelfplayConfig, play_shard, write_shard

    config = SelfplayConfig("hera_zeus", games=10_000_000, budget=args.budget, seed=args.seed, shard=args.shard,
                            full_share=full_share, keep=args.keep if full_share < 1 else 1.0)
    games = records = decisions = full = 0
    with tempfile.TemporaryDirectory() as scratch:
        cpu, wall = time.process_time(), time.perf_counter()
        k = 0
        while time.perf_counter() - wall < args.seconds:
            arrays = play_shard(config, k, args.threads, model)
            write_shard(Path(scratch), k, arrays)
            games += args.shard - int(arrays["dropped"])
            records += len(arrays["seat"])
            decisions += int(arrays["decisions"])
            full += int(arrays["full_decisions"])
            k += 1
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    row = {"mode": label, "full_share": full_share, "budget": args.budget, "keep": config.keep, "games": games,
           "decisions": decisions, "full_decisions": full, "records": records, "wall_s": round(wall, 1),
           "cpu_s": round(cpu, 1), "threads": args.threads,
           "games_per_hour_wall": round(games / wall * 3600), "games_per_hour_two_cores": round(games / cpu * 7200),
           "decisions_per_game": round(decisions / max(1, games), 1),
           "records_per_game": round(records / max(1, games), 2), "load_average_after": os.getloadavg()[0]}
    print(f"{label}: {games} games in {wall:.0f} s wall, {cpu:.0f} CPU s: {row['games_per_hour_wall']:,} games an "
          f"hour (wall, {args.threads} threads), {row['games_per_hour_two_cores']:,} on two whole cores; "
          f"{row['decisions_per_game']} decisions and {row['records_per_game']} records a game", flush=True)
    return row


def markdown(result: dict) -> str:
    lines = ["# Self-play speed (hzai selfplay, Hera and Zeus)", "",
             f"`{result['command']}`, model `{result['model']}`, {result['date']}, {harness.machine_text(result['machine'])}.", "",
             "Games an hour, recording included (shards written as `hzai selfplay` writes them). *Two cores*: "
             "the games two whole cores play at this process's measured CPU seconds; *wall*: the wall clock on "
             f"{result['threads']} threads of a machine shared with other work (load average beside it).", "",
             "| mode | full share | budget | games | decisions a game | records a game | games an hour, two cores "
             "| games an hour, wall | load average |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in result["rows"]:
        lines.append(f"| {r['mode']} | {r['full_share']} | {r['budget']} | {r['games']:,} | {r['decisions_per_game']} "
                     f"| {r['records_per_game']} | **{r['games_per_hour_two_cores']:,}** | {r['games_per_hour_wall']:,} "
                     f"| {r['load_average_after']:.1f} |")
    lines += ["", "Target (issue 43): at least 300,000 games an hour policy-only on two cores."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=75.0, help="wall clock a mode (default 75)")
    p.add_argument("--budget", type=int, default=200, help="a full search's iterations (default 200)")
    p.add_argument("--keep", type=float, default=0.03, help="share of fast decisions recorded (default 0.03)")
    p.add_argument("--shard", type=int, default=200, help="games a shard (default 200)")
    p.add_argument("--threads", type=int, default=2, help="threads (default 2)")
    p.add_argument("--seed", type=int, default=7_000_000, help="game i is dealt SEED+i (default 7000000)")
    p.add_argument("--model", default="shipped", help="the model guiding play (default: the shipped one)")
    p.add_argument("--out", default=str(RESULTS / "selfplay_speed.json"), help="the JSON to write (.md beside it)")
    args = p.parse_args(argv)
    from hzai.core.registry import make_game
    from hzai.native.model import load_cached, model_path

    game = make_game("hera_zeus")
    model = model_path("hera_zeus", args.model)
    model_id = load_cached(game, model)[0].model_id
    rows = []
    for label, share in MODES:
        shard = args.shard if share < 1 else max(args.threads, args.shard // 20)  # full games are slow
        rows.append(measure(label, share, argparse.Namespace(**{**vars(args), "shard": shard}), model))
    result = {"command": harness.command("selfplay_speed", argv),
              "model": model_id, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "machine": harness.machine(), "threads": args.threads, "rows": rows}
    out = Path(args.out)
    out.write_text(json.dumps(result, indent=1) + "\n")
    out.with_suffix(".md").write_text(markdown(result))
    print(f"wrote {out} and {out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
