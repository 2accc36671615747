"""The `learned` bot: the single-tree ISMCTS guided by the learned model of a game whose
default search is unguided (`Game.learned_model_file`; Legends' team value and blueprint,
docs/learning.md), or by the kept model where the game ships one (`Game.model_file`).

It is `ismcts` with the learned parts on and that model: value at the leaves (mixed with
a playout), the policy as the root's PUCT prior. Options as `ismcts`; value=0 and
policy=0 switch a part off (an ablation). A game with no model at all is refused, so a
bot named `learned` never quietly plays the unguided search."""

from __future__ import annotations

from pathlib import Path

from hzai.core.bot import BotError
from hzai.search.ismcts import Guide, IsmctsBot


def learned_path(game) -> Path | None:
    """The model file the learned bot plays `game` with, or None."""
    from hzai.native.model import arena_model_path

    return arena_model_path(game)


def learned_guide(game, value: bool = True, policy: bool = True, cards: bool = True, **knobs) -> Guide | None:
    """The Guide of `game`'s learned model with the parts asked for (BotError when the
    game has none; None when every part is off)."""
    from hzai.native.model import ModelError, load_cached

    path = learned_path(game)
    if path is None:
        raise BotError(f"game {game.name} has no learned model: bot learned is not offered")
    try:
        weights, model = load_cached(game, path)
    except ModelError as exc:
        raise BotError(str(exc)) from None
    # cards: a game without a card model (Legends) reads its view unweighted (Game.guided_view)
    guide = Guide(model, weights.model_id, value and model.has_value, policy and model.has_policy,
                  cards and model.has_policy, **knobs)
    return guide if guide.active else None


class LearnedBot(IsmctsBot):
    """`ismcts` guided by the learned model. Its default is the value at the leaves only:
    the Legends blueprint as the root's PUCT prior lost every one of 20 games of mission
    1 (2 seats, 150 iterations) where the value alone won 12 (docs/learning.md), so the
    policy is an option (policy=1) until that is understood."""

    name = "learned"
    GUIDED = 1

    def __init__(self, *args, policy: int | str | None = None, **kwargs):
        super().__init__(*args, policy=0 if policy is None else policy, **kwargs)

    def check_game(self, game) -> None:
        super().check_game(game)
        if learned_path(game) is None:
            raise BotError(f"game {game.name} has no learned model: bot learned is not offered")

    def guide(self, game) -> Guide | None:
        if not any(self.parts):
            return None
        return learned_guide(game, *self.parts, cpuct=self.cpuct, pool=self.pool, mix=self.mix)
