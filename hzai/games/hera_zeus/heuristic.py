"""The heuristic bot's Hera and Zeus policy: a score per legal move, from the seat's
view only. Rules of thumb, in order (docs/bots.md):
1. win now: challenge or Pegasus a face-up hostage of the opponent;
2. a challenge the own front card is known to win (face-up defender, lower strength,
   no Medusa/Pandora trap), strongest attacker first;
3. Pythia: spy a hand of 5 or more, else turn over a column with 2+ face-down cards;
4. Pegasus from the hand at a hand of 3 or fewer cards (a third of a chance of the
   hostage at worst);
5. draw while the hand holds fewer than 5 cards;
6. play the strongest card to the front of a column whose front is weakest; the own
   hostage only behind another card;
7. otherwise any move that is not known to lose a card; decisions (`top`, `place`)
   by the same measures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.moves import Move

if TYPE_CHECKING:  # annotations only: the beliefs' inference reads this module's scores
    from hzai.games.hera_zeus.belief.view import View


def scores(view: View, moves: list[Move]) -> list[float]:
    me = view.observer
    return [_score(view, me, m) for m in moves]


def _front(view: View, side: int, col: int):
    column = view.columns[side][col]
    return column[0] if column else None


def _strength(view: View, slot) -> int | None:
    if slot is None or slot.figure or slot.card is None:
        return None
    card_type = _type(view, slot.card[0])
    return card_type.strength


def _type(view: View, name: str):
    return view.game.deck.type_named(name)


def play_score(card_type, row: int) -> float:
    """Rule 6: playing a card of `card_type` face down at `row` (1 the front); the
    opponent model of belief/inference.py reads the same numbers."""
    if card_type.kind == "hostage":
        return 3.0 if row >= 2 else -30.0
    strength = card_type.strength or 0
    return 4.0 + strength * 0.6 if row == 1 else 1.0 + strength * 0.1


def _score(view: View, me: int, move: Move) -> float:
    o = 1 - me
    k = move.kind
    if k in (mv.CHALLENGE, mv.PEGASUS_FRONT):
        defender = _front(view, o, move.col - 1)
        if defender is not None and defender.card is not None and defender.face_up:
            d = _type(view, defender.card[0])
            if d.kind == "hostage":
                return 100.0
            if k == mv.PEGASUS_FRONT:
                return 30.0 if (d.strength is not None and d.strength <= 1 and d.power not in ("medusa", "pandora")) else -5.0
            attacker = _front(view, me, move.col - 1)
            a = _type(view, attacker.card[0]) if attacker and attacker.card else None
            if a is None or d.power == "pandora":
                return -10.0
            if d.power == "medusa":
                return 40.0 if "slays_medusa" in a.traits else -20.0
            if a.power == "pythia" and "falls_to_pythia" in d.traits:
                return 45.0
            if a.strength is not None and d.strength is not None:
                return 20.0 + a.strength - d.strength if a.strength > d.strength else -15.0
        if k == mv.PEGASUS_FRONT:
            return 2.0
        attacker = _front(view, me, move.col - 1)
        strength = _strength(view, attacker)
        return 5.0 + (strength or 0) * 0.5 if (strength or 0) >= 5 else -1.0
    opponent_hand = len(view.hands[o])
    if k == mv.PEGASUS_HAND:
        return 25.0 if opponent_hand <= 3 else 1.0
    if k == mv.PYTHIA_SPY:
        return 12.0 if opponent_hand >= 5 else 0.5
    if k == mv.PYTHIA_TURN:
        hidden = sum(1 for s in view.columns[o][move.col - 1] if s.group is not None)
        return 10.0 + hidden if hidden >= 2 else 0.0
    if k == mv.DRAW:
        return 8.0 if len(view.hands[me]) < 5 else 1.0
    if k == mv.PLAY:
        return play_score(_type(view, move.card.name), move.row)
    if k == mv.GOD:
        return 9.0
    if k == mv.TOP:
        card_type = _type(view, move.card.name)
        return 10.0 - (card_type.strength if card_type.strength is not None else -1)
    if k == mv.PLACE:
        mine = _strength(view, _front(view, me, move.col - 1)) or 0
        return float(mine)
    if k == mv.RECALL:
        return -3.0
    return 0.5
