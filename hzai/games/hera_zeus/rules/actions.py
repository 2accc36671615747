"""One integer id per move, shared by the reference engine and the native core.

The id space depends only on the deck: its distinct card names, in order of first
appearance by instance id (`Deck.cards`), numbered 0..N-1. A card reference is
`ref = 3 * name + flag`, flag 0 for the plain name, 1 for `NAME@hera`, 2 for
`NAME@zeus`. Ids come in blocks, in this order (docs/actions.md):

    draw 1 | play 12R | challenge 3 | pegasus hand 1 | pegasus cX 3 | place 3 |
    pythia spy 1 | pythia cX 3 | sirens 1 | hades R | persephone 1 | dionysus 144 |
    god 3 | recall 1 | top N | chance R | setup (N+1)^3

with R = 3N. Inside a block: play `(ref*3 + col)*4 + row`; dionysus
`(col*4 + row)*12 + to_col*4 + to_row`; setup `(a*(N+1) + b)*(N+1) + c` with 0 for `-`
and name+1 otherwise; columns and rows count from 0. The blocks, their order and sizes
are read from hzai/games/hera_zeus/native/tables.def (`hzai.games.hera_zeus.native.tables`,
pure Python), the file the native core (core.cpp beside it) compiles: one source for both.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from hzai.games.hera_zeus.cards import Deck
from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.moves import CardRef, Move
from hzai.games.hera_zeus.native.tables import ACTION_BLOCKS, block_size

BLOCKS = tuple(kind for kind, _ in ACTION_BLOCKS)  # the move kinds, in id order
_KINDS = {mv.DRAW, mv.PLAY, mv.CHALLENGE, mv.PEGASUS_HAND, mv.PEGASUS_FRONT, mv.PLACE, mv.PYTHIA_SPY,
          mv.PYTHIA_TURN, mv.SIRENS, mv.HADES, mv.PERSEPHONE, mv.DIONYSUS, mv.GOD, mv.RECALL, mv.TOP,
          mv.CHANCE, mv.SETUP}
if set(BLOCKS) != _KINDS or len(BLOCKS) != len(_KINDS):  # encode/decode below handle exactly these
    raise RuntimeError(f"tables.def's action blocks {BLOCKS} are not the move kinds of hzai.games.hera_zeus.rules.moves")


class ActionError(ValueError):
    """A move or id that has no place in the action space of this deck."""


class ActionSpace:
    def __init__(self, deck: Deck):
        names: list[str] = []
        for card in deck.cards:
            if card.name not in names:
                names.append(card.name)
        self.names = tuple(names)
        self._index = {n: i for i, n in enumerate(names)}
        self._index_lower = {n.lower(): i for i, n in reversed(list(enumerate(names)))}
        sizes = {kind: block_size(size, len(names)) for kind, size in ACTION_BLOCKS}
        self.offsets: dict[str, int] = {}
        total = 0
        for kind in BLOCKS:
            self.offsets[kind] = total
            total += sizes[kind]
        self.sizes = sizes
        self.size = total
        self._starts = [self.offsets[k] for k in BLOCKS]
        self._decoded: dict[int, Move] = {}  # at most `size` entries (11,716 for the classic deck)

    # ----- card references -----------------------------------------------------------
    def _name(self, name: str) -> int:
        index = self._index.get(name)
        if index is None:
            index = self._index_lower.get(name.lower())
        if index is None:
            raise ActionError(f"unknown card {name!r}")
        return index

    def _ref(self, ref: CardRef | None) -> int:
        if ref is None:
            raise ActionError("the move names no card")
        return 3 * self._name(ref.name) + (0 if ref.owner is None else 1 + ref.owner)

    def _card(self, ref: int) -> CardRef:
        name, flag = divmod(ref, 3)
        return CardRef(self.names[name], None if flag == 0 else flag - 1)

    # ----- moves ---------------------------------------------------------------------
    def encode(self, move: Move) -> int:
        """The id of a canonical move (as `State.legal_moves()` writes it)."""
        k = move.kind
        if k not in self.offsets:
            raise ActionError(f"unknown move kind {k!r}")
        base = self.offsets[k]
        if k in (mv.DRAW, mv.PEGASUS_HAND, mv.PYTHIA_SPY, mv.SIRENS, mv.PERSEPHONE, mv.RECALL):
            return base
        if k in (mv.CHALLENGE, mv.PEGASUS_FRONT, mv.PLACE, mv.PYTHIA_TURN, mv.GOD):
            return base + _index(move.col, 3, "column")
        if k == mv.PLAY:
            return base + (self._ref(move.card) * 3 + _index(move.col, 3, "column")) * 4 + _index(move.row, 4, "row")
        if k in (mv.HADES, mv.CHANCE):
            return base + self._ref(move.card)
        if k == mv.TOP:
            if move.card is None:
                raise ActionError("top names no card")
            return base + self._name(move.card.name)
        if k == mv.DIONYSUS:
            src = _index(move.col, 3, "column") * 4 + _index(move.row, 4, "row")
            dst = _index(move.to_col, 3, "column") * 4 + _index(move.to_row, 4, "row")
            return base + src * 12 + dst
        # setup
        if move.setup is None or len(move.setup) != 3:
            raise ActionError("setup names three columns")
        b = len(self.names) + 1
        code = 0
        for ref in move.setup:
            if ref is not None and ref.owner is not None:
                raise ActionError("setup moves name the mover's own cards by plain name")
            code = code * b + (0 if ref is None else self._name(ref.name) + 1)
        return base + code

    def decode(self, action: int) -> Move:
        """The move of an id (moves are frozen values: decoded once, then remembered)."""
        if not isinstance(action, int) or not 0 <= action < self.size:
            raise ActionError(f"action id {action!r} is outside 0..{self.size - 1}")
        move = self._decoded.get(action)
        if move is None:
            move = self._decoded[action] = self._decode(action)
        return move

    def _decode(self, action: int) -> Move:
        kind = BLOCKS[bisect_right(self._starts, action) - 1]
        i = action - self.offsets[kind]
        if kind in (mv.DRAW, mv.PEGASUS_HAND, mv.PYTHIA_SPY, mv.SIRENS, mv.PERSEPHONE, mv.RECALL):
            return Move(kind)
        if kind in (mv.CHALLENGE, mv.PEGASUS_FRONT, mv.PLACE, mv.PYTHIA_TURN, mv.GOD):
            return Move(kind, col=i + 1)
        if kind == mv.PLAY:
            ref, rest = divmod(i, 12)
            return Move(kind, card=self._card(ref), col=rest // 4 + 1, row=rest % 4 + 1)
        if kind in (mv.HADES, mv.CHANCE):
            return Move(kind, card=self._card(i))
        if kind == mv.TOP:
            return Move(kind, card=CardRef(self.names[i]))
        if kind == mv.DIONYSUS:
            src, dst = divmod(i, 12)
            return Move(kind, col=src // 4 + 1, row=src % 4 + 1, to_col=dst // 4 + 1, to_row=dst % 4 + 1)
        b = len(self.names) + 1
        parts = (i // (b * b), (i // b) % b, i % b)
        return Move(mv.SETUP, setup=tuple(None if x == 0 else CardRef(self.names[x - 1]) for x in parts))


def _index(value: int | None, limit: int, what: str) -> int:
    if not isinstance(value, int) or not 1 <= value <= limit:
        raise ActionError(f"{what} must be 1..{limit}, not {value!r}")
    return value - 1


@lru_cache(maxsize=16)
def action_space(deck: Deck) -> ActionSpace:
    return ActionSpace(deck)


def encode(move: Move, deck: Deck) -> int:
    """The integer id of a canonical move; raises ActionError."""
    return action_space(deck).encode(move)


def decode(action: int, deck: Deck) -> Move:
    """The canonical move of an id; raises ActionError."""
    return action_space(deck).decode(action)
