"""Hera and Zeus' presentation (game.presentation): its title and parameters, narration,
the board picture, the referee's JSON and the belief reports. The package assembles it
into the Game (hzai/games/hera_zeus/__init__.py); everything here is read from the
modules that already know it."""

from __future__ import annotations

from hzai.core.presentation import Presentation
from hzai.games.hera_zeus import narrate, render
from hzai.games.hera_zeus.belief import belief_report, format_report
from hzai.games.hera_zeus.belief.hostage import hostage_belief
from hzai.games.hera_zeus.belief.inference import check_temperature
from hzai.games.hera_zeus.records import TRUSTED_DECKS
from hzai.games.hera_zeus.rules.record import state_to_json
from hzai.games.hera_zeus.rules.variants import MAX_TURN_LIMIT, VARIANT_CHOICES
from hzai.text import quoted

try:  # the learned model's estimates run on the native core; only without a built core are they missing
    from hzai.games.hera_zeus.learned import hostage_estimates
except ImportError:  # pragma: no cover - only without a built core
    hostage_estimates = None


class HeraZeusPresentation(Presentation):
    """The presentation part of Hera and Zeus."""

    title = "Hera and Zeus"

    @property
    def params_help(self) -> str:
        keys = [f"{name}: {' | '.join(choices)}" for name, choices in VARIANT_CHOICES.items()]
        return "a JSON object, every key optional: " + "; ".join(keys) + f"; turn_limit: 1..{MAX_TURN_LIMIT} (200)"

    def with_params(self, params: dict):
        """The game with these variants; the deck is the built-in one (a request may not
        name a deck file)."""
        if not isinstance(params, dict):
            raise ValueError("the parameters must be a JSON object")
        params = dict(params)
        if "deck" in params:
            deck = params.pop("deck")
            if deck not in TRUSTED_DECKS:
                raise ValueError(f"deck: only the 'classic' deck is played here, not {quoted(deck)}")
        return type(self.game).create({**self.game.variants.to_dict(), **params})

    def narrate(self, before, move, after, seat: int | None) -> list[str]:
        return narrate.narrate(before, move, after, seat)

    def board_text(self, state, seat: int) -> str:
        return render.render(state, seat)

    def referee_text(self, state) -> str:
        return render.render(state, None)

    def end_reason(self, state) -> str:
        return state.reason or ""

    def state_to_json(self, state) -> dict:
        return state_to_json(state)

    def belief_text(self, report: dict) -> str:
        return format_report(report)

    def belief_report(self, view, samples: int, seed: int, temperature: float | None = None) -> dict:
        return belief_report(view, samples, seed, check_temperature(temperature), learned=hostage_estimates)

    @staticmethod
    def review_belief(view, seed: int) -> dict:
        """Where the opponent's hostage is, as seen from `view`."""
        return hostage_belief(view, seed)
