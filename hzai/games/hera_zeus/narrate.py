"""What a move did, in words, from one seat's side of the table.

`narrate(before, move, after, seat)` takes the referee's states around one move and
tells only what `seat` may know (None: a spectator, who sees what is public): the move,
the cards a challenge turned face up and which one lost, what Pegasus drew, what a spy
saw (to the spy only), which cards came back to a hand, whose turn starts, and the end
of the game and why. Front ends show these lines; they never name a hidden card.

A card is named only when the seat may know it (docs/rules.md, R-INFO): it lies face
up or on a discard pile, the seat holds it or owns it (a card taken by Sirens keeps its
owner's back), or this very move showed it to the seat. Anything else is "a card".
"""

from __future__ import annotations

from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules.moves import Move
from hzai.games.hera_zeus.rules.state import State
from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.state import FIGURE
from hzai.text import plural

PRONOUN = ("her", "his")  # Hera, Zeus


class _Teller:
    """Words for one seat: who did it, whose card, which card may be named."""

    def __init__(self, before: State, move: Move, after: State, seat: int | None):
        self.before, self.move, self.after, self.seat = before, move, after, seat
        self.shown = {e.card for e in after.events[len(before.events):]
                      if e.kind == "reveal" and (e.to is None or e.to == seat)}

    # ----- people ------------------------------------------------------------------------
    def who(self, p: int) -> str:
        return "you" if p == self.seat else PLAYERS[p].capitalize()

    def Who(self, p: int) -> str:
        return self.who(p).capitalize()

    def whose(self, p: int) -> str:
        return "your" if p == self.seat else PLAYERS[p].capitalize() + "'s"

    def his(self, p: int) -> str:
        return "your" if p == self.seat else PRONOUN[p]

    def verb(self, p: int, base: str, third: str | None = None) -> str:
        return base if p == self.seat else (third or base + "s")

    # ----- cards -------------------------------------------------------------------------
    def knows(self, card: int, state: State) -> bool:
        c = state.card(card)
        if card in self.shown or card in state.face_up or any(card in pile for pile in state.discards):
            return True
        if self.seat is None:
            return False
        if c.owner == self.seat or card in state.hands[self.seat] or card in state.side_cards(self.seat):
            return True
        return False

    def name(self, card: int, holder: int | None = None) -> str:
        """The card's name, marked when the holder is not its owner (a Sirens card)."""
        c = self.before.card(card)
        if holder is not None and c.owner != holder:
            owner = "yours" if c.owner == self.seat else PLAYERS[c.owner].capitalize() + "'s"
            return f"{c.name} ({owner})"
        return c.name

    def strength(self, card: int) -> str:
        s = self.before.card(card).type.strength
        return f"{self.before.card(card).name} ({'no strength' if s is None else s})"

    def listing(self, cards: list[int], holder: int) -> str:
        return ", ".join(self.name(x, holder) for x in cards) if cards else "nothing"

    # ----- piles -------------------------------------------------------------------------
    def discarded(self) -> dict[int, list[int]]:
        """The cards that landed on each pile with this move, bottom first."""
        out = {}
        for p in (0, 1):
            old = set(self.before.discards[p])
            out[p] = [x for x in self.after.discards[p] if x not in old]
        return out


def _slot(c: int, r: int) -> str:
    return f"c{c + 1}r{r + 1}"


def _mover(before: State, move: Move) -> int | None:
    if move.is_chance:
        return before.pending[0].player if before.pending else None
    return before.to_move


def narrate(before: State, move: Move, after: State, seat: int | None) -> list[str]:
    """The lines `seat` reads about `move`, played on `before` and giving `after`."""
    t = _Teller(before, move, after, seat)
    p = _mover(before, move)
    lines = _TELLERS[move.kind](t, p) if p is not None else []
    lines += _decision_due(t)
    if after.is_over and not before.is_over:
        lines.append(ending(after, seat, before, move))
    elif after.turn != before.turn and after.phase == "play":
        q = after.turn_player
        lines.append(f"Turn {after.turn}: {t.whose(q)} turn, {after.ap} AP"
                     + (" (the figure is on the field)." if after.figure_column(q) is not None else "."))
    return lines


def _decision_due(t: _Teller) -> list[str]:
    after = t.after
    if not after.pending or after.is_over or (t.before.pending and t.before.pending[0] == after.pending[0]):
        return []
    due = after.pending[0]
    if due.kind == "place":
        card = due.cards[0]
        return [f"{t.Who(due.player)} {t.verb(due.player, 'choose')} a column of {t.whose(1 - due.player)} side "
                f"for {t.name(card)}: it goes face up at r1."]
    if due.kind == "top":
        return [f"{t.Who(due.player)} {t.verb(due.player, 'choose')} which of {t.his(due.player)} lost cards "
                f"lies on top of {t.his(due.player)} discard pile."]
    return []


# ----- one function per move kind ----------------------------------------------------------
def _setup(t: _Teller, p: int) -> list[str]:
    if p == t.seat:
        placed = [f"c{c + 1} {ref.name}" for c, ref in enumerate(t.move.setup) if ref is not None]
        return [f"You set up your front row face down: {', '.join(placed) or 'nothing'}."]
    cols = [f"c{c + 1}" for c, ref in enumerate(t.move.setup) if ref is not None]
    return [f"{t.Who(p)} sets up {len(cols)} face-down card{'s' if len(cols) != 1 else ''} "
            f"({', '.join(cols) or 'none'})."]


def _draw(t: _Teller, p: int) -> list[str]:
    drawn = t.before.decks[p][0]
    if p == t.seat:
        return [f"You draw {t.name(drawn, p)} ({len(t.after.decks[p])} left in your deck)."]
    return [f"{t.Who(p)} draws a card ({len(t.after.hands[p])} in {t.his(p)} hand)."]


def _play(t: _Teller, p: int) -> list[str]:
    card = t.before.resolve_ref(t.move.card, t.before.hands[p], p)
    where = f"c{t.move.col}r{t.move.row}"
    if p == t.seat:
        return [f"You play {t.name(card, p)} face down at {where}."]
    if t.before.card(card).owner == t.seat:  # a card Sirens took from the seat keeps its back
        return [f"{t.Who(p)} plays your {t.before.card(card).name} face down at {where}."]
    return [f"{t.Who(p)} {t.verb(p, 'play')} a card face down at {where}."]


def _challenge(t: _Teller, p: int) -> list[str]:
    o, c = 1 - p, t.move.col - 1
    attacker, defender = t.before.columns[p][c][0], t.before.columns[o][c][0]
    lines = [f"{t.Who(p)} {t.verb(p, 'challenge')} in c{c + 1}: {t.whose(p)} {t.strength(attacker)} "
             f"against {t.whose(o)} {t.strength(defender)}."]
    a, d = t.before.card(attacker).type, t.before.card(defender).type
    lost = {x for pile in t.discarded().values() for x in pile}
    if d.kind == "hostage":
        return lines  # the ending says who found it
    if d.power == "pandora":
        return lines + _pandora(t, p, c)
    if d.power == "medusa":
        if defender in lost:
            return lines + [f"{a.name} slays Medusa: {t.whose(o)} Medusa is discarded, "
                            f"{t.whose(p)} {a.name} stays face up at c{c + 1}r1."]
        return lines + [f"Medusa turns {t.whose(p)} {a.name} to stone: it is discarded, Medusa stays face up."]
    if a.power == "pythia" and "falls_to_pythia" in d.traits:
        return lines + [f"Pythia beats {d.name}: {t.whose(o)} {d.name} is discarded."]
    if d.power == "pythia" and t.before.game.variants.pythia_defence == "always_loses":
        return lines + [f"Pythia always loses in defence: {t.whose(o)} Pythia is discarded."]
    if attacker in lost and defender in lost:
        return lines + [f"Equal strength: both {a.name} and {d.name} are discarded."]
    if defender in lost:
        return lines + [f"{t.whose(o).capitalize()} {d.name} is discarded; {t.whose(p)} {a.name} "
                        f"stays face up at c{c + 1}r1."]
    return lines + [f"{t.whose(p).capitalize()} {a.name} is discarded; {t.whose(o)} {d.name} "
                    f"stays face up at c{c + 1}r1."]


def _pandora(t: _Teller, p: int, c: int) -> list[str]:
    gone = t.discarded()
    lines = [f"Pandora's box opens: column c{c + 1} is wiped on both sides (figures stay)."]
    for side in (1 - p, p):
        lines.append(f"{t.Who(side)} lost: {t.listing(gone[side], side)}.")
    return lines


def _pegasus_hand(t: _Teller, p: int) -> list[str]:
    o = 1 - p
    return [f"{t.Who(p)} {t.verb(p, 'play')} Pegasus against {t.whose(o)} hand ({plural(len(t.before.hands[o]), 'card')}): "
            "one is drawn at random."]


def _chance(t: _Teller, p: int) -> list[str]:
    o = 1 - p
    drawn = t.before.resolve_ref(t.move.card, t.before.hands[o], o)
    kind = t.before.card(drawn).type
    lines = [f"Pegasus draws {t.name(drawn, o)} from {t.whose(o)} hand."]
    if kind.kind == "hostage":
        return lines
    if kind.power == "pandora":
        gone = t.discarded()[o]
        return lines + [f"Pandora empties {t.whose(o)} whole hand onto {t.his(o)} discard pile: "
                        f"{t.listing(gone, o)}."]
    if t.after.pending and t.after.pending[0].kind == "place":
        return lines
    return lines + [f"{kind.name} is discarded" + ("." if kind.kind == "myth" or kind.strength is None
                                                   or kind.strength < 2 else ": no column has room for it.")]


def _place(t: _Teller, p: int) -> list[str]:
    card = t.before.pending[0].cards[0]
    return [f"{t.Who(p)} {t.verb(p, 'place')} {t.name(card)} face up at {t.whose(1 - p)} c{t.move.col}r1."]


def _pegasus_front(t: _Teller, p: int) -> list[str]:
    o, c = 1 - p, t.move.col - 1
    target = t.before.columns[o][c][0]
    if target == FIGURE:
        return [f"{t.Who(p)} {t.verb(p, 'play')} Pegasus at {t.whose(o)} c{c + 1}r1: "
                f"{t.whose(o)} figure goes back off the field."]
    kind = t.before.card(target).type
    lines = [f"{t.Who(p)} {t.verb(p, 'play')} Pegasus at {t.whose(o)} c{c + 1}r1: it is {t.strength(target)}."]
    if kind.kind == "hostage":
        return lines
    if kind.power == "pandora":
        return lines + _pandora(t, p, c)
    if kind.power == "medusa":
        return lines + ["Medusa stays face up."]
    if kind.strength is not None and kind.strength <= 1:
        return lines + [f"{t.whose(o).capitalize()} {kind.name} is discarded."]
    return lines + [f"{kind.name} stays, face up."]


def _pythia_spy(t: _Teller, p: int) -> list[str]:
    o = 1 - p
    hand = t.before.hands[o]
    if p == t.seat:
        lines = [f"You play Pythia and see {t.whose(o)} hand: {t.listing(sorted(hand, key=t.name), o)}."]
    elif o == t.seat:
        lines = [f"{t.Who(p)} plays Pythia and sees your whole hand ({plural(len(hand), 'card')})."]
    else:
        lines = [f"{t.Who(p)} plays Pythia and sees {t.whose(o)} hand ({len(hand)} cards)."]
    gone = t.discarded()[o]
    if gone:
        lines.append(f"From {t.whose(o)} hand Pythia discards {t.listing(gone, o)}.")
    return lines


def _pythia_turn(t: _Teller, p: int) -> list[str]:
    o, c = 1 - p, t.move.col - 1
    turned = [(r, x) for r, x in enumerate(t.before.columns[o][c]) if x != FIGURE and x not in t.before.face_up]
    shown = ", ".join(f"{t.name(x, o)} at c{c + 1}r{r + 1}" for r, x in turned)
    return [f"{t.Who(p)} {t.verb(p, 'play')} Pythia on {t.whose(o)} column c{c + 1}: "
            + (f"turned face up: {shown}." if turned else "every card there already lay face up.")]


def _sirens(t: _Teller, p: int) -> list[str]:
    o = 1 - p
    taken = t.before.discards[o][-1]
    return [f"{t.Who(p)} {t.verb(p, 'play')} Sirens and {t.verb(p, 'take')} {t.name(taken)} from the top of "
            f"{t.whose(o)} discard pile into {t.his(p)} hand."]


def _hades(t: _Teller, p: int) -> list[str]:
    return [f"{t.Who(p)} {t.verb(p, 'play')} Hades and {t.verb(p, 'take')} {t.move.card.name} back from "
            f"{t.his(p)} discard pile."]


def _persephone(t: _Teller, p: int) -> list[str]:
    back = len([x for x in t.after.hands[p] if x not in t.before.hands[p]])
    what = f"{back} Pegasus" if back else "nothing"
    return [f"{t.Who(p)} {t.verb(p, 'play')} Persephone and {t.verb(p, 'take')} back {what} from "
            f"{t.his(p)} discard pile."]


def _dionysus(t: _Teller, p: int) -> list[str]:
    m = t.move
    card = t.before.columns[p][m.col - 1][m.row - 1]
    what = f"{t.whose(p)} {t.name(card, p)}" if t.knows(card, t.before) else "a face-down card"
    return [f"{t.Who(p)} {t.verb(p, 'play')} Dionysus: {what} moves from c{m.col}r{m.row} "
            f"to c{m.to_col}r{m.to_row}."]


def _god(t: _Teller, p: int) -> list[str]:
    god = t.before.card(t.before.deck.god_id[p]).name
    return [f"{t.Who(p)} {t.verb(p, 'play')} the god card {god} (no AP): {t.his(p)} figure stands at "
            f"c{t.move.col}r1; {t.after.ap} AP left this turn."]


def _recall(t: _Teller, p: int) -> list[str]:
    c = t.before.figure_column(p)
    extra = " discarding a Pegasus" if t.before.game.variants.figure_removal == "pegasus" else ""
    return [f"{t.Who(p)} {t.verb(p, 'recall')} {t.his(p)} figure from c{c + 1}{extra}."]


def _top(t: _Teller, p: int) -> list[str]:
    return [f"{t.Who(p)} {t.verb(p, 'put')} {t.move.card.name} on top of {t.his(p)} discard pile."]


_TELLERS = {
    mv.SETUP: _setup, mv.DRAW: _draw, mv.PLAY: _play, mv.CHALLENGE: _challenge,
    mv.PEGASUS_HAND: _pegasus_hand, mv.PEGASUS_FRONT: _pegasus_front, mv.PLACE: _place,
    mv.PYTHIA_SPY: _pythia_spy, mv.PYTHIA_TURN: _pythia_turn, mv.SIRENS: _sirens, mv.HADES: _hades,
    mv.PERSEPHONE: _persephone, mv.DIONYSUS: _dionysus, mv.GOD: _god, mv.RECALL: _recall, mv.TOP: _top,
    mv.CHANCE: _chance,
}


# ----- the end of the game ----------------------------------------------------------------
def _why(t: _Teller, before: State, after: State) -> str:
    reason = after.reason or ""
    if after.winner is None:
        if reason == "turn_limit":
            return f"the turn limit ({after.game.variants.turn_limit} turns) was reached"
        return reason.replace("_", " ")
    w, loser = after.winner, 1 - after.winner
    hostage = before.deck.hostage_id[loser]
    hostage_name = before.card(hostage).name
    if reason == "hostage_found":
        where = before.find_on_field(hostage)
        if where is not None:
            return f"{t.who(w)} found {t.whose(loser)} hostage {hostage_name} at {_slot(where[1], where[2])}"
        return f"{t.whose(w)} Pegasus drew {t.whose(loser)} hostage {hostage_name} from {t.his(loser)} hand"
    if reason == "pandora":
        taken = [q for q in (0, 1) if before.deck.hostage_id[q] in {x for pile in t.discarded().values() for x in pile}]
        if len(taken) == 2:
            return f"Pandora's box took both hostages, and the challenger, {t.who(loser)}, loses"
        return f"Pandora's box took {t.whose(loser)} hostage {hostage_name}"
    if reason == "no_cards":
        return f"{t.who(loser)} had no card left on {t.his(loser)} side at the start of {t.his(loser)} turn"
    if reason == "no_action":
        return f"{t.who(loser)} had {after.ap} AP left and no legal action"
    return reason.replace("_", " ")


def ending(after: State, seat: int | None, before: State | None = None, move: Move | None = None) -> str:
    """'Game over: <why>. <who wins>.' for the move that took `before` to `after`
    (without `before`, where a hostage was found is not told)."""
    before = before or after
    t = _Teller(before, move, after, seat)
    why = _why(t, before, after)
    if after.winner is None:
        result = "The game is drawn."
    else:
        result = "You win!" if after.winner == seat else f"{PLAYERS[after.winner].capitalize()} wins."
    return f"Game over: {why[0].upper() + why[1:]}. {result}"
