"""Bookkeeping every reachable state must keep; used by property tests and fuzzing."""

from __future__ import annotations

from collections import Counter

from hzai.games.hera_zeus.rules.variants import COLUMN_DEPTH, HAND_LIMIT
from hzai.games.hera_zeus.rules.state import FIGURE, State


def invariant_problems(state: State) -> list[str]:
    """Every broken invariant of `state` (empty when all hold)."""
    problems = []
    deck = state.deck
    places = state.hands[0] + state.hands[1] + state.decks[0] + state.decks[1]
    places += state.discards[0] + state.discards[1] + state.limbo
    field = [x for side in state.columns for column in side for x in column if x != FIGURE]
    counts = Counter(places + field)
    if sorted(counts) != list(range(len(deck))):
        problems.append("some card instance is nowhere")
    if counts and max(counts.values()) > 1:
        problems.append("a card instance is in two places")
    for p in (0, 1):
        if len(state.hands[p]) > HAND_LIMIT:
            problems.append(f"player {p} holds more than {HAND_LIMIT} cards")
        if any(deck.cards[x].owner != p for x in state.decks[p]):
            problems.append(f"player {p}'s deck holds another owner's card")
        figures = 0
        for column in state.columns[p]:
            if len(column) > COLUMN_DEPTH:
                problems.append(f"player {p} has a column of {len(column)}")
            figures += column.count(FIGURE)
            if FIGURE in column[1:]:
                problems.append("a figure stands behind r1")
        if figures > 1:
            problems.append(f"player {p} has {figures} figures")
    if not state.face_up <= set(field):
        problems.append("a card off the field is marked face up")
    if any(not deck.cards[x].type.placeable for x in field):
        problems.append("a myth-only card stands on a side")
    if not 0 <= state.ap <= 4:
        problems.append(f"AP {state.ap} outside 0..4")
    if bool(state.limbo) != any(p.kind == "place" for p in state.pending):
        problems.append("limbo holds cards without a pending place")
    if state.is_over and (state.to_move is not None or state.pending):
        problems.append("a finished game still has someone to move")
    if not state.is_over and not state.is_chance and state.to_move not in (0, 1):
        problems.append("nobody to move in a running game")
    return problems
