"""Issue 15's strength and calibration targets, each next to what was measured, read from
the result files of the benchmarks that measured them (nothing here is typed in by hand).

    python -m benchmarks.targets [--results benchmarks/results] [--out DIR]

Writes targets.md (one row a target: the figure, its 95% interval, the games or
positions behind it, met / missed / not measured, the file and the command) and
targets.png (the scores with their intervals against the line each has to reach) into
--out, by default the results folder. A target whose file is missing is listed as not
measured, with the command that would measure it.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from hzai.core.bot import wilson_interval

from benchmarks import harness

CONCERN = "strength"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass(frozen=True)
class Row:
    """One target: `value` and `interval` as fractions (scores, shares, Brier gains) or
    Elo; `met` None when not measured."""

    target: str
    goal: str
    value: float | None
    interval: tuple[float, float] | None
    sample: str
    met: bool | None
    files: tuple[str, ...]
    command: str
    kind: str = "share"  # "share" (drawn on the plot, as %) or "elo"
    threshold: float | None = None
    note: str = ""


def _load(results: Path, name: str) -> dict | None:
    path = results / name
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except ValueError:
        return None


def _arena_rows(results: Path) -> list[Row]:
    """Scores from `hzai arena` summaries: one or several files of the same pairing pooled."""
    specs = [
        ("new default vs `ismcts-v1`, 100 ms a decision", "≥ 60%",
         ("infer_100ms_seed15000.json", "default_vs_v1_100ms_seed16000.json"), 0.60, None,
         "hzai arena ismcts ismcts-v1 --games 400 --budget 100ms --jobs 1 --seed 15000 (and --seed 16000)"),
        ("new default vs PIMC, 100 ms a decision", "≥ 65%, lower bound > 55%",
         ("default_vs_pimc_100ms_seed17000.json",), 0.65, 0.55,
         "hzai arena ismcts pimc --games 200 --budget 100ms --jobs 1 --seed 17000"),
    ]
    rows = []
    for target, goal, names, need, need_low, command in specs:
        found = [d for d in (_load(results, n) for n in names) if d is not None]
        if len(found) < len(names):
            rows.append(Row(target, goal, None, None, "", None, names, command, threshold=need))
            continue
        games = sum(d["games"] for d in found)
        points = sum(d["a_wins"] + 0.5 * d["draws"] for d in found)
        low, high = wilson_interval(points, games)
        value = points / games
        met = value >= need and (need_low is None or low > need_low)
        limits = {d["limits"] for d in found}
        rows.append(Row(target, goal, value, (low, high), f"{games} games ({', '.join(sorted(limits))})", met,
                        names, command, threshold=need))
    return rows


def _openspiel_rows(results: Path) -> list[Row]:
    specs = [
        ("vs OpenSpiel's ISMCTS, 100 iterations a decision", "≥ 60%", "openspiel_default.json", "(a)", 0.60,
         "python -m benchmarks.openspiel_match --games 200 --iterations 100 --settings a --ours ismcts --jobs 2"),
        ("vs OpenSpiel's ISMCTS, 1000 iterations a decision", "≥ 60%", "openspiel_1000_default.json", "(a)", 0.60,
         "python -m benchmarks.openspiel_match --games 40 --iterations 1000 --settings a --ours ismcts --jobs 2"),
        ("vs OpenSpiel's ISMCTS, equal time (100 ms)", "≥ 95%", "openspiel_default_time.json", "(b)", 0.95,
         "python -m benchmarks.openspiel_match --games 200 --millis 100 --settings b --reuse-a "
         "benchmarks/results/openspiel_default.json --ours ismcts --jobs 2"),
    ]
    rows = []
    for target, goal, name, label, need, command in specs:
        data = _load(results, name)
        setting = None if data is None else next(
            (s for s in data["settings"] if s["setting"].startswith(label)), None)
        if setting is None:
            rows.append(Row(target, goal, None, None, "", None, (name,), command, threshold=need))
            continue
        games = setting["games"]
        points = setting["ours_wins"] + 0.5 * setting["draws"]
        value = points / games
        rows.append(Row(target, goal, value, wilson_interval(points, games), f"{games} games", value >= need,
                        (name,), command, threshold=need))
    return rows


def _ceiling_row(results: Path) -> Row:
    command = "python -m benchmarks.ceiling --games 300 --ms 100 --jobs 2"
    target, goal = "closes half the gap from `ismcts-v1` to an all-seeing bot", "≥ 50% of the gap"
    data = _load(results, "ceiling.json")
    if data is None:
        return Row(target, goal, None, None, "", None, ("ceiling.json",), command, threshold=0.5)
    games = data["v1_vs_ceiling"]["games"] + data["default_vs_ceiling"]["games"]
    return Row(target, goal, data["gap_closed"], tuple(data["gap_closed_ci95"]),
               f"{games} games, {data['ms']} ms (paired bootstrap)", data["gap_closed"] >= 0.5, ("ceiling.json",),
               command, threshold=0.5,
               note=f"ismcts-v1 {data['v1_vs_ceiling']['score']:.1%}, default "
                    f"{data['default_vs_ceiling']['score']:.1%} against the ceiling")


def _calibration_rows(results: Path) -> list[Row]:
    rows = []
    for name, seed in (("calibration.json", 5000), ("calibration_seed7000.json", 7000)):
        command = f"python -m benchmarks.calibration --games 300 --seed {seed}"
        target = "hostage Brier better than uniform, turn 10 on (seeds {}–{})"
        data = _load(results, name)
        if data is None:
            rows.append(Row(target.format(seed, seed + 299), "≥ 20%", None, None, "", None, (name,), command,
                            threshold=0.2))
            continue
        target = target.format(*data["seeds"])
        gain = data["target"]
        rows.append(Row(target, f"≥ {gain['required']:.0%}", gain["improvement"], tuple(gain["ci95"]),
                        f"{data['positions']:,} positions", gain["improvement"] >= gain["required"], (name,),
                        command, threshold=gain["required"], note=f"inferred belief at {data['default']}"))
    return rows


def _rating_rows(results: Path) -> list[Row]:
    command = "python -m benchmarks.rating --rounds 3 --openspiel-rounds 1 --minutes 22 --jobs 1"
    data = _load(results, "rating.json")
    names = ("rating.json",)
    if data is None:
        return [Row(t, g, None, None, "", None, names, command, kind="elo")
                for t, g in (("levels span", "≥ 800 Elo"), ("level 1 below the heuristic bot", "< heuristic"),
                             ("levels strictly increasing", "yes"))]
    checks, games = data["checks"], f"{data['games']} games"
    span = checks["level_span"]
    gap = checks["level1_minus_heuristic"]
    increasing = checks["levels_strictly_increasing"]
    weakest = min(checks["above_the_level_below"].values())
    return [
        Row("levels span", "≥ 800 Elo", span, None, games, span >= 800, names, command, kind="elo"),
        Row("level 1 below the heuristic bot", "< heuristic", gap, None, games, gap < 0, names, command, kind="elo",
            note=f"{checks['level1_below_heuristic_share']:.0%} of bootstrap refits put it below; head to head "
                 f"level 1 scored {checks['level1_vs_heuristic_score']:.0%} over "
                 f"{checks['level1_vs_heuristic_games']} games"),
        Row("levels strictly increasing", "yes", None, None, games, bool(increasing), names, command, kind="elo",
            note=f"neighbours ordered right in {weakest:.0%}–100% of bootstrap refits"),
    ]


def collect(results: Path) -> list[Row]:
    return [*_arena_rows(results), *_openspiel_rows(results), _ceiling_row(results), *_calibration_rows(results),
            *_rating_rows(results)]


def _figure(row: Row) -> str:
    if row.value is None:
        return "yes" if row.met else ("no" if row.met is False else "–")
    if row.kind == "elo":
        return f"{row.value:+.0f}" if row.target.startswith("level 1") else f"{row.value:.0f}"
    text = f"{row.value:.1%}"
    return text if row.interval is None else f"{text} [{row.interval[0]:.1%}–{row.interval[1]:.1%}]"


def _status(row: Row) -> str:
    return {True: "**met**", False: "missed", None: "not measured"}[row.met]


def markdown(rows: list[Row], results: Path) -> str:
    lines = ["# Issue 15: targets against what was measured", "",
             "Written by `python -m benchmarks.targets` from the result files named in each row; "
             "intervals are 95% (Wilson for scores, bootstrap where the file says so). Seat-swapped "
             "matches on the same deals. A score is the first bot's: wins plus half the draws.", "",
             "| target | aimed at | measured [95% interval] | over | status | file | command |",
             "|---|---|---|---|---|---|---|"]
    for row in rows:
        files = ", ".join(f"[{n}]({n})" if (results / n).exists() else n for n in row.files)
        lines.append(f"| {row.target} | {row.goal} | {_figure(row)} | {row.sample or '–'} | {_status(row)} | "
                     f"{files} | `{row.command}` |")
    notes = [f"- {row.target}: {row.note}." for row in rows if row.note and row.met is not None]
    if notes:
        lines += ["", "Notes:", *notes]
    met = sum(r.met is True for r in rows)
    missed = sum(r.met is False for r in rows)
    lines += ["", f"{met} met, {missed} missed, {len(rows) - met - missed} not measured.", ""]
    return "\n".join(lines)


def plot(rows: list[Row], path: Path) -> bool:
    """The shares with their intervals, each against the line it has to reach."""

    plt = harness.pyplot()
    drawn = [r for r in rows if r.kind == "share" and r.value is not None]
    if plt is None or not drawn:
        return False
    fig, ax = plt.subplots(figsize=(10.5, 0.55 * len(drawn) + 1.4))
    for y, row in enumerate(reversed(drawn)):
        colour = "tab:green" if row.met else "tab:red"
        if row.interval is not None:
            ax.plot([100 * row.interval[0], 100 * row.interval[1]], [y, y], color=colour, lw=2)
        ax.plot([100 * row.value], [y], "o", color=colour)
        if row.threshold is not None:
            ax.plot([100 * row.threshold] * 2, [y - 0.35, y + 0.35], color="black", lw=2)
    ax.set_yticks(range(len(drawn)))
    ax.set_yticklabels([r.target.replace("`", "") for r in reversed(drawn)], fontsize=8)
    ax.set_xlabel("% (score, share of the gap closed, or Brier gain); black bar: the target")
    ax.set_xlim(-10, 105)
    ax.axvline(0, color="grey", lw=0.5)
    ax.set_title("Issue 15: measured, with its 95% interval, against the target (black bar)")
    fig.tight_layout()
    harness.save_plot(fig, path)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.targets", description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=RESULTS, help="folder holding the benchmarks' result files")
    parser.add_argument("--out", type=Path, default=None, help="where to write targets.md/.png (default: --results)")
    args = parser.parse_args(argv)
    if not args.results.is_dir():
        parser.error(f"--results {args.results}: not a folder")
    out = args.out or args.results
    out.mkdir(parents=True, exist_ok=True)
    rows = collect(args.results)
    (out / "targets.md").write_text(markdown(rows, args.results), encoding="utf-8")
    drew = plot(rows, out / "targets.png")
    for row in rows:
        print(f"{_status(row).strip('*'):13} {row.target}: {_figure(row)}")
    print(f"written: {out / 'targets.md'}" + (f", {out / 'targets.png'}" if drew else " (no plot: matplotlib missing)"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
