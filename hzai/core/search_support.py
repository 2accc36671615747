"""The search's parts of a Game: what the generic search and the bots (hzai.search) may
use beyond the rules.

    SearchSupport  game.search: the seats' views (`view_of`), chance draws, the search's
                   defaults, and the optional members — the C++ twin (`native_view`,
                   `native_start`), a heuristic (`heuristic_scores`), an opponent model
                   (`inferred_view`), the policy-based inference (`policy_view`)
    Model          game.model: the learned model a game ships (its file, defaults and
                   the features' layout) and its optional members `policy_of` and
                   `guided_view`; None for a game with no learned search

An optional member is None where the game has none; a capability is that member (or the
Model part) being there (hzai.core.capabilities.capabilities_of). A game's package
subclasses these and assembles them into its Game (hzai.core.game.assemble).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from hzai.core.game import Game, Move
    from hzai.core.state import State
    from hzai.core.view import View


class SearchSupport:
    """A game's search support (game.search), with the defaults of a game that has only
    its rules: random playouts, no twin, no heuristic, no opponent model."""

    game: "Game"  # the game this is a part of

    def __init__(self, game: "Game"):
        self.game = game

    def view_of(self, state: "State", seat: int) -> "View":
        """What `seat` knows in `state` (the View its bots decide from): what
        hzai.core.State.view answers, so that a game's rules need not know its views.
        A game whose State makes its own views (State.view overridden) need not write it."""
        raise NotImplementedError(f"game {self.game.name} makes no views: its search support writes view_of, "
                                  "or its State writes view")

    def draw_chance(self, state: "State", rng) -> "Move":
        """A chance outcome drawn by its probability with `rng` (hzai.rng.SplitMix64),
        outcomes taken in action order so the draw is reproducible."""
        outcomes = sorted(state.chance_outcomes_actions())
        point = rng.next_u64() / 2**64
        action = outcomes[-1][0]
        for candidate, probability in outcomes:
            point -= probability
            if point < 0:
                action = candidate
                break
        return self.game.move_of(action)

    def canonical_move(self, state: "State", move: "Move") -> "Move":
        """`move` as the legal-move list of `state` writes it, for a game where one move
        has several spellings (Hera and Zeus: `Hydra@hera` played by Hera is `Hydra`);
        by default the move itself. hzai.search.review matches moves through it."""
        return move

    # The playout policy the generic search plays this game's playouts with when none is
    # asked for (a name of hzai.native.tables.PLAYOUTS: "random", or "light", the game's
    # own `playout_step` of its native twin: a game with a twin only).
    default_playout: str = "random"
    # Whether the single-observer search keeps only the searching seat's own decisions in
    # its tree when no bot option says (option own_only). docs/search.md.
    default_own_only: bool = False
    # Whether the search's determinizations follow the opponent model (`inferred_view`)
    # when no bot option says (option infer); only a game with one may turn it on.
    default_infer: bool = False

    @property
    def native(self):
        """The native game handle the C++ search runs on, or None: the generic native
        search then calls the Python game back (hzai/native/py_game.hpp). None also for a
        game with a twin where the native core is not built."""
        return None

    # ----- optional: the C++ twin (capability native) ---------------------------------
    # native_view(view): the view in the typed form the twin's search reads.
    native_view: Callable[["View"], Any] | None = None
    # native_start(seed): the twin's state equal to `game.new_state(seed)`, for the native
    # arena and self-play; None only where the native core is not built.
    native_start: Callable[[int], Any] | None = None

    # ----- optional: rule-of-thumb scores (capability heuristic) ------------------------
    # heuristic_scores(view, moves) -> list[float]: higher is better (the heuristic bot).
    heuristic_scores: Callable[["View", list], list[float]] | None = None

    # ----- optional: an opponent model (capability opponent_model) ----------------------
    # inferred_view(view, temperature, seed, worlds=None) -> View | None: `view` with its
    # determinizations weighted by the game's model of the other seats, each still
    # consistent with it; `temperature` softens the model (None: the game's default),
    # `seed` draws its worlds, `worlds` bounds how many are worth preparing (from the
    # search's budget, hzai.search.ismcts.worlds_bound). None only without a built core.
    inferred_view: Callable[..., "View | None"] | None = None

    # ----- optional: the policy-based inference (option pbi, docs/learning.md) ----------
    # policy_view(seen, view, model, pool, seed, temperature, epsilon, threads=1,
    # ratio=True) -> View: `view` (the seat's view `seen`, or it weighted by another
    # model) with its worlds weighted by how likely the other seats' observed decisions
    # are under `model`'s policy net (hzai.search.ismcts.policy_weighted).
    policy_view: Callable[..., "View"] | None = None


class Model:
    """A game's learned model (game.model; docs/learning.md): value, policy and card nets
    its native twin evaluates. A game with no learned search has no Model (game.model is
    None)."""

    game: "Game"  # the game this is a part of

    def __init__(self, game: "Game"):
        self.game = game

    # The model file the game ships (it may be absent: the search is then unguided).
    file = None
    # Earlier kept models the game still plays under a bot name (`ismcts-<tag>`): tag ->
    # (model file, that model's learned-search defaults as they were shipped).
    archive: dict = {}
    # The layout of the native features that models read and self-play records hold,
    # renamed whenever it changes (hzai.learn.selfplay). "": not named.
    feature_layout: str = ""
    # The learned search's defaults where they differ from the shared ones
    # (hzai.search.ismcts: IsmctsBot.parts and guide): value, policy, cards, cpuct, mix.
    defaults: dict = {}

    # ----- optional: a policy net (capability model_policy) ----------------------------
    # policy_of(view, model) -> list[float] | None: a probability for each of
    # `view.legal_moves()`, in that order; None when this model has no policy net.
    policy_of: Callable[["View", Any], "list[float] | None"] | None = None
    # ----- optional: card-location heads (capability guided_worlds) ---------------------
    # guided_view(view, model, pool, seed) -> View | None: `view` with its worlds weighted
    # by the model's card heads; None where the native core is not built.
    guided_view: Callable[..., "View | None"] | None = None
