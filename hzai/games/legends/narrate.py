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


def _who(game, seat: int, o: int, start: bool = False) -> str:
    """A seat by its hero: "Atalanta (p2)", or "you" ("You" at the start of a sentence)."""
    if seat == o:
        return "You" if start else "you"
    return f"{game.heroes[seat]} (p{seat + 1})"


def _cards(names, count: int) -> str:
    if names is None:
        return f"{count} card{'s' if count != 1 else ''}"
    return _listed(names) if names else "no card"


def _listed(words) -> str:
    words = list(words)
    return " and ".join(words) if len(words) <= 2 else f"{', '.join(words[:-1])} and {words[-1]}"


def _monster(game, monsters, number: int) -> str:
    """"m2 Cyclops" (a chimera: "m5 Harpy + Gorgon"), by the monster's id."""
    for m in monsters:
        if m.id == number:
            return f"m{number} {' + '.join(game.data.monsters[c][0] for c in m.cards)}"
    return f"m{number}"


def narrate(before, move, after, seat: int | None) -> list[str]:
    game = after.game
    o = SPECTATOR if seat is None else seat
    kinds = game.data.kinds
    bt, at = before.t, after.t
    actor = None if before.is_chance else bt.actor
    lines = []
    shown = text(redact(actor, move, bt.pending, o))
    typ = type(move)
    who = None if actor is None else _who(game, actor, o, start=True)
    disc = "your disc" if actor == o else "the hero disc"
    fights = (FightAbility, FightWild, FightSlay, FightCard)
    here = _monster(game, at.monsters, bt.disc[actor] + 1) if typ in fights and actor is not None else ""
    events = observed(_Log(at.kind, at.events[len(bt.events):]), o)

    def take(kind: str):
        """The first event of `kind` by the mover, taken out of `events`: the move's own
        line tells it, so that nothing is said twice."""
        for k, e in enumerate(events):
            if e[0] == kind and e[1] == actor:
                return events.pop(k)
        return None

    def nm(names):
        return None if names is None else [kinds[k] for k in names]

    if actor is None:
        lines.append(f"{_who(game, bt.actor, o, start=True)}'s hand goes under the pile in an order nobody sees "
                     f"({shown}).")
    elif typ is Place:
        lines.append(f"{who} placed {disc} on {_monster(game, at.monsters, move.monster)}.")
    elif typ is FightAbility:
        attribute = game.data.attributes[game.hero_attr[actor]]
        lines.append(f"{who} used {game.heroes[actor]}'s ability on {here} ({shown}): the card counts as "
                     f"{attribute}, and {game.heroes[actor]}'s disc is broken now.")
    elif typ is FightWild:
        lines.append(f"{who} played a divine intervention on {here} as a wild card ({shown}).")
    elif typ is FightSlay:
        lines.append(f"{who} played a divine intervention sideways on {here} to slay it ({shown}).")
    elif typ is Support:
        given = take("give")
        cards = _cards(nm(given[4]), given[3]) if given else shown
        lines.append(f"{who} supported {_who(game, move.seat, o)} with {cards}.")
    elif typ is Oracle:
        lines.append(f"{who} consulted the Oracle.")
    elif typ is Recover:
        drawn = take("draw")
        got = f"drew {_cards(nm(drawn[3]), drawn[2])}" if drawn else f"took {_cards(None, move.k)}"
        lines.append(f"{who} recovered: {got}.")
    elif typ is MoveTo:
        paid = take("discard")
        cost = "" if paid is None else f", discarding {'a card' if paid[2] is None else kinds[paid[2]]}"
        lines.append(f"{who} moved {disc} to {_monster(game, at.monsters, move.monster)}{cost}.")
    elif typ is FightCard:
        lines.append(f"{who} fought {here} with {move.card}.")
    elif not events:  # a discard after Recover or Support, or the Oracle's choice: its events say it
        lines.append(f"{who} chose: {shown}.")
    for e in events:
        lines.extend(_event(game, e, o, kinds))
    for m_before, m_after in zip(bt.monsters, at.monsters):
        if m_after.defeated and not m_before.defeated:
            lines.append(f"{_monster(game, at.monsters, m_after.id)} is defeated.")
    for m in at.monsters[len(bt.monsters):]:
        needs = _listed(kinds[a] for a, n in enumerate(m.req) for _ in range(n))
        lines.append(f"{_monster(game, at.monsters, m.id)} enters{' as the final monster' if m.final else ''}; "
                     f"it needs {needs}.")
    if at.result is not None:  # "Game over" opens the ending, in every game's narration
        word = "won" if at.result == "won" else "lost"
        team = "" if o == SPECTATOR else f" Your team {word}."
        lines.append(f"Game over: the mission is {word}: {REASONS.get(at.reason, at.reason)}.{team}")
    elif at.turn != bt.turn and at.turn > 0:
        turn = "your turn" if at.turn_seat == o else f"{_who(game, at.turn_seat, o)} to play"
        lines.append(f"Turn {at.turn}: {turn}.")
    return lines


def _event(game, e: tuple, o: int, kinds) -> list[str]:
    def nm(names):
        return None if names is None else [kinds[k] for k in names]

    def who(seat):
        return _who(game, seat, o, start=True)

    typ = e[0]
    if typ == "draw":
        _, s, n, ks = e
        return [f"{who(s)} drew {_cards(nm(ks), n)}."]
    if typ == "discard":
        _, s, k = e
        return [f"{who(s)} discarded {'a card' if k is None else kinds[k]}."]
    if typ == "give":
        _, giver, receiver, n, ks = e
        return [f"{who(giver)} handed {_cards(nm(ks), n)} to {_who(game, receiver, o)}."]
    if typ == "reveal":
        return [f"The Oracle shows {_listed(nm(e[1]))} (top first)."]
    if typ == "back":
        _, s, k, order = e
        return [f"{who(s)} discarded {kinds[k]} and put back {_listed(nm(order)) or 'nothing'} (top first)."]
    if typ in ("under_draw", "under_discard"):
        pile = "draw" if typ == "under_draw" else "discard"
        return [f"{who(e[1])} put {_cards(None, e[2])} under the {pile} pile."]
    if typ == "take_discard":
        _, s, n, ks = e
        return [f"{who(s)} took {_cards(nm(ks), n)} from the discard pile."]
    return []  # a play: the move's own line said it
