"""Legends moves: frozen values, their one notation writer (`text`) and reader
(`parse`), and the dense action ids (`ActionCodec`).

Cards in moves are kind names (an attribute or `di`); `?` stands for a card a seat may
not see (only in redacted moves, never read). Lists in `support` and plain `discard`
are multisets, kept sorted by name; the Oracle's order and a chance order are
sequences, top first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations_with_replacement

from hzai.text import quoted

HIDDEN = "?"
MAX_LIST = 4  # support gives at most a hand (4); a receiver discards at most 4; chance orders at most 4
MAX_ORDER = 5  # the Oracle puts back at most 5


class NotationError(ValueError):
    """A text that names no move; the message quotes it."""


@dataclass(frozen=True, slots=True)
class Place:
    monster: int  # 1-based id: m1, m2, ...


@dataclass(frozen=True, slots=True)
class FightCard:
    card: str  # an attribute


@dataclass(frozen=True, slots=True)
class FightWild:
    attr: str  # the attribute a DI is declared as (L-DI-1)


@dataclass(frozen=True, slots=True)
class FightSlay:
    pass


@dataclass(frozen=True, slots=True)
class FightAbility:
    card: str  # an attribute, di, or ? when hidden


@dataclass(frozen=True, slots=True)
class MoveTo:
    monster: int
    card: str | None  # None: a free move from a stranded place (relocation = free)


@dataclass(frozen=True, slots=True)
class Recover:
    k: int


@dataclass(frozen=True, slots=True)
class Discard:
    cards: tuple[str, ...]  # a multiset, sorted by name (Recover, Support) or one card (Oracle)
    order: tuple[str, ...] = ()  # the Oracle's cards put back, top first


@dataclass(frozen=True, slots=True)
class Support:
    seat: int  # 0-based seat index of the receiver
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Oracle:
    pass


@dataclass(frozen=True, slots=True)
class ChanceOrder:
    cards: tuple[str, ...]  # the hand's order under the pile, top to bottom


def seat_name(i: int) -> str:
    return f"p{i + 1}"


def _list(cards) -> str:
    return ",".join(cards)


def text(move) -> str:
    """The one notation writer (lower case, as `hzai legal` prints)."""
    t = type(move)
    if t is FightCard:
        return f"fight {move.card}"
    if t is FightWild:
        return f"fight di {move.attr}"
    if t is FightSlay:
        return "fight di-slay"
    if t is FightAbility:
        return f"fight ability {move.card}"
    if t is MoveTo:
        return f"move m{move.monster}" + ("" if move.card is None else f" {move.card}")
    if t is Recover:
        return f"recover {move.k}"
    if t is Discard:
        return f"discard {_list(move.cards)}" + (f" order {_list(move.order)}" if move.order else "")
    if t is Support:
        return f"support {seat_name(move.seat)} {_list(move.cards)}"
    if t is Oracle:
        return "oracle"
    if t is ChanceOrder:
        return f"chance order {_list(move.cards)}"
    if t is Place:
        return f"place m{move.monster}"
    raise TypeError(f"not a Legends move: {move!r}")


for _cls in (Place, FightCard, FightWild, FightSlay, FightAbility, MoveTo, Recover, Discard, Support, Oracle, ChanceOrder):
    _cls.__str__ = text  # type: ignore[assignment]

MONSTER = re.compile(r"^m([1-9][0-9]?)$")
SEAT = re.compile(r"^p([1-9])$")


def parse(raw: str, kinds: tuple[str, ...], seats: int = 5, monsters: int = 10):
    """The one notation reader: case-insensitive, any run of spaces between words.
    `kinds` are the card names (the attributes, then di)."""
    if not isinstance(raw, str):
        raise NotationError(f"a move is a text, not {quoted(raw)}")
    words = raw.lower().split()
    attrs = kinds[:-1]

    def bad(why: str):
        return NotationError(f"{quoted(raw)}: {why}")

    def card(word: str, allowed=kinds) -> str:
        if word not in allowed:
            raise bad(f"{quoted(word)} is not a card (cards: {', '.join(allowed)})")
        return word

    def cards(word: str, most: int) -> tuple[str, ...]:
        items = word.split(",")
        if len(items) > most:
            raise bad(f"a list of at most {most} cards, not {len(items)}")
        return tuple(card(w) for w in items)

    def monster(word: str) -> int:
        m = MONSTER.match(word)
        if not m or int(m.group(1)) > monsters:
            raise bad(f"{quoted(word)} is not a monster id (m1..m{monsters})")
        return int(m.group(1))

    if not words:
        raise bad("an empty move")
    head, rest = words[0], words[1:]
    n = len(rest)
    if head == "place" and n == 1:
        return Place(monster(rest[0]))
    if head == "fight":
        if n == 1 and rest[0] == "di-slay":
            return FightSlay()
        if n == 1:
            return FightCard(card(rest[0], attrs))
        if n == 2 and rest[0] == "di":
            return FightWild(card(rest[1], attrs))
        if n == 2 and rest[0] == "ability":
            return FightAbility(card(rest[1]))
        raise bad("write fight ATTR, fight di ATTR, fight di-slay or fight ability CARD")
    if head == "move" and n in (1, 2):
        return MoveTo(monster(rest[0]), card(rest[1]) if n == 2 else None)
    if head == "recover" and n == 1:
        if not rest[0].isdigit() or len(rest[0]) > 2:
            raise bad(f"recover takes a count, not {quoted(rest[0])}")
        return Recover(int(rest[0]))
    if head == "discard" and n == 1:
        return Discard(tuple(sorted(cards(rest[0], MAX_LIST))))
    if head == "discard" and n == 3 and rest[1] == "order":
        return Discard((card(rest[0]),), cards(rest[2], MAX_ORDER))
    if head == "support" and n == 2:
        m = SEAT.match(rest[0])
        if not m or int(m.group(1)) > seats:
            raise bad(f"{quoted(rest[0])} is not a seat (p1..p{seats})")
        return Support(int(m.group(1)) - 1, tuple(sorted(cards(rest[1], MAX_LIST))))
    if head == "oracle" and n == 0:
        return Oracle()
    if head == "chance" and n == 2 and rest[0] == "order":
        return ChanceOrder(cards(rest[1], MAX_LIST))
    raise bad("unknown move (place, fight, move, recover, discard, support, oracle, chance order)")


class ActionCodec:
    """Dense action ids: one block per move kind, in the order of `_blocks`. Card lists
    are numbered within their block: multisets by their rank among the sorted
    multisets of each length, sequences in base len(kinds)."""

    def __init__(self, kinds: tuple[str, ...], seats: int, monsters: int):
        self.kinds, self.seats, self.monsters = kinds, seats, monsters
        self.k = len(kinds)
        self.attrs = kinds[:-1]
        self.index = {name: i for i, name in enumerate(kinds)}
        # multisets of 1..MAX_LIST kinds, each sorted by name
        by_name = sorted(range(self.k), key=lambda i: kinds[i])
        self.multisets = [tuple(kinds[i] for i in combo) for size in range(1, MAX_LIST + 1)
                          for combo in combinations_with_replacement(by_name, size)]
        self.multiset_id = {m: i for i, m in enumerate(self.multisets)}
        self.seq_base = {}  # length -> offset of sequences of that length
        total = 0
        for length in range(1, MAX_ORDER + 1):
            self.seq_base[length] = total
            total += self.k ** length
        self.seq_count = total  # sequences of length 1..MAX_ORDER (chance orders use the first lengths)
        self.chance_count = sum(self.k ** L for L in range(1, MAX_LIST + 1))
        sizes = [("place", monsters), ("fight", len(self.attrs)), ("wild", len(self.attrs)), ("slay", 1),
                 ("ability", self.k), ("move", monsters * (self.k + 1)), ("recover", 6),
                 ("discard", len(self.multisets)), ("oracle_back", self.k * self.seq_count),
                 ("support", seats * len(self.multisets)), ("oracle", 1), ("chance", self.chance_count)]
        self.base, at = {}, 0
        for name, size in sizes:
            self.base[name] = at
            at += size
        self.size = at
        self._blocks = sorted(self.base.items(), key=lambda kv: kv[1])

    def _seq(self, cards) -> int:
        v = 0
        for c in cards:
            v = v * self.k + self.index[c]
        return self.seq_base[len(cards)] + v

    def _unseq(self, n: int) -> tuple[str, ...]:
        length = max(L for L, b in self.seq_base.items() if b <= n)
        v = n - self.seq_base[length]
        out = []
        for _ in range(length):
            v, r = divmod(v, self.k)
            out.append(self.kinds[r])
        return tuple(reversed(out))

    def action_of(self, move) -> int:
        b, t = self.base, type(move)
        try:
            if t in (Place, MoveTo) and not 1 <= move.monster <= self.monsters:
                raise KeyError(move.monster)
            if t is Place:
                return b["place"] + move.monster - 1
            if t is FightCard:
                return b["fight"] + self.attrs.index(move.card)
            if t is FightWild:
                return b["wild"] + self.attrs.index(move.attr)
            if t is FightSlay:
                return b["slay"]
            if t is FightAbility:
                return b["ability"] + self.index[move.card]
            if t is MoveTo:
                card = 0 if move.card is None else 1 + self.index[move.card]
                return b["move"] + (move.monster - 1) * (self.k + 1) + card
            if t is Recover and 0 <= move.k <= 5:
                return b["recover"] + move.k
            if t is Discard and not move.order:
                return b["discard"] + self.multiset_id[move.cards]
            if t is Discard and len(move.cards) == 1 and len(move.order) <= MAX_ORDER:
                return b["oracle_back"] + self.index[move.cards[0]] * self.seq_count + self._seq(move.order)
            if t is Support and 0 <= move.seat < self.seats:
                return b["support"] + move.seat * len(self.multisets) + self.multiset_id[move.cards]
            if t is Oracle:
                return b["oracle"]
            if t is ChanceOrder:
                if 1 <= len(move.cards) <= MAX_LIST:
                    return b["chance"] + self._seq(move.cards)
        except (KeyError, IndexError, ValueError, TypeError):
            pass
        raise ValueError(f"{quoted(str(move))} has no action id in this game")

    def move_of(self, action: int):
        if not isinstance(action, int) or not 0 <= action < self.size:
            raise ValueError(f"action {quoted(action)} is outside 0..{self.size - 1}")
        name, base = max((kv for kv in self._blocks if kv[1] <= action), key=lambda kv: kv[1])
        i = action - base
        if name == "place":
            return Place(i + 1)
        if name == "fight":
            return FightCard(self.kinds[i])
        if name == "wild":
            return FightWild(self.kinds[i])
        if name == "slay":
            return FightSlay()
        if name == "ability":
            return FightAbility(self.kinds[i])
        if name == "move":
            m, c = divmod(i, self.k + 1)
            return MoveTo(m + 1, None if c == 0 else self.kinds[c - 1])
        if name == "recover":
            return Recover(i)
        if name == "discard":
            return Discard(self.multisets[i])
        if name == "oracle_back":
            c, s = divmod(i, self.seq_count)
            return Discard((self.kinds[c],), self._unseq(s))
        if name == "support":
            s, m = divmod(i, len(self.multisets))
            return Support(s, self.multisets[m])
        if name == "oracle":
            return Oracle()
        return ChanceOrder(self._unseq(i))
