"""Which moves are legal (R-SETUP-2, R-ACT, R-CH, R-PEG, R-PYT, R-SIR, R-HAD, R-PER,
R-DIO, R-GOD) and which chance results can follow `pegasus hand`.

Moves come out canonical: cards named as the notation would write them for the mover
(`State.card_ref`), one move per distinct effect, sorted by their text.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.variants import COLUMN_DEPTH, COLUMNS, HAND_LIMIT
from hzai.games.hera_zeus.rules.moves import CardRef, Move
from hzai.games.hera_zeus.rules.state import FIGURE, State


def legal_moves(state: State) -> list[Move]:
    if state.is_over or state.is_chance:
        return []
    if state.pending:
        return _decision_moves(state, state.pending[0])
    if state.phase == "setup":
        return _setup_moves(state, state.to_move)
    return sorted(_action_moves(state, state.turn_player), key=str)


def chance_outcomes(state: State) -> list[tuple[Move, float]]:
    """R-PEG-H1: each card of the opponent's hand equally likely, grouped by how the
    notation names it (`chance Hydra` stands for every Hydra of the hand owner)."""
    if not state.is_chance:
        return []
    owner = 1 - state.pending[0].player
    hand = state.hands[owner]
    counts = Counter(state.card_ref(x, hand, owner) for x in hand)
    return sorted(((Move(mv.CHANCE, card=ref), n / len(hand)) for ref, n in counts.items()), key=lambda o: str(o[0]))


def _decision_moves(state: State, pending) -> list[Move]:
    if pending.kind == "place":  # R-PEG-H2
        target = 1 - pending.player
        return [Move(mv.PLACE, col=c + 1) for c in range(COLUMNS) if _front_insert_allowed(state, target, c)]
    if pending.kind == "top":  # R-PAN-2
        names = sorted({state.card(x).name for x in pending.cards})
        return [Move(mv.TOP, card=CardRef(name)) for name in names]
    return []


def _front_insert_allowed(state: State, side: int, col: int) -> bool:
    column = state.columns[side][col]
    return len(column) < COLUMN_DEPTH and not (column and column[0] == FIGURE)


def _setup_moves(state: State, player: int) -> list[Move]:
    """R-SETUP-2: three placeable cards, one per column; with fewer, all of them."""
    hand = state.hands[player]
    placeable = [x for x in hand if state.card(x).type.placeable]
    pool: list[int | None] = list(placeable)
    if len(placeable) < COLUMNS:
        pool += [None] * (COLUMNS - len(placeable))
    options = set()
    for triple in permutations(pool, COLUMNS):
        options.add(tuple(None if x is None else CardRef(state.card(x).name) for x in triple))
    return sorted((Move(mv.SETUP, setup=t) for t in options), key=str)


def _distinct_refs(state: State, cards: list[int], zone: list[int], player: int) -> list[CardRef]:
    return sorted({state.card_ref(x, zone, player) for x in cards}, key=str)


def _action_moves(state: State, p: int) -> list[Move]:
    o = 1 - p
    hand = state.hands[p]
    powers = {state.card(x).type.power for x in hand}
    kinds = {state.card(x).type.kind for x in hand}
    result: list[Move] = []
    if state.ap > 0:
        result += _draw_and_play(state, p)
        if not state.first_turns:  # R-TURN-6
            result += _challenges(state, p)
            if "pegasus" in powers:
                result += _pegasus_moves(state, p)
        if "pythia" in powers:  # R-PYT-1, R-PYT-2
            result.append(Move(mv.PYTHIA_SPY))
            result += [Move(mv.PYTHIA_TURN, col=c + 1) for c in range(COLUMNS) if state.columns[o][c]]
        if "sirens" in powers and state.discards[o]:  # R-SIR-1
            strength = state.card(state.discards[o][-1]).type.strength
            if strength is not None and 1 <= strength <= 7:
                result.append(Move(mv.SIRENS))
        if "hades" in powers:  # R-HAD-1 (Hades itself is not yet on the pile)
            pile = state.discards[p]
            result += [Move(mv.HADES, card=ref) for ref in _distinct_refs(state, pile, pile, p)]
        if "persephone" in powers:  # R-PER-1: legal even with no Pegasus on the pile
            result.append(Move(mv.PERSEPHONE))
        if "dionysus" in powers:
            result += _dionysus_moves(state, p)
        if "god" in kinds and state.figure_column(p) is None:  # R-GOD-1
            result += [
                Move(mv.GOD, col=c + 1)
                for c in range(COLUMNS)
                if state.columns[p][c] and len(state.columns[p][c]) < COLUMN_DEPTH
            ]
        if state.figure_column(p) is not None:  # R-ACT-5
            if state.game.variants.figure_removal == "action" or "pegasus" in powers:
                result.append(Move(mv.RECALL))
    return result


def _draw_and_play(state: State, p: int) -> list[Move]:
    result = []
    hand = state.hands[p]
    if state.decks[p] and len(hand) < HAND_LIMIT:  # R-ACT-1
        result.append(Move(mv.DRAW))
    placeable = [x for x in hand if state.card(x).type.placeable]
    for ref in _distinct_refs(state, placeable, hand, p):  # R-ACT-2
        for c in range(COLUMNS):
            column = state.columns[p][c]
            if len(column) >= COLUMN_DEPTH:
                continue
            first_row = 2 if column and column[0] == FIGURE else 1
            result += [Move(mv.PLAY, card=ref, col=c + 1, row=r) for r in range(first_row, len(column) + 2)]
    return result


def _challenges(state: State, p: int) -> list[Move]:
    """R-CH-1, R-CH-2: own r1 card against the opposite r1 card; no figure in the way."""
    result = []
    o = 1 - p
    for c in range(COLUMNS):
        mine, theirs = state.columns[p][c], state.columns[o][c]
        if not mine or not theirs or mine[0] == FIGURE or theirs[0] == FIGURE:
            continue
        if state.card(mine[0]).type.can_challenge:
            result.append(Move(mv.CHALLENGE, col=c + 1))
    return result


def _pegasus_moves(state: State, p: int) -> list[Move]:
    o = 1 - p
    result = []
    if state.hands[o]:  # R-PEG-H1
        result.append(Move(mv.PEGASUS_HAND))
    result += [Move(mv.PEGASUS_FRONT, col=c + 1) for c in range(COLUMNS) if state.columns[o][c]]  # R-PEG-F1
    return result


def _dionysus_moves(state: State, p: int) -> list[Move]:
    """R-DIO-1: every other slot an own field card can end in; never before a figure."""
    result = []
    columns = state.columns[p]
    for c, column in enumerate(columns):
        for r, occupant in enumerate(column):
            if occupant == FIGURE:
                continue
            for c2, target in enumerate(columns):
                blocked_front = 1 if target and target[0] == FIGURE else 0
                if c2 == c:
                    rows = range(blocked_front, len(column))
                else:
                    if len(target) >= COLUMN_DEPTH:
                        continue
                    rows = range(blocked_front, len(target) + 1)
                for r2 in rows:
                    if c2 == c and r2 == r:
                        continue
                    result.append(Move(mv.DIONYSUS, col=c + 1, row=r + 1, to_col=c2 + 1, to_row=r2 + 1))
    return result
