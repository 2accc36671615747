"""State: one position of a game, chance and end included."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from hzai.core.game import Game, Move

if TYPE_CHECKING:
    from hzai.core.view import View


class State(ABC):
    """A full position. `current_seat` is None at chance and at the end; moves and
    chance outcomes are applied alike (`apply`), by value or by action id."""

    game: Game

    @property
    @abstractmethod
    def current_seat(self) -> int | None: ...

    @property
    @abstractmethod
    def is_chance(self) -> bool: ...

    @property
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """The moves of the seat to act (empty at chance and at the end)."""

    def legal_actions(self) -> list[int]:
        return [self.game.action_of(m) for m in self.legal_moves()]

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Play a legal move or a possible chance outcome; the game's error otherwise,
        and the state is left as it was."""

    def apply_action(self, action: int) -> None:
        self.apply(self.game.move_of(action))

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """(outcome, probability) at a chance state; empty elsewhere."""

    def chance_outcomes_actions(self) -> list[tuple[int, float]]:
        return [(self.game.action_of(m), p) for m, p in self.chance_outcomes()]

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Per seat: win 1, draw 0.5, loss 0 (a cooperative game gives every seat the
        team's result); all 0 before the end."""

    @abstractmethod
    def clone(self) -> "State": ...

    def view(self, seat: int) -> "View":
        """What `seat` knows here, nothing more: made by the game's search support
        (`game.search.view_of`), so that the rules need not know the views. A game
        whose State makes its views itself overrides this."""
        return self.game.search.view_of(self, seat)
