"""The picture of a game review: each reviewed seat's win probability over the game,
its mistakes marked and the worst labelled, and, where the game's belief hook gave one,
what the seat believed about the opponent's hidden card over time (one panel each).

Game-independent: it reads ReviewedDecision rows (hzai.search.review) only. matplotlib
is optional (`pip install 'hzai[plot]'`); PlotError says so when it is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from hzai.lazy import lazy_import
from hzai.search.review import ReviewedDecision

LABELLED = 8  # mistakes labelled with their move (the worst ones); every one is marked
COLOURS = {"??": "#c0392b", "?": "#e67e22"}
SEAT_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf")
GROUP_COLOURS = {"deck": "#bdc3c7", "hand": "#e74c3c", "field": "#3498db", "discard": "#6d4c41"}


class PlotError(ValueError):
    """The plot cannot be drawn (matplotlib missing, nothing to draw, unwritable file);
    the command line says it in one line."""


def _pyplot():
    """matplotlib's pyplot drawing to files only (never a window); PlotError naming the
    extra to install when matplotlib is not (an optional package: hzai.lazy)."""
    try:
        lazy_import("matplotlib").use("Agg")
        return lazy_import("matplotlib.pyplot")
    except ImportError:
        raise PlotError("--plot needs matplotlib: pip install 'hzai[plot]'") from None


def _label(row: ReviewedDecision) -> str:
    text = row.played if len(row.played) <= 24 else row.played[:23] + "…"
    return f"{row.index} {text}{row.mark}"


def _to_label(mistakes: Sequence[ReviewedDecision], rows: Sequence[ReviewedDecision]) -> list[ReviewedDecision]:
    """The worst mistakes, at most LABELLED, none closer than a few moves to a worse
    one already labelled (labels side by side would be unreadable)."""
    gap = max(3, (rows[-1].index - rows[0].index) // 30)
    chosen: list[ReviewedDecision] = []
    for row in sorted(mistakes, key=lambda r: (-(r.loss or 0.0), r.index)):
        if len(chosen) < LABELLED and all(abs(row.index - c.index) > gap for c in chosen):
            chosen.append(row)
    return sorted(chosen, key=lambda r: r.index)


def _inferred_bounds(rows, groups: list[str]) -> list[list[float]]:
    """The borders between the stacked groups as the game's inferred belief puts them
    (a belief summary may carry `inferred: {groups: ...}` beside its own `groups`);
    none when a row lacks it."""
    if not all(isinstance(r.belief.get("inferred"), dict) and r.belief["inferred"].get("groups") for r in rows):
        return []
    bounds, total = [], [0.0] * len(rows)
    for g in groups[:-1]:
        total = [t + r.belief["inferred"]["groups"].get(g, 0.0) for t, r in zip(total, rows)]
        bounds.append(total)
    return bounds


def plot_review(rows: Sequence[ReviewedDecision], path: str | Path, title: str = "") -> Path:
    """Draw `rows` into an image at `path` (the format from its suffix: .png, .svg,
    .pdf); returns the path."""
    if not rows:
        raise PlotError("nothing to plot: the review has no decisions")
    plt = _pyplot()
    seats = list(dict.fromkeys(r.seat for r in rows))
    believers = [s for s in seats if any(r.belief and r.belief.get("groups") for r in rows if r.seat == s)]
    panels = 1 + len(believers)
    figure, axes = plt.subplots(panels, 1, figsize=(11, 3.6 + 2.4 * len(believers)), sharex=True, squeeze=False,
                                gridspec_kw={"height_ratios": [3] + [2] * len(believers)})
    axes = [a[0] for a in axes]
    value_axes = axes[0]
    for k, seat in enumerate(seats):
        mine = [r for r in rows if r.seat == seat]
        value_axes.plot([r.index for r in mine], [r.best_value for r in mine], color=SEAT_COLOURS[k % len(SEAT_COLOURS)],
                        marker=".", linewidth=1.4, label=f"{seat}: win probability (best move)")
    mistakes = [r for r in rows if r.mark]
    for mark in ("?", "??"):
        marked = [r for r in mistakes if r.mark == mark]
        if marked:
            value_axes.scatter([r.index for r in marked], [r.played_value for r in marked], color=COLOURS[mark],
                               zorder=3, s=36 if mark == "??" else 22, label=f"{mark}: the move played (value)")
            value_axes.vlines([r.index for r in marked], [r.played_value for r in marked], [r.best_value for r in marked],
                              color=COLOURS[mark], linewidth=0.8, alpha=0.7)
    for rank, row in enumerate(_to_label(mistakes, rows)):
        value_axes.annotate(_label(row), (row.index, row.played_value), xytext=(4, -12 - 9 * (rank % 2)),
                            textcoords="offset points", fontsize=7, color=COLOURS[row.mark],
                            arrowprops={"arrowstyle": "-", "color": COLOURS[row.mark], "linewidth": 0.5})
    value_axes.set_ylim(-0.03, 1.03)
    value_axes.axhline(0.5, color="#bbbbbb", linewidth=0.6, linestyle="--")
    value_axes.set_ylabel("win probability")
    value_axes.legend(loc="upper left", fontsize=7, ncol=2, framealpha=0.8)
    value_axes.set_title(title or "game review", fontsize=10)
    for seat, panel in zip(believers, axes[1:]):
        mine = [r for r in rows if r.seat == seat and r.belief and r.belief.get("groups")]
        groups = list(dict.fromkeys(g for r in mine for g in r.belief["groups"]))
        panel.stackplot([r.index for r in mine], *[[r.belief["groups"].get(g, 0.0) for r in mine] for g in groups],
                        labels=groups, colors=[GROUP_COLOURS.get(g, "#cccccc") for g in groups], alpha=0.85, step="post")
        card = mine[0].belief.get("card", "the hidden card")
        inferred = _inferred_bounds(mine, groups)
        for k, bound in enumerate(inferred):
            panel.step([r.index for r in mine], bound, where="post", color="#222222", linewidth=0.8, linestyle="--",
                       label="inferred" if k == 0 else None)
        panel.set_ylim(0, 1)
        panel.set_ylabel("probability")
        panel.set_title(f"where {seat} believes {card} is" + (" (bands uniform, dashed inferred)" if inferred else ""),
                        fontsize=9)
        panel.legend(loc="upper left", fontsize=7, ncol=len(groups), framealpha=0.8)
    axes[-1].set_xlabel("move of the game")
    figure.tight_layout()
    path = Path(path)
    try:
        figure.savefig(path, dpi=110)
    except (OSError, ValueError) as exc:
        raise PlotError(f"cannot write the plot to {path}: {exc}") from None
    finally:
        plt.close(figure)
    return path
