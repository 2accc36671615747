"""What a front end (the gRPC service) needs of Hera and Zeus beyond the search's
interface: the hzai.core.Game hooks for parameters, records, replays, what a seat sees of
a move, narration, the board picture and the referee's JSON. Mixed into the Game
(rules/game.py); everything here is read from the modules that already know it. The two
hooks that make Records (read_record, new_record) sit in rules/game.py beside Record."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hzai.core.record import NoDecision, Observed
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.text import quoted

if TYPE_CHECKING:
    from hzai.games.hera_zeus.rules.game import Game
    from hzai.games.hera_zeus.rules.state import State

# A deck is a file path to the library; input from anyone may only name the built-in one.
TRUSTED_DECKS = ("classic",)


def check_deck(deck) -> None:
    """RecordError unless `deck` names the built-in deck (input from anyone)."""
    from hzai.games.hera_zeus.rules.record import RecordError

    if deck not in TRUSTED_DECKS:
        raise RecordError(f"deck: only the {', '.join(map(repr, TRUSTED_DECKS))} deck is played here, not {quoted(deck)}",
                          field="deck")


class ServiceHooks:
    """The front-end hooks of hzai.core.Game for Hera and Zeus (a mixin of its Game)."""

    @property
    def title(self) -> str:
        return "Hera and Zeus"

    @property
    def record_format(self) -> str:
        from hzai.games.hera_zeus.rules.record import RECORD_FORMAT

        return RECORD_FORMAT

    @property
    def max_record_moves(self: "Game") -> int:
        from hzai.games.hera_zeus.rules.record import max_record_moves

        return max_record_moves(self.variants.turn_limit)

    @property
    def params_help(self) -> str:
        from hzai.games.hera_zeus.rules.variants import MAX_TURN_LIMIT, VARIANT_CHOICES

        keys = [f"{name}: {' | '.join(choices)}" for name, choices in VARIANT_CHOICES.items()]
        return "a JSON object, every key optional: " + "; ".join(keys) + f"; turn_limit: 1..{MAX_TURN_LIMIT} (200)"

    def with_params(self: "Game", params: dict) -> "Game":
        """The game with these variants; the deck is the built-in one (a request may not
        name a deck file)."""
        if not isinstance(params, dict):
            raise ValueError("the parameters must be a JSON object")
        params = dict(params)
        if "deck" in params:
            deck = params.pop("deck")
            if deck not in TRUSTED_DECKS:
                raise ValueError(f"deck: only the 'classic' deck is played here, not {quoted(deck)}")
        return type(self).create({**self.variants.to_dict(), **params})

    def play_recorded(self, state: "State", index: int, text: str) -> None:
        from hzai.games.hera_zeus.rules.record import push_recorded

        push_recorded(state, index, text)

    def decision_view(self, state: "State"):
        if state.is_over or state.is_chance:
            raise NoDecision(no_decision_reason(state))
        return state.view(state.to_move)

    def observed(self, before: "State", move, seat: int | None) -> Observed:
        from hzai.games.hera_zeus.rules.observed import seen_move

        seen = seen_move(before, move, seat)
        return Observed(seen.text, seen.redacted)

    def narrate(self, before: "State", move, after: "State", seat: int | None) -> list[str]:
        from hzai.games.hera_zeus.narrate import narrate

        return narrate(before, move, after, seat)

    def board_text(self, state: "State", seat: int) -> str:
        from hzai.games.hera_zeus.render import render

        return render(state, seat)

    def belief_text(self, report: dict) -> str:
        from hzai.games.hera_zeus.belief import format_report

        return format_report(report)

    def referee_text(self, state: "State") -> str:
        from hzai.games.hera_zeus.render import render

        return render(state, None)

    def end_reason(self, state: "State") -> str:
        return state.reason or ""

    def state_to_json(self, state: "State") -> dict:
        from hzai.games.hera_zeus.rules.record import state_to_json

        return state_to_json(state)

    def belief_report(self, view, samples: int, seed: int, temperature: float | None = None) -> dict:
        from hzai.games.hera_zeus.belief import belief_report
        from hzai.games.hera_zeus.belief.inference import check_temperature

        return belief_report(view, samples, seed, check_temperature(temperature), learned=True)


def no_decision_reason(state) -> str:
    """Why no seat decides in `state` (over, or chance next), as the service says it."""
    if state.is_over:
        winner = "a draw" if state.winner is None else f"{PLAYERS[state.winner]} wins"
        return f"the game is over ({winner}, {state.reason}); there is no move to decide"
    return "the next event is chance (the card drawn by 'pegasus hand'): add 'chance CARD' first"
