"""Where the opponent's hostage is, in a few numbers: the belief a game review carries
at each decision (the `review_belief` hook of the Game, used by hzai.search.review)."""

from __future__ import annotations

from hzai.games.hera_zeus.belief.report import belief_report, exact_hostage_locations
from hzai.games.hera_zeus.belief.view import View

SAMPLES = 400  # determinizations where the closed form does not apply
GROUPS = ("deck", "hand", "field", "discard")


def group_of(where: str) -> str:
    """deck, hand and discard as they are; face up and every face-down slot: field."""
    return where if where in ("deck", "hand", "discard") else "field"


def hostage_belief(view: View, seed: int = 0, samples: int = SAMPLES) -> dict:
    """The opponent's hostage by location (deck, hand, discard, face up, each face-down
    slot cXrY) and the same grouped as deck / hand / field / discard. Exact where the
    view gives the odds in closed form, else over `samples` determinizations drawn
    with `seed`."""
    game = view.game
    deck = game.deck
    card = deck.cards[deck.hostage_id[1 - view.observer]].name
    locations = exact_hostage_locations(view, deck)
    exact = locations is not None
    if not exact:
        report = belief_report(view, samples, seed)
        locations = {row["where"]: row["probability"] for row in report["hostage"]["locations"]}
    locations = {where: p for where, p in sorted(locations.items()) if p > 0}
    groups = {name: 0.0 for name in GROUPS}
    for where, p in locations.items():
        groups[group_of(where)] += p
    return {"card": card, "exact": exact, "samples": 0 if exact else samples, "locations": locations,
            "groups": groups}
