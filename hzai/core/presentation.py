"""Presentation: what a front end (the service, the command line, the terminal game) shows
of a game (game.presentation): its title and parameters, seats by name, the words and
pictures a player is shown, and the optional belief members (capabilities belief_report,
review_belief: present, or None). Defaults for a game that has only its rules; everything
here reads the game's own objects, and nothing names a transport."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable

from hzai.core.registry import make_game

if TYPE_CHECKING:
    from hzai.core.game import Game, Move
    from hzai.core.state import State
    from hzai.core.view import View


class Presentation:
    """A game's presentation part, with its defaults."""

    game: "Game"  # the game this is a part of

    def __init__(self, game: "Game"):
        self.game = game

    @property
    def title(self) -> str:
        """The game's name for people."""
        return self.game.name.replace("_", " ").capitalize()

    @property
    def params_help(self) -> str:
        """The parameters `with_params` takes, for people."""
        if not self.game.params:
            return "this game takes no parameters"
        return "a JSON object; parameters and their defaults: " + json.dumps(self.game.params, sort_keys=True)

    def with_params(self, params: dict) -> "Game":
        """The game with other parameters (from anyone: a request). ValueError naming a
        key the game does not take; the game's own checks name a bad value. By default
        the registered factory makes it (`make_game(name, **params)`)."""
        game = self.game
        if not isinstance(params, dict):
            raise ValueError("the parameters must be a JSON object")
        unknown = sorted(str(k) for k in params if k not in game.params)
        if unknown:
            allowed = ", ".join(sorted(game.params)) or "none"
            raise ValueError(f"unknown parameter {unknown[0][:60]!r}; {game.name} takes: {allowed}")
        if not params:
            return game
        return make_game(game.name, **{**game.params, **params})

    def seat_index(self, seat: str | int) -> int:
        """A seat by name or number; ValueError naming the seats otherwise."""
        seats = self.game.seats
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seats):
            return seat
        if isinstance(seat, str) and seat in seats:
            return seats.index(seat)
        raise ValueError(f"seat must be one of {', '.join(seats)}, not {seat!r}")

    # ----- words and pictures ------------------------------------------------------------
    def narrate(self, before: "State", move: "Move", after: "State", seat: int | None) -> list[str]:
        """What happened, in words, as `seat` saw it; none by default."""
        return []

    def board_text(self, state: "State", seat: int) -> str:
        """A text picture of `state` for `seat`, showing only what it may see."""
        return json.dumps(state.view(seat).to_json(), indent=2, sort_keys=True)

    def referee_text(self, state: "State") -> str:
        """A text picture of `state` with nothing hidden: what a front end shows once the
        game is over and its record is public. By default every seat's board in turn."""
        return "\n\n".join(f"{name}:\n{self.board_text(state, seat)}" for seat, name in enumerate(self.game.seats))

    def result_text(self, state: "State") -> str:
        """The end in words ("" before it)."""
        if not state.is_terminal:
            return ""
        returns = state.returns()
        if self.game.capabilities.cooperative:
            return "won" if returns and returns[0] >= 1 else ("lost" if not returns or returns[0] <= 0 else "drawn")
        best = max(returns)
        winners = [self.game.seats[i] for i, r in enumerate(returns) if r == best]
        return "draw" if len(winners) != 1 else f"{winners[0]} wins"

    def end_reason(self, state: "State") -> str:
        """Why the game ended, a short word ("" when the game does not say)."""
        return ""

    def state_to_json(self, state: "State") -> dict:
        """The referee's picture of `state` as JSON (by default every seat's view)."""
        return {"views": [state.view(seat).to_json() for seat in range(len(self.game.seats))]}

    def belief_text(self, report: dict) -> str:
        """`belief_report`'s answer in words (hzai belief's text); by default one entry a
        line, as JSON."""
        return "\n".join(f"{key}: {json.dumps(value)}" for key, value in report.items()
                          if key not in ("observer", "samples", "seed"))

    # ----- optional: a belief report (capability belief_report) --------------------------
    # belief_report(view, samples, seed, temperature=None) -> dict: where the hidden
    # information probably is, from `view`, as JSON; `temperature` is the opponent
    # model's (None: the game's default); ValueError naming it when out of range.
    belief_report: Callable[..., dict] | None = None
    # ----- optional: a belief summary at each reviewed decision (capability review_belief)
    # review_belief(view, seed) -> dict: what the seat believes there, as JSON values
    # (hzai.search.review, `belief=True`; docs/analysis.md).
    review_belief: Callable[["View", int], dict] | None = None
