"""The native core's game and state handles (module `hzai._native`) for the reference
engine's decks, variants and states: `native_game`, `NativeState`, `random_playouts`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from hzai import _native
from hzai.games.hera_zeus.cards import KINDS, POWERS, Deck
from hzai.games.hera_zeus.rules.actions import action_space
from hzai.games.hera_zeus.rules.variants import Variants

if TYPE_CHECKING:
    from hzai.games.hera_zeus.rules.game import Game
from hzai.games.hera_zeus.rules.moves import Move
from hzai.games.hera_zeus.rules.record import initial_state, state_to_json
from hzai.games.hera_zeus.rules.state import Pending, State

__all__ = ["NativeState", "native_game", "random_playouts"]


def raw_of(state: State) -> dict:
    """A reference-engine state in the plain shape the core loads (`State.set_raw`)."""
    return {
        "hands": [sorted(h) for h in state.hands],
        "decks": [list(d) for d in state.decks],
        "discards": [list(d) for d in state.discards],
        "columns": [[list(c) for c in side] for side in state.columns],
        "face_up": sorted(state.face_up),
        "pending": [(p.kind, p.player, list(p.cards)) for p in state.pending],
        "phase": state.phase,
        "to_move": state.to_move,
        "turn_player": state.turn_player,
        "turn": state.turn,
        "ap": state.ap,
        "ap_spent": state.ap_spent,
        "winner": state.winner,
        "reason": state.reason,
    }


def _card_specs(deck: Deck) -> tuple:
    return tuple(
        (
            c.name,
            c.name.lower(),
            c.owner,
            KINDS.index(c.type.kind),
            -1 if c.type.strength is None else c.type.strength,
            -1 if c.type.power is None else POWERS.index(c.type.power),
            "slays_medusa" in c.type.traits,
            "falls_to_pythia" in c.type.traits,
        )
        for c in deck.cards
    )


# Keyed by the deck's content, not its identity: two deck files may hold the same cards.
@lru_cache(maxsize=32)
def _core_game_for(specs: tuple, variants: Variants) -> _native.Game:
    return _native.Game(
        list(specs),
        first_player=variants.first_player_index,
        figure_removal_pegasus=variants.figure_removal == "pegasus",
        pythia_always_loses=variants.pythia_defence == "always_loses",
        turn_limit=variants.turn_limit,
    )


def _core_game(deck: Deck, variants: Variants) -> _native.Game:
    per_deck = deck.__dict__.setdefault("_hzai_native", {})
    core = per_deck.get(variants)
    if core is None:
        core = _core_game_for(_card_specs(deck), variants)
        space = action_space(deck)
        if core.offsets != [*space.offsets.values(), space.size] or tuple(core.names) != space.names:
            raise RuntimeError("the native action layout differs from hzai.games.hera_zeus.rules.actions")
        per_deck[variants] = core
    return core


def native_game(game: Game) -> _native.Game:
    return _core_game(game.deck, game.variants)


class NativeState:
    """A game state held by the native core; the same game as a `hzai.games.hera_zeus.rules.State`."""

    __slots__ = ("game", "core")

    def __init__(self, game: Game, core: _native.State):
        self.game = game
        self.core = core

    # ----- making one ------------------------------------------------------------------
    @classmethod
    def from_state(cls, state: State) -> "NativeState":
        core = native_game(state.game).new_state()
        core.set_raw(raw_of(state))
        return cls(state.game, core)

    @classmethod
    def from_setup(cls, game: Game, setup: dict) -> "NativeState":
        """From a record's `setup` (card names per side)."""
        return cls.from_state(initial_state(game, setup))

    @classmethod
    def deal(cls, game: Game, seed: int) -> "NativeState":
        """The deal of a record with `"seed": seed`, made by the core itself."""
        return cls(game, native_game(game).deal(seed))

    def clone(self) -> "NativeState":
        return NativeState(self.game, self.core.clone())

    # ----- queries ---------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.core.is_over

    @property
    def is_chance(self) -> bool:
        return self.core.is_chance

    @property
    def winner(self) -> int | None:
        return self.core.winner

    @property
    def reason(self) -> str | None:
        return self.core.get_raw()["reason"]

    def legal_actions(self) -> list[int]:
        """Legal action ids, in the order of their notation text."""
        return self.core.legal_actions()

    def legal_texts(self) -> list[str]:
        return self.core.legal_texts()

    def legal_moves(self) -> list[Move]:
        space = action_space(self.game.deck)
        return [space.decode(a) for a in self.core.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(chance action id, probability) after `pegasus hand`, sorted by text."""
        outcomes = self.core.chance_outcomes()
        total = sum(n for _, n in outcomes)
        return [(a, n / total) for a, n in outcomes]

    def action_text(self, action: int) -> str:
        return native_game(self.game).action_text(action)

    # ----- playing ---------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Play a legal action id or a possible chance result; ValueError otherwise."""
        self.core.apply(action)

    def apply_text(self, text: str) -> int:
        """Play the move written as the legal-move list writes it; returns its id."""
        candidates = self.core.legal_actions() or [a for a, _ in self.core.chance_outcomes()]
        for a in candidates:
            if self.action_text(a) == text:
                self.core.apply(a, check=False)
                return a
        raise ValueError(f"{text!r} is not a legal move here")

    def random_playout(self, seed: int) -> None:
        """Play to the end in place, move for move as hzai.games.hera_zeus.rules.random_playout(state, seed)."""
        self.core.random_playout(seed)

    # ----- views -----------------------------------------------------------------------
    def raw(self) -> dict:
        return self.core.get_raw()

    def to_state(self) -> State:
        """The equal reference-engine state (no history or event log)."""
        raw = self.core.get_raw()
        state = State(self.game)
        state.hands = [list(h) for h in raw["hands"]]
        state.decks = [list(d) for d in raw["decks"]]
        state.discards = [list(d) for d in raw["discards"]]
        state.columns = [[list(c) for c in side] for side in raw["columns"]]
        state.face_up = set(raw["face_up"])
        state.pending = [Pending(kind, player, tuple(cards)) for kind, player, cards in raw["pending"]]
        state.limbo = [c for p in state.pending if p.kind == "place" for c in p.cards]
        state.phase = raw["phase"]
        state.to_move = raw["to_move"]
        state.turn_player = raw["turn_player"]
        state.turn, state.ap, state.ap_spent = raw["turn"], raw["ap"], raw["ap_spent"]
        state.winner, state.reason = raw["winner"], raw["reason"]
        return state

    def to_json(self) -> dict:
        """Exactly hzai.games.hera_zeus.rules.state_to_json of the equal reference state."""
        return state_to_json(self.to_state())


def random_playouts(state: NativeState | State, n_games: int, seed: int, threads: int = 1):
    """Play n_games random games from `state` on `threads` threads, without the GIL.
    Game i is random_playout(state, seed + i). Returns numpy arrays: winner (0 hera,
    1 zeus, -1 draw), moves applied (chance results included), final turn number."""
    if isinstance(state, State):
        state = NativeState.from_state(state)
    return _native.random_playouts(state.core, n_games, seed, threads)


def record_start(record) -> _native.State:
    """The native state of a record's deal, before its moves (RecordError for a
    malformed setup): the service's decision path and the policy-based inference replay
    the record from it."""
    game = record.game
    if record.setup is not None:
        return NativeState.from_state(initial_state(game, record.setup)).core
    return native_game(game).deal(record.seed)
