"""Capabilities: what a game declares it offers beyond the rules, as OpenSpiel's GameType
declares a game's kind. Algorithms and front ends ask `game.capabilities.X` (or
`game.require(X, use)`) instead of probing for methods.

Each capability but the two facts about the rules (`cooperative`, `public_moves`) is
the promise of a hook of hzai.core.Game (HOOKS below): a game declares it exactly when
it overrides that hook. `declaration_errors` checks this, and Game checks it for every
subclass when the class is made, so a declaration cannot drift from the code
(tests/core/test_capabilities.py checks every registered game too).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["CAPABILITIES", "Capabilities", "HOOKS", "MissingCapability", "declaration_errors"]


@dataclass(frozen=True)
class Capabilities:
    """What a game offers beyond its rules. All off by default: a game with only the
    basics is searched, reviewed and served all the same."""

    # ----- facts about the rules (no hook) -----
    cooperative: bool = False  # every seat gets the team's result
    public_moves: bool = False  # every move is seen in full by every seat (`Game.observed`)
    # ----- what the search may use (hzai.core.search_hooks) -----
    native: bool = False  # a C++ twin (hzai/native/game_bindings.hpp): `native`, `native_view`, `native_start`
    heuristic: bool = False  # rule-of-thumb scores of moves: `heuristic_scores` (the heuristic bot)
    opponent_model: bool = False  # worlds weighted by what the others chose: `inferred_view` (option infer)
    model: bool = False  # a learned search whose model its twin evaluates: `model_file` (`model_defaults`)
    model_policy: bool = False  # a model's policy over the legal moves: `policy_of` (the strength levels)
    guided_worlds: bool = False  # worlds weighted by a model's card heads: `guided_view` (option cards)
    # ----- what a front end may show (hzai.core.front_end) -----
    belief_report: bool = False  # where the hidden information probably is: `belief_report`
    review_belief: bool = False  # a belief summary at each reviewed decision: `review_belief`

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

# capability -> (the hooks a game declaring it overrides, every one; the hooks only such a
# game may override: settings that mean something only with the capability)
HOOKS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "native": (("native", "native_view", "native_start"), ("default_playout",)),
    "heuristic": (("heuristic_scores",), ()),
    "opponent_model": (("inferred_view",), ("default_infer",)),
    "model": (("model_file",), ("model_defaults",)),
    "model_policy": (("policy_of",), ()),
    "guided_worlds": (("guided_view",), ()),
    "belief_report": (("belief_report",), ("belief_text",)),
    "review_belief": (("review_belief",), ()),
}

# capability -> what it is, for people (MissingCapability's message)
WHAT = {
    "cooperative": "team result", "public_moves": "public moves", "native": "native twin",
    "heuristic": "heuristic policy", "opponent_model": "opponent model", "model": "learned model",
    "model_policy": "learned policy", "guided_worlds": "learned card model", "belief_report": "belief report",
    "review_belief": "belief summary",
}

# The names a game declared as class attributes before capabilities: refused, so that an
# old declaration is never silently ignored.
RETIRED = {"cooperative": "cooperative", "public_moves": "public_moves", "has_heuristic": "heuristic",
           "has_belief_report": "belief_report", "has_opponent_model": "opponent_model"}


class MissingCapability(NotImplementedError):
    """A game was asked for a capability it does not declare. The message names the game,
    the capability and, in `use`, what is refused for want of it ("option infer is not
    offered")."""

    def __init__(self, game: str, capability: str, use: str = ""):
        self.game, self.capability, self.use = game, capability, use
        super().__init__(f"game {game} has no {WHAT.get(capability, capability)}{': ' + use if use else ''} "
                         f"(it does not declare the capability {capability})")


def _overrides(cls: type, base: type, name: str) -> bool:
    """Whether `cls` gives `name` something of its own rather than `base`'s default."""
    mine, default = _static(cls, name), _static(base, name)
    return mine is not default and mine != default


def _static(cls: type, name: str):
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    return None


def declaration_errors(cls: type, base: type) -> list[str]:
    """What is wrong with the capabilities game class `cls` declares against the hooks it
    overrides (`base`: hzai.core.Game, whose defaults the hooks are): a capability
    declared whose hook is not written, a hook written whose capability is not
    declared, an old declaration (RETIRED). [] when they agree."""
    errors = []
    for name, capability in RETIRED.items():
        if any(name in vars(klass) for klass in cls.__mro__ if klass is not base and not issubclass(base, klass)):
            errors.append(f"it sets {name}: declare it as Capabilities({capability}=True) in "
                          f"its `capabilities`")
    declared = getattr(cls, "capabilities", None)
    if not isinstance(declared, Capabilities):
        return errors + [f"its capabilities must be a hzai.core.Capabilities, not {declared!r}"]
    for capability, (required, optional) in HOOKS.items():
        written = [hook for hook in required + optional if _overrides(cls, base, hook)]
        if getattr(declared, capability):
            missing = [hook for hook in required if hook not in written]
            if missing:
                errors.append(f"it declares {capability} but does not write {', '.join(missing)}")
        elif written:
            errors.append(f"it writes {', '.join(written)} but does not declare the capability "
                          f"{capability}")
    return errors
