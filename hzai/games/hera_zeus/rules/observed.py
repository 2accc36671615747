"""A move as one seat sees it at the table: the redacted notation (docs/notation.md).

Only two kinds of move hide a card from the other player: `setup`, whose three cards go
face down, and `play`, whose card goes face down. Everything else is public (R-INFO-1):
draws name no card, challenges and Pegasus show their cards, discard piles are open.
The one exception inside `play` is a card taken by Sirens (R-SIR-1): it keeps its
owner's back, so its owner knows it wherever it goes and sees its name.

`seen_move(state, move, seat)` takes the state *before* the move: which physical card a
plain name means is decided there.

A hidden card is written `?`; an empty setup column stays `-` (an empty column is seen).
A spectator (`seat=None`) sees only what is public to everybody.
"""

from __future__ import annotations

from dataclasses import dataclass

from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.moves import CardRef, Move
from hzai.games.hera_zeus.rules.state import State

HIDDEN = "?"


@dataclass(frozen=True)
class SeenMove:
    """A move as a seat observed it: its text, and whether that text hides cards."""

    text: str
    mover: int | None  # who decided it; None for a chance result
    redacted: bool
    card: CardRef | None = None  # the card the seat may know (None when hidden or absent)


def mover_of(state: State, move: Move) -> int | None:
    """Who makes `move` in `state` (the state before it); None for chance."""
    return None if move.is_chance else state.to_move


def seen_move(state: State, move: Move, seat: int | None) -> SeenMove:
    """`move`, about to be pushed on `state`, as `seat` observes it (None: a spectator)."""
    mover = mover_of(state, move)
    if mover is None or mover == seat or move.kind not in (mv.SETUP, mv.PLAY):
        return SeenMove(str(move), mover, False, move.card)
    if move.kind == mv.SETUP:
        slots = " ".join("-" if c is None else HIDDEN for c in move.setup or ())
        return SeenMove(f"setup {slots}", mover, True)
    card_id = state.resolve_ref(move.card, state.hands[mover], mover)
    if seat is not None and card_id is not None and state.card(card_id).owner == seat:
        ref = CardRef(state.card(card_id).name, seat)  # the seat's own card, taken by Sirens
        return SeenMove(f"play {ref} c{move.col}r{move.row}", mover, False, ref)
    return SeenMove(f"play {HIDDEN} c{move.col}r{move.row}", mover, True)


def seen_text(state: State, move: Move, seat: int | None) -> str:
    return seen_move(state, move, seat).text


def seen_history(start: State, moves: list[Move], seat: int | None) -> list[SeenMove]:
    """Every move of a game from `start` on, as `seat` saw each one."""
    state = start.copy()
    seen = []
    for move in moves:
        seen.append(seen_move(state, move, seat))
        state.push(move)
    return seen
