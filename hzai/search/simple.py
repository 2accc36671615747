"""Baseline bots over any game: uniformly random, rule-of-thumb scores that the game
supplies (`game.search.heuristic_scores`), and the playout policy of the game's native twin
(`light`: the search's `playout=light` as a bot)."""

from __future__ import annotations

from hzai.core import Limits, PlayResult, View
from hzai.core.bot import BotError, Progress, RootMoves, Stop, choose_from
from hzai.core.capabilities import MissingCapability, require
from hzai.rng import MASK64, SplitMix64


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
    """The best-scored legal move by the game's rules of thumb (capability heuristic);
    ties broken by the seed. It does not search: nothing to stop, no analysis."""

    name = "heuristic"
    needs = ("heuristic",)  # the capabilities it needs of a game (the bot registry reads them)

    def decide(self, view: View, limits: Limits | None = None, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None, *, root_moves: RootMoves | None = None) -> PlayResult:
        try:
            require(view.game, "heuristic")
        except MissingCapability as exc:
            raise BotError(f"bot heuristic: {exc}") from None
        moves = legal_moves_of(view, root_moves)
        rng = SplitMix64(seed ^ 0xB0B)
        scores = view.game.search.heuristic_scores(view, moves)
        best = max(scores)
        top = [i for i, score in enumerate(scores) if score == best]
        return PlayResult(moves[top[rng.below(len(top))]])


class LightBot:
    """The move of the game's own playout policy (what the search's `playout=light` plays)
    in one world drawn from the view with the seed; the arena's `light` bot. Only for a
    game with a native twin (capability native: every twin binds `light_move`, its
    playout policy; hzai/native/game_bindings.hpp). It does not search."""

    name = "light"
    needs = ("native",)

    def decide(self, view: View, limits: Limits | None = None, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None, *, root_moves: RootMoves | None = None) -> PlayResult:
        legal_moves_of(view)
        if root_moves is not None and root_moves.restricts:
            raise BotError("bot light: it plays the policy's move; it cannot be limited to chosen moves")
        game = view.game
        try:
            require(game, "native")
        except MissingCapability as exc:
            raise BotError(f"bot light: {exc}") from None
        if game.search.native is None:
            raise BotError("bot light: the native core is not built")
        return PlayResult(game.move_of(game.search.native.light_move(game.search.native_view(view), seed & MASK64)))
