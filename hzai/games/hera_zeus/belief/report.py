"""Where are the opponent's hidden cards, above all the hostage? (the belief report)"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Callable

from hzai.games.hera_zeus.belief.inference import (DEFAULT_TEMPERATURE, MODEL, effective_size, normalised_weights,
                                                   slot_log_factors, world_log_likelihood)
from hzai.games.hera_zeus.belief.sampler import Determinizer
from hzai.games.hera_zeus.belief.view import View
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.rng import SplitMix64
from hzai.text import plural


def _slot_name(c: int, r: int) -> str:
    return f"c{c + 1}r{r + 1}"


def exact_hostage_locations(view: View, deck) -> dict[str, float] | None:
    """The hostage's location probabilities computed from the view itself, where the
    model gives them in closed form (all that the sampler does, without sampling)."""
    q = 1 - view.observer
    hostage = deck.cards[deck.hostage_id[q]].name
    locations: dict[str, list] = defaultdict(list)  # group -> locations
    for c, column in enumerate(view.columns[q]):
        for r, s in enumerate(column):
            if s.card == (hostage, q):
                return {"face up" if s.face_up else _slot_name(c, r): 1.0}
            if s.group is not None:
                locations[s.group].append(_slot_name(c, r))
    if (hostage, q) in view.discards[q]:
        return {"discard": 1.0}
    for s in view.hands[q]:
        if s.group is not None:
            locations[s.group].append("hand")
    result: Counter = Counter()

    def spread(g: int, weight: float) -> None:
        for where in locations[g]:
            result[where] += weight / len(locations[g])

    def mixed(g: int) -> bool:
        """Field slots only take placeable cards, which weighs the draws (the sampler
        redraws misfits); the closed form covers groups without them."""
        return any(where != "hand" for where in locations[g])

    holders = [g for g, group in enumerate(view.groups) if group.owner == q and group.known.get(hostage)]
    if holders:
        if mixed(holders[0]) and "hand" in locations[holders[0]]:
            return None
        spread(holders[0], 1.0)
        return dict(result)
    eligible = {}
    for g, group in enumerate(view.groups):
        if group.owner != q:
            continue
        for count, excluded in group.wildcards:
            if excluded and hostage not in excluded:
                return None  # a restriction the closed form does not cover
        eligible[g] = sum(n for n, ex in group.wildcards if not ex)
        if eligible[g] and mixed(g):
            return None
    total = sum(eligible.values()) + view.deck_sizes[q]
    if total == 0:
        return None
    for g, e in eligible.items():
        if e:
            spread(g, e / total)
    if view.deck_sizes[q]:
        result["deck"] += view.deck_sizes[q] / total
    return dict(result)


def hostage_location(state, q: int) -> str:
    """Where side q's hostage is in a full state, as the report writes it."""
    hostage_id = state.deck.hostage_id[q]
    if hostage_id in state.hands[q]:
        return "hand"
    if hostage_id in state.decks[q]:
        return "deck"
    if hostage_id in state.discards[q]:
        return "discard"
    found = state.find_on_field(hostage_id)
    if found is None:
        return "elsewhere"
    _, c, r = found
    return "face up" if hostage_id in state.face_up else _slot_name(c, r)


HOSTAGE_CLASSES = ("deck", "hand", "discard", "face up")  # then c1r1 .. c3r4 (hz_learn.hpp)


def belief_report(view: View, samples: int = 2000, seed: int = 0, temperature: float = DEFAULT_TEMPERATURE,
                  learned: Callable | None = None) -> dict:
    """Over `samples` determinizations: the opponent's hostage by location, each
    opponent face-down slot's card distribution, and the expected hand. Each
    probability twice: `probability` counts the worlds alike (uniform over what is
    consistent with the view), `inferred` weighs them by the opponent model
    (belief/inference.py) at `temperature`; the same worlds for both. `learned` (the
    learned model's estimates, hzai.games.hera_zeus.learned.hostage_estimates, which
    the beliefs sit below): also the hostage head of the game's shipped model (`learned` beside each location,
    `learned_model` its id), where there is one and the observer is to move; and the same
    worlds weighted by the policy-based inference with that model (`policy` beside each
    location, `policy_inference` how: the opponent's decisions scored, the effective
    samples), where the view knows the game's history."""
    factors = slot_log_factors(view, temperature)
    determinizer = Determinizer(view)
    deck = determinizer.game.deck
    q = 1 - view.observer
    hostage_id = deck.hostage_id[q]
    hostage = deck.cards[hostage_id].name
    hidden_slots = [(c, r) for c, column in enumerate(view.columns[q]) for r, s in enumerate(column) if s.group is not None]
    where_hostage: Counter = Counter()
    slot_cards: dict[tuple[int, int], Counter] = {slot: Counter() for slot in hidden_slots}
    hand_cards: Counter = Counter()
    rng = SplitMix64(seed)
    worlds = [determinizer.sample_with(rng) for _ in range(samples)]
    weights = normalised_weights([world_log_likelihood(w, view, factors) for w in worlds])
    inferred_hostage: Counter = Counter()
    inferred_slots: dict[tuple[int, int], Counter] = {slot: Counter() for slot in hidden_slots}
    for state, weight in zip(worlds, weights):
        where = hostage_location(state, q)
        where_hostage[where] += 1
        inferred_hostage[where] += weight
        for c, r in hidden_slots:
            name = state.card(state.columns[q][c][r]).name
            slot_cards[(c, r)][name] += 1
            inferred_slots[(c, r)][name] += weight
        for card in state.hands[q]:
            hand_cards[state.card(card).name] += 1
    exact = exact_hostage_locations(view, deck)
    keys = sorted(set(where_hostage) | set(exact or {}), key=lambda k: (k not in ("deck", "hand"), k))
    policy, learned = (None, None) if learned is None else learned(view, determinizer.game, keys, samples, seed)
    return {
        "observer": PLAYERS[view.observer],
        "opponent": PLAYERS[q],
        "samples": samples,
        "seed": seed,
        "inference": {
            "model": MODEL,
            "temperature": temperature,
            "evidence": len(factors),
            "effective_samples": round(effective_size(weights), 1),
        },
        # The learned card-location model's hostage head (None: no model, or not the
        # observer's decision): `learned` beside each location.
        **({} if learned is None else {"learned_model": learned[0]}),
        # The policy-based inference (the same worlds weighted by how likely the
        # opponent's observed decisions are under the model's policy): `policy` beside
        # each location.
        **({} if policy is None else {"policy_inference": {
            "model": policy[0], "decisions": policy[2]["decisions"],
            "effective_samples": round(policy[2]["effective_worlds"], 1)}}),
        "hostage": {
            "card": hostage,
            "locations": [
                {
                    "where": k,
                    "probability": where_hostage[k] / samples,
                    "inferred": round(inferred_hostage[k], 12),
                    "exact": None if exact is None else exact.get(k, 0.0),
                    **({} if learned is None else {"learned": round(learned[1][k], 12)}),
                    **({} if policy is None else {"policy": round(policy[1].get(k, 0.0), 12)}),
                }
                for k in keys
            ],
        },
        "slots": [
            {
                "slot": _slot_name(c, r),
                "cards": [
                    {"card": name, "probability": n / samples, "inferred": round(inferred_slots[(c, r)][name], 12)}
                    for name, n in slot_cards[(c, r)].most_common()
                ],
            }
            for c, r in hidden_slots
        ],
        "hand": {
            "size": len(view.hands[q]),
            "expected": {name: n / samples for name, n in sorted(hand_cards.items(), key=lambda kv: -kv[1])},
        },
    }


def format_report(report: dict, top: int = 4) -> str:
    inference = report["inference"]
    lines = [
        f"Belief of {report['observer']} about {report['opponent']}, from {report['observer']}'s view "
        f"({report['samples']} samples, seed {report['seed']})",
        f"uniform: every world consistent with the view alike; inferred: weighted by the opponent model "
        f"(temperature {inference['temperature']:g}, {plural(inference['evidence'], 'face-down card')} as evidence, "
        f"effective samples {inference['effective_samples']:g})",
        "",
        f"Where is {report['hostage']['card']}?",
        f"  {'location':<10} {'uniform':>8} {'exact':>8} {'inferred':>9} {'learned':>8} {'policy':>8}",
    ]
    for loc in report["hostage"]["locations"]:
        exact = "-" if loc["exact"] is None else f"{loc['exact']:.3f}"
        learned = "-" if loc.get("learned") is None else f"{loc['learned']:.3f}"
        policy = "-" if loc.get("policy") is None else f"{loc['policy']:.3f}"
        lines.append(f"  {loc['where']:<10} {loc['probability']:>8.3f} {exact:>8} {loc['inferred']:>9.3f} {learned:>8} "
                     f"{policy:>8}")
    if report.get("learned_model"):
        lines.append(f"  learned: the hostage head of model {report['learned_model']}")
    if report.get("policy_inference"):
        pbi = report["policy_inference"]
        lines.append(f"  policy: the worlds weighted by model {pbi['model']}'s policy over the opponent's last "
                     f"{plural(pbi['decisions'], 'decision')} (effective samples {pbi['effective_samples']:g})")
    if report["slots"]:
        lines += ["", "Face-down cards (uniform / inferred):"]
        for slot in report["slots"]:
            cards = ", ".join(f"{c['card']} {c['probability']:.0%}/{c['inferred']:.0%}" for c in slot["cards"][:top])
            lines.append(f"  {slot['slot']}: {cards}")
    lines += ["", f"Hand ({plural(report['hand']['size'], 'card')}), expected copies:"]
    expected = list(report["hand"]["expected"].items())
    for i in range(0, len(expected), 4):
        lines.append("  " + "   ".join(f"{name} {n:.2f}" for name, n in expected[i : i + 4]))
    return "\n".join(lines)
