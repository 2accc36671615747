"""Inference over determinizations: worlds weighted by what the opponent chose to do.

The sampler draws worlds uniformly among those consistent with the view (the hard
constraints). The opponent model here scores each world by how likely the opponent's
observed choices with its face-down cards (belief/evidence.py) are if that world is
the truth, and the belief and the search then weigh worlds by it (self-normalised
importance weights over a pool of uniform draws; the search resamples the pool).

The model is the heuristic's own measure, softened (docs/belief.md, "Inference"):
- a card played at row r: the opponent picked it with probability proportional to
  exp(play_score(card, r) / T), normalised over the owner's placeable cards, mixed with
  a uniform choice (weight EPSILON): the hostage is rarely played to the front;
- each card the opponent later put in front of a hidden card: the column was chosen
  with probability proportional to exp(PROTECT / T) if it hides the own hostage, else
  1, among the three columns (also mixed with EPSILON): a protected column is more
  likely the hostage's.
A setup card carries no play term (the hostage never starts in a hand). The model
factors over slots: each hidden slot gets a log factor per card name, and a world's
log-likelihood is the sum over slots of its card's factor. T is the temperature:
high T, nearly uniform; low T, the opponent plays like the heuristic.
"""

from __future__ import annotations

import math

from hzai.games.hera_zeus.belief.view import View
from hzai.games.hera_zeus.heuristic import play_score

MODEL = "heuristic softmax over the opponent's face-down plays"
DEFAULT_TEMPERATURE = 2.0  # the best of 1, 2, 3, 4, 6 on self-play seeds 7200-7239 (benchmarks/calibration.py)
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.05, 1000.0
EPSILON = 0.25  # the share of choices the model takes as uniform noise
PROTECT = 10.0  # heuristic points for playing in front of the own hidden hostage
POOL = 1000  # uniform worlds drawn, weighted and resampled for a search (at most)
MIN_POOL = 100  # the smallest pool, however few iterations the search runs


def pool_size(worlds: int | None) -> int:
    """The pool for a search that can use at most `worlds` determinizations (None: no
    bound): as many as it can use, within MIN_POOL..POOL. Drawing
    and weighting the pool costs about as much as that many iterations, so a fixed pool
    of POOL would cost a 200-iteration search several times its own time."""
    if worlds is None:
        return POOL
    return max(MIN_POOL, min(POOL, int(worlds)))


def check_temperature(temperature: float | None) -> float:
    """The temperature to use: DEFAULT_TEMPERATURE for None; ValueError out of range."""
    if temperature is None:
        return DEFAULT_TEMPERATURE
    t = float(temperature)
    if not math.isfinite(t) or not MIN_TEMPERATURE <= t <= MAX_TEMPERATURE:
        raise ValueError(f"temperature must be within {MIN_TEMPERATURE:g}..{MAX_TEMPERATURE:g}, not {temperature!r}")
    return t


def slot_log_factors(view: View, temperature: float = DEFAULT_TEMPERATURE) -> dict[tuple[int, int], dict[str, float]]:
    """For each hidden opponent slot the opponent played a card to, the log-likelihood
    factor of each card name of the opponent's deck being there (0 where the model
    says nothing). Setup cards are left out: the model says nothing of them."""
    t = check_temperature(temperature)
    deck = view.game.deck
    q = 1 - view.observer
    own = [card for card in deck.cards if card.owner == q]
    names = sorted({card.name for card in own})
    placeable = [card.type for card in own if card.type.placeable]
    hostage = deck.cards[deck.hostage_id[q]].name
    z = {row: sum(math.exp(play_score(ct, row) / t) for ct in placeable) / len(placeable) for row in range(1, 5)}
    protect = math.exp(PROTECT / t)
    cover = math.log((1 - EPSILON) * 3 * protect / (protect + 2) + EPSILON)
    out = {}
    for slot, placement in sorted(view.evidence.items()):
        if placement.setup:
            continue  # a setup card is never the hostage and carries no play term
        factors = {}
        for name in names:
            card_type = deck.type_named(name)
            f = 0.0
            if card_type.placeable:
                f = math.log((1 - EPSILON) * math.exp(play_score(card_type, placement.row) / t) / z[placement.row] + EPSILON)
            if name == hostage:
                f += placement.covered * cover
            factors[name] = f
        out[slot] = factors
    return out


def world_log_likelihood(world, view: View, factors: dict[tuple[int, int], dict[str, float]]) -> float:
    """log L(world): the sum over the slots with evidence of the factor of its card."""
    q = 1 - view.observer
    return sum(table[world.card(world.columns[q][c][r]).name] for (c, r), table in factors.items())


def normalised_weights(log_likelihoods: list[float]) -> list[float]:
    """Self-normalised importance weights (they sum to 1)."""
    if not log_likelihoods:
        return []
    top = max(log_likelihoods)
    w = [math.exp(x - top) for x in log_likelihoods]
    total = sum(w)
    return [x / total for x in w]


def effective_size(weights: list[float]) -> float:
    """Kish's effective sample size of normalised weights."""
    return 1.0 / sum(w * w for w in weights) if weights else 0.0
