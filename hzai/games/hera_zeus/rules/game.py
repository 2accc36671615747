"""Hera and Zeus as a core Game: the deck and variants, and the rules that follow from
them (action ids, notation, new states), plus the game record (`Record`), which names the
game it is a record of. The game's other parts (records, search support, model,
presentation) live above the rules and are assembled into this Game by the package
(hzai/games/hera_zeus/__init__.py); nothing here imports them.

This module sits at the top of the rules package: the modules below it are handed a
Game and never build one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from hzai import jsonread
from hzai.core.game import Game as CoreGame
from hzai.core.record import refuse_seat_view
from hzai.games.hera_zeus.cards import PLAYERS, Deck, DeckError, load_deck
from hzai.games.hera_zeus.rules import effects, legal
from hzai.games.hera_zeus.rules.actions import action_space
from hzai.games.hera_zeus.rules.moves import Move, parse_move
from hzai.games.hera_zeus.rules.record import (
    RECORD_FORMAT, RecordError, deal, initial_state, max_record_moves, push_recorded,
)
from hzai.games.hera_zeus.rules.state import State
from hzai.games.hera_zeus.rules.variants import (  # noqa: F401  (re-exported: the table's sizes)
    COLUMN_DEPTH, COLUMNS, FIGURE_AP, HAND_AT_DEAL, HAND_LIMIT, MAX_TURN_LIMIT, VARIANT_CHOICES, VariantError,
    Variants,
)
from hzai.rng import MASK64
from hzai.text import quoted, shorten


@dataclass(frozen=True)
class Rules:
    """The rules proper, as the State reaches them (`game.rules`): the State sits below
    legal.py (what may be done) and effects.py (what it does), which both import it, so it
    is handed them through its Game, as Legends' State is (hzai/games/legends/game.py)."""

    legal_moves: Callable[[State], list[Move]]
    chance_outcomes: Callable[[State], list[tuple[Move, float]]]
    apply: Callable[[State, Move], None]  # IllegalMoveError, the state untouched, when not legal


RULES = Rules(legal.legal_moves, legal.chance_outcomes, effects.apply_move)


@dataclass(frozen=True)
class Game(CoreGame):
    """Deck plus variants: everything that stays fixed during a game."""

    deck: Deck = field(default_factory=load_deck)
    variants: Variants = field(default_factory=Variants)
    deck_spec: str = "classic"

    name = "hera_zeus"
    seats = PLAYERS
    rules = RULES  # for the State, which sits below the rules proper

    @classmethod
    def create(cls, variants: dict | None = None, deck: str = "classic") -> "Game":
        return cls(load_deck(deck), Variants.from_dict(variants), str(deck))

    # ----- the static game (hzai.core.Game); action ids: rules/actions.py ---------------
    @property
    def num_actions(self) -> int:
        return action_space(self.deck).size

    @property
    def params(self) -> dict:
        return {**self.variants.to_dict(), "deck": self.deck_spec}

    def new_state(self, seed: int) -> State:
        return initial_state(self, deal(self, seed))

    def parse_move(self, text: str) -> Move:
        return parse_move(text, self.deck)

    def move_text(self, move: Move) -> str:
        return str(move)

    def action_of(self, move: Move) -> int:
        return action_space(self.deck).encode(move)

    def move_of(self, action: int) -> Move:
        return action_space(self.deck).decode(action)


@dataclass
class Record:
    """A game record (`hzai-record/1`, docs/notation.md): the game, its deal (a setup
    or a seed) and the moves played."""
    game: Game = field(default_factory=Game)
    setup: dict | None = None
    seed: int | None = None
    moves: list[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, data) -> "Record":
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        refuse_seat_view(data)
        known = {"format", "variants", "deck", "setup", "seed", "moves"}
        unknown = set(data) - known
        if unknown:
            raise RecordError(f"unknown record field(s): {shorten(', '.join(sorted(unknown)))}")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"format must be {RECORD_FORMAT!r}, not {quoted(data.get('format'))}")
        deck = data.get("deck", "classic")
        if not isinstance(deck, str):
            raise RecordError("deck must be 'classic' or a deck file path")
        variants = data.get("variants", {})
        if not isinstance(variants, dict):
            raise RecordError("variants must be an object")
        try:
            game = Game.create(variants, deck)
        except (VariantError, DeckError) as exc:
            raise RecordError(str(exc), field="variants" if isinstance(exc, VariantError) else None) from None
        has_setup, has_seed = "setup" in data, "seed" in data
        if has_setup == has_seed:
            raise RecordError("a record needs exactly one of setup or seed")
        if has_setup and not isinstance(data["setup"], dict):
            raise RecordError("setup must be an object with keys hera and zeus")
        seed = data.get("seed")
        if has_seed and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK64):
            raise RecordError(f"seed must be a whole number 0..2^64-1, not {quoted(seed, 40)}")
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise RecordError("moves must be a list of strings")
        most = max_record_moves(game.variants.turn_limit)
        if len(moves) > most:
            raise RecordError(f"moves: {len(moves)} moves, but a game with turn_limit {game.variants.turn_limit} "
                              f"has at most {most}")
        for index, move in enumerate(moves):
            if not isinstance(move, str):
                raise RecordError(f"move {index}: must be a string, not {quoted(move)}", index, "")
        return cls(game, data.get("setup"), seed, list(moves))

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not UTF-8 text") from None
        try:
            data = jsonread.loads(text, str(path))
        except jsonread.JsonShapeError as exc:
            raise RecordError(str(exc)) from None
        return cls.from_json(data)

    def to_json(self) -> dict:
        data: dict = {"format": RECORD_FORMAT, "variants": self.game.variants.to_dict(), "deck": self.game.deck_spec}
        if self.setup is not None:
            data["setup"] = self.setup
        else:
            data["seed"] = self.seed
        data["moves"] = list(self.moves)
        return data

    def start(self) -> State:
        setup = self.setup if self.setup is not None else deal(self.game, self.seed)
        return initial_state(self.game, setup)

    def replay(self, upto: int | None = None) -> State:
        """The state after the first `upto` moves (all by default); RecordError names
        the first move that cannot be read or played."""
        state = self.start()
        for index, text in enumerate(self.moves[:upto]):
            push_recorded(state, index, text)
        return state


