"""Capabilities: what a game offers beyond the rules, as OpenSpiel's GameType says a
game's kind. Algorithms and front ends ask `game.capabilities.X` (or `require(game, X,
use)`) instead of probing for methods.

Two are facts about the rules (`cooperative`, `public_moves`), which a game states when
its package assembles it (hzai.core.game.assemble). Every other capability is simply a
part of the game being there (`capabilities_of`): an optional member of its search
support, model or presentation that is not None, or the Model part itself. Nothing is
declared twice, so nothing can drift.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["CAPABILITIES", "Capabilities", "MissingCapability", "capabilities_of", "missing", "part_errors", "require"]


@dataclass(frozen=True)
class Capabilities:
    """What a game offers beyond its rules (`capabilities_of` reads it from the parts).
    All off by default: a game with only the basics is searched, reviewed and served all
    the same."""

    # ----- facts about the rules (no hook) -----
    cooperative: bool = False  # every seat gets the team's result
    public_moves: bool = False  # every move is seen in full by every seat (`game.records.observed`)
    # ----- the search's parts (hzai.core.search_support) -----
    native: bool = False  # a C++ twin (hzai/native/game_bindings.hpp): game.search.native_view, native_start
    heuristic: bool = False  # rule-of-thumb scores of moves: game.search.heuristic_scores (the heuristic bot)
    opponent_model: bool = False  # worlds weighted by what the others chose: game.search.inferred_view (infer)
    model: bool = False  # a learned search whose model its twin evaluates: the part game.model
    model_policy: bool = False  # a model's policy over the legal moves: game.model.policy_of (strength levels)
    guided_worlds: bool = False  # worlds weighted by a model's card heads: game.model.guided_view (option cards)
    # ----- the presentation's (hzai.core.presentation) -----
    belief_report: bool = False  # where the hidden information probably is: game.presentation.belief_report
    review_belief: bool = False  # a belief summary at each reviewed decision: game.presentation.review_belief

    def __post_init__(self):
        for item in fields(self):
            if not isinstance(getattr(self, item.name), bool):
                raise TypeError(f"capability {item.name} must be True or False, not {getattr(self, item.name)!r}")
        if self.model_policy and not self.model:
            raise TypeError("capability model_policy is of a model: it needs model")
        if self.guided_worlds and not self.model:
            raise TypeError("capability guided_worlds is of a model: it needs model")

    def offers(self, name: str) -> bool:
        """Whether capability `name` is declared; ValueError for a name that is none (a
        typo never reads as "not offered")."""
        if name not in CAPABILITIES:
            raise ValueError(f"{name!r} is no capability; capabilities: {', '.join(CAPABILITIES)}")
        return getattr(self, name)

    def offered(self) -> tuple[str, ...]:
        """The names of the capabilities declared, in field order."""
        return tuple(item.name for item in fields(self) if getattr(self, item.name))


CAPABILITIES = tuple(item.name for item in fields(Capabilities))

# capability -> what it is, for people (MissingCapability's message)
WHAT = {
    "cooperative": "team result", "public_moves": "public moves", "native": "native twin",
    "heuristic": "heuristic policy", "opponent_model": "opponent model", "model": "learned model",
    "model_policy": "learned policy", "guided_worlds": "learned card model", "belief_report": "belief report",
    "review_belief": "belief summary",
}


class MissingCapability(NotImplementedError):
    """A game was asked for a capability it does not have. The message names the game,
    the capability and, in `use`, what is refused for want of it ("option infer is not
    offered")."""

    def __init__(self, game: str, capability: str, use: str = ""):
        self.game, self.capability, self.use = game, capability, use
        super().__init__(f"game {game} has no {WHAT.get(capability, capability)}{': ' + use if use else ''} "
                         f"(it does not have the capability {capability})")


def missing(game, capability: str, use: str = "") -> MissingCapability:
    """The error for `use` needing `capability`, which `game` does not have."""
    return MissingCapability(game.name, capability, use)


def require(game, capability: str, use: str = "") -> None:
    """MissingCapability (a NotImplementedError naming the game, the capability and
    `use`) unless `game` has `capability`."""
    if not game.capabilities.offers(capability):
        raise missing(game, capability, use)


def capabilities_of(search, model, presentation, cooperative: bool = False,
                    public_moves: bool = False) -> Capabilities:
    """What a game with these parts offers: each capability is its part being there."""
    return Capabilities(
        cooperative=cooperative, public_moves=public_moves,
        native=search.native_view is not None,
        heuristic=search.heuristic_scores is not None,
        opponent_model=search.inferred_view is not None,
        model=model is not None,
        model_policy=model is not None and model.policy_of is not None,
        guided_worlds=model is not None and model.guided_view is not None,
        belief_report=presentation.belief_report is not None,
        review_belief=presentation.review_belief is not None,
    )


def part_errors(search: type) -> list[str]:
    """What is wrong with a game's search support class: a setting that means something
    only with a member it lacks, or half of the twin. [] when it fits together."""
    errors = []
    if (search.native_view is None) != (search.native_start is None):
        errors.append("its search support writes one of native_view and native_start: a twin needs both")
    if search.default_playout != "random" and search.native_view is None:
        errors.append(f"its default_playout is {search.default_playout!r} but it has no native twin (native_view)")
    if search.default_infer and search.inferred_view is None:
        errors.append("its default_infer is on but it has no opponent model (inferred_view)")
    return errors
