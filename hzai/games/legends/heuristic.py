"""The heuristic policy of Legends (`Game.heuristic_scores`), for the generic heuristic
bot. It reads only the view: the public monsters and the seat's own hand.

Rules of thumb, higher is better:
- Fight: a card that fills a missing symbol (+15), or any fitting card (+8); a card
  that defeats the monster +25; a slay +30; a wild DI costs 4 (it is the most
  flexible card), the ability costs 2 (once a mission).
- Move: worth the destination's missing symbols the hand can fill, minus the discarded
  card's use; leaving a stranded place +12.
- Recover: more when the hand is small (6 per missing card, +1 a card drawn).
- Any discard (Recover, Support, Oracle): the least useful card goes; the Oracle puts
  the most useful cards on top.
- Support: only to a seat with at most one card (then +5), else 0; Oracle 1.
- Place: the monster whose symbols the hand covers best.
A card's use: 3 for each monster in play still missing its attribute, 1 for each that
has it at all; a DI is worth 6.
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


def heuristic_scores(view, moves: list) -> list[float]:
    # A state exact wherever this seat's decision can depend on it (its own hand, the
    # public position); an all-seeing view offers the state itself.
    state = view.shell() if hasattr(view, "shell") else view.sample(0)
    game, t = state.game, state.t
    kinds = game.data.kinds
    seat = view.seat
    live = [m for m in t.monsters if not m.defeated]

    def use(name: str) -> float:
        if name == "di":
            return 6.0
        a = kinds.index(name)
        return sum(3.0 if m.cnt[a] < m.req[a] else 1.0 for m in live if m.req[a])

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
            score = 15.0 if own.cnt[attr] < own.req[attr] else 8.0
            if len(own.played) + 1 == own.size:
                score += 25.0
            score -= 4.0 if typ is FightWild else 2.0 if typ is FightAbility else 0.0
            if typ is FightAbility:
                score -= use(move.card) / 3
        elif typ is FightSlay:
            score = 30.0
        elif typ is MoveTo:
            dest = t.monsters[move.monster - 1]
            rest = list(hand)
            if move.card is not None:
                rest.remove(move.card)
            score = 2.0 * missing_filled(dest, rest) - (0 if move.card is None else use(move.card) / 2)
            if own is not None and own.defeated:
                score += 12.0
        elif typ is Recover:
            score = 6.0 * max(0, HAND - len(hand) - 1) + move.k
        elif typ is Discard:
            score = -sum(use(c) for c in move.cards)
            if move.order:
                score += sum(use(c) / (i + 1) for i, c in enumerate(move.order)) / 10
        elif typ is Support:
            score = 5.0 if len(t.hands[move.seat]) <= 1 else 0.0
            score -= len(move.cards) * 0.1
        elif typ is Oracle:
            score = 1.0
        elif typ is Place:
            score = missing_filled(t.monsters[move.monster - 1], hand)
        else:
            score = 0.0
        scores.append(score)
    return scores
