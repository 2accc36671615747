"""Build a play-phase `State` from a short description, for tests and analysis.

    >>> from hzai.games.hera_zeus.rules.position import Side, position
    >>> state = position(
    ...     hera=Side(columns=[["Hydra*", "Satyr"], ["figure", "Centaur"]], hand=["Pegasus"],
    ...               discard=["Hera"]),
    ...     zeus=Side(columns=[["Argus"], [], ["Hydra@hera"]], hand=["Sirens"]),
    ...     turn=3, ap=2)

Card tokens are card names as in the notation (case-insensitive):
- `Hydra` is a card of the side's own player, `Hydra@zeus` one owned by Zeus (a card
  taken by Sirens; allowed on a side, in a hand and on a discard pile, never in a deck);
- on a side a trailing `*` marks a face-up card (`Hydra*`, `Hydra@zeus*`); other cards
  lie face down; `figure` (only at r1) is the side's own figure.

Columns are listed c1..c3, each front (r1) to back; missing columns are empty. Decks are
listed top first, discard piles bottom first.

Every one of the game's card instances ends up in exactly one place. Instance ids are
handed out per (owner, name) lowest first, in this order: Hera's side c1..c3, her hand,
her discard pile, her deck, then Zeus's the same way. The cards a description leaves out
go, in id order, to their owner's deck after the listed deck cards (`rest="deck"`, the
default) or to the bottom of their owner's discard pile under the listed ones
(`rest="discard"`, for positions with short decks; `rest={"hera": "deck", "zeus":
"discard"}` chooses per side; a left-out hostage still goes to the
deck, so a position with an empty deck names its hostage somewhere).

The description is checked and a `PositionError` names the first problem: unknown
names, more copies than the deck has, a myth-only card or figure in a wrong place, more
than 4 occupants in a column or 12 cards in a hand, a figure on the field while its god
card is still in the deck, a hostage on a discard pile, a turn number that does not fit
the player to move, AP out of range. The built state has no pending decision; if the
player to move has AP but no legal action, it is already lost (R-END-1) as in a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules.game import Game
from hzai.games.hera_zeus.rules.variants import COLUMN_DEPTH, COLUMNS, FIGURE_AP, HAND_LIMIT
from hzai.games.hera_zeus.rules.state import FIGURE, State

FIGURE_TOKEN = "figure"


class PositionError(ValueError):
    """A position description is inconsistent; the message says where and why."""


@dataclass
class Side:
    columns: list[list[str]] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)


def _as_side(value: Side | dict | None, player: str) -> Side:
    if value is None:
        return Side()
    if isinstance(value, Side):
        return value
    if isinstance(value, dict):
        unknown = set(value) - {"columns", "hand", "deck", "discard"}
        if unknown:
            raise PositionError(f"{player}: unknown key(s) {', '.join(sorted(unknown))}")
        return Side(**value)
    raise PositionError(f"{player}: a side is a Side or a dict, not {type(value).__name__}")


def _player_index(name: str, where: str) -> int:
    if name not in PLAYERS:
        raise PositionError(f"{where}: player must be hera or zeus, not {name!r}")
    return PLAYERS.index(name)


class _Allocator:
    """Hands out instance ids: per (owner, name) the lowest free id first."""

    def __init__(self, game: Game):
        self.deck = game.deck
        self.free: dict[tuple[int, str], list[int]] = {}
        for card in self.deck.cards:
            self.free.setdefault((card.owner, card.name.lower()), []).append(card.id)

    def parse(self, token: str, holder: int, where: str, on_field: bool) -> tuple[int, bool]:
        """(card id, face up) for one token."""
        if not isinstance(token, str) or not token.strip():
            raise PositionError(f"{where}: a card must be a non-empty name, not {token!r}")
        text = token.strip()
        face_up = text.endswith("*")
        if face_up:
            if not on_field:
                raise PositionError(f"{where}: {token!r}: only field cards can be marked face up")
            text = text[:-1]
        name, _, owner_text = text.partition("@")
        owner = holder if not owner_text else _player_index(owner_text.lower(), f"{where}: {token!r}")
        card_type = self.deck.type_named(name)
        if card_type is None:
            raise PositionError(f"{where}: unknown card {name!r}")
        ids = self.free.get((owner, card_type.name.lower()))
        if ids is None:
            raise PositionError(f"{where}: {card_type.name!r} is not a card of {PLAYERS[owner]}'s deck")
        if not ids:
            raise PositionError(f"{where}: too many {card_type.name}@{PLAYERS[owner]} (the deck has no more)")
        return ids.pop(0), face_up

    def rest(self, owner: int) -> list[int]:
        left = [x for (o, _), ids in self.free.items() if o == owner for x in ids]
        for (o, _), ids in self.free.items():
            if o == owner:
                ids.clear()
        return sorted(left)


def position(
    hera: Side | dict | None = None,
    zeus: Side | dict | None = None,
    *,
    to_move: str = "hera",
    turn: int | None = None,
    ap: int | None = None,
    ap_spent: int | None = None,
    variants: dict | None = None,
    deck: str = "classic",
    rest: str | dict = "deck",
    game: Game | None = None,
) -> State:
    """A state in the play phase, `to_move` to act with `ap` AP left this turn.

    `turn` defaults to the first turn after the first-turn ban (3 or 4) that fits
    `to_move`. `ap` defaults to the turn's full AP (R-TURN-3). `ap_spent` (AP already
    spent this turn, R-GOD-2) defaults to the turn's full AP minus `ap`.
    """
    game = game if game is not None else Game.create(variants, deck)
    rests = rest if isinstance(rest, dict) else {name: rest for name in PLAYERS}
    if set(rests) != set(PLAYERS) or any(r not in ("deck", "discard") for r in rests.values()):
        raise PositionError(f"rest must be 'deck' or 'discard', or a dict of them for hera and zeus, not {rest!r}")
    player = _player_index(to_move, "to_move")
    first = game.variants.first_player_index
    if turn is None:
        turn = 3 if player == first else 4
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise PositionError(f"turn must be a whole number ≥ 1, not {turn!r}")
    if (turn % 2 == 1) != (player == first):
        raise PositionError(f"turn {turn} is {PLAYERS[first if turn % 2 else 1 - first]}'s, not {to_move}'s")
    if turn > game.variants.turn_limit:
        raise PositionError(f"turn {turn} is past the turn limit {game.variants.turn_limit}")

    state = State(game)
    alloc = _Allocator(game)
    sides = (_as_side(hera, "hera"), _as_side(zeus, "zeus"))
    for p, side in enumerate(sides):
        _fill_side(state, alloc, p, side)
    for p in (0, 1):
        left = alloc.rest(p)
        hostages = [x for x in left if state.card(x).type.kind == "hostage"]
        if rests[PLAYERS[p]] == "deck":
            state.decks[p] += left
        else:  # a discarded hostage would have ended the game: it stays in the deck
            state.discards[p][:0] = [x for x in left if x not in hostages]
            state.decks[p] += hostages
    for p in (0, 1):
        where = PLAYERS[p]
        god = state.deck.god_id[p]
        if state.figure_column(p) is not None and god not in state.hands[p] + state.discards[p]:
            raise PositionError(
                f"{where}: the figure is on the field, so the god card {state.card(god).name} "
                "must be in the hand or on the discard pile"
            )
        if any(state.card(x).type.kind == "hostage" for x in state.discards[p]):
            raise PositionError(f"{where}: a hostage never lies on a discard pile (that ends the game)")

    full = FIGURE_AP if state.figure_column(player) is not None else state.non_empty_columns(player)
    if ap is None:
        ap = full
    if not isinstance(ap, int) or isinstance(ap, bool) or not 1 <= ap <= FIGURE_AP:
        raise PositionError(f"ap must be 1..{FIGURE_AP} (a turn with AP 0 has already passed), not {ap!r}")
    if ap_spent is None:
        ap_spent = max(full - ap, 0)
    if not isinstance(ap_spent, int) or isinstance(ap_spent, bool) or ap_spent < 0 or ap + ap_spent > FIGURE_AP:
        raise PositionError(f"ap_spent must be ≥ 0 with ap + ap_spent ≤ {FIGURE_AP}, not {ap_spent!r}")

    state.phase = "play"
    state.turn = turn
    state.turn_player = player
    state.to_move = player
    state.ap = ap
    state.ap_spent = ap_spent
    state._settle()  # a player to move with AP and no legal action has lost (R-END-1)
    return state


def _fill_side(state: State, alloc: _Allocator, p: int, side: Side) -> None:
    where = PLAYERS[p]
    columns = list(side.columns)
    if len(columns) > COLUMNS:
        raise PositionError(f"{where}: at most {COLUMNS} columns, got {len(columns)}")
    columns += [[] for _ in range(COLUMNS - len(columns))]
    for c, column in enumerate(columns):
        cw = f"{where} c{c + 1}"
        if isinstance(column, str) or not isinstance(column, Iterable):
            raise PositionError(f"{cw}: a column is a list of card names")
        column = list(column)
        if len(column) > COLUMN_DEPTH:
            raise PositionError(f"{cw}: {len(column)} occupants, at most {COLUMN_DEPTH}")
        for r, token in enumerate(column):
            slot = f"{cw}r{r + 1}"
            if isinstance(token, str) and token.strip().lower() == FIGURE_TOKEN:
                if r != 0:
                    raise PositionError(f"{slot}: the figure only stands at r1")
                if state.figure_column(p) is not None:
                    raise PositionError(f"{slot}: {where} has one figure only")
                state.columns[p][c].append(FIGURE)
                continue
            card, face_up = alloc.parse(token, p, slot, on_field=True)
            if not state.card(card).type.placeable:
                raise PositionError(f"{slot}: {state.card(card).name} is never placed on a side")
            state.columns[p][c].append(card)
            if face_up:
                state.face_up.add(card)
    hand = [alloc.parse(t, p, f"{where} hand", on_field=False)[0] for t in side.hand]
    if len(hand) > HAND_LIMIT:
        raise PositionError(f"{where} hand: {len(hand)} cards, at most {HAND_LIMIT}")
    state.hands[p] = sorted(hand)
    state.discards[p] = [alloc.parse(t, p, f"{where} discard", on_field=False)[0] for t in side.discard]
    deck = [alloc.parse(t, p, f"{where} deck", on_field=False)[0] for t in side.deck]
    for card in deck:
        if state.card(card).owner != p:
            raise PositionError(f"{where} deck: {state.card(card).name}@{PLAYERS[1 - p]} cannot be in {where}'s deck")
    state.decks[p] = deck
