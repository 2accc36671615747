"""Baseline bots over any game: uniformly random, and rule-of-thumb scores that the
game supplies (`Game.heuristic_scores`)."""

from __future__ import annotations

from hzai.core import Limits, PlayResult, View
from hzai.core.bot import BotError, Progress, RootMoves, Stop, choose_from
from hzai.rng import SplitMix64


def legal_moves_of(view: View, root_moves: RootMoves | None = None) -> list:
    """The moves to choose from: the legal ones, or those `root_moves` keeps."""
    if not view.legal_moves():
        raise ValueError("no decision to make in this view (game over or chance next)")
    return choose_from(view, root_moves)


class RandomBot:
    name = "random"

    def decide(self, view: View, limits: Limits | None = None, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None, *, root_moves: RootMoves | None = None) -> PlayResult:
        moves = legal_moves_of(view, root_moves)
        return PlayResult(moves[SplitMix64(seed ^ 0x5EED).below(len(moves))])


class HeuristicBot:
    """The best-scored legal move by the game's rules of thumb; ties broken by the seed.
    It does not search: nothing to stop, no analysis."""

    name = "heuristic"

    def decide(self, view: View, limits: Limits | None = None, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None, *, root_moves: RootMoves | None = None) -> PlayResult:
        moves = legal_moves_of(view, root_moves)
        rng = SplitMix64(seed ^ 0xB0B)
        try:
            scores = view.game.heuristic_scores(view, moves)
        except NotImplementedError as exc:
            raise BotError(f"bot heuristic: {exc}") from None
        best = max(scores)
        top = [i for i, score in enumerate(scores) if score == best]
        return PlayResult(moves[top[rng.below(len(top))]])
