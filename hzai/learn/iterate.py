"""Expert iteration (docs/learning.md): rounds of self-play with the kept model, training
on the recent rounds' records, and a match of the new model against the kept one; the
new model is kept only if it wins (its score over 50%). Every step's output is a file
in the work folder, so a run stopped anywhere resumes at the first step not done, with
the same seeds (round r plays games seeded seed + r * 100000 .. ; its match deals
match_seed + r * 10000 .., never trained on).

    python -m hzai.learn.iterate --rounds 3 --work data/iter --report benchmarks/results/training

writes `round-R/` (records, model.npz, train.json, match.json) under the work folder and
the report (training.md, training.json and pictures) under --report.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from hzai.core.registry import make_game
from hzai.learn import match as matches
from hzai.learn import selfplay
from hzai.learn.train import TrainConfig, train_model
from hzai.review_plot import PlotError, _pyplot


@dataclass(frozen=True)
class IterateConfig:
    game: str = "hera_zeus"
    rounds: int = 3
    games: int = 2400  # self-play games a round
    budget: int = 200  # iterations a self-play decision
    match_games: int = 400
    match_budget: int = 200
    window: int = 2  # rounds of records a model is trained on
    epochs: int = 4
    minutes: float = 8.0
    seed: int = 0
    match_seed: int = 900000
    threads: int = 2
    start: str = ""  # a model file kept before round 0 (empty: the unguided search)
    first_version: int = 1  # round r's model is version first_version + r


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run(config: IterateConfig, work: str | Path, report: str | Path | None = None) -> list[dict]:
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    (work / "config.json").write_text(json.dumps(asdict(config), indent=1) + "\n")
    kept: str | None = config.start or None  # the kept model file (None: the unguided search)
    if kept is not None and not Path(kept).is_file():
        raise ValueError(f"--start {kept!r}: no such model file")
    rows = []
    for r in range(config.rounds):
        folder = work / f"round-{r}"
        folder.mkdir(exist_ok=True)
        data = folder / "records"
        _say(f"round {r}: self-play with {kept or 'the unguided search'}")
        sp = selfplay.SelfplayConfig(config.game, config.games, config.budget, config.seed + r * 100000,
                                     shard=50)
        summary = selfplay.run(sp, data, config.threads, kept)
        model = folder / "model.npz"
        train_json = folder / "train.json"
        if not model.exists():
            folders = [str(work / f"round-{k}" / "records") for k in range(max(0, r - config.window + 1), r + 1)]
            _say(f"round {r}: training on {', '.join(folders)}")
            train_model(config.game, folders, str(model), TrainConfig(epochs=config.epochs, minutes=config.minutes,
                                                                      seed=r),
                        name="hz", version=config.first_version + r, report=str(train_json))
        match_json = folder / "match.json"
        if match_json.exists():
            result = json.loads(match_json.read_text())
        else:
            _say(f"round {r}: match {model.name} against {kept or 'none'}")
            result = matches.match(config.game, str(model), kept or "none", config.match_games, config.match_budget,
                                   config.match_seed + r * 10000, config.threads)
            match_json.write_text(json.dumps(result, indent=1) + "\n")
        keep = result["score_a"] > 0.5
        trained = json.loads(train_json.read_text())
        rows.append({"round": r, "selfplay_model": kept or "none", "selfplay": summary, "train": trained,
                     "match": result, "kept": keep})
        if keep:
            kept = str(model)
        _say(f"round {r}: {result['score_a']:.3f} [{result['low']:.3f}-{result['high']:.3f}] -> "
             f"{'kept' if keep else 'not kept'}")
    (work / "kept.txt").write_text((kept or "none") + "\n")
    if report:
        write_report(rows, config, Path(report))
    return rows


def write_report(rows: list[dict], config: IterateConfig, out: Path) -> None:
    """training.md and training.json (and loss/calibration pictures when matplotlib is there)."""
    out.mkdir(parents=True, exist_ok=True)
    slim = [{k: v for k, v in row.items() if k != "train"} | {"train": {k: row["train"][k] for k in (
        "model", "records", "games", "seconds", "value_curve", "policy_curve", "calibration", "sha256")
        if k in row["train"]}} for row in rows]
    (out / "training.json").write_text(json.dumps({"config": asdict(config), "rounds": slim}, indent=1) + "\n")
    lines = ["# Expert iteration (Hera and Zeus)", "",
             "Made by `python -m hzai.learn.iterate " + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in
                                                              asdict(config).items()) + " --report " + str(out) + "`.",
             "Each round: self-play with the kept model (none at first: the unguided search), training on the",
             f"last {config.window} rounds' records (games whose number ends in 0 held out), then a match of",
             "the new model against the kept one at equal iterations, paired seat-swapped deals never trained",
             "on; the new model is kept only if it scores over 50%.", "",
             "| round | self-play with | games / records | value loss (held out) | policy loss (held out) | "
             "hostage loss (held out) | match vs kept | score [95%] | kept |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        t, m = row["train"], row["match"]
        lines.append(f"| {row['round']} | {row['selfplay_model']} | {t['games']} / {t['records']} | "
                     f"{t['value_curve'][-1]['held_out']:.4f} | {t['policy_curve'][-1]['held_out_policy']:.3f} | "
                     f"{t['policy_curve'][-1]['held_out_hostage']:.3f} | {m['b']} ({m['games']} games, "
                     f"{m['budget']} it.) | {100 * m['score_a']:.1f}% [{100 * m['low']:.1f}–{100 * m['high']:.1f}] | "
                     f"{'yes' if row['kept'] else 'no'} |")
    lines += ["", "Loss curves and the value net's calibration (held-out games): `training.png`.", ""]
    (out / "training.md").write_text("\n".join(lines))
    try:
        plot(rows, out / "training.png")
    except PlotError:  # no matplotlib: the report has no picture
        pass


def plot(rows: list[dict], path: Path) -> None:
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for row in rows:
        t = row["train"]
        r = row["round"]
        axes[0].plot([c["epoch"] for c in t["value_curve"]], [c["held_out"] for c in t["value_curve"]], marker="o",
                     label=f"round {r}")
        axes[1].plot([c["epoch"] for c in t["policy_curve"]], [c["held_out_policy"] for c in t["policy_curve"]],
                     marker="o", label=f"round {r} policy")
        axes[1].plot([c["epoch"] for c in t["policy_curve"]], [c["held_out_hostage"] for c in t["policy_curve"]],
                     marker="x", linestyle="--", label=f"round {r} hostage")
        cal = t["calibration"]
        axes[2].plot([c["predicted"] for c in cal], [c["observed"] for c in cal], marker="o", label=f"round {r}")
    axes[0].set(title="value net: held-out cross-entropy", xlabel="epoch", ylabel="loss")
    axes[1].set(title="policy net: held-out cross-entropy", xlabel="epoch", ylabel="loss")
    axes[2].plot([0, 1], [0, 1], color="grey", linewidth=0.8)
    axes[2].set(title="value calibration (held out)", xlabel="predicted first-seat score",
                ylabel="observed first-seat score", xlim=(0, 1), ylim=(0, 1))
    for ax in axes:
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hzai.learn.iterate", description=__doc__.split("\n\n")[0])
    defaults = IterateConfig()
    for name, value in asdict(defaults).items():
        p.add_argument("--" + name.replace("_", "-"), type=type(value), default=value)
    p.add_argument("--work", required=True, help="the work folder (records, models; resumed when it exists)")
    p.add_argument("--report", help="write training.md/json/png here")
    p.add_argument("--ship", action="store_true", help="copy the last kept model to the game's model file")
    args = p.parse_args(argv)
    config = IterateConfig(**{k: getattr(args, k) for k in asdict(defaults)})
    try:
        rows = run(config, args.work, args.report)
    except ValueError as exc:
        print(f"hzai.learn.iterate: {exc}", file=sys.stderr)
        return 2
    if args.ship:
        kept = (Path(args.work) / "kept.txt").read_text().strip()
        if kept != "none":
            target = make_game(config.game).model.file
            shutil.copyfile(kept, target)
            _say(f"shipped {kept} as {target}")
    print(json.dumps([{"round": r["round"], "score": r["match"]["score_a"], "kept": r["kept"]} for r in rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
