"""A principal variation told in words: the moves the search expects after a move, played
out in worlds drawn from the deciding seat's view and narrated as that seat would see
them (`game.presentation.narrate`), so a hint or an analysis row can say what it means ("You play
Satyr face down at c2r2.") rather than list notation.

A drawn world fixes what the seat cannot know yet (the card its next draw brings, an
opponent's hidden card), and one world's narration would state those guesses as facts.
So the variation is played in WORLDS worlds, always told in the seat's own voice: a line
every world tells is told as it is; a line most of them tell is told as a likelihood,
"Probably (4 of 5 sampled worlds): ..."; where the worlds disagree more than that, one
line says that something hidden from the seat happens there, and names nothing. A world
that cannot play the next move of the variation drops out (the variation is what the
search expects, so the rest is told of the worlds where it can happen), and the telling
stops where fewer than half of the WORLDS worlds are left. (Every world agreeing on a guess by chance is rare, not
impossible: a likely guess told as fact.)"""

from __future__ import annotations

from collections import Counter

from hzai.search.review import resolve_move

PV_TOLD = 4  # moves of a variation told
WORLDS = 5
HIDDEN_LINE = "Something hidden from you happens here: the sampled worlds disagree on it."


def pv_in_words(game, view, pv, seed: int = 0, most: int = PV_TOLD) -> list[str]:
    """The narration lines of the first `most` moves of `pv` (Moves or notation texts)
    from `view`'s seat; [] for a game that narrates nothing or a view it cannot sample."""
    try:
        worlds = [view.sample(seed + k) for k in range(WORLDS)]
    except Exception:  # noqa: BLE001 - a view that cannot be sampled has no words to give
        return []
    lines: list[str] = []
    for given in list(pv)[:most]:
        told: list[tuple[str, ...]] = []
        alive = []
        for world in worlds:
            if world.is_terminal or world.is_chance:
                continue
            try:
                move = resolve_move(world, given)
            except ValueError:
                continue
            before = world.clone()
            world.apply(move)
            told.append(tuple(game.presentation.narrate(before, move, world, view.seat)))
            alive.append(world)
        if 2 * len(told) <= WORLDS:  # most worlds cannot play it: nothing sure to tell
            return lines
        worlds = alive
        lines.extend(_agreed(told))
    return lines


def _agreed(told: list[tuple[str, ...]]) -> list[str]:
    """One move's lines from the narrations of the worlds that played it: the most common
    narration, each line as sure as the share of those worlds that tell it."""
    narration = Counter(told).most_common(1)[0][0]
    worlds = len(told)
    out: list[str] = []
    for line in narration:
        share = sum(line in other for other in told)
        if share == worlds:
            out.append(line)
        elif 2 * share > worlds:
            out.append(f"Probably ({share} of {worlds} sampled worlds): {line}")
        elif not out or out[-1] != HIDDEN_LINE:
            out.append(HIDDEN_LINE)
    return out
