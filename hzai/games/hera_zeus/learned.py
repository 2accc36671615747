"""Hera and Zeus in the learned search (docs/learning.md): the view whose worlds are
weighted by the card-location heads of the game's model, and the model's estimates of
the hostage for the belief report (which the beliefs sit below: the report is handed
`hostage_estimates`). The features, heads and their labels are written once in the
native twin (hzai/games/hera_zeus/native/hz_learn.cpp)."""

from __future__ import annotations

from hzai.core.view import WeightedView
from hzai.games.hera_zeus.belief.report import HOSTAGE_CLASSES, _slot_name
from hzai.games.hera_zeus.belief.view import View
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.native.inference import InferredView
from hzai.games.hera_zeus.native.policy_infer import hostage_distribution
from hzai.games.hera_zeus.native.search import flat_view
from hzai.games.hera_zeus.native.state import native_game
from hzai.lazy import lazy_call
from hzai.rng import MASK64, mix_seed

# the model files (numpy): loaded when a report asks, not when the game is made (hzai.lazy)
shipped_model = lazy_call("hzai.native.model:shipped_model")

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


def learned_hostage(view: View, game, keys) -> tuple[str, dict[str, float]] | None:
    """(model id, the hostage head's probability of each location in `keys`, renormalised
    over them) from the game's shipped model, for a view of the seat to move (the head
    reads the deciding seat's view: docs/learning.md); None without one."""
    loaded = shipped_model(game)
    if loaded is None or not loaded[1].has_policy or view.public.get("to_move") != PLAYERS[view.observer]:
        return None
    weights, model = loaded
    hostage, _ = model.cards(game.search.native, game.search.native_view(view))
    names = list(HOSTAGE_CLASSES) + [_slot_name(c, r) for c in range(3) for r in range(4)]
    by_key = {names[k]: p for k, p in enumerate(hostage)}
    total = sum(by_key.get(k, 0.0) for k in keys)
    if total <= 0:
        return None
    return weights.model_id, {k: by_key.get(k, 0.0) / total for k in keys}


def policy_hostage(view: View, game, samples: int, seed: int) -> tuple[str, dict[str, float], dict] | None:
    """(model id, the opponent's hostage by location over the report's worlds weighted by
    the policy-based inference (docs/learning.md), its stats), from the game's shipped
    model; None without a model with a policy, or where the view knows no history."""
    loaded = shipped_model(game)
    if loaded is None or not loaded[1].has_policy:
        return None
    found = hostage_distribution(view, loaded[1], samples, seed)
    return None if found is None else (loaded[0].model_id, *found)


def hostage_estimates(view: View, game, keys, samples: int, seed: int):
    """(policy_hostage, learned_hostage) of `view`: what the belief report adds from the
    learned model (hzai.games.hera_zeus.belief.report.belief_report's `learned`)."""
    return policy_hostage(view, game, samples, seed), learned_hostage(view, game, keys)
