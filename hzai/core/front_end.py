"""FrontEnd: what a front end (the service, the command line, the terminal game) shows
of a game: its title and parameters, the words and pictures a player is shown, and the
optional belief hooks (capabilities belief_report, review_belief). A part of
hzai.core.Game, with defaults for a game that has only the basics; everything here
reads the game's own objects, and nothing names a transport."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hzai.core.game import Game, Move
    from hzai.core.state import State
    from hzai.core.view import View


class FrontEnd:
    """The front-end hooks of a Game, with their defaults."""

    @property
    def title(self) -> str:
        """The game's name for people."""
        return self.name.replace("_", " ").capitalize()

    @property
    def params_help(self) -> str:
        """The parameters `with_params` takes, for people."""
        if not self.params:
            return "this game takes no parameters"
        return "a JSON object; parameters and their defaults: " + json.dumps(self.params, sort_keys=True)

    def with_params(self, params: dict) -> "Game":
        """This game with other parameters (from anyone: a request). ValueError naming a
        key this game does not take; the game's own checks name a bad value. By default
        the registered factory makes it (`make_game(name, **params)`)."""
        if not isinstance(params, dict):
            raise ValueError("the parameters must be a JSON object")
        unknown = sorted(str(k) for k in params if k not in self.params)
        if unknown:
            allowed = ", ".join(sorted(self.params)) or "none"
            raise ValueError(f"unknown parameter {unknown[0][:60]!r}; {self.name} takes: {allowed}")
        if not params:
            return self
        from hzai.core.registry import make_game

        return make_game(self.name, **{**self.params, **params})

    # What `hzai new` writes when told neither --deal nor --seed-only: the seed alone
    # (`seed_record`) when True, else the record with the deal written out (`new_record`).
    new_record_keeps_seed: bool = False

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
        return "\n\n".join(f"{name}:\n{self.board_text(state, seat)}" for seat, name in enumerate(self.seats))

    def result_text(self, state: "State") -> str:
        """The end in words ("" before it)."""
        if not state.is_terminal:
            return ""
        returns = state.returns()
        if self.capabilities.cooperative:
            return "won" if returns and returns[0] >= 1 else ("lost" if not returns or returns[0] <= 0 else "drawn")
        best = max(returns)
        winners = [self.seats[i] for i, r in enumerate(returns) if r == best]
        return "draw" if len(winners) != 1 else f"{winners[0]} wins"

    def end_reason(self, state: "State") -> str:
        """Why the game ended, a short word ("" when the game does not say)."""
        return ""

    def state_to_json(self, state: "State") -> dict:
        """The referee's picture of `state` as JSON (by default every seat's view)."""
        return {"views": [state.view(seat).to_json() for seat in range(len(self.seats))]}

    # ----- capability belief_report ----------------------------------------------------------
    def belief_report(self, view: "View", samples: int, seed: int, temperature: float | None = None) -> dict:
        """Where the hidden information probably is, from `view`, as JSON. `temperature`:
        the opponent model's (capability opponent_model) for what it infers; None: the
        game's default. ValueError naming it when out of range."""
        raise self.missing("belief_report", "Game.belief_report is not offered")

    def belief_text(self, report: dict) -> str:
        """`belief_report`'s answer in words (hzai belief's text); by default one entry a
        line, as JSON."""
        return "\n".join(f"{key}: {json.dumps(value)}" for key, value in report.items()
                          if key not in ("observer", "samples", "seed"))

    # ----- capability review_belief ----------------------------------------------------------
    def review_belief(self, view: "View", seed: int) -> dict:
        """What the seat believes at a reviewed decision, as JSON values (hzai.search.review,
        `belief=True`; docs/analysis.md)."""
        raise self.missing("review_belief", "Game.review_belief is not offered")
