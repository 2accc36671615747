"""Legends of Hellas in the learned search (docs/learning.md, "Beliefs"): the view whose
worlds are weighted by the card-location head of the game's model.

The twin draws a pool of worlds from the seat's view exactly as the uniform sampler
does, weighs each by how likely the card model finds the partners' hands (divided by
how often the pool itself holds them, so only what the model learned beyond the
sampler moves the weights) and resamples the pool (hzai/games/legends/native/legends_learn.cpp,
lg_card_view). The model reads the seat's own features only: the view never holds a
partner's cards.
"""

from __future__ import annotations

from hzai.core.view import WeightedView
from hzai.rng import MASK64, SplitMix64, mix_seed

SALT = 0xCA4D5  # the pool's seed: mix_seed(search seed, SALT), as the native arena's CARDS_SALT


class GuidedView(WeightedView):
    """`base` (a LegendsView) with determinizations drawn from the card model's pool:
    the native search reads `native`; `sample` draws one of the same worlds."""

    OWN = WeightedView.OWN + ("native", "world_seeds")

    def __init__(self, base, model, pool: int, seed: int):
        super().__init__(base)
        self.native, self.world_seeds = model.card_view(base.game.search.native_view(base), pool,
                                                        mix_seed(seed & MASK64, SALT))

    def sample(self, seed: int):
        if not self.world_seeds:
            return self.base.sample(seed)
        pick = SplitMix64(seed & MASK64).next_u64() % len(self.world_seeds)
        return self.base.sample(self.world_seeds[pick])


def guided_view(view, model, pool: int, seed: int):
    """`view` with the card model's worlds, or None where the model has no card head."""
    if not getattr(model, "has_cards", False):
        return None
    return GuidedView(view, model, pool, seed)
