"""Dealing, replaying record moves, and the state JSON of docs/notation.md. The `Record`
class itself lives with the Game (rules/game.py): a record names the game it is of."""

from __future__ import annotations

import functools
from collections import Counter
from typing import TYPE_CHECKING

from hzai.core.record import RecordError  # the core's: the one class every game raises
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules.variants import FIGURE_AP, HAND_AT_DEAL
from hzai.games.hera_zeus.rules.moves import NotationError, parse_move
from hzai.games.hera_zeus.rules.state import FIGURE, Event, IllegalMoveError, State
from hzai.text import quoted, shorten

if TYPE_CHECKING:
    from hzai.games.hera_zeus.rules.game import Game

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


@functools.lru_cache(maxsize=16)
def _ids_by_name(deck, owner: int) -> dict[str, tuple[int, ...]]:
    """The card ids of `owner`'s deck by lower-case name, ascending (a deck never
    changes: read once, not for every record the service is sent)."""
    ids: dict[str, list[int]] = {}
    for card_id in deck.ids_of(owner):
        ids.setdefault(deck.cards[card_id].name.lower(), []).append(card_id)
    return {name: tuple(found) for name, found in ids.items()}


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
        free = {name: list(ids) for name, ids in _ids_by_name(game.deck, owner).items()}

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
