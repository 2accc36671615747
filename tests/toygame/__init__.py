"""A toy game that lives only in the tests, to show a game plugs into hzai.core and is
searched and refereed by the shared code (hzai.search) with no C++ twin.

"Guess or bet": each of two seats holds one hidden card 1..3 (dealt by the seed). The
first seat folds, bets, or guesses the other's card; after a bet the second seat folds,
calls (the higher card wins, equal cards draw), or guesses. A right guess wins, a wrong
one loses; a fold loses. Moves are their texts: fold, bet, call, guess 1..3.
"""

from __future__ import annotations

from hzai.core import Game, State, View, assemble
from hzai.rng import SplitMix64

MOVES = ("fold", "bet", "call", "guess 1", "guess 2", "guess 3")
GUESSES = MOVES[3:]


class ToyGame(Game):
    name = "toy_guess"
    seats = ("first", "second")
    num_actions = len(MOVES)

    def new_state(self, seed: int) -> "ToyState":
        rng = SplitMix64(seed)
        return ToyState(self, (1 + rng.below(3), 1 + rng.below(3)))

    def parse_move(self, text: str) -> str:
        if text not in MOVES:
            raise ValueError(f"{text!r} is not a move of {self.name}: write one of {', '.join(MOVES)}")
        return text

    def action_of(self, move: str) -> int:
        return MOVES.index(self.parse_move(move))

    def move_of(self, action: int) -> str:
        return MOVES[action]


assemble(ToyGame, public_moves=True)  # the cards are dealt by the seed; every move is shown to all


class ToyState(State):
    def __init__(self, game: ToyGame, cards: tuple[int, int], history: tuple[str, ...] = ()):
        self.game, self.cards, self.history = game, cards, history

    @property
    def current_seat(self):
        return None if self.is_terminal else len(self.history)

    @property
    def is_chance(self) -> bool:
        return False

    @property
    def is_terminal(self) -> bool:
        return bool(self.history) and (self.history[-1] != "bet")

    def legal_moves(self) -> list[str]:
        if self.is_terminal:
            return []
        return ["fold", "bet", *GUESSES] if not self.history else ["fold", "call", *GUESSES]

    def apply(self, move: str) -> None:
        if move not in self.legal_moves():
            raise ValueError(f"{move!r} is not legal here; legal: {', '.join(self.legal_moves())}")
        self.history += (move,)

    def chance_outcomes(self):
        return []

    def returns(self) -> tuple[float, float]:
        if not self.is_terminal:
            return (0.0, 0.0)
        last, seat = self.history[-1], len(self.history) - 1  # the seat that moved last
        if last == "call":
            a, b = self.cards
            return (0.5, 0.5) if a == b else ((1.0, 0.0) if a > b else (0.0, 1.0))
        won = last.startswith("guess") and int(last[-1]) == self.cards[1 - seat]
        mine = 1.0 if won else 0.0
        return (mine, 1.0 - mine) if seat == 0 else (1.0 - mine, mine)

    def clone(self) -> "ToyState":
        return ToyState(self.game, self.cards, self.history)

    def view(self, seat: int) -> "ToyView":
        return ToyView(self.game, seat, self.cards[seat], self.history)


class ToyView(View):
    """A seat's own card and the moves so far; never the other card."""

    def __init__(self, game: ToyGame, seat: int, card: int, history: tuple[str, ...]):
        self.game, self._seat, self.card, self.history = game, seat, card, history

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def current_seat(self):
        return self._state(self.card).current_seat

    def legal_moves(self) -> list[str]:
        return self._state(self.card).legal_moves()

    def to_json(self) -> dict:
        return {"seat": self.game.seats[self._seat], "card": self.card, "history": list(self.history)}

    def sample(self, seed: int) -> ToyState:
        """The other card drawn uniformly: nothing played so far depends on it here."""
        return self._state(1 + SplitMix64(seed).below(3))

    def _state(self, other: int) -> ToyState:
        cards = (self.card, other) if self._seat == 0 else (other, self.card)
        return ToyState(self.game, cards, self.history)
