"""Game: the part of a game that never changes while it is played."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Hashable

if TYPE_CHECKING:
    from hzai.core.state import State

# A move is whatever value the game uses for one (hashable, comparable for equality);
# the core only passes it between the game and the algorithms. Action ids are the dense
# integer form of the same moves: 0 <= id < Game.num_actions.
Move = Hashable


class Game(ABC):
    """The static game: its name, seats, action space, notation, record codec and, where
    the game has a C++ twin, the native handle the generic native search runs on."""

    name: str
    seats: tuple[str, ...]

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Action ids are 0..num_actions-1, chance outcomes included."""

    @property
    def params(self) -> dict[str, Any]:
        """The variant settings this game was made with (plain JSON values)."""
        return {}

    @abstractmethod
    def new_state(self, seed: int) -> "State":
        """The start of a game; `seed` draws whatever the deal leaves to chance."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move a notation text names; the game's NotationError (a ValueError)
        quotes the input when it names none."""

    def move_text(self, move: Move) -> str:
        return str(move)

    @abstractmethod
    def action_of(self, move: Move) -> int: ...

    @abstractmethod
    def move_of(self, action: int) -> Move: ...

    def record_from_json(self, data: dict):
        """A game record read from its JSON form (the game's own record type)."""
        raise NotImplementedError(f"game {self.name} has no record format")

    def record_to_json(self, record) -> dict:
        raise NotImplementedError(f"game {self.name} has no record format")

    @property
    def native(self):
        """The native game handle the C++ search runs on, or None: the generic native
        search then calls this Python game back (hzai/native/py_game.hpp)."""
        return None

    # ----- optional, for the generic bots ---------------------------------------------
    def native_view(self, view):
        """The view in the typed form the native twin's search reads (with `native`)."""
        raise NotImplementedError(f"game {self.name} has no native twin")

    def heuristic_scores(self, view, moves: list[Move]) -> list[float]:
        """Rule-of-thumb scores of `moves` (higher is better), for the heuristic bot."""
        raise NotImplementedError(f"game {self.name} has no heuristic policy")

    def seat_index(self, seat: str | int) -> int:
        """A seat by name or number; ValueError naming the seats otherwise."""
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.seats):
            return seat
        if isinstance(seat, str) and seat in self.seats:
            return self.seats.index(seat)
        raise ValueError(f"seat must be one of {', '.join(self.seats)}, not {seat!r}")
