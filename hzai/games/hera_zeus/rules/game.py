"""Hera and Zeus as a core Game: the deck and variants, and everything static that
follows from them (action ids, notation, records, the native twin, views), plus the
game record (`Record`), which names the game it is a record of.

This module sits at the top of the rules package: the modules below it are handed a
Game and never build one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from hzai import jsonread
from hzai.core.capabilities import Capabilities
from hzai.core.game import Game as CoreGame
from hzai.core.record import refuse_seat_view
from hzai.games.hera_zeus.cards import PLAYERS, Deck, DeckError, load_deck
from hzai.games.hera_zeus.rules import effects, legal
from hzai.games.hera_zeus.rules.actions import ActionSpace, action_space
from hzai.games.hera_zeus.rules.moves import Move, parse_move
from hzai.games.hera_zeus.rules.record import (
    RECORD_FORMAT, RecordError, deal, initial_state, max_record_moves, push_recorded,
)
from hzai.games.hera_zeus.rules.state import State
from hzai.core.record import NoDecision
from hzai.games.hera_zeus.service import ServiceHooks, check_deck, no_decision_reason
from hzai.games.hera_zeus.rules.variants import (  # noqa: F401  (re-exported: the table's sizes)
    COLUMN_DEPTH, COLUMNS, FIGURE_AP, HAND_AT_DEAL, HAND_LIMIT, MAX_TURN_LIMIT, VARIANT_CHOICES, VariantError,
    Variants,
)
from hzai.rng import MASK64
from hzai.text import quoted, shorten


@dataclass(frozen=True)
class Game(ServiceHooks, CoreGame):
    """Deck plus variants: everything that stays fixed during a game."""

    deck: Deck = field(default_factory=load_deck)
    variants: Variants = field(default_factory=Variants)
    deck_spec: str = "classic"

    name = "hera_zeus"
    seats = PLAYERS
    capabilities = Capabilities(native=True, heuristic=True, opponent_model=True, model=True, model_policy=True,
                                guided_worlds=True, belief_report=True, review_belief=True)
    # The search's worlds follow the opponent model (belief/inference.py) unless a bot
    # says infer=0: it paid at 100 ms a decision (benchmarks/results/ablation.md).
    default_infer = True
    # The kept model of the learned search (hzai/learn, docs/learning.md).
    model_file = Path(__file__).resolve().parents[1] / "models" / "hz.npz"
    # Earlier defaults, playable as ismcts-v3 (hz@2, the table-only model: cpuct 0.25, mix 0.5).
    model_archive = {"v3": (Path(__file__).resolve().parents[1] / "models" / "hz-v3.npz",
                            {"cpuct": 0.25, "mix": 0.5})}
    # 1,920 table features and 299 of the history (docs/learning.md); "-acts2": every move
    # counted in the action blocks (a move that moves no card logs an `act` event).
    feature_layout = "hz-2219-acts2"

    @classmethod
    def create(cls, variants: dict | None = None, deck: str = "classic") -> "Game":
        return cls(load_deck(deck), Variants.from_dict(variants), str(deck))

    # ----- the static game (hzai.core.Game) --------------------------------------------
    @property
    def space(self) -> ActionSpace:
        return action_space(self.deck)

    @property
    def num_actions(self) -> int:
        return self.space.size

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
        return self.space.encode(move)

    def move_of(self, action: int) -> Move:
        return self.space.decode(action)

    def record_from_json(self, data) -> "Record":
        """A record of this game (its variants and deck must be this game's)."""
        record = Record.from_json(data)
        if record.game.params != self.params:  # decks compare by identity: compare what they were made from
            raise RecordError("the record's variants or deck are not those of this game", field="variants")
        return record

    def record_to_json(self, record: "Record") -> dict:
        return record.to_json()

    def read_record(self, data, base=None) -> "Record":
        """A record from anyone (a request): any variants, the built-in deck only. A
        local file's (`base` given: the command line) may name a deck file."""
        if base is None and isinstance(data, dict) and "deck" in data:
            check_deck(data["deck"])
        return Record.from_json(data)

    def new_record(self, seed: int) -> "Record":
        """A new game's record with its deal written out (replayable without the dealer)."""
        return Record(self, setup=deal(self, seed))

    def seed_record(self, seed: int) -> "Record":
        """A new game's record that keeps only the seed of its deal."""
        return Record(self, seed=seed)

    @cached_property
    def native(self):
        """The C++ twin of this deck and variants (hzai._native.Game); None without a
        built core."""
        try:
            from hzai.games.hera_zeus.native.state import native_game
        except ImportError:  # pragma: no cover - only without a built core
            return None
        return native_game(self)

    # ----- the rules, for State (which sits below legal.py and effects.py) -------------
    @staticmethod
    def rules_legal_moves(state: State) -> list[Move]:
        return legal.legal_moves(state)

    @staticmethod
    def rules_chance_outcomes(state: State) -> list[tuple[Move, float]]:
        return legal.chance_outcomes(state)

    @staticmethod
    def rules_apply(state: State, move: Move) -> None:
        effects.apply_move(state, move)

    # ----- views (hzai.games.hera_zeus.belief, above the rules) ------------------------
    def sample_view(self, view, seed: int) -> State:
        """One state consistent with `view`: the native sampler where the core is built
        (30-50 times faster), else the Python one; both draw the same state."""
        if self.native is not None:
            from hzai.games.hera_zeus.native.search import native_sample

            return native_sample(view, seed, self)
        from hzai.games.hera_zeus.belief import Determinizer

        return Determinizer(view, self).sample(seed)

    def view_legal_moves(self, view) -> list[Move]:
        """The legal moves of the seat to decide. They depend only on what that seat
        sees, so any state drawn from the view lists the same ones."""
        if self.native is not None:
            from hzai import _native
            from hzai.games.hera_zeus.native.search import flat_view

            world = _native.sample_view(self.native, flat_view(view, self), 0)
            return [self.space.decode(a) for a in world.legal_actions()]
        return self.sample_view(view, 0).legal_moves()

    # ----- what the generic search needs --------------------------------------------
    def native_view(self, view):
        """The view as the native search reads it (typed structs, hzai.games.hera_zeus.native.search); a
        view that says it is `all_seeing` (the arena's benchmark ceiling, whose every
        sample is one known state) as the world of that state: every card seen, only
        the deck orders hidden."""
        from hzai.games.hera_zeus.native.search import flat_view

        if not getattr(view, "all_seeing", False):
            return flat_view(view, self)
        from hzai import _native
        from hzai.games.hera_zeus.native.state import NativeState

        return _native.world_spec(NativeState.from_state(view.sample(0)).core)

    def guided_view(self, view, model, pool: int, seed: int):
        """The view with worlds weighted by the model's card heads (hera_zeus.learned)."""
        if self.native is None:
            return None
        from hzai.games.hera_zeus.learned import guided_view

        return guided_view(view, model, pool, seed)

    def policy_of(self, view, model):
        """The policy net's probabilities of the view's legal moves (hz_learn.cpp)."""
        if self.native is None or not model.has_policy:
            return None
        from hzai.games.hera_zeus.native.search import flat_view

        legal = [self.action_of(move) for move in view.legal_moves()]
        return model.policy(self.native, flat_view(view, self), legal)

    def native_start(self, seed: int):
        """The core's own deal, equal to `new_state(seed)` (hzai._native.State)."""
        return None if self.native is None else self.native.deal(seed)

    def inferred_view(self, view, temperature: float | None, seed: int, worlds: int | None = None):
        """The view whose worlds are weighted by the opponent model
        (hzai.games.hera_zeus.belief.inference) and resampled by the native core, from
        a pool sized to the search (`pool_size`)."""
        if self.native is None:
            return None
        from hzai.games.hera_zeus.belief.inference import check_temperature, pool_size
        from hzai.games.hera_zeus.native.inference import InferredView

        return InferredView(view, check_temperature(temperature), seed, pool_size(worlds))

    def view_to_decide(self, record: "Record", should_stop=None):
        """The view of the seat to decide after `record` (a record of this game):
        RecordError for a bad record, NoDecision when the game is over or chance is
        next, ReplayStopped when `should_stop` says so. With the native core the record
        is replayed and the view built in C++ (hzai.games.hera_zeus.native.decision); a record the core
        does not read to its end is replayed here, with the same answer."""
        from hzai.games.hera_zeus.rules.replay_cache import ReplayCache, ReplayStopped

        if should_stop is not None and should_stop():  # the core's replay is not interrupted
            raise ReplayStopped(0)
        if self.native is not None:
            from hzai.games.hera_zeus.native.decision import native_decision

            fast = native_decision(record)
            if fast is not None:
                state, view = fast
                if view is None:
                    raise NoDecision(no_decision_reason(state))
                return view
        state = ReplayCache.replay_uncached(record, should_stop)
        if state.is_over or state.is_chance:
            raise NoDecision(no_decision_reason(state))
        return self.view_of(state, state.to_move)

    def heuristic_scores(self, view, moves: list[Move]) -> list[float]:
        """Rule-of-thumb scores of `moves` for the heuristic bot (higher is better)."""
        from hzai.games.hera_zeus.heuristic import scores

        return scores(view, moves)

    def view_of(self, state: State, seat: int):
        """`seat`'s information set in `state` (hzai.games.hera_zeus.belief)."""
        from hzai.games.hera_zeus.belief import view_of
        from hzai.games.hera_zeus.native.policy_infer import attach_history

        view = view_of(state, seat)
        if self.native is not None:  # the deal and moves, kept privately for ismcts:pbi=1 (read once)
            attach_history(view, state)
        return view

    def policy_view(self, seen, view, model, pool: int, seed: int, temperature: float, epsilon: float,
                    threads: int = 1, ratio: bool = True):
        """`view` (the seat's view `seen`, or it weighted by the card model) with its worlds
        weighted by the policy-based inference (ismcts:pbi=1, docs/learning.md)."""
        from hzai.games.hera_zeus.native.policy_infer import policy_view

        return policy_view(seen, view, model, pool, seed, temperature, epsilon, threads, ratio)

    # ----- optional hooks of the generic game review (hzai.search.review) -------------
    @staticmethod
    def canonical_move(state: State, move: Move) -> Move:
        """The move as the legal-move list writes it (`Hydra@hera` is `Hydra` for Hera)."""
        return effects.canonical(state, move)

    @staticmethod
    def review_belief(view, seed: int) -> dict:
        """Where the opponent's hostage is, as seen from `view`."""
        from hzai.games.hera_zeus.belief.hostage import hostage_belief

        return hostage_belief(view, seed)


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


