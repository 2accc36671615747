"""A view whose determinizations follow the opponent model: the game's offer to the
search (`game.search.inferred_view`, option `ismcts:infer=1`).

The opponent model's per-slot factors (hzai.games.hera_zeus.belief.inference) go into
the native view spec; the core's sampler then draws a pool of worlds from the view with
its usual hard constraints, weights each by the model and resamples as many
(hera_zeus.cpp, Sampler::resample), and every determinization of the search is one of
them. Nothing else of the view changes.
"""

from __future__ import annotations

from hzai import _native
from hzai.core.view import WeightedView
from hzai.games.hera_zeus.belief.inference import POOL, slot_log_factors
from hzai.games.hera_zeus.native.state import NativeState, native_game
from hzai.games.hera_zeus.native.search import flat_view
from hzai.rng import MASK64, mix_seed

SALT = 0x1F3A  # the pool's seed: mix_seed(search seed, SALT)


def inference_spec(view, temperature: float, seed: int, pool: int = POOL) -> _native.ViewSpec:
    """The native spec of `view` with the model's factors and a pool of `pool` worlds."""
    game = view.game
    core = native_game(game)
    spec = flat_view(view, game).copy()
    inference = _native.Inference()
    inference.side = 1 - view.seat
    inference.pool = pool
    inference.seed = mix_seed(seed & MASK64, SALT)
    slots = []
    for (c, r), factors in slot_log_factors(view, temperature).items():
        slot = _native.SlotLikelihood()
        slot.c, slot.r = c, r
        slot.log_factor = [factors.get(name, 0.0) for name in core.names]
        slots.append(slot)
    inference.slots = slots
    spec.inference = inference
    return spec


class InferredView(WeightedView):
    """`base` with determinizations drawn from the model's resampled pool."""

    OWN = WeightedView.OWN + ("native_spec", "temperature")

    def __init__(self, base, temperature: float, seed: int, pool: int = POOL):
        super().__init__(base)
        self.temperature = temperature
        self.native_spec = inference_spec(base, temperature, seed, pool)

    def sample(self, seed: int):
        core_state = _native.sample_view(native_game(self.game), self.native_spec, seed & MASK64)
        return NativeState(self.game, core_state).to_state()
