"""A second toy game, cooperative and for three seats, to show that a team game with
more than two seats plugs into the core and is served like any other.

"Count the team": each of seats a, b, c holds a hidden card 0 or 1 (dealt by the seed).
Seats a and b in turn either show their card to everybody or keep it hidden; then seat
c guesses the total of the three cards. A right guess wins for the whole team. Moves:
show, keep, guess 0..3.
"""

from __future__ import annotations

from hzai.core import Game, State, View, assemble
from hzai.rng import SplitMix64

MOVES = ("show", "keep", "guess 0", "guess 1", "guess 2", "guess 3")
SEATS = ("a", "b", "c")


class TeamGame(Game):
    name = "toy_team"
    seats = SEATS
    num_actions = len(MOVES)
    # the cards are dealt by the seed, every move is shown to all; the team shares its result

    def new_state(self, seed: int) -> "TeamState":
        rng = SplitMix64(seed)
        return TeamState(self, tuple(rng.below(2) for _ in SEATS))

    def parse_move(self, text: str) -> str:
        if text not in MOVES:
            raise ValueError(f"{text!r} is not a move of {self.name}: write one of {', '.join(MOVES)}")
        return text

    def action_of(self, move: str) -> int:
        return MOVES.index(self.parse_move(move))

    def move_of(self, action: int) -> str:
        return MOVES[action]


assemble(TeamGame, cooperative=True, public_moves=True)  # one team's result for every seat; every move is shown to all


class TeamState(State):
    def __init__(self, game: TeamGame, cards: tuple[int, ...], history: tuple[str, ...] = ()):
        self.game, self.cards, self.history = game, cards, history

    @property
    def current_seat(self):
        return None if self.is_terminal else len(self.history)

    @property
    def is_chance(self) -> bool:
        return False

    @property
    def is_terminal(self) -> bool:
        return len(self.history) == len(SEATS)

    def legal_moves(self) -> list[str]:
        if self.is_terminal:
            return []
        return ["show", "keep"] if len(self.history) < 2 else list(MOVES[2:])

    def apply(self, move: str) -> None:
        if move not in self.legal_moves():
            raise ValueError(f"{move!r} is not legal here; legal: {', '.join(self.legal_moves())}")
        self.history += (move,)

    def chance_outcomes(self):
        return []

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal:
            return (0.0,) * len(SEATS)
        won = int(self.history[-1][-1]) == sum(self.cards)
        return (1.0 if won else 0.0,) * len(SEATS)

    def clone(self) -> "TeamState":
        return TeamState(self.game, self.cards, self.history)

    def view(self, seat: int) -> "TeamView":
        known = {s: self.cards[s] for s in range(len(SEATS)) if s == seat or self._shown(s)}
        return TeamView(self.game, seat, known, self.history)

    def _shown(self, seat: int) -> bool:
        return seat < len(self.history) and self.history[seat] == "show"


class TeamView(View):
    """A seat's own card, the cards shown, and the moves so far."""

    def __init__(self, game: TeamGame, seat: int, known: dict[int, int], history: tuple[str, ...]):
        self.game, self._seat, self.known, self.history = game, seat, known, history

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def current_seat(self):
        return None if len(self.history) == len(SEATS) else len(self.history)

    def legal_moves(self) -> list[str]:
        return self.sample(0).legal_moves()

    def to_json(self) -> dict:
        return {"seat": SEATS[self._seat], "known": {SEATS[s]: c for s, c in sorted(self.known.items())},
                "history": list(self.history)}

    def sample(self, seed: int) -> TeamState:
        """Every card not known drawn uniformly: nothing played depends on it."""
        rng = SplitMix64(seed)
        cards = tuple(self.known[s] if s in self.known else rng.below(2) for s in range(len(SEATS)))
        return TeamState(self.game, cards, self.history)
