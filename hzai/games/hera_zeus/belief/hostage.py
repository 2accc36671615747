"""Where the opponent's hostage is, in a few numbers: the belief a game review carries
at each decision (the `review_belief` hook of the Game, used by hzai.search.review)."""

from __future__ import annotations

from hzai.games.hera_zeus.belief.inference import DEFAULT_TEMPERATURE, slot_log_factors
from hzai.games.hera_zeus.belief.report import belief_report, exact_hostage_locations
from hzai.games.hera_zeus.belief.view import View
from hzai.games.hera_zeus.cards import PLAYERS

SAMPLES = 400  # determinizations where the closed form does not apply
GROUPS = ("deck", "hand", "field", "discard")


def group_of(where: str) -> str:
    """deck, hand and discard as they are; face up and every face-down slot: field."""
    return where if where in ("deck", "hand", "discard") else "field"


def _grouped(locations: dict[str, float]) -> dict[str, float]:
    groups = {name: 0.0 for name in GROUPS}
    for where, p in locations.items():
        groups[group_of(where)] += p
    return groups


def hostage_belief(view: View, seed: int = 0, samples: int = SAMPLES, temperature: float = DEFAULT_TEMPERATURE) -> dict:
    """The opponent's hostage by location (deck, hand, discard, face up, each face-down
    slot cXrY) and the same grouped as deck / hand / field / discard, from the view of
    `view.observer`. Uniform over the worlds consistent with the view: exact where the
    view gives the odds in closed form, else over `samples` determinizations drawn
    with `seed`. `inferred`: the same weighed by the opponent model (belief/inference.py;
    equal to the uniform one when the opponent has no face-down cards to judge)."""
    game = view.game
    deck = game.deck
    card = deck.cards[deck.hostage_id[1 - view.observer]].name
    locations = exact_hostage_locations(view, deck)
    exact = locations is not None
    informed = bool(slot_log_factors(view, temperature))
    report = belief_report(view, samples, seed, temperature) if not exact or informed else None
    if not exact:
        locations = {row["where"]: row["probability"] for row in report["hostage"]["locations"]}
    locations = {where: p for where, p in sorted(locations.items()) if p > 0}
    if report is not None and informed:
        inferred = {row["where"]: row["inferred"] for row in report["hostage"]["locations"]}
        inferred = {where: p for where, p in sorted(inferred.items()) if p > 0}
        effective = report["inference"]["effective_samples"]
    else:
        inferred, effective = dict(locations), None
    return {"card": card, "observer": PLAYERS[view.observer], "exact": exact, "samples": 0 if exact else samples,
            "locations": locations, "groups": _grouped(locations),
            "inferred": {"temperature": temperature, "samples": 0 if report is None else samples,
                         "effective_samples": effective, "locations": inferred, "groups": _grouped(inferred)}}
