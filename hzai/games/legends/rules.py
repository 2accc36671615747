"""The reference rules of Legends of Hellas (docs/legends.md), one function per step,
each citing the rule IDs it implements. Functions take the static game `g` (game.py:
data, seats, heroes' attributes, mission, options) and a Table (table.py).

Legal moves come straight from the position (`legal`); `apply` plays one after checking
it is among them, and IllegalMoveError says why not otherwise.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

from hzai.games.legends.moves import (
    ChanceOrder,
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
    seat_name,
    text,
)
from hzai.games.legends.table import Monster, Table
from hzai.rng import SplitMix64

HAND = 4  # L-SETUP-4, L-TURN-5
RECOVER_TO = 5  # L-RECOVER-1: k <= 5 - h
ORACLE_LOOK = 6  # L-ORACLE-1


class IllegalMoveError(ValueError):
    """A move that is not legal in this position; the message says why."""


# ----- setup (L-SETUP) -----------------------------------------------------------------
def deck_kinds(g) -> list[int]:
    """L-SETUP-3, L-VAR-2: the draw pile's cards (all attribute cards and k DI) and the
    number of DI set aside, as kinds in data order."""
    counts = g.data.counts
    cards = [k for k, n in enumerate(counts[:-1]) for _ in range(n)]
    di = g.data.di_table[g.difficulty][g.n - 1]
    return cards + [g.data.di] * di, counts[-1] - di


def new_table(g, hands: list[list[int]], pile_top_first: list[int], monster_deck: list[int]) -> Table:
    """L-SETUP-1..6 from a given deal: hands and pile as kinds, monster deck as monster
    indexes (top first). Instances are numbered hands first, then the pile, then the DI
    set aside."""
    kind: list[int] = []
    inst_hands = []
    for hand in hands:
        inst_hands.append(list(range(len(kind), len(kind) + len(hand))))
        kind.extend(hand)
    pile = list(range(len(kind), len(kind) + len(pile_top_first)))
    kind.extend(pile_top_first)
    _, aside_n = deck_kinds(g)
    aside = list(range(len(kind), len(kind) + aside_n))
    kind.extend([g.data.di] * aside_n)
    t = Table(kind=kind, hands=inst_hands, draw=pile[::-1], discard=[], aside=aside, oracle=[],
              monster_deck=list(monster_deck), disc=[None] * g.n, broken=[False] * g.n)
    t.initial = (tuple(tuple(h) for h in inst_hands), tuple(t.draw))
    for _ in range(g.mission.start):  # L-SETUP-2: the start monsters, one by one
        enter(g, t, "normal")
    t.pending, t.actor, t.turn = "place", g.first, 0  # L-SETUP-5
    return t


def shuffled_deal(g, seed: int) -> tuple[list[list[int]], list[int], list[int]]:
    """A deal drawn from `seed` (SplitMix64, Fisher-Yates): the monster deck is shuffled
    first, then the draw pile; L-SETUP-4 deals 4 to p1, then p2, ..."""
    rng = SplitMix64(seed)
    monsters = list(range(len(g.data.monsters)))
    rng.shuffle(monsters)
    cards, _ = deck_kinds(g)
    rng.shuffle(cards)
    hands = [cards[HAND * s: HAND * (s + 1)] for s in range(g.n)]
    return hands, cards[HAND * g.n:], monsters


def enter(g, t: Table, what: str) -> None:
    """L-SETUP-2, L-CHIM-1, L-CHIM-5: the next monster from the monster deck (a normal
    one card, a chimera two, Hades three), with the next id."""
    take = {"normal": 1, "chimera": 2, "hades": 3}[what]
    cards = tuple(t.monster_deck[:take])
    del t.monster_deck[:take]
    req = [0] * len(g.data.attributes)
    for c in cards:  # L-CHIM-2: the multiset sum of the cards' pairs
        for a in g.data.monsters[c][1]:
            req[a] += 1
    t.monsters.append(Monster(len(t.monsters) + 1, cards, req, g.data.sizes[what], what != "normal"))
    if what == "normal":
        t.normals_entered += 1


# ----- legality ------------------------------------------------------------------------
def playable(m: Monster, attr: int) -> bool:
    """L-FIGHT-3: a card counting as `attr` may go on `m` only if attr is in R, and, when
    attr is already covered, only while c + 1 + d <= N."""
    if m.req[attr] == 0:
        return False
    return m.cnt[attr] < m.req[attr] or len(m.played) + 1 + m.deficit() <= m.size


def stranded(t: Table, seat: int) -> bool:
    """L-MOVE-3: a disc on a defeated monster."""
    d = t.disc[seat]
    return d is not None and t.monsters[d].defeated


def _kinds_in(t: Table, hand: list[int]) -> list[int]:
    return sorted(set(t.kind[i] for i in hand))


def _sub_multisets(names: list[str]) -> list[tuple[str, ...]]:
    """Every non-empty sub-multiset of a hand (names), each sorted by name."""
    names = sorted(names)
    return sorted({c for size in range(1, len(names) + 1) for c in combinations(names, size)})


def legal(g, t: Table) -> list:
    """The moves of the seat to decide (`t.actor`); empty at chance and at the end.
    Kept on the table until the next move (do not change the list)."""
    if t.legal is None:
        t.legal = _legal(g, t)
    return t.legal


def _legal(g, t: Table) -> list:
    if t.result is not None or t.pending in (None, "chance"):
        return []
    p, seat = t.pending, t.actor
    hand = t.hands[seat]
    names = g.data.kinds
    if p == "place":  # L-SETUP-5
        return [Place(m.id) for m in t.monsters if not m.defeated]
    if p == "recover_discard":  # L-RECOVER-2
        return [Discard((names[k],)) for k in _kinds_in(t, hand)]
    if p == "support_discard":  # L-SUPPORT-2
        need = max(1, len(hand) - HAND)
        return [Discard(c) for c in _sub_multisets([names[t.kind[i]] for i in hand]) if len(c) == need]
    if p == "oracle_return":  # L-ORACLE-2
        shown = [names[t.kind[i]] for i in t.oracle]
        out = []
        for d in sorted(set(shown)):
            rest = list(shown)
            rest.remove(d)
            out.extend(Discard((d,), order) for order in sorted(set(permutations(rest))))
        return out
    if p == "forced_recover":  # L-MISSION-4
        return _recovers(t, seat)
    return _actions(g, t, seat, hand, names)


def _recovers(t: Table, seat: int) -> list:
    """L-RECOVER-1: 0 <= k <= min(5 - h, P), h + k >= 1."""
    h, P = len(t.hands[seat]), len(t.draw)
    return [Recover(k) for k in range(min(RECOVER_TO - h, P) + 1) if h + k >= 1]


def _actions(g, t: Table, seat: int, hand: list[int], names) -> list:
    """L-TURN-3: Fight, Move, Recover, Support, Oracle."""
    out = []
    kinds = _kinds_in(t, hand)
    d = t.disc[seat]
    on = t.monsters[d] if d is not None else None
    if on is not None and not on.defeated and hand:  # L-FIGHT-1
        di = g.data.di
        for k in kinds:
            if k != di and playable(on, k):
                out.append(FightCard(names[k]))
        if di in kinds:
            out.extend(FightWild(names[a]) for a in range(di) if playable(on, a))  # L-DI-1
            if on.deficit() == 0:  # L-DI-2
                out.append(FightSlay())
        hero = g.hero_attr[seat]
        if not t.broken[seat] and playable(on, hero):  # L-ABIL-1, -2
            out.extend(FightAbility(names[k]) for k in kinds)
    # L-MOVE-1..3
    free = on is not None and on.defeated and g.free_relocation
    for m in t.monsters:
        if m.defeated or (on is not None and m is on):
            continue
        if free:
            out.append(MoveTo(m.id, None))
        else:
            out.extend(MoveTo(m.id, names[k]) for k in kinds)
    out.extend(_recovers(t, seat))
    if g.n > 1 and hand:  # L-SUPPORT-1, L-TURN-6
        subs = _sub_multisets([names[t.kind[i]] for i in hand])
        for other in range(g.n):
            if other != seat:
                out.extend(Support(other, c) for c in subs)
    if t.draw:  # L-ORACLE-1
        out.append(Oracle())
    return out


def chance_outcomes(g, t: Table) -> list[tuple[ChanceOrder, float]]:
    """L-MISSION-5, -6: every distinct order of the hand, by its probability."""
    if t.pending != "chance":
        return []
    names = [g.data.kinds[t.kind[i]] for i in t.hands[t.actor]]
    orders = Counter(permutations(names))
    total = sum(orders.values())
    return [(ChanceOrder(o), n / total) for o, n in sorted(orders.items())]


# ----- playing a move ------------------------------------------------------------------
def why_illegal(g, t: Table, move) -> str:
    """A short reason a move is refused (the move is known not to be legal)."""
    if t.result is not None:
        return f"the mission is over ({t.result})"
    if t.pending == "chance":
        if type(move) is ChanceOrder:
            return "is not an order of the hand going under the pile"
        return "a chance order comes next (chance order CARDS)"
    if type(move) is ChanceOrder:
        return "no chance event is due"
    who = seat_name(t.actor)
    expected = {"place": "place mN", "recover_discard": "discard CARD (Recover)",
                "support_discard": f"discard of {max(1, len(t.hands[t.actor]) - HAND)} card(s) after Support",
                "oracle_return": "discard CARD order CARDS (Oracle)", "forced_recover": "recover K (mission 5)"}
    if t.pending in expected:
        typ = type(move)
        if t.pending == "place" and typ is Place:
            return f"m{move.monster} is not a monster in play"
        if t.pending in ("recover_discard", "support_discard") and typ is Discard and not move.order:
            need = 1 if t.pending == "recover_discard" else max(1, len(t.hands[t.actor]) - HAND)
            if len(move.cards) != need:
                return f"{who} discards exactly {need} card(s) here"
            return f"{who} does not hold {','.join(move.cards)}"
        if t.pending == "oracle_return" and typ is Discard:
            shown = ",".join(g.data.kinds[t.kind[i]] for i in t.oracle)
            return f"discard one of the cards shown ({shown}) and put all the others back"
        if t.pending == "forced_recover" and typ is Recover:
            return f"k must keep 0 <= k <= min(5 - h, P) and h + k >= 1 (h = {len(t.hands[t.actor])}, P = {len(t.draw)})"
        return f"{who} must decide {expected[t.pending]} now"
    typ = type(move)
    hand = Counter(g.data.kinds[t.kind[i]] for i in t.hands[t.actor])
    if typ in (Place, Discard):
        return f"{who} is to take an action (no {text(move).split()[0]} is due)"
    card = getattr(move, "card", None) or getattr(move, "attr", None)
    if typ in (FightCard, FightAbility) and card and not hand[card] or typ in (FightWild, FightSlay) and not hand["di"]:
        return f"{who} holds no {card if typ in (FightCard, FightAbility) else 'di'}"
    if typ in (FightCard, FightWild, FightSlay, FightAbility):
        d = t.disc[t.actor]
        if d is None or t.monsters[d].defeated:
            return f"{who}'s disc is not on a monster in play (L-FIGHT-1)"
        if typ is FightAbility and t.broken[t.actor]:
            return f"{who}'s disc is broken: the ability is used (L-ABIL-1)"
        if typ is FightSlay:
            return "a slay needs every symbol of the monster covered (L-DI-2)"
        return "that attribute does not fit the monster (L-FIGHT-3)"
    if typ is MoveTo:
        if not any(m.id == move.monster and not m.defeated for m in t.monsters):
            return f"m{move.monster} is not a monster in play"
        if move.card is not None and not hand[move.card]:
            return f"{who} holds no {move.card}"
        return "not a legal destination or discard (L-MOVE)"
    if typ is Recover:
        return f"k must keep 0 <= k <= min(5 - h, P) and h + k >= 1 (h = {sum(hand.values())}, P = {len(t.draw)})"
    if typ is Support:
        if g.n == 1:
            return "no Support with one seat (L-TURN-6)"
        if move.seat == t.actor or move.seat >= g.n:
            return f"{seat_name(move.seat)} is not another seat"
        return f"{who} does not hold {','.join(move.cards)}"
    if typ is Oracle:
        return "the draw pile is empty (L-ORACLE-1)"
    return "not legal here"


def apply(g, t: Table, move) -> None:
    """Play one move or chance outcome; IllegalMoveError (the table unchanged) if it is
    not possible here."""
    if t.pending == "chance" and t.result is None:
        if move not in [o for o, _ in chance_outcomes(g, t)]:
            raise IllegalMoveError(why_illegal(g, t, move))
        t.legal = None
        t.history.append((None, move, "chance"))
        _chance(g, t, move)
        return
    if move not in legal(g, t):
        raise IllegalMoveError(why_illegal(g, t, move))
    t.legal = None
    seat = t.actor
    t.history.append((seat, move, t.pending))
    typ = type(move)
    if typ is Place:
        _place(g, t, seat, move)
    elif typ in (FightCard, FightWild, FightSlay, FightAbility):
        _fight(g, t, seat, move)
    elif typ is MoveTo:
        _move(g, t, seat, move)
    elif typ is Recover:
        _recover(g, t, seat, move.k)
    elif typ is Support:
        _support(g, t, seat, move)
    elif typ is Oracle:
        _oracle(t)
    elif t.pending == "recover_discard":
        _discard_after_recover(g, t, seat, move)
    elif t.pending == "support_discard":
        _discard_after_support(g, t, seat, move)
    else:
        _oracle_return(g, t, seat, move)


def _take(g, t: Table, seat: int, name: str) -> int:
    """Remove one card of kind `name` from the seat's hand; its instance."""
    k = g.data.kinds.index(name)
    hand = t.hands[seat]
    for pos, i in enumerate(hand):
        if t.kind[i] == k:
            return hand.pop(pos)
    raise IllegalMoveError(f"{seat_name(seat)} holds no {name}")


def _to_discard(t: Table, seat: int, inst: int) -> None:
    t.discard.append((inst, seat))
    t.events.append(("discard", seat, inst))


def _draw(t: Table, seat: int, k: int) -> None:
    taken = [t.draw.pop() for _ in range(k)]
    t.hands[seat].extend(taken)
    t.events.append(("draw", seat, tuple(taken)))


def _place(g, t: Table, seat: int, move: Place) -> None:
    """L-SETUP-5, -6: discs clockwise from the first player; then turn 1."""
    t.disc[seat] = move.monster - 1
    t.placed += 1
    if t.placed < g.n:
        t.actor = (g.first + t.placed) % g.n
        return
    t.turn, t.turn_seat = 0, g.first
    _start_turn(g, t, g.first)


def _start_turn(g, t: Table, seat: int) -> None:
    """L-TURN-1, -2, L-END-2: the next turn, lost at once when its seat holds no card and
    the draw pile is empty."""
    t.turn += 1
    t.turn_seat = seat
    t.pending, t.actor, t.giver, t.forced = "action", seat, None, False
    if not t.hands[seat] and not t.draw:
        _lose(t, "exhausted")


def _end_turn(g, t: Table) -> None:
    """L-TURN-1, L-END-5: the turn passes clockwise (after Support: to the giver's
    neighbour, L-SUPPORT-3); past turn `turn_limit` the mission is lost."""
    if t.turn >= g.turn_limit:
        _lose(t, "turn_limit")
        return
    _start_turn(g, t, (t.turn_seat + 1) % g.n)


def _lose(t: Table, reason: str) -> None:
    t.result, t.reason, t.pending, t.actor = "lost", reason, None, None


def _fight(g, t: Table, seat: int, move) -> None:
    """L-FIGHT-1..6, L-DI-1..4, L-ABIL-1..3 and the order of L-TURN-4."""
    m = t.monsters[t.disc[seat]]
    typ = type(move)
    if typ is FightCard:
        inst, attr, face = _take(g, t, seat, move.card), g.data.kinds.index(move.card), "up"
    elif typ is FightWild:
        inst, attr, face = _take(g, t, seat, "di"), g.data.kinds.index(move.attr), "up"
    elif typ is FightSlay:
        inst, attr, face = _take(g, t, seat, "di"), -1, "sideways"
    else:
        inst, attr, face = _take(g, t, seat, move.card), g.hero_attr[seat], "down"
        t.broken[seat] = True
    m.played.append((inst, attr, face, seat))  # (1) the card lies on the monster
    if attr >= 0:
        m.cnt[attr] += 1
    t.events.append(("play", seat, inst, t.monsters.index(m), face))
    slay = typ is FightSlay
    defeat = 0
    if slay or len(m.played) == m.size:  # (2) L-FIGHT-4, L-DI-2, L-FIGHT-5
        m.defeated = True
        if m.final:
            t.finals_defeated += 1
            if t.finals_defeated == g.mission.finals:  # (3) L-END-1
                t.result, t.reason, t.pending, t.actor = "won", "final_defeated", None, None
                return
        else:
            t.normals_defeated += 1
            defeat = t.normals_defeated
    t.after_fight = (defeat, slay)
    di_use = typ in (FightWild, FightSlay) and not m.final  # L-DI-4, A28
    special = g.mission.special
    if di_use and special == "di_recover":  # (4) L-MISSION-4
        if not t.hands[seat] and not t.draw:
            _lose(t, "forced_recover")  # L-END-3
            return
        t.pending, t.forced = "forced_recover", True
        return
    if di_use and special in ("di_swap_draw", "di_swap_discard") and t.hands[seat]:  # L-MISSION-5, -6
        t.pending = "chance"
        return
    _finish_fight(g, t)


def _finish_fight(g, t: Table) -> None:
    """L-TURN-4 (5)-(6): the triggers of this defeat, mission 10's rule, then the turn
    passes."""
    defeat, slay = t.after_fight
    t.after_fight, t.forced = None, False
    if defeat:
        _triggers(g, t, defeat, slay)
        if t.result is not None:
            return
    _end_turn(g, t)


def _triggers(g, t: Table, defeat: int, slay: bool) -> None:
    """L-MISSION-1, -3, -7, -8: what the k-th defeat of a normal monster brings."""
    mission = g.mission
    if mission.special == "replace_until_6" and t.normals_entered < 6 and not slay:  # L-MISSION-7
        enter(g, t, "normal")
    what = mission.triggers.get(defeat)
    if what is not None:
        if what.startswith("+"):
            for _ in range(int(what[1:])):
                enter(g, t, "normal")
        else:
            for _ in range(2 if what == "2C" else 1):
                enter(g, t, "hades" if what == "H" else "chimera")
    if mission.special == "replace_until_6" and t.normals_entered < 6 and all(m.defeated for m in t.monsters):
        _lose(t, "no_sixth_monster")  # L-END-4


def _chance(g, t: Table, move: ChanceOrder) -> None:
    """L-MISSION-5 (mission 6): the hand under the draw pile in this order, then draw as
    many; L-MISSION-6 (mission 7): the same with the discard pile."""
    seat = t.actor
    hand = t.hands[seat]
    block = []
    for name in move.cards:  # instances in the order given, top to bottom
        k = g.data.kinds.index(name)
        block.append(hand.pop(next(p for p, i in enumerate(hand) if t.kind[i] == k)))
    n = len(block)
    if g.mission.special == "di_swap_draw":
        t.draw[:0] = block[::-1]  # the bottom is index 0
        t.events.append(("under_draw", seat, tuple(block)))
        _draw(t, seat, n)
    else:
        t.discard[:0] = [(i, seat) for i in block[::-1]]
        t.events.append(("under_discard", seat, tuple(block)))
        taken = [t.discard.pop()[0] for _ in range(n)]
        t.hands[seat].extend(taken)
        t.events.append(("take_discard", seat, tuple(taken)))
    t.pending, t.actor = "action", seat
    _finish_fight(g, t)


def _move(g, t: Table, seat: int, move: MoveTo) -> None:
    """L-MOVE-1..3: the disc to another monster in play, paying one discard unless it
    leaves a stranded place under relocation = free."""
    if move.card is not None:
        _to_discard(t, seat, _take(g, t, seat, move.card))
    t.disc[seat] = move.monster - 1
    _end_turn(g, t)


def _recover(g, t: Table, seat: int, k: int) -> None:
    """L-RECOVER-1 (and mission 5's forced Recover, L-MISSION-4): draw k."""
    _draw(t, seat, k)
    t.pending = "recover_discard"


def _discard_after_recover(g, t: Table, seat: int, move: Discard) -> None:
    """L-RECOVER-2: one discard; a forced Recover then resumes the fight's effects."""
    _to_discard(t, seat, _take(g, t, seat, move.cards[0]))
    if t.forced:
        t.pending = "action"
        _finish_fight(g, t)
    else:
        _end_turn(g, t)


def _support(g, t: Table, seat: int, move: Support) -> None:
    """L-SUPPORT-1: give the cards face down; the receiver decides its discards."""
    given = [_take(g, t, seat, name) for name in move.cards]
    t.hands[move.seat].extend(given)
    t.events.append(("give", seat, move.seat, tuple(given)))
    t.pending, t.actor, t.giver = "support_discard", move.seat, seat


def _discard_after_support(g, t: Table, seat: int, move: Discard) -> None:
    """L-SUPPORT-2, -3: max(1, r - 4) discards, in printed order; the turn passes from the
    giver."""
    for name in move.cards:
        _to_discard(t, seat, _take(g, t, seat, name))
    _end_turn(g, t)


def _oracle(t: Table) -> None:
    """L-ORACLE-1: the top min(6, P) cards face up, off the pile."""
    m = min(ORACLE_LOOK, len(t.draw))
    t.oracle = [t.draw.pop() for _ in range(m)]
    t.events.append(("reveal", tuple(t.oracle)))
    t.pending = "oracle_return"


def _oracle_return(g, t: Table, seat: int, move: Discard) -> None:
    """L-ORACLE-2, -3: one discarded, the rest back on top in the order given (public)."""
    shown = list(t.oracle)

    def pick(name):
        k = g.data.kinds.index(name)
        return shown.pop(next(p for p, i in enumerate(shown) if t.kind[i] == k))

    out = pick(move.cards[0])
    order = [pick(name) for name in move.order]
    t.oracle = []
    t.discard.append((out, seat))
    t.draw.extend(reversed(order))
    t.events.append(("back", seat, out, tuple(order)))
    _end_turn(g, t)
