"""Dealing, game records (`hzai-record/1`) and the state JSON of docs/notation.md."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from hzai.cards import PLAYERS, DeckError
from hzai.rng import MASK64, SplitMix64
from hzai.rules.game import FIGURE_AP, HAND_AT_DEAL, Game, VariantError
from hzai.rules.moves import NotationError, parse_move
from hzai.rules.state import FIGURE, Event, IllegalMoveError, State
from hzai.text import quoted, shorten

RECORD_FORMAT = "hzai-record/1"

# ----- how long a record can be ---------------------------------------------------------
# A bound that no game played by the rules can reach, so that a longer record is refused
# before a single move is read. Counting generously, per turn (R-TURN-3..8):
# - at most FIGURE_AP = 4 actions that cost AP: a turn starts with at most 4 AP, and the
#   god card (0 AP) only raises the AP left to 4 minus those already spent (R-GOD-2), so
#   no turn spends more than 4;
# - god card plays (0 AP): one needs the figure off the field, so after the first each
#   needs a recall, an AP action, before it: at most 1 + 4;
# - after any action, the record entries it can bring with it: a chance result (Pegasus
#   from the hand), a `place` decision (the card it took), and one `top` decision per
#   player (a Pandora wipe) -- at most 4 more.
# That is 4 + 5 actions with 4 entries each, 45 a turn; we allow 48. Setup adds one move
# per player, and a turn_limit-th turn is the last (R-TURN-7).
SETUP_MOVES = 2
ENTRIES_PER_ACTION = 1 + 4
MOVES_PER_TURN = 48
assert MOVES_PER_TURN >= (FIGURE_AP + 1 + FIGURE_AP) * ENTRIES_PER_ACTION


def max_record_moves(turn_limit: int) -> int:
    """More moves (chance results included) than any game within `turn_limit` turns can have."""
    return SETUP_MOVES + MOVES_PER_TURN * turn_limit


class RecordError(ValueError):
    """A record is malformed, or one of its moves is unreadable or illegal.
    `index` is the 0-based position in `moves` when a move is at fault."""

    def __init__(self, message: str, index: int | None = None, move: str | None = None):
        super().__init__(message)
        self.index = index
        self.move = move


def deal(game: Game, seed: int) -> dict:
    """R-SETUP-1 with the documented generator: shuffle, draw 9, a hostage drawn is set
    aside, replaced by the next card and shuffled back into the rest of the deck."""
    rng = SplitMix64(seed)
    setup = {}
    for owner in (0, 1):
        cards = list(game.deck.ids_of(owner))
        rng.shuffle(cards)
        hand, set_aside = [], []
        while len(hand) < HAND_AT_DEAL and cards:
            card = cards.pop(0)
            (set_aside if game.deck.cards[card].type.kind == "hostage" else hand).append(card)
        if set_aside:
            cards += set_aside
            rng.shuffle(cards)
        setup[PLAYERS[owner]] = {
            "hand": [game.deck.cards[x].name for x in hand],
            "deck": [game.deck.cards[x].name for x in cards],
        }
    return setup


def initial_state(game: Game, setup: dict) -> State:
    """The state right after the deal, from card names (hand + deck of each side)."""
    if not isinstance(setup, dict):
        raise RecordError("setup must be an object with keys hera and zeus")
    state = State(game)
    for owner, player in enumerate(PLAYERS):
        side = setup.get(player)
        if not isinstance(side, dict) or set(side) != {"hand", "deck"}:
            raise RecordError(f"setup.{player} must be an object with exactly the keys hand and deck")
        for key in ("hand", "deck"):
            if not isinstance(side[key], list) or not all(isinstance(n, str) for n in side[key]):
                raise RecordError(f"setup.{player}.{key} must be a list of card names")
        free: dict[str, list[int]] = {}
        for card_id in game.deck.ids_of(owner):
            free.setdefault(game.deck.cards[card_id].name.lower(), []).append(card_id)

        def take(name: str, key: str) -> int:
            ids = free.get(name.lower())
            if ids is None:
                raise RecordError(f"setup.{player}.{key}: {quoted(name)} is not a card of {player}'s deck")
            if not ids:
                raise RecordError(f"setup.{player}.{key}: too many {quoted(name)} for {player}'s deck")
            return ids.pop(0)

        state.hands[owner] = sorted(take(n, "hand") for n in side["hand"])
        state.decks[owner] = [take(n, "deck") for n in side["deck"]]
        missing = Counter({name: len(ids) for name, ids in free.items() if ids})
        if missing:
            names = ", ".join(f"{n} x{k}" for n, k in sorted(missing.items()))
            raise RecordError(f"setup.{player}: hand + deck must be {player}'s whole deck; missing {names}")
        if len(state.hands[owner]) != HAND_AT_DEAL:
            raise RecordError(f"setup.{player}.hand must hold {HAND_AT_DEAL} cards, not {len(state.hands[owner])}")
        if game.deck.hostage_id[owner] in state.hands[owner]:
            raise RecordError(f"setup.{player}.hand holds the hostage; it never starts in a hand (R-SETUP-1)")
    for owner in (0, 1):
        state.events.append(Event("dealt", src=("hand", owner), cards=tuple(state.hands[owner])))
    return state


@dataclass
class Record:
    game: Game = field(default_factory=Game)
    setup: dict | None = None
    seed: int | None = None
    moves: list[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, data) -> "Record":
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
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
            raise RecordError(str(exc)) from None
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
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
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


def push_recorded(state: State, index: int, text: str) -> None:
    """Play move `index` of a record; RecordError names the index, move and reason."""
    try:
        state.push(parse_move(text, state.deck))
    except (NotationError, IllegalMoveError) as exc:
        raise RecordError(f"move {index} {move_problem(text, exc)}", index, text) from None


def move_problem(text: str, exc: Exception) -> str:
    """"'TEXT': why" for a move that cannot be read or played, the text and the reason
    each shortened (the engine's messages start with the move text: not twice)."""
    reason = str(exc)
    for prefix in (f"{text!r}: ", f"{text.strip()}: "):
        reason = reason.removeprefix(prefix)
    return f"{quoted(text)}: {shorten(reason)}"


def state_to_json(state: State) -> dict:
    """The referee's picture of a state, with the keys of docs/notation.md (plus a few)."""
    deck = state.deck

    def name_of(card: int) -> str:
        return deck.cards[card].name

    def owned(card: int) -> dict:
        return {"card": name_of(card), "owner": PLAYERS[deck.cards[card].owner]}

    sides = {}
    for p, player in enumerate(PLAYERS):
        figure = state.figure_column(p)
        hand = sorted(state.hands[p], key=lambda x: (name_of(x).lower(), x))
        sides[player] = {
            "columns": [
                [{"card": "figure"} if x == FIGURE else {**owned(x), "face_up": x in state.face_up} for x in column]
                for column in state.columns[p]
            ],
            "figure": None if figure is None else f"c{figure + 1}",
            "hand": [name_of(x) for x in hand],
            "hand_cards": [owned(x) for x in hand],
            "deck_size": len(state.decks[p]),
            "discard": [name_of(x) for x in state.discards[p]],
            "discard_cards": [owned(x) for x in state.discards[p]],
        }
    if state.is_over:
        winner = "draw" if state.winner is None else PLAYERS[state.winner]
    else:
        winner = None
    result = {
        "winner": winner,
        "reason": state.reason,
        "to_move": state.player_to_move,
        "turn": state.turn,
        "ap_left": state.ap,
        "phase": state.phase,
        "turn_player": None if state.phase == "setup" else PLAYERS[state.turn_player],
        "pending": [
            {"decision": p.kind, "player": PLAYERS[p.player], "cards": [owned(x) for x in p.cards]} for p in state.pending
        ],
        "sides": sides,
    }
    return result
