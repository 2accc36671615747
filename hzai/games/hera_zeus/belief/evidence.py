"""What the opponent chose to do with its face-down cards, as the observer saw it.

The observer cannot tell which card of the opponent's hand went where, but it sees each
card go face down onto the table and can follow that physical card while it stays there.
For every face-down card of the opponent that is still hidden, the evidence says how it
got there and what the opponent did around it since:
- `setup`: placed at the deal (R-SETUP-2), else played from the hand (R-ACT-2);
- `row`: the row it was played at (1 the front);
- `covered`: how many cards the opponent played later that now stand in front of it in
  its column (a player hides what it protects).

It is read from the state's event log (each card that leaves a hand for that hand's own
side face down: a setup card or a play) matched in order with the moves of the history
that put cards there, so it uses the moves as the observer saw them (`play ? c2r3`) and
nothing of their hidden card. The opponent model of belief/inference.py weighs worlds
by it.
"""

from __future__ import annotations

from dataclasses import dataclass

from hzai.games.hera_zeus.rules import moves as mv


@dataclass(frozen=True)
class Placement:
    setup: bool
    row: int  # 1..4, where it was put
    covered: int = 0

    def to_json(self) -> dict:
        return {"setup": self.setup, "row": self.row, "covered": self.covered}


def _entries(state) -> list[tuple[int, int]]:
    """(side, card id) of every card put face down from its holder's hand onto the
    holder's own side, in order: a card taken from the hand and put on the field at once."""
    events = state.events
    out = []
    for first, second in zip(events, events[1:]):
        if (first.kind == second.kind == "move" and first.card == second.card and first.src is not None
                and first.src[0] == "hand" and first.dst == ("limbo", first.src[1])
                and second.src == first.dst and second.dst == ("field", first.src[1])):
            out.append((first.src[1], first.card))
    return out


def _placements_in_history(state) -> list[tuple[bool, int]]:
    """(setup, row) of each card the history's moves put face down, in order."""
    out = []
    for move in state.history:
        if move.kind == mv.SETUP:
            out += [(True, 1) for ref in move.setup or () if ref is not None]
        elif move.kind == mv.PLAY:
            out.append((False, move.row))
    return out


def placement_evidence(state, observer: int, hidden: set[int]) -> dict[tuple[int, int], Placement]:
    """For each of the opponent's face-down cards in `hidden` (the cards the observer
    does not know), keyed by its slot (column, row index): how it came there. Empty
    when the history and the log do not match (a position built without its history)."""
    entries = _entries(state)
    placed = _placements_in_history(state)
    if len(entries) != len(placed) or not entries:
        return {}
    q = 1 - observer
    where = {}
    for order, ((side, card), (setup, row)) in enumerate(zip(entries, placed)):
        found = state.find_on_field(card)
        if side == q and found is not None and found[0] == q:
            where[card] = (order, setup, row, found[1], found[2])
    out = {}
    for card, (order, setup, row, c, r) in where.items():
        if card not in hidden or card in state.face_up:
            continue
        covered = sum(1 for o, s, _, c2, r2 in where.values() if o > order and not s and c2 == c and r2 < r)
        out[(c, r)] = Placement(setup, row, covered)
    return out
