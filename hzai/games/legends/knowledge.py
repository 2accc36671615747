"""What one seat knows (L-INFO): its filtered log, its redacted moves, and the knowledge
tracker that follows identified cards from place to place.

The engine logs every card movement (rules.py: draw, play, discard, give, reveal, back,
under_draw, under_discard, take_discard). `observed(t, seat)` turns that log into what
the seat saw: counts always, card kinds only where L-INFO-1/2 let it see them, and no
card instances at all (those would tell which card of a hand moved). Everything a view
holds comes from there and from the public position.
"""

from __future__ import annotations

from collections import Counter

from hzai.games.legends.moves import (
    HIDDEN,
    ChanceOrder,
    Discard,
    FightAbility,
    MoveTo,
    Support,
)


def observed(t, o: int) -> list[tuple]:
    """The log as seat `o` saw it (L-INFO-1..3): kinds where visible, else None."""
    kind = t.kind
    out = []
    for e in t.events:
        typ = e[0]
        if typ == "draw":
            _, seat, insts = e
            out.append(("draw", seat, len(insts), tuple(kind[i] for i in insts) if seat == o else None))
        elif typ == "play":
            _, seat, inst, mon, face = e
            out.append(("play", seat, mon, face, kind[inst] if face != "down" or seat == o else None))
        elif typ == "discard":
            _, seat, inst = e
            out.append(("discard", seat, kind[inst] if seat == o else None))
        elif typ == "give":
            _, giver, receiver, insts = e
            seen = o in (giver, receiver)  # L-INFO-2, A32: handed face down
            out.append(("give", giver, receiver, len(insts), tuple(kind[i] for i in insts) if seen else None))
        elif typ == "reveal":  # L-ORACLE-1: for all to see
            out.append(("reveal", tuple(kind[i] for i in e[1])))
        elif typ == "back":  # L-ORACLE-2, A16: public
            _, seat, inst, order = e
            out.append(("back", seat, kind[inst], tuple(kind[i] for i in order)))
        elif typ in ("under_draw", "under_discard"):  # the order is chance, unknown to all
            out.append((typ, e[1], len(e[2])))
        else:  # take_discard (mission 7)
            _, seat, insts = e
            out.append(("take_discard", seat, len(insts), tuple(kind[i] for i in insts) if seat == o else None))
    return out


def redact(seat: int | None, move, pending: str | None, o: int):
    """The move as seat `o` may know it, `?` for the hidden cards (docs/legends.md)."""
    if seat is None:  # a chance order: nobody knows it (L-INFO-2)
        return ChanceOrder((HIDDEN,) * len(move.cards))
    typ = type(move)
    if seat == o:
        return move
    if typ is FightAbility:
        return FightAbility(HIDDEN)
    if typ is MoveTo and move.card is not None:
        return MoveTo(move.monster, HIDDEN)
    if typ is Support and move.seat != o:
        return Support(move.seat, (HIDDEN,) * len(move.cards))
    if typ is Discard and pending in ("recover_discard", "support_discard"):
        return Discard((HIDDEN,) * len(move.cards))
    return move


class Known:
    """The knowledge tracker of one seat (L-INFO-3), kind by kind and place by place:
    what it is sure of in each hand, at each draw-pile place (top last), each
    discard-pile place and each card on a monster. A hand that gives, discards or plays
    face down where the seat cannot see loses what the seat knew of it (the card may
    have gone either way). Built from `observed` only."""

    def __init__(self, n: int, o: int, own_start: tuple[int, ...], pile: int, monsters: int):
        self.hand = [Counter() for _ in range(n)]
        self.hand[o] = Counter(own_start)
        self.draw: list[int | None] = [None] * pile
        self.discard: list[int | None] = []
        self.played: list[list[int | None]] = [[] for _ in range(monsters)]
        self.oracle: list[int] = []

    def apply(self, e: tuple) -> None:
        typ = e[0]
        if typ == "draw":
            _, seat, n, kinds = e
            taken = [self.draw.pop() for _ in range(n)]
            self.hand[seat].update(kinds if kinds is not None else [k for k in taken if k is not None])
        elif typ == "play":
            _, seat, mon, face, k = e
            self._leave(seat, k)
            while len(self.played) <= mon:
                self.played.append([])
            self.played[mon].append(k)
        elif typ == "discard":
            _, seat, k = e
            self._leave(seat, k)
            self.discard.append(k)
        elif typ == "give":
            _, giver, receiver, n, kinds = e
            if kinds is None:
                self.hand[giver].clear()
            else:
                self.hand[giver] -= Counter(kinds)
                self.hand[receiver].update(kinds)
        elif typ == "reveal":
            del self.draw[len(self.draw) - len(e[1]):]
            self.oracle = list(e[1])
        elif typ == "back":
            _, seat, k, order = e
            self.discard.append(k)
            self.draw.extend(reversed(order))
            self.oracle = []
        elif typ == "under_draw":
            self.hand[e[1]].clear()
            self.draw[:0] = [None] * e[2]
        elif typ == "under_discard":
            self.hand[e[1]].clear()
            self.discard[:0] = [None] * e[2]
        else:  # take_discard
            _, seat, n, kinds = e
            taken = [self.discard.pop() for _ in range(n)]
            self.hand[seat].update(kinds if kinds is not None else [k for k in taken if k is not None])

    def _leave(self, seat: int, k: int | None) -> None:
        if k is None:
            self.hand[seat].clear()
        elif self.hand[seat][k] > 0:
            self.hand[seat][k] -= 1
            if not self.hand[seat][k]:
                del self.hand[seat][k]
