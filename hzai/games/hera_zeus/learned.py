"""Hera and Zeus in the learned search (docs/learning.md): the view whose worlds are
weighted by the card-location heads of the game's model. The features, heads and their
labels are written once in the native twin (hzai/games/hera_zeus/native/hz_learn.cpp)."""

from __future__ import annotations

from hzai.games.hera_zeus.native.state import native_game
from hzai.core.view import WeightedView
from hzai.games.hera_zeus.native.inference import InferredView
from hzai.games.hera_zeus.native.search import flat_view
from hzai.rng import MASK64, mix_seed

SALT = 0xCA4D5  # the pool's seed: mix_seed(search seed, SALT), as the native arena's CARDS_SALT


class GuidedView(InferredView):
    """`base` with determinizations drawn from the card model's resampled pool."""

    def __init__(self, base, model, pool: int, seed: int):  # noqa: InferredView's __init__ builds another spec
        WeightedView.__init__(self, base)
        self.temperature = None
        spec = flat_view(base, base.game)
        self.native_spec = model.card_view(native_game(base.game), spec, pool, mix_seed(seed & MASK64, SALT))


def guided_view(view, model, pool: int, seed: int) -> GuidedView:
    return GuidedView(view, model, pool, seed)
