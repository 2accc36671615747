"""The pieces every benchmark shares: the command that produced a result, the machine it
ran on, percentiles and 95% intervals, plots and the results file.

One copy of each, so that two benchmarks never describe a machine, draw a bootstrap
interval or guard matplotlib in two ways. Importing this module imports nothing heavy
(numpy and matplotlib are loaded by the functions that need them).
"""

from __future__ import annotations

import json
import math
import os
import platform
import shlex
import sys
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
