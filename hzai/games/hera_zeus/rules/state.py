"""The mutable game state and the small operations every rule is built from.

Cards are integer instance ids (`hzai.games.hera_zeus.cards.Deck.cards`). A side is three column lists,
front (r1) first, holding card ids or `FIGURE`. The rules themselves live in
`legal.py` (what may be done) and `effects.py` (what it does), both above this module;
it holds the data, the queries both need, and the event log the belief tracker reads,
and reaches the rules through its Game (`game.rules`, rules/game.py, above all three).
What a seat knows here (`view`) is the search support's (hzai.core.State.view asks
`game.search.view_of`): the rules know no views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hzai.core.state import State as CoreState
from hzai.games.hera_zeus.cards import PLAYERS, Card
from hzai.games.hera_zeus.rules.moves import CardRef, Move
from hzai.games.hera_zeus.rules.variants import COLUMN_DEPTH, COLUMNS, FIGURE_AP

if TYPE_CHECKING:
    from hzai.games.hera_zeus.rules.game import Game

FIGURE = -1


class IllegalMoveError(ValueError):
    """A move that the rules do not allow here; the message quotes it and says why."""


# Card movements are logged for the knowledge tracker (hzai.games.hera_zeus.belief). A zone is
# (kind, player): kind in hand, deck, discard, field, limbo (limbo: a card between two
# places while a decision or chance is pending).
@dataclass(frozen=True)
class Event:
    # "move" | "reveal" | "dealt" (a hand at the deal) | "show_hand" (Pythia's spy) | "act" (a
    # move that logged nothing else, its stamp alone: a recall of the figure alone, `top`, a
    # challenge of two face-up cards)
    kind: str
    card: int = -1
    src: tuple[str, int] | None = None
    dst: tuple[str, int] | None = None
    to: int | None = None  # reveal, show_hand: the player who sees; None = both (public)
    cards: tuple[int, ...] = ()  # dealt: the hand's cards
    # The move being applied when the event was logged (public, R-INFO): its turn, its
    # kind, who made it (-1: chance) and whether this is its first event. The knowledge
    # tracker's history features read them (docs/learning.md); -1 / "": no move.
    turn: int = -1
    act: str = ""
    mover: int = -1
    first: bool = False


@dataclass
class Pending:
    """A decision or chance event that must be settled before play goes on."""

    kind: str  # "chance" | "place" | "top"
    player: int  # who decides (for chance: the Pegasus player)
    cards: tuple[int, ...] = ()  # place: the card to place; top: the lost block, bottom..top


class State(CoreState):
    def __init__(self, game: Game):
        self.game = game
        self.deck = game.deck
        self.hands: list[list[int]] = [[], []]  # kept sorted by id
        self.decks: list[list[int]] = [[], []]  # top first
        self.discards: list[list[int]] = [[], []]  # bottom first
        self.columns: list[list[list[int]]] = [[[] for _ in range(COLUMNS)] for _ in range(2)]
        self.face_up: set[int] = set()  # field cards lying face up
        self.limbo: list[int] = []
        self.phase = "setup"  # setup | play | over
        self.to_move: int | None = 0  # who decides now; None at chance and at the end
        self.turn_player = 0
        self.turn = 0  # 0 during setup (docs/notation.md: setup comes before turn 1)
        self.ap = 0
        self.ap_spent = 0
        self.pending: list[Pending] = []
        self.winner: int | None = None  # 0, 1, or None (game running or drawn)
        self.reason: str | None = None
        self.history: list[Move] = []
        self.last_mover: int | None = None  # who made the last move of the history (None: chance, or no move yet)
        self.events: list[Event] = []

    # ----- copying -------------------------------------------------------------------
    def copy(self) -> "State":
        other = State.__new__(State)
        other.game, other.deck = self.game, self.deck
        other.hands = [h[:] for h in self.hands]
        other.decks = [d[:] for d in self.decks]
        other.discards = [d[:] for d in self.discards]
        other.columns = [[c[:] for c in side] for side in self.columns]
        other.face_up = set(self.face_up)
        other.limbo = self.limbo[:]
        other.phase, other.to_move, other.turn_player = self.phase, self.to_move, self.turn_player
        other.turn, other.ap, other.ap_spent = self.turn, self.ap, self.ap_spent
        other.pending = [Pending(p.kind, p.player, p.cards) for p in self.pending]
        other.winner, other.reason = self.winner, self.reason
        other.history, other.last_mover = self.history[:], self.last_mover
        other.events = self.events[:]
        return other

    # ----- queries -------------------------------------------------------------------
    def card(self, card_id: int) -> Card:
        return self.deck.cards[card_id]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def is_chance(self) -> bool:
        return bool(self.pending) and self.pending[0].kind == "chance"

    @property
    def first_turns(self) -> bool:
        """R-TURN-6: turns 1 and 2 are each player's first turn."""
        return self.turn <= 2

    def figure_column(self, player: int) -> int | None:
        for index, column in enumerate(self.columns[player]):
            if column and column[0] == FIGURE:
                return index
        return None

    def side_cards(self, player: int) -> list[int]:
        return [x for column in self.columns[player] for x in column if x != FIGURE]

    def non_empty_columns(self, player: int) -> int:
        return sum(1 for column in self.columns[player] if column)

    def find_on_field(self, card_id: int) -> tuple[int, int, int] | None:
        """(side, column index, row index) of a field card."""
        for side in (0, 1):
            for c, column in enumerate(self.columns[side]):
                if card_id in column:
                    return side, c, column.index(card_id)
        return None

    def card_ref(self, card_id: int, zone: list[int], mover: int) -> CardRef:
        """How the notation names `card_id` among `zone` for `mover` (docs/notation.md):
        the plain name, or NAME@owner where the plain name would mean another card."""
        card = self.card(card_id)
        if card.owner != mover and any(
            self.card(x).owner == mover and self.card(x).name == card.name for x in zone
        ):
            return CardRef(card.name, card.owner)
        return CardRef(card.name)

    def resolve_ref(self, ref: CardRef, zone: list[int], mover: int, topmost: bool = False) -> int | None:
        """The card a reference means in `zone`: with a plain name the mover's own card
        first; of identical cards the lowest id, or the topmost one of a pile."""
        matching = [x for x in zone if self.card(x).name.lower() == ref.name.lower()]
        owners = [ref.owner] if ref.owner is not None else [mover, 1 - mover]
        for owner in owners:
            candidates = [x for x in matching if self.card(x).owner == owner]
            if candidates:
                if topmost:
                    return max(candidates, key=zone.index)
                return min(candidates)
        return None

    # ----- primitives: every card movement goes through these -------------------------
    def _stamp(self) -> dict:
        """Event.turn / act / mover / first of the move being applied (apply_legal sets it)."""
        acting = getattr(self, "_acting", None)
        if acting is None:
            return {}
        turn, act, mover, first = acting
        if first:
            self._acting = (turn, act, mover, False)
        return {"turn": turn, "act": act, "mover": mover, "first": first}

    def _log_move(self, card_id: int, src: tuple[str, int], dst: tuple[str, int]) -> None:
        self.events.append(Event("move", card_id, src, dst, **self._stamp()))

    def _reveal(self, card_id: int, to: int | None = None) -> None:
        self.events.append(Event("reveal", card_id, to=to, **self._stamp()))

    def _take_from_hand(self, player: int, card_id: int) -> int:
        self.hands[player].remove(card_id)
        self.limbo.append(card_id)
        self._log_move(card_id, ("hand", player), ("limbo", player))
        return card_id

    def _to_hand(self, player: int, card_id: int, src: tuple[str, int]) -> None:
        self.hands[player].append(card_id)
        self.hands[player].sort()
        self._log_move(card_id, src, ("hand", player))

    def _from_limbo(self, card_id: int) -> None:
        self.limbo.remove(card_id)

    def _to_pile(self, holder: int, card_id: int, src: tuple[str, int]) -> None:
        self.discards[holder].append(card_id)
        self.face_up.discard(card_id)
        self._log_move(card_id, src, ("discard", holder))

    def _limbo_to_pile(self, holder: int, card_id: int) -> None:
        self._from_limbo(card_id)
        self._to_pile(holder, card_id, ("limbo", holder))

    def _remove_from_field(self, side: int, col: int, row: int) -> int:
        """Take the occupant at (col, row) off a side; the cards behind move forward."""
        occupant = self.columns[side][col].pop(row)
        if occupant != FIGURE:
            self.limbo.append(occupant)
            self._log_move(occupant, ("field", side), ("limbo", side))
        return occupant

    def _insert_on_field(self, side: int, col: int, row: int, card_id: int, face_up: bool) -> None:
        """Put a card (from limbo) at (col, row); the occupants there and behind move back."""
        self._from_limbo(card_id)
        self.columns[side][col].insert(row, card_id)
        if face_up:
            self.face_up.add(card_id)
        else:
            self.face_up.discard(card_id)
        self._log_move(card_id, ("limbo", side), ("field", side))

    def _discard_field_card(self, side: int, col: int, row: int) -> None:
        card_id = self._remove_from_field(side, col, row)
        self._limbo_to_pile(side, card_id)

    def _turn_face_up(self, card_id: int) -> None:
        if card_id not in self.face_up:
            self.face_up.add(card_id)
            self._reveal(card_id)

    def _pile_order(self, holder: int, cards: list[int]) -> list[int]:
        """R-PAN-2 default order, bottom first: strongest at the bottom, cards without
        strength weakest; equal strength alphabetical from the bottom up; then the
        holder's own cards below the other owner's. Used for every multi-card discard."""

        def key(card_id: int):
            card = self.card(card_id)
            strength = card.type.strength if card.type.strength is not None else -1
            return (-strength, card.name.lower(), card.owner != holder, card_id)

        return sorted(cards, key=key)

    def _finish(self, winner: int | None, reason: str) -> None:
        self.phase = "over"
        self.winner = winner
        self.reason = reason
        self.to_move = None
        self.pending.clear()

    # ----- turn flow (R-TURN) --------------------------------------------------------
    def _start_turn(self, player: int) -> None:
        self.turn += 1
        self.turn_player = player
        self.to_move = player
        self.ap_spent = 0
        if not self.side_cards(player):  # R-TURN-2 / R-END-2
            self.ap = 0
            self._finish(1 - player, "no_cards")
            return
        # R-TURN-3
        self.ap = FIGURE_AP if self.figure_column(player) is not None else self.non_empty_columns(player)
        self._settle()

    def _settle(self) -> None:
        """After every move: ask for a pending decision, pass the turn when AP are
        spent (R-TURN-8), or end the game when the player to move is stuck (R-END-1)."""

        if self.is_over or self.phase == "setup":
            return
        if self.pending:
            self.to_move = None if self.pending[0].kind == "chance" else self.pending[0].player
            return
        if self.ap == 0:
            if self.turn >= self.game.variants.turn_limit:  # R-TURN-7
                self._finish(None, "turn_limit")
                return
            self._start_turn(1 - self.turn_player)
            return
        self.to_move = self.turn_player
        if not self.game.rules.legal_moves(self):  # R-TURN-5 / R-END-1
            self._finish(1 - self.turn_player, "no_action")

    # ----- convenience API (python-chess style) --------------------------------------
    def legal_moves(self) -> list[Move]:
        return self.game.rules.legal_moves(self)

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return self.game.rules.chance_outcomes(self)

    def push(self, move: Move) -> None:
        """Play a move (or chance result); raises IllegalMoveError and leaves the state
        untouched when it is not legal here."""
        self.game.rules.apply(self, move)

    def push_text(self, text: str) -> Move:
        move = self.game.parse_move(text)
        self.push(move)
        return move

    # ----- hzai.core.State -------------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        return self.to_move

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def apply(self, move: Move) -> None:
        self.push(move)

    def returns(self) -> tuple[float, float]:
        if self.phase != "over":
            return (0.0, 0.0)
        if self.winner is None:
            return (0.5, 0.5)
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)

    def clone(self) -> "State":
        return self.copy()

    @property
    def player_to_move(self) -> str | None:
        return None if self.to_move is None else PLAYERS[self.to_move]

    def column_has_room(self, side: int, col: int) -> bool:
        return len(self.columns[side][col]) < COLUMN_DEPTH
