"""What each move does. Every function cites the rule it carries out."""

from __future__ import annotations

from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.variants import COLUMN_DEPTH, COLUMNS, FIGURE_AP, HAND_LIMIT
from hzai.games.hera_zeus.rules.legal import chance_outcomes, legal_moves
from hzai.games.hera_zeus.rules.moves import CardRef, Move
from hzai.games.hera_zeus.rules.state import FIGURE, Event, IllegalMoveError, Pending, State
from hzai.text import plural

# Moves that cost no action point (R-TURN-4): the god card, and decisions, which are
# part of the action that asked for them.
FREE_KINDS = {mv.GOD, mv.PLACE, mv.TOP, mv.SETUP, mv.CHANCE}


def _mover(state: State) -> int:
    return state.turn_player if state.to_move is None else state.to_move


def canonical(state: State, move: Move) -> Move:
    """The move as the legal-move list writes it, so that `Hydra@hera` said by Hera
    and `Hydra` are the same move; raises IllegalMoveError when nothing matches."""
    if move.kind == mv.SETUP and move.setup is not None and state.to_move is not None:
        mover = state.to_move
        return Move(mv.SETUP, setup=tuple(r if r is None or r.owner not in (None, mover) else CardRef(r.name) for r in move.setup))
    if move.kind == mv.PLAY and move.card is not None:
        # The mover's own hand: a decision of the other player may be due in this turn,
        # and resolving against the turn player's hand would tell that player what it holds.
        p = _mover(state)
        card = state.resolve_ref(move.card, state.hands[p], p)
        if card is None:
            raise IllegalMoveError(f"{move}: no {move.card} in {PLAYERS[p]}'s hand")
        return Move(mv.PLAY, card=state.card_ref(card, state.hands[p], p), col=move.col, row=move.row)
    if move.kind == mv.HADES and move.card is not None:
        p = _mover(state)
        pile = state.discards[p]
        card = state.resolve_ref(move.card, pile, p, topmost=True)
        if card is None:
            raise IllegalMoveError(f"{move}: no {move.card} on {PLAYERS[p]}'s discard pile")
        return Move(mv.HADES, card=state.card_ref(card, pile, p))
    if move.kind == mv.TOP and move.card is not None:  # R-PAN-2: names ignore the owner
        return Move(mv.TOP, card=CardRef(move.card.name))
    if move.kind == mv.CHANCE and move.card is not None and state.is_chance:
        owner = 1 - state.pending[0].player
        hand = state.hands[owner]
        card = state.resolve_ref(move.card, hand, owner)
        if card is None:
            raise IllegalMoveError(f"{move}: no {move.card} in {PLAYERS[owner]}'s hand")
        return Move(mv.CHANCE, card=state.card_ref(card, hand, owner))
    return move


def apply_move(state: State, move: Move) -> None:
    if state.is_over:
        raise IllegalMoveError(f"{move}: the game is over")
    if move.kind == mv.CHANCE:
        if not state.is_chance:
            raise IllegalMoveError(f"{move}: no chance event is due here")
        move = canonical(state, move)
        if move not in {m for m, _ in chance_outcomes(state)}:
            raise IllegalMoveError(f"{move}: not a possible draw")
    else:
        if state.is_chance:
            raise IllegalMoveError(f"{move}: a chance result (the card Pegasus drew) is due first")
        move = canonical(state, move)
        if move not in set(legal_moves(state)):
            raise IllegalMoveError(f"{move}: {why_illegal(state, move)}")
    apply_legal(state, move)


def why_illegal(state: State, move: Move) -> str:
    """Why `move` (canonical, not a chance result) is not legal here, in the mover's
    words and from what the mover knows; the rule checks mirror hzai.games.hera_zeus.rules.legal."""
    if state.pending:
        due = state.pending[0]
        if move.kind == due.kind:
            return _why_decision(state, move, due)
        return f"{PLAYERS[due.player]} must first decide '{due.kind}'"
    if state.phase == "setup" and move.kind != mv.SETUP:
        return "the front rows must be set up first"
    if state.phase != "setup" and move.kind == mv.SETUP:
        return "setup is over"
    if move.kind in (mv.PLACE, mv.TOP):
        return f"no '{move.kind}' decision is pending"
    p = state.to_move
    if move.kind == mv.SETUP:
        return _why_setup(state, move, p)
    if state.ap <= 0:
        return "no AP left"
    if state.first_turns and move.kind in (mv.CHALLENGE, mv.PEGASUS_FRONT, mv.PEGASUS_HAND):
        return "no challenge in a player's first turn (R-TURN-6)"
    why = _WHY.get(move.kind, lambda *_: None)(state, move, p)
    return why or f"not legal for {PLAYERS[p]} in this position"


def _opponent(p: int) -> str:
    return PLAYERS[1 - p].capitalize() + "'s"


def _holds(state: State, p: int, power: str) -> bool:
    return any(state.card(x).type.power == power for x in state.hands[p])


def _lacking(state: State, p: int, power: str) -> str | None:
    name = next((c.name for c in state.deck.cards if c.type.power == power), power.capitalize())
    return None if _holds(state, p, power) else f"you hold no {name}"


def _column_full(state: State, side: int, c: int, p: int) -> str | None:
    n = len(state.columns[side][c])
    if n < COLUMN_DEPTH:
        return None
    owner = "your column" if side == p else f"{_opponent(p)} column"
    return f"{owner} c{c + 1} is full ({plural(n, 'occupant')})"


def _rows_open(state: State, side: int, c: int, extra: int) -> tuple[int, int]:
    """The rows a card may end at in column c: behind a figure, up to length + extra."""
    column = state.columns[side][c]
    first = 2 if column and column[0] == FIGURE else 1
    return first, len(column) + extra


def _why_setup(state: State, move: Move, p: int) -> str | None:
    hand = [state.card(x) for x in state.hands[p]]
    for ref in move.setup or ():
        if ref is None:
            continue
        same = [c for c in hand if c.name.lower() == ref.name.lower()]
        if not same:
            return f"you hold no {ref.name}"
        if not same[0].type.placeable:
            return f"{ref.name} has no strength: myth-only cards are never placed"
        wanted = sum(1 for r in move.setup if r is not None and r.name.lower() == ref.name.lower())
        if wanted > len(same):
            return f"you hold {len(same)} {ref.name}, not {wanted}"
    placeable = sum(1 for c in hand if c.type.placeable)
    if any(r is None for r in move.setup or ()) and placeable >= COLUMNS:
        return f"every column needs a card while you hold {placeable} placeable cards (R-SETUP-2)"
    return None


def _why_decision(state: State, move: Move, due: Pending) -> str:
    if due.kind == "place":
        c, side = move.col - 1, 1 - due.player
        full = _column_full(state, side, c, due.player)
        if full:
            return full
        return f"{_opponent(due.player)} figure stands at c{c + 1}r1: the card cannot go in front of it"
    names = sorted({state.card(x).name for x in due.cards})
    return f"{move.card.name} is not among your lost cards ({', '.join(names)})"


def _why_draw(state: State, move: Move, p: int) -> str | None:
    if not state.decks[p]:
        return "your deck is empty"
    if len(state.hands[p]) >= HAND_LIMIT:
        return f"your hand is full ({plural(len(state.hands[p]), 'card')})"
    return None


def _why_play(state: State, move: Move, p: int) -> str | None:
    card = state.resolve_ref(move.card, state.hands[p], p)
    if card is None:
        return f"you hold no {move.card}"
    if not state.card(card).type.placeable:
        return f"{state.card(card).name} has no strength: myth-only cards are never placed"
    c = move.col - 1
    full = _column_full(state, p, c, p)
    if full:
        return full
    first, last = _rows_open(state, p, c, 1)
    if move.row < first:
        return f"your figure stands at c{c + 1}r1: play behind it (r{first}..r{last})"
    return f"your column c{c + 1} has {plural(len(state.columns[p][c]), 'occupant')}: play at r{first}..r{last}"


def _why_challenge(state: State, move: Move, p: int) -> str | None:
    c, o = move.col - 1, 1 - p
    mine, theirs = state.columns[p][c], state.columns[o][c]
    if not mine:
        return f"your column c{c + 1} is empty: nothing there to challenge with"
    if not theirs:
        return f"{_opponent(p)} column c{c + 1} is empty"
    if mine[0] == FIGURE:
        return f"your figure stands at c{c + 1}r1: no challenge through a figure"
    if theirs[0] == FIGURE:
        return f"{_opponent(p)} figure stands at c{c + 1}r1: no challenge through a figure"
    name = state.card(mine[0]).name
    return f"your {name} at c{c + 1}r1 cannot challenge: the hostage, Medusa and Pandora never challenge"


def _why_pegasus(state: State, move: Move, p: int) -> str | None:
    lacking = _lacking(state, p, "pegasus")
    if lacking:
        return lacking
    if move.kind == mv.PEGASUS_HAND:
        return f"{_opponent(p)} hand is empty" if not state.hands[1 - p] else None
    return f"{_opponent(p)} column c{move.col} is empty" if not state.columns[1 - p][move.col - 1] else None


def _why_pythia(state: State, move: Move, p: int) -> str | None:
    lacking = _lacking(state, p, "pythia")
    if lacking or move.kind == mv.PYTHIA_SPY:
        return lacking
    return f"{_opponent(p)} column c{move.col} is empty" if not state.columns[1 - p][move.col - 1] else None


def _why_sirens(state: State, move: Move, p: int) -> str | None:
    lacking = _lacking(state, p, "sirens")
    if lacking:
        return lacking
    pile = state.discards[1 - p]
    if not pile:
        return f"{_opponent(p)} discard pile is empty"
    top = state.card(pile[-1]).type
    strength = "no strength" if top.strength is None else f"strength {top.strength}"
    return f"Sirens: the top of {_opponent(p)} discard pile is {top.name} ({strength}); Sirens take strength 1..7 only"


def _why_dionysus(state: State, move: Move, p: int) -> str | None:
    lacking = _lacking(state, p, "dionysus")
    if lacking:
        return lacking
    c, r, c2 = move.col - 1, move.row - 1, move.to_col - 1
    column = state.columns[p][c]
    if r >= len(column):
        return f"your c{move.col}r{move.row} is empty"
    if column[r] == FIGURE:
        return "Dionysus never moves a figure"
    if (c2, move.to_row - 1) == (c, r):
        return f"the card already stands at c{move.col}r{move.row}"
    if c2 != c:
        full = _column_full(state, p, c2, p)
        if full:
            return full
    first, last = _rows_open(state, p, c2, 0 if c2 == c else 1)
    if move.to_row < first:
        return f"your figure stands at c{move.to_col}r1: no card goes in front of it"
    return f"in your column c{move.to_col} the card can end at r{first}..r{last}"


def _why_god(state: State, move: Move, p: int) -> str | None:
    god = state.card(state.deck.god_id[p]).name
    if state.deck.god_id[p] not in state.hands[p]:
        return f"you do not hold your god card {god}"
    figure = state.figure_column(p)
    if figure is not None:
        return f"your figure already stands at c{figure + 1}r1"
    c = move.col - 1
    if not state.columns[p][c]:
        return f"your column c{c + 1} is empty: the figure goes only into a column with cards"
    return _column_full(state, p, c, p)


def _why_recall(state: State, move: Move, p: int) -> str | None:
    if state.figure_column(p) is None:
        return "your figure is not on the field"
    if state.game.variants.figure_removal == "pegasus" and not _holds(state, p, "pegasus"):
        return "with the variant figure_removal=pegasus a recall discards a Pegasus, and you hold none"
    return None


_WHY = {
    mv.DRAW: _why_draw,
    mv.PLAY: _why_play,
    mv.CHALLENGE: _why_challenge,
    mv.PEGASUS_HAND: _why_pegasus,
    mv.PEGASUS_FRONT: _why_pegasus,
    mv.PYTHIA_SPY: _why_pythia,
    mv.PYTHIA_TURN: _why_pythia,
    mv.SIRENS: _why_sirens,
    mv.HADES: lambda state, move, p: _lacking(state, p, "hades"),
    mv.PERSEPHONE: lambda state, move, p: _lacking(state, p, "persephone"),
    mv.DIONYSUS: _why_dionysus,
    mv.GOD: _why_god,
    mv.RECALL: _why_recall,
}


def apply_legal(state: State, move: Move) -> None:
    """Carry out a move already known to be legal and canonical."""
    state._acting = (state.turn, move.kind, -1 if move.is_chance or state.to_move is None else state.to_move, True)
    state.history.append(move)
    state.last_mover = None if move.is_chance else state.to_move
    if move.kind not in FREE_KINDS:
        state.ap -= 1
        state.ap_spent += 1
    HANDLERS[move.kind](state, move)
    state._settle()
    if state._acting[3]:  # it logged nothing: its stamp alone, so the history sees every move
        state.events.append(Event("act", **state._stamp()))
    state._acting = None


# ----- setup (R-SETUP-2) ------------------------------------------------------------
def _setup(state: State, move: Move) -> None:
    p = state.to_move
    for c, ref in enumerate(move.setup):
        if ref is not None:
            card = state.resolve_ref(ref, state.hands[p], p)
            state._take_from_hand(p, card)
            state._insert_on_field(p, c, 0, card, face_up=False)
    if p == 0:
        state.to_move = 1
    else:
        state.phase = "play"
        state._start_turn(state.game.variants.first_player_index)


# ----- basic actions (R-ACT) --------------------------------------------------------
def _draw(state: State, move: Move) -> None:
    p = state.turn_player
    card = state.decks[p].pop(0)
    state._to_hand(p, card, ("deck", p))


def _play(state: State, move: Move) -> None:
    p = state.turn_player
    card = state.resolve_ref(move.card, state.hands[p], p)
    state._take_from_hand(p, card)
    state._insert_on_field(p, move.col - 1, move.row - 1, card, face_up=False)


def _recall(state: State, move: Move) -> None:
    """R-ACT-5; variant figure_removal=pegasus discards a Pegasus from the hand too."""
    p = state.turn_player
    if state.game.variants.figure_removal == "pegasus":
        pegasus = _hand_card_with_power(state, p, "pegasus")
        state._take_from_hand(p, pegasus)
        state._limbo_to_pile(p, pegasus)
    state._remove_from_field(p, state.figure_column(p), 0)


def _hand_card_with_power(state: State, p: int, power: str) -> int:
    """The card used for a power: the player's own copy first, then a Sirens-taken one."""
    cards = [x for x in state.hands[p] if state.card(x).type.power == power]
    own = [x for x in cards if state.card(x).owner == p]
    return min(own or cards)


def _use_myth(state: State, p: int, power: str) -> int:
    """R-ACT-4: the myth card leaves the hand before its power is resolved."""
    return state._take_from_hand(p, _hand_card_with_power(state, p, power))


# ----- field challenge (R-CH, R-MED, R-PYT-3) ---------------------------------------
def _challenge(state: State, move: Move) -> None:
    p, o, c = state.turn_player, 1 - state.turn_player, move.col - 1
    attacker, defender = state.columns[p][c][0], state.columns[o][c][0]
    state._turn_face_up(attacker)  # R-CH-3: both cards face up
    state._turn_face_up(defender)
    a, d = state.card(attacker).type, state.card(defender).type
    if d.kind == "hostage":  # R-CH-3.1, R-END-3
        state._finish(p, "hostage_found")
    elif d.power == "pandora":  # R-CH-3.2
        _open_pandora(state, p, c, pegasus=None)
    elif d.power == "medusa":  # R-MED-1
        if "slays_medusa" in a.traits:
            state._discard_field_card(o, c, 0)
        else:
            state._discard_field_card(p, c, 0)
    elif a.power == "pythia" and "falls_to_pythia" in d.traits:  # R-CH-3.4, R-PYT-3
        state._discard_field_card(o, c, 0)
    elif d.power == "pythia" and state.game.variants.pythia_defence == "always_loses":  # R-CH-3.5
        state._discard_field_card(o, c, 0)
    else:  # R-CH-3.6
        if a.strength >= d.strength:
            state._discard_field_card(o, c, 0)
        if d.strength >= a.strength:
            state._discard_field_card(p, c, 0)


# ----- Pandora (R-PAN) --------------------------------------------------------------
def _open_pandora(state: State, challenger: int, c: int, pegasus: int | None) -> None:
    """R-PAN-1: the whole column goes on both sides, figures stay."""
    challenged = 1 - challenger
    lost: dict[int, list[int]] = {}
    for side in (challenged, challenger):
        column = state.columns[side][c]
        lost[side] = [state._remove_from_field(side, c, row) for row in range(len(column) - 1, -1, -1) if column[row] != FIGURE]
    if pegasus is not None:
        lost[challenger].append(pegasus)
    _discard_lost(state, lost, challenger)


def _discard_lost(state: State, lost: dict[int, list[int]], challenger: int) -> None:
    """R-PAN-1 outcome and R-PAN-2 order: default order first; each player with two or
    more names then chooses the top card (`top`), the challenged player first."""
    challenged = 1 - challenger
    for side in (challenged, challenger):
        for card in state._pile_order(side, lost[side]):
            state._limbo_to_pile(side, card)
    everything = lost[challenged] + lost[challenger]
    hostage_lost = [q for q in (0, 1) if state.deck.hostage_id[q] in everything]
    if len(hostage_lost) == 2:
        state._finish(challenged, "pandora")
        return
    if len(hostage_lost) == 1:
        state._finish(1 - hostage_lost[0], "pandora")
        return
    for side in (challenged, challenger):
        block = tuple(state.discards[side][len(state.discards[side]) - len(lost[side]):])
        if len({state.card(x).name for x in block}) >= 2:
            state.pending.append(Pending("top", side, block))


def _top(state: State, move: Move) -> None:
    """R-PAN-2: the chosen name goes on top; the rest stay in default order below it."""
    decision = state.pending.pop(0)
    pile = state.discards[decision.player]
    chosen = max(
        (x for x in decision.cards if state.card(x).name.lower() == move.card.name.lower()),
        key=pile.index,
    )
    pile.remove(chosen)
    pile.append(chosen)


# ----- Pegasus (R-PEG) ---------------------------------------------------------------
def _pegasus_front(state: State, move: Move) -> None:
    """R-PEG-F1, R-PEG-F2."""
    p, o, c = state.turn_player, 1 - state.turn_player, move.col - 1
    pegasus = _use_myth(state, p, "pegasus")
    target = state.columns[o][c][0]
    if target == FIGURE:
        state._remove_from_field(o, c, 0)
        state._limbo_to_pile(p, pegasus)
        return
    state._turn_face_up(target)
    t = state.card(target).type
    if t.power == "pandora":
        _open_pandora(state, p, c, pegasus=pegasus)
        return
    state._limbo_to_pile(p, pegasus)
    if t.kind == "hostage":  # R-END-3
        state._finish(p, "hostage_found")
    elif t.power == "medusa":  # R-MED-2: Medusa stays
        pass
    elif t.strength is not None and t.strength <= 1:
        state._discard_field_card(o, c, 0)


def _pegasus_hand(state: State, move: Move) -> None:
    """R-PEG-H1: the Pegasus goes to the pile; a card of the opponent's hand is drawn."""
    p = state.turn_player
    pegasus = _use_myth(state, p, "pegasus")
    state._limbo_to_pile(p, pegasus)
    state.pending.append(Pending("chance", p))


def _chance(state: State, move: Move) -> None:
    """R-PEG-H2: what the drawn card does."""
    p = state.pending.pop(0).player
    o = 1 - p
    hand = state.hands[o]
    drawn = state.resolve_ref(move.card, hand, o)
    state._reveal(drawn)
    t = state.card(drawn).type
    if t.kind == "hostage":  # R-END-4
        state._finish(p, "hostage_found")
        return
    if t.power == "pandora":
        everything = list(hand)
        for card in everything:
            state._take_from_hand(o, card)
        for card in state._pile_order(o, everything):
            state._limbo_to_pile(o, card)
        if state.deck.hostage_id[o] in everything:  # R-END-4
            state._finish(p, "pandora")
        elif len({state.card(x).name for x in everything}) >= 2:
            state.pending.append(Pending("top", o, tuple(state.discards[o][-len(everything):])))
        return
    state._take_from_hand(o, drawn)
    if t.kind == "myth" or t.strength is None or t.strength < 2:
        state._limbo_to_pile(o, drawn)
        return
    if any(_place_allowed(state, o, c) for c in range(COLUMNS)):
        state.pending.append(Pending("place", p, (drawn,)))
    else:
        state._limbo_to_pile(o, drawn)


def _place_allowed(state: State, side: int, c: int) -> bool:
    column = state.columns[side][c]
    return len(column) < 4 and not (column and column[0] == FIGURE)


def _place(state: State, move: Move) -> None:
    decision = state.pending.pop(0)
    (card,) = decision.cards
    state._insert_on_field(1 - decision.player, move.col - 1, 0, card, face_up=True)


# ----- Pythia (R-PYT) ---------------------------------------------------------------
def _pythia_spy(state: State, move: Move) -> None:
    """R-PYT-1: the hand is shown to the spy; Poseidon and Nemesis in it are discarded."""
    p, o = state.turn_player, 1 - state.turn_player
    pythia = _use_myth(state, p, "pythia")
    state.events.append(Event("show_hand", src=("hand", o), to=p, **state._stamp()))
    for card in state.hands[o]:
        state._reveal(card, to=p)
    doomed = [x for x in state.hands[o] if "falls_to_pythia" in state.card(x).type.traits]
    for card in doomed:
        state._take_from_hand(o, card)
    for card in state._pile_order(o, doomed):
        state._limbo_to_pile(o, card)
    state._limbo_to_pile(p, pythia)


def _pythia_turn(state: State, move: Move) -> None:
    """R-PYT-2: every face-down card of the column is turned face up; nothing else."""
    p, o = state.turn_player, 1 - state.turn_player
    pythia = _use_myth(state, p, "pythia")
    for occupant in state.columns[o][move.col - 1]:
        if occupant != FIGURE:
            state._turn_face_up(occupant)
    state._limbo_to_pile(p, pythia)


# ----- Sirens, Hades, Persephone (R-SIR, R-HAD, R-PER) -------------------------------
def _sirens(state: State, move: Move) -> None:
    p, o = state.turn_player, 1 - state.turn_player
    sirens = _use_myth(state, p, "sirens")
    taken = state.discards[o].pop()
    state._to_hand(p, taken, ("discard", o))
    state._limbo_to_pile(p, sirens)


def _hades(state: State, move: Move) -> None:
    p = state.turn_player
    hades = _use_myth(state, p, "hades")
    pile = state.discards[p]
    taken = state.resolve_ref(move.card, pile, p, topmost=True)
    pile.remove(taken)
    state._to_hand(p, taken, ("discard", p))
    state._limbo_to_pile(p, hades)


def _persephone(state: State, move: Move) -> None:
    p = state.turn_player
    persephone = _use_myth(state, p, "persephone")
    pile = state.discards[p]
    room = min(3, HAND_LIMIT - len(state.hands[p]))
    taken = [x for x in reversed(pile) if state.card(x).type.power == "pegasus"][:room]
    for card in taken:
        pile.remove(card)
        state._to_hand(p, card, ("discard", p))
    state._limbo_to_pile(p, persephone)


# ----- Dionysus (R-DIO) ---------------------------------------------------------------
def _dionysus(state: State, move: Move) -> None:
    p = state.turn_player
    dionysus = _use_myth(state, p, "dionysus")
    card = state.columns[p][move.col - 1][move.row - 1]
    face_up = card in state.face_up
    state._remove_from_field(p, move.col - 1, move.row - 1)
    state._insert_on_field(p, move.to_col - 1, move.to_row - 1, card, face_up=face_up)
    state._limbo_to_pile(p, dionysus)


# ----- the god card (R-GOD) -----------------------------------------------------------
def _god(state: State, move: Move) -> None:
    p = state.turn_player
    god = state._take_from_hand(p, state.deck.god_id[p])
    state.columns[p][move.col - 1].insert(0, FIGURE)
    state._limbo_to_pile(p, god)
    state.ap = FIGURE_AP - state.ap_spent  # R-GOD-2


HANDLERS = {
    mv.SETUP: _setup,
    mv.DRAW: _draw,
    mv.PLAY: _play,
    mv.CHALLENGE: _challenge,
    mv.PEGASUS_HAND: _pegasus_hand,
    mv.PEGASUS_FRONT: _pegasus_front,
    mv.PLACE: _place,
    mv.PYTHIA_SPY: _pythia_spy,
    mv.PYTHIA_TURN: _pythia_turn,
    mv.SIRENS: _sirens,
    mv.HADES: _hades,
    mv.PERSEPHONE: _persephone,
    mv.DIONYSUS: _dionysus,
    mv.GOD: _god,
    mv.RECALL: _recall,
    mv.TOP: _top,
    mv.CHANCE: _chance,
}
