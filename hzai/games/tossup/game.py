"""The rules of Toss-up (README.md beside this file): the Game, its State and View.
They import nothing of the game's other parts (parts.py, native/)."""

from __future__ import annotations

from hzai.core import Game, State, View
from hzai.rng import SplitMix64

# The moves by action id: the seats' moves, then the coin's two faces (chance outcomes).
MOVES = ("fold", "bet", "call", "guess 1", "guess 2", "guess 3", "heads", "tails")
GUESSES = MOVES[3:6]
COIN = MOVES[6:]
CARDS = 3  # each seat's card is 1..CARDS


class TossupGame(Game):
    name = "tossup"
    seats = ("first", "second")
    num_actions = len(MOVES)

    def new_state(self, seed: int) -> "TossupState":
        rng = SplitMix64(seed)
        return TossupState(self, (1 + rng.below(CARDS), 1 + rng.below(CARDS)))

    def parse_move(self, text: str) -> str:
        if text not in MOVES:
            raise ValueError(f"{text!r} is not a move of {self.name}: write one of {', '.join(MOVES)}")
        return text

    def action_of(self, move: str) -> int:
        return MOVES.index(self.parse_move(move))

    def move_of(self, action: int) -> str:
        if not isinstance(action, int) or not 0 <= action < len(MOVES):
            raise ValueError(f"action id {action!r} is not one of {self.name}'s 0..{len(MOVES) - 1}")
        return MOVES[action]


def make(**params) -> TossupGame:
    """The factory the registry finds by this game's folder (hzai.core.registry); the
    game has no parameters."""
    if params:
        raise ValueError(f"tossup has no parameters, not {', '.join(sorted(params))}")
    return TossupGame()


class TossupState(State):
    def __init__(self, game: TossupGame, cards: tuple[int, int], history: tuple[str, ...] = ()):
        self.game, self.cards, self.history = game, tuple(cards), tuple(history)

    @property
    def current_seat(self) -> int | None:
        return None if self.is_terminal or self.is_chance else len(self.history)

    @property
    def is_chance(self) -> bool:
        return self.history[-1:] == ("call",) and self.cards[0] == self.cards[1]

    @property
    def is_terminal(self) -> bool:
        if not self.history:
            return False
        last = self.history[-1]
        return last != "bet" and not self.is_chance

    def legal_moves(self) -> list[str]:
        if self.is_terminal or self.is_chance:
            return []
        return ["fold", "bet", *GUESSES] if not self.history else ["fold", "call", *GUESSES]

    def apply(self, move: str) -> None:
        legal = [m for m, _ in self.chance_outcomes()] if self.is_chance else self.legal_moves()
        if move not in legal:
            raise ValueError(f"{move!r} is not legal here; legal: {', '.join(legal) or 'nothing (the game is over)'}")
        self.history += (move,)

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return [(face, 0.5) for face in COIN] if self.is_chance else []

    def returns(self) -> tuple[float, float]:
        if not self.is_terminal:
            return (0.0, 0.0)
        last = self.history[-1]
        if last in COIN:  # equal cards called: heads the first seat wins, tails the second
            return (1.0, 0.0) if last == "heads" else (0.0, 1.0)
        if last == "call":
            return (1.0, 0.0) if self.cards[0] > self.cards[1] else (0.0, 1.0)
        seat = len(self.history) - 1  # the seat that moved last: a fold or a guess
        won = last in GUESSES and int(last[-1]) == self.cards[1 - seat]
        mine = 1.0 if won else 0.0
        return (mine, 1.0 - mine) if seat == 0 else (1.0 - mine, mine)

    def clone(self) -> "TossupState":
        return TossupState(self.game, self.cards, self.history)

    def view(self, seat: int) -> "TossupView":
        return TossupView(self.game, seat, self.cards[seat], self.history)

    def to_json(self) -> dict:
        return {"cards": list(self.cards), "history": list(self.history)}


def other_cards(card: int, history: tuple[str, ...]) -> list[int]:
    """The other seat's cards consistent with a seat's own card and the moves: equal after
    a toss, different after a call with no toss, any card before."""
    if any(m in COIN for m in history):
        return [card]
    if history[-1:] == ("call",):
        return [c for c in range(1, CARDS + 1) if c != card]
    return list(range(1, CARDS + 1))


class TossupView(View):
    """A seat's own card and the moves so far (every move is public); never the other card."""

    def __init__(self, game: TossupGame, seat: int, card: int, history: tuple[str, ...]):
        self.game, self._seat, self.card, self.history = game, seat, card, tuple(history)

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def current_seat(self) -> int | None:
        return self.sample(0).current_seat  # the same in every state the view allows

    def legal_moves(self) -> list[str]:
        return self.sample(0).legal_moves()

    def to_json(self) -> dict:
        return {"seat": self.game.seats[self._seat], "card": self.card, "history": list(self.history)}

    def sample(self, seed: int) -> TossupState:
        """The other card drawn uniformly among those the moves allow (other_cards)."""
        choices = other_cards(self.card, self.history)
        return self._state(choices[SplitMix64(seed).below(len(choices))])

    def _state(self, other: int) -> TossupState:
        cards = (self.card, other) if self._seat == 0 else (other, self.card)
        return TossupState(self.game, cards, self.history)
