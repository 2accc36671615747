"""What one move of a mission did, in words, from one seat's side of the table.

`narrate(before, move, after, seat)` reads the referee's states around one move (or
chance order) and tells only what `seat` may know (None: a spectator, who sees what is
public): the move as the seat saw it, the cards drawn (named to the drawer only), what
the Oracle showed and put back, a Support handover (its cards named to the giver and
the receiver only), the cards a hand put under a pile, monsters defeated and entering,
a hero broken by an ability, whose turn starts, and the mission's end. Every card kind
comes from the seat's filtered log (knowledge.observed), so a hidden card is never named.
"""

from __future__ import annotations

from hzai.games.legends.knowledge import observed, redact
from hzai.games.legends.moves import FightAbility, FightCard, MoveTo, FightSlay, FightWild, Oracle, Place, Recover, Support, text

SPECTATOR = -1  # a seat index no seat has: every hidden card stays hidden

REASONS = {
    "final_defeated": "the final monster is defeated",
    "exhausted": "a turn began with an empty hand and an empty draw pile",
    "turn_limit": "the turn limit was reached",
    "forced_recover": "a forced Recover found no card to take",
    "no_sixth_monster": "no monster is left in play before the sixth entered",
}


class _Log:
    """The little of a Table that knowledge.observed reads: card kinds and some events."""

    def __init__(self, kind, events):
        self.kind, self.events = kind, events


def _who(seat: int, o: int) -> str:
    return "you" if seat == o else f"p{seat + 1}"


def _cards(names, count: int) -> str:
    if names is None:
        return f"{count} card{'s' if count != 1 else ''}"
    return ", ".join(names) if names else "no card"


def narrate(before, move, after, seat: int | None) -> list[str]:
    game = after.game
    o = SPECTATOR if seat is None else seat
    kinds = game.data.kinds
    bt, at = before.t, after.t
    actor = None if before.is_chance else bt.actor
    lines = []
    shown = text(redact(actor, move, bt.pending, o))
    typ = type(move)
    if actor is None:
        lines.append(f"p{bt.actor + 1}'s hand goes under the pile in an order nobody sees ({shown})")
    elif typ is Place:
        lines.append(f"{_who(actor, o)} placed the hero disc on m{move.monster}")
    elif typ is FightAbility:
        lines.append(f"{_who(actor, o)} used the hero's ability on m{bt.disc[actor] + 1} ({shown}): "
                     f"{game.heroes[actor]} is broken now")
    elif typ in (FightWild, FightSlay):
        lines.append(f"{_who(actor, o)} played divine intervention on m{bt.disc[actor] + 1} ({shown})")
    elif typ is Support:
        lines.append(f"{_who(actor, o)} supported {_who(move.seat, o)} ({shown})")
    elif typ is Oracle:
        lines.append(f"{_who(actor, o)} consulted the Oracle")
    elif typ is Recover:
        lines.append(f"{_who(actor, o)} recovered {move.k} card{'s' if move.k != 1 else ''} ({shown})")
    elif typ is MoveTo:
        lines.append(f"{_who(actor, o)} moved the hero disc to m{move.monster} ({shown})")
    elif typ is FightCard:
        lines.append(f"{_who(actor, o)} fought m{bt.disc[actor] + 1} with {move.card}")
    else:  # a discard after Recover or Support, or the Oracle's choice (the events say it)
        lines.append(f"{_who(actor, o)} chose: {shown}")
    for e in observed(_Log(at.kind, at.events[len(bt.events):]), o):
        lines.extend(_event(e, o, kinds))
    for m_before, m_after in zip(bt.monsters, at.monsters):
        if m_after.defeated and not m_before.defeated:
            names = " + ".join(game.data.monsters[c][0] for c in m_after.cards)
            lines.append(f"m{m_after.id} {names} is defeated")
    for m in at.monsters[len(bt.monsters):]:
        names = " + ".join(game.data.monsters[c][0] for c in m.cards)
        needs = " ".join(kinds[a] for a, n in enumerate(m.req) for _ in range(n))
        lines.append(f"m{m.id} {names} enters{' (final)' if m.final else ''}, needs {needs}")
    if at.result is not None:
        word = "won" if at.result == "won" else "lost"
        lines.append(f"the mission is {word}: {REASONS.get(at.reason, at.reason)}")
    elif at.turn != bt.turn and at.turn > 0:
        lines.append(f"turn {at.turn}: {_who(at.turn_seat, o)} to play")
    return lines


def _event(e: tuple, o: int, kinds) -> list[str]:
    def nm(names):
        return None if names is None else [kinds[k] for k in names]

    typ = e[0]
    if typ == "draw":
        _, s, n, ks = e
        return [f"{_who(s, o)} drew {_cards(nm(ks), n)}"]
    if typ == "discard":
        _, s, k = e
        return [f"{_who(s, o)} discarded {'a card' if k is None else kinds[k]}"]
    if typ == "give":
        _, giver, receiver, n, ks = e
        return [f"{_who(giver, o)} handed {_cards(nm(ks), n)} to {_who(receiver, o)}"]
    if typ == "reveal":
        return [f"the Oracle shows {', '.join(nm(e[1]))} (top first)"]
    if typ == "back":
        _, s, k, order = e
        return [f"{_who(s, o)} discarded {kinds[k]} and put back {', '.join(nm(order)) or 'nothing'} (top first)"]
    if typ in ("under_draw", "under_discard"):
        pile = "draw" if typ == "under_draw" else "discard"
        return [f"{_who(e[1], o)} put {_cards(None, e[2])} under the {pile} pile"]
    if typ == "take_discard":
        _, s, n, ks = e
        return [f"{_who(s, o)} took {_cards(nm(ks), n)} from the discard pile"]
    return []  # a play: the move's own line said it
