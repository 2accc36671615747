"""Hera and Zeus' search support and learned model (game.search, game.model): views and
their sampling (hzai.games.hera_zeus.belief, or the native core where it is built), the
C++ twin (hzai.games.hera_zeus.native), the heuristic, the opponent model and the policy
inference, and the kept models. Above the rules: the rules never import this module; the
package assembles it into the Game (hzai/games/hera_zeus/__init__.py)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from hzai.core.search_support import Model, SearchSupport
from hzai.games.hera_zeus import heuristic
from hzai.games.hera_zeus.belief import Determinizer, view_of
from hzai.games.hera_zeus.belief.inference import check_temperature, pool_size
from hzai.games.hera_zeus.rules import effects

try:  # the adapters to the C++ twin; only without a built core are they missing
    from hzai import _native
    from hzai.games.hera_zeus import learned
    from hzai.games.hera_zeus.native import policy_infer
    from hzai.games.hera_zeus.native.inference import InferredView
    from hzai.games.hera_zeus.native.search import flat_view, native_sample
    from hzai.games.hera_zeus.native.state import NativeState, native_game
except ImportError:  # pragma: no cover - only without a built core
    _native = None

MODELS = Path(__file__).resolve().parent / "models"


class HeraZeusSearch(SearchSupport):
    """The search's part of Hera and Zeus."""

    # The search's worlds follow the opponent model (belief/inference.py) unless a bot
    # says infer=0: it paid at 100 ms a decision (benchmarks/results/ablation.md).
    default_infer = True

    @cached_property
    def native(self):
        """The C++ twin of this deck and variants (hzai._native.Game); None without a
        built core."""
        return None if _native is None else native_game(self.game)

    # ----- views (hzai.games.hera_zeus.belief): what State.view answers ------------------
    def view_of(self, state, seat: int):
        """`seat`'s information set in `state` (hzai.games.hera_zeus.belief)."""
        view = view_of(state, seat)
        if self.native is not None:  # the deal and moves, kept privately for ismcts:pbi=1 (read once)
            policy_infer.attach_history(view, state)
        return view

    def sample_view(self, view, seed: int):
        """One state consistent with `view`: the native sampler where the core is built
        (30-50 times faster), else the Python one; both draw the same state."""
        if self.native is not None:
            return native_sample(view, seed, self.game)
        return Determinizer(view, self.game).sample(seed)

    def view_legal_moves(self, view) -> list:
        """The legal moves of the seat to decide. They depend only on what that seat
        sees, so any state drawn from the view lists the same ones."""
        if self.native is not None:
            world = _native.sample_view(self.native, flat_view(view, self.game), 0)
            return [self.game.move_of(a) for a in world.legal_actions()]
        return self.sample_view(view, 0).legal_moves()

    def policy_view(self, seen, view, model, pool: int, seed: int, temperature: float, epsilon: float,
                    threads: int = 1, ratio: bool = True):
        """`view` (the seat's view `seen`, or it weighted by the card model) with its worlds
        weighted by the policy-based inference (ismcts:pbi=1, docs/learning.md)."""
        return policy_infer.policy_view(seen, view, model, pool, seed, temperature, epsilon, threads, ratio)

    @staticmethod
    def canonical_move(state, move):
        """The move as the legal-move list writes it (`Hydra@hera` is `Hydra` for Hera)."""
        return effects.canonical(state, move)

    # ----- the twin ----------------------------------------------------------------------
    def native_view(self, view):
        """The view as the native search reads it (typed structs, native/search.py); a view
        that says it is `all_seeing` (the arena's benchmark ceiling, whose every sample is
        one known state) as the world of that state: every card seen, only the deck orders
        hidden."""
        if not getattr(view, "all_seeing", False):
            return flat_view(view, self.game)
        return _native.world_spec(NativeState.from_state(view.sample(0)).core)

    def native_start(self, seed: int):
        """The core's own deal, equal to `new_state(seed)` (hzai._native.State)."""
        return None if self.native is None else self.native.deal(seed)

    def heuristic_scores(self, view, moves: list) -> list[float]:
        """Rule-of-thumb scores of `moves` for the heuristic bot (higher is better)."""
        return heuristic.scores(view, moves)

    def inferred_view(self, view, temperature: float | None, seed: int, worlds: int | None = None):
        """The view whose worlds are weighted by the opponent model (belief/inference.py)
        and resampled by the native core, from a pool sized to the search (`pool_size`)."""
        if self.native is None:
            return None
        return InferredView(view, check_temperature(temperature), seed, pool_size(worlds))


class HeraZeusModel(Model):
    """The kept model of Hera and Zeus' learned search (hzai/learn, docs/learning.md)."""

    file = MODELS / "hz.npz"
    # Earlier defaults, playable as ismcts-v3 (hz@2, the table-only model: cpuct 0.25, mix 0.5).
    archive = {"v3": (MODELS / "hz-v3.npz", {"cpuct": 0.25, "mix": 0.5})}
    # 1,920 table features and 299 of the history (docs/learning.md); "-acts2": every move
    # counted in the action blocks (a move that moves no card logs an `act` event).
    feature_layout = "hz-2219-acts2"

    def guided_view(self, view, model, pool: int, seed: int):
        """The view with worlds weighted by the model's card heads (hera_zeus.learned)."""
        if self.game.search.native is None:
            return None
        return learned.guided_view(view, model, pool, seed)

    def policy_of(self, view, model):
        """The policy net's probabilities of the view's legal moves (hz_learn.cpp)."""
        native = self.game.search.native
        if native is None or not model.has_policy:
            return None
        legal = [self.game.action_of(move) for move in view.legal_moves()]
        return model.policy(native, flat_view(view, self.game), legal)
