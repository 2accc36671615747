"""SearchHooks: what the generic search and the bots (hzai.search) may ask of a game
beyond its rules. A part of hzai.core.Game; every hook is optional, and a game that
writes one declares its capability (hzai.core.capabilities): the search asks
`game.capabilities`, never whether a method is there."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hzai.core.game import Move
    from hzai.core.view import View


class SearchHooks:
    """The search's hooks of a Game, with the defaults of a game that has none of them."""

    # ----- capability native: the C++ twin --------------------------------------------
    @property
    def native(self):
        """The native game handle the C++ search runs on (capability native), or None: the
        generic native search then calls this Python game back (hzai/native/py_game.hpp).
        None also for a game with a twin where the native core is not built."""
        return None

    def native_view(self, view):
        """The view in the typed form the native twin's search reads (capability native)."""
        raise self.missing("native", "Game.native_view is not offered")

    def native_start(self, seed: int):
        """The twin's state equal to `new_state(seed)`, for the native arena and self-play
        (capability native); None only where the native core is not built."""
        raise self.missing("native", "Game.native_start is not offered")

    # The playout policy the generic search plays this game's playouts with when none is
    # asked for (a name of hzai.native.tables.PLAYOUTS: "random", or "light", the game's
    # own `playout_step` of its native twin: a game with capability native only).
    default_playout: str = "random"
    # Whether the single-observer search keeps only the searching seat's own decisions in
    # its tree when no bot option says (option own_only; the other seats' moves on the way
    # down are then the playout policy's). docs/search.md.
    default_own_only: bool = False
    # Whether the search's determinizations follow the game's opponent model
    # (`inferred_view`) when no bot option says (option infer); only a game with
    # capability opponent_model may turn it on. docs/search.md.
    default_infer: bool = False

    # ----- capability heuristic ---------------------------------------------------------
    def heuristic_scores(self, view: "View", moves: "list[Move]") -> list[float]:
        """Rule-of-thumb scores of `moves` (higher is better), for the heuristic bot."""
        raise self.missing("heuristic", "Game.heuristic_scores is not offered")

    # ----- capability opponent_model ------------------------------------------------------
    def inferred_view(self, view: "View", temperature: float | None, seed: int,
                      worlds: int | None = None) -> "View | None":
        """`view` with its determinizations weighted by the game's model of the other
        seats (what they chose to do tells where the hidden cards are), every one still
        consistent with the view; `temperature` softens the model (None: the game's
        default), `seed` draws its worlds. `worlds`: at most how many determinizations
        are worth preparing for the search (from its budget, `worlds_bound` in
        hzai.search.ismcts; None: no bound), so that a game which prepares its worlds
        up front prepares no more than the search can use. None only where the native
        core the model runs on is not built."""
        raise self.missing("opponent_model", "Game.inferred_view is not offered")

    # ----- capability model (and model_policy, guided_worlds) -----------------------------
    # The model file the game ships (docs/learning.md): value, policy and card-location
    # nets its native twin evaluates (the file may be absent: the search is then unguided);
    # None: the game has no learned search.
    model_file = None
    # Earlier kept models the game still plays under a bot name (`ismcts-<tag>`, e.g.
    # ismcts-v3): tag -> (model file, that model's learned-search defaults as they were
    # shipped, the keys of model_defaults plus cpuct and mix), so that a retired default
    # keeps its moves whatever the new default's constants become.
    model_archive: dict = {}
    # The layout of the native features that models read and self-play records hold, named
    # by the game and renamed whenever it changes (a feature added, a count fixed), so that
    # a self-play folder is never resumed under another layout and `hzai train` says when
    # it learns from records of another (hzai.learn.selfplay). "": not named.
    feature_layout: str = ""
    # The learned search's defaults where they differ from the shared ones (hzai.search.
    # ismcts: IsmctsBot.parts and guide): value, policy, cards (0/1), cpuct, mix; a bot's
    # options override them.
    model_defaults: dict = {}

    def policy_of(self, view: "View", model) -> "list[float] | None":
        """`model`'s policy at `view` (capability model_policy): a probability for each of
        `view.legal_moves()`, in that order (the strength levels sample from it); None
        when this model has no policy net."""
        raise self.missing("model_policy", "Game.policy_of is not offered")

    def guided_view(self, view: "View", model, pool: int, seed: int) -> "View | None":
        """`view` with its determinizations weighted by `model`'s card-location heads
        (capability guided_worlds; a pool of `pool` worlds drawn with `seed`, each still
        consistent with the view); None where the native core is not built."""
        raise self.missing("guided_worlds", "Game.guided_view is not offered")
