"""The position of a Legends mission as plain data: every zone of L-COMP-6 as lists of
card instances, the monsters, discs, the turn and what is pending. The rules that change
it are in rules.py; the State of hzai.core wraps it (state.py).

Card instances are numbers 0..60 (classic data); `kind[i]` is the card's kind (an
attribute index, or DI = len(attributes)). Keeping instances lets the views follow a
card through its moves (knowledge.py) and lets a sample rebuild the same zones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

NORMAL, CHIMERA, HADES = "normal", "chimera", "hades"


class Monster:
    """A monster in play or vanquished: its cards, requirement R (counts per attribute),
    size N, and the cards played on it as (instance, counts-as or -1, face, seat)."""

    __slots__ = ("cards", "cnt", "defeated", "final", "id", "played", "req", "size")

    def __init__(self, id: int, cards: tuple[int, ...], req: list[int], size: int, final: bool):
        self.id, self.cards, self.req, self.size, self.final = id, cards, req, size, final
        self.defeated = False
        self.played: list[tuple[int, int, str, int]] = []
        self.cnt = [0] * len(req)

    def copy(self) -> Monster:
        m = Monster.__new__(Monster)
        m.id, m.cards, m.req, m.size, m.final = self.id, self.cards, self.req, self.size, self.final
        m.defeated, m.played, m.cnt = self.defeated, list(self.played), list(self.cnt)
        return m

    def deficit(self) -> int:
        """L-FIGHT-2: d = sum over R's symbols of max(0, R[s] - cnt[s])."""
        return sum(r - c for r, c in zip(self.req, self.cnt) if r > c)


@dataclass
class Table:
    kind: list[int]  # instance -> kind (shared by clones: never changes)
    hands: list[list[int]]
    draw: list[int]  # top LAST (pile[-1] is the top card)
    discard: list[tuple[int, int]]  # (instance, seat), bottom first
    aside: list[int]
    oracle: list[int]  # revealed by the Oracle, top first
    monster_deck: list[int]  # monster card indexes, top first
    monsters: list[Monster] = field(default_factory=list)
    disc: list[int | None] = field(default_factory=list)  # monster list index per seat
    broken: list[bool] = field(default_factory=list)
    turn: int = 0
    turn_seat: int = 0
    pending: str | None = "place"
    actor: int | None = 0
    placed: int = 0
    giver: int | None = None  # Support: the giver (the turn passes from them)
    forced: bool = False  # the Recover under way is mission 5's forced one
    after_fight: tuple | None = None  # (defeat number or 0, by slay) still to resolve (L-TURN-4)
    normals_entered: int = 0
    normals_defeated: int = 0
    finals_defeated: int = 0
    result: str | None = None
    reason: str | None = None
    # The log the views read (knowledge.py): the deal, then card movements.
    initial: tuple = ()
    events: list = field(default_factory=list)
    history: list = field(default_factory=list)  # (seat or None for chance, move, what was pending)
    legal: list | None = None  # rules.legal's answer for this position, until the next move

    def copy(self) -> Table:
        t = Table.__new__(Table)
        t.__dict__.update(self.__dict__)
        t.hands = [list(h) for h in self.hands]
        t.draw, t.discard, t.aside, t.oracle = list(self.draw), list(self.discard), list(self.aside), list(self.oracle)
        t.monster_deck = list(self.monster_deck)
        t.monsters = [m.copy() for m in self.monsters]
        t.disc, t.broken = list(self.disc), list(self.broken)
        t.events, t.history = list(self.events), list(self.history)
        t.legal = None
        return t

    def all_instances(self) -> list[int]:
        """Every action card's instance, zone by zone (L-COMP-6: each exactly once)."""
        out = [i for h in self.hands for i in h] + self.draw + [i for i, _ in self.discard] + self.aside + self.oracle
        for m in self.monsters:
            out.extend(p[0] for p in m.played)
        return out
