"""The heuristic policy of Legends (`game.search.heuristic_scores`), for the generic heuristic
bot and, ported to C++, the native search's light playout policy
(`Legends::playout_step` in hzai/games/legends/native/legends_light.cpp). Both read their numbers from
WEIGHTS below (the twin gets them through hzai.games.legends.native.twin.game_spec), so the two
cannot drift apart; tests/native/test_legends_light.py holds them equal move for move.

It reads only what the deciding seat may know: the public monsters, hand sizes and the
seat's own hand.

Rules of thumb, higher is better (the weights' names in brackets):
- Fight: a card that fills a missing symbol (fill 15), or any fitting card (fit 8); a card
  that defeats the monster +25 (defeat); a slay 30 (slay); a wild DI costs 4 (wild_cost:
  it is the most flexible card), the ability 2 (ability_cost: once a mission) plus the
  card's use / 3 (ability_use_div).
- Move: 2 (move_fill) for each of the destination's missing symbols the rest of the hand
  can fill, minus the discarded card's use / 2 (move_use_div); leaving a stranded place
  +12 (leave_stranded).
- Recover: 6 (recover_missing) for each card the hand lacks below 3, +1 (recover_drawn)
  a card drawn.
- Any discard (Recover, Support, Oracle): minus the discarded cards' use, so the least
  useful goes; the Oracle's order adds the use of each card put back / its place (1 on
  top), all / 10 (order_div): the most useful cards go on top.
- Support: 5 (support_low) to a seat holding at most 1 card (support_low_hand), else 0;
  minus 0.1 a card given (support_per_card). Oracle 1 (oracle).
- Place: the monster with the most missing symbols the hand holds.
A card's use: 3 (use_short) for each monster in play still short of its attribute, 1
(use_has) for each that has it at all; a DI is worth 6 (use_di).

Ties: every move with the best score is a best move (`best_moves`); the heuristic bot
draws one of them with its seed, the light playout with the playout's generator.
"""

from __future__ import annotations

from hzai.games.legends.moves import (
    Discard,
    FightAbility,
    FightCard,
    FightSlay,
    FightWild,
    MoveTo,
    Oracle,
    Place,
    Recover,
    Support,
)
from hzai.games.legends.rules import HAND

WEIGHTS = {
    "fill": 15.0, "fit": 8.0, "defeat": 25.0, "slay": 30.0, "wild_cost": 4.0, "ability_cost": 2.0,
    "ability_use_div": 3.0, "move_fill": 2.0, "move_use_div": 2.0, "leave_stranded": 12.0,
    "recover_missing": 6.0, "recover_drawn": 1.0, "order_div": 10.0, "support_low": 5.0,
    "support_low_hand": 1.0, "support_per_card": 0.1, "oracle": 1.0, "use_short": 3.0, "use_has": 1.0,
    "use_di": 6.0,
}


def best_moves(scores: list[float]) -> list[int]:
    """The indices of the best-scored moves, in the order given (the tie set)."""
    best = max(scores)
    return [i for i, score in enumerate(scores) if score == best]


def heuristic_scores(view, moves: list) -> list[float]:
    # A state exact wherever this seat's decision can depend on it (its own hand, the
    # public position); an all-seeing view offers the state itself.
    state = view.shell() if hasattr(view, "shell") else view.sample(0)
    game, t = state.game, state.t
    kinds = game.data.kinds
    seat = view.seat
    w = WEIGHTS
    live = [m for m in t.monsters if not m.defeated]

    def use(name: str) -> float:
        if name == "di":
            return w["use_di"]
        a = kinds.index(name)
        return sum(w["use_short"] if m.cnt[a] < m.req[a] else w["use_has"] for m in live if m.req[a])

    def missing_filled(m, hand_names) -> float:
        short = [a for a in range(len(m.req)) if m.cnt[a] < m.req[a]]
        return sum(1.0 for a in short if kinds[a] in hand_names)

    hand = [kinds[t.kind[i]] for i in t.hands[seat]]
    own = t.monsters[t.disc[seat]] if t.disc[seat] is not None else None
    scores = []
    for move in moves:
        typ = type(move)
        if typ in (FightCard, FightWild, FightAbility):
            attr = kinds.index(move.card if typ is FightCard else move.attr if typ is FightWild else kinds[game.hero_attr[seat]])
            score = w["fill"] if own.cnt[attr] < own.req[attr] else w["fit"]
            if len(own.played) + 1 == own.size:
                score += w["defeat"]
            if typ is FightWild:
                score -= w["wild_cost"]
            elif typ is FightAbility:
                score -= w["ability_cost"]
                score -= use(move.card) / w["ability_use_div"]
        elif typ is FightSlay:
            score = w["slay"]
        elif typ is MoveTo:
            dest = t.monsters[move.monster - 1]
            rest = list(hand)
            if move.card is not None:
                rest.remove(move.card)
            score = w["move_fill"] * missing_filled(dest, rest)
            if move.card is not None:
                score -= use(move.card) / w["move_use_div"]
            if own is not None and own.defeated:
                score += w["leave_stranded"]
        elif typ is Recover:
            score = w["recover_missing"] * max(0, HAND - len(hand) - 1) + w["recover_drawn"] * move.k
        elif typ is Discard:
            score = -sum(use(c) for c in move.cards)
            if move.order:
                score += sum(use(c) / (i + 1) for i, c in enumerate(move.order)) / w["order_div"]
        elif typ is Support:
            score = w["support_low"] if len(t.hands[move.seat]) <= w["support_low_hand"] else 0.0
            score -= len(move.cards) * w["support_per_card"]
        elif typ is Oracle:
            score = w["oracle"]
        elif typ is Place:
            score = missing_filled(t.monsters[move.monster - 1], hand)
        else:
            score = 0.0
        scores.append(score)
    return scores
