"""View: the information set of one seat."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from hzai.core.game import Game, Move

if TYPE_CHECKING:
    from hzai.core.state import State


class View(ABC):
    """What one seat knows. Bots decide from a View only; `sample` draws one full
    State consistent with it (a determinization), the same one for the same seed."""

    game: Game  # the static Game object itself (not a name to rebuild it from)
    # True only for a benchmark's view that is the whole state (hzai.search.arena.AllSeeingView).
    # Declared here so that asking it never reaches a view's fallback lookup (a native
    # decision view would replay its record in Python to answer).
    all_seeing: bool = False

    @property
    @abstractmethod
    def seat(self) -> int: ...

    @property
    @abstractmethod
    def current_seat(self) -> int | None: ...

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """The moves of the seat to act; they follow from what that seat sees."""

    def legal_actions(self) -> list[int]:
        return [self.game.action_of(m) for m in self.legal_moves()]

    @abstractmethod
    def to_json(self) -> dict: ...

    @abstractmethod
    def sample(self, seed: int) -> "State": ...

    def history_mark(self) -> tuple[int, str | None] | None:
        """How far the game has gone as this seat saw it: (the moves and chance results
        played so far, the text of the last one when this seat made it, else None).
        Every move is seen happening even when its content is hidden, so the count is
        the seat's to know. A searching bot compares two marks to tell that nothing but
        its own move came between two of its decisions (tree reuse, hzai.search).
        Default None: not known (such as a Hera and Zeus view read back from JSON, which
        carries no history), and no reuse."""
        return None

    def turn_progress(self) -> tuple[int, int] | None:
        """Where this seat stands in its own turn, when the decision is one of the
        turn's actions: (actions taken so far this turn, actions still to take), both
        public at the table. A searching bot may split a turn's budget over its
        decisions by it (option split, hzai.search). Default None: the game has no
        such count, or this decision is not one of the turn's actions."""
        return None


class WeightedView(View):
    """`base` with other determinizations: a game's view whose worlds a model weighs (an
    opponent model, a card model). Everything but `sample` is the base's; a subclass sets
    what it adds in `__init__` and says how it draws (`sample`). Attributes it does not
    set are read from the base."""

    OWN = ("base", "game")  # attributes a subclass sets itself (extended by it)

    def __init__(self, base: View):
        self.base = base
        self.game = base.game

    @property
    def seat(self) -> int:
        return self.base.seat

    @property
    def current_seat(self) -> int | None:
        return self.base.current_seat

    def legal_moves(self) -> list[Move]:
        return self.base.legal_moves()

    def to_json(self) -> dict:
        return self.base.to_json()

    def history_mark(self) -> tuple[int, str | None] | None:
        return self.base.history_mark()

    def turn_progress(self) -> tuple[int, int] | None:
        return self.base.turn_progress()

    def __getattr__(self, name: str):
        if name.startswith("__") or name in type(self).OWN:
            raise AttributeError(name)
        return getattr(self.base, name)
