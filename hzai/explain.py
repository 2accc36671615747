"""A principal variation told in words: the moves the search expects after a move, played
out in a world drawn from the deciding seat's view and narrated as that seat would see
them (`Game.narrate`), so a hint or an analysis row can say what it means ("You play
Satyr face down at c2r2.") rather than list notation.

A drawn world fixes what the seat cannot know yet (the card its next draw brings, an
opponent's hidden card), and its narration would state those guesses as facts. So the
variation is played in three worlds: a move whose narration is the same in all of them is
told as the seat sees it, one whose narration differs is told as a spectator sees it
(only what is public), and the telling stops where a world cannot play the next move.
(Three worlds agreeing on a guess by chance is rare, not impossible.)"""

from __future__ import annotations

from hzai.search.review import resolve_move

PV_TOLD = 4  # moves of a variation told
WORLDS = 3


def pv_in_words(game, view, pv, seed: int = 0, most: int = PV_TOLD) -> list[str]:
    """The narration lines of the first `most` moves of `pv` (Moves or notation texts)
    from `view`'s seat; [] for a game that narrates nothing or a view it cannot sample."""
    try:
        worlds = [view.sample(seed + k) for k in range(WORLDS)]
    except Exception:  # noqa: BLE001 - a view that cannot be sampled has no words to give
        return []
    lines: list[str] = []
    for given in list(pv)[:most]:
        told = []
        for world in worlds:
            if world.is_terminal or world.is_chance:
                return lines
            try:
                move = resolve_move(world, given)
            except ValueError:
                return lines
            before = world.clone()
            world.apply(move)
            told.append((game.narrate(before, move, world, view.seat), before, move))
        first, before, move = told[0]
        if all(other == first for other, _, _ in told[1:]):
            lines.extend(first)
        else:  # it depends on what the seat cannot know yet: what everyone sees
            after = before.clone()
            after.apply(move)
            lines.extend(game.narrate(before, move, after, None))
    return lines
