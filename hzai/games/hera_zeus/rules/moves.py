"""Moves and their text notation (docs/notation.md).

A `Move` is a small frozen value with no reference to a state, like a chess move: it
holds what the notation says and nothing more. Cards in a move are `CardRef`s, a name
plus, only where the text names it, the owner (`Hydra@zeus`). Which physical card a
reference means is decided by the state (`hzai.games.hera_zeus.rules.State.resolve`).

Three ways in, as in python-chess: `parse_move(text, deck)` reads, `str(move)` writes,
`State.push_text(text)` reads and plays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hzai.games.hera_zeus.cards import PLAYERS, Deck


class NotationError(ValueError):
    """A move's text cannot be read; the message quotes it and says why."""


@dataclass(frozen=True, order=True)
class CardRef:
    name: str
    owner: int | None = None  # None: the plain name (the mover's own card first)

    def __str__(self) -> str:
        return self.name if self.owner is None else f"{self.name}@{PLAYERS[self.owner]}"


# Move kinds; the value is the first word(s) of the notation.
SETUP, DRAW, PLAY, CHALLENGE = "setup", "draw", "play", "challenge"
PEGASUS_HAND, PEGASUS_FRONT, PLACE = "pegasus hand", "pegasus", "place"
PYTHIA_SPY, PYTHIA_TURN = "pythia spy", "pythia"
SIRENS, HADES, PERSEPHONE, DIONYSUS = "sirens", "hades", "persephone", "dionysus"
GOD, RECALL, TOP, CHANCE = "god", "recall", "top", "chance"

DECISIONS = (PLACE, TOP)  # interrupt decisions (R-TURN-8)


@dataclass(frozen=True, order=True)
class Move:
    kind: str
    card: CardRef | None = None
    col: int | None = None  # 1..3
    row: int | None = None  # 1..4
    to_col: int | None = None
    to_row: int | None = None
    setup: tuple[CardRef | None, ...] | None = None

    def __str__(self) -> str:
        k = self.kind
        if k == SETUP:
            return "setup " + " ".join("-" if c is None else str(c) for c in self.setup or ())
        if k in (DRAW, PEGASUS_HAND, PYTHIA_SPY, SIRENS, PERSEPHONE, RECALL):
            return k
        if k in (CHALLENGE, PEGASUS_FRONT, PLACE, PYTHIA_TURN, GOD):
            return f"{k} c{self.col}"
        if k == PLAY:
            return f"play {self.card} c{self.col}r{self.row}"
        if k in (HADES, TOP, CHANCE):
            return f"{k} {self.card}"
        if k == DIONYSUS:
            return f"dionysus c{self.col}r{self.row} c{self.to_col}r{self.to_row}"
        raise ValueError(f"unknown move kind {k!r}")

    @property
    def is_chance(self) -> bool:
        return self.kind == CHANCE


_COLUMN = re.compile(r"c([1-3])$")
_SLOT = re.compile(r"c([1-3])r([1-4])$")


def parse_card(word: str, deck: Deck, text: str) -> CardRef:
    name, _, owner = word.partition("@")
    card_type = deck.type_named(name)
    if card_type is None:
        raise NotationError(f"{text!r}: unknown card {name!r}")
    if owner:
        if owner.lower() not in PLAYERS:
            raise NotationError(f"{text!r}: owner must be hera or zeus, not {owner!r}")
        return CardRef(card_type.name, PLAYERS.index(owner.lower()))
    return CardRef(card_type.name)


def _column(word: str, text: str) -> int:
    m = _COLUMN.match(word.lower())
    if not m:
        raise NotationError(f"{text!r}: expected a column c1..c3, not {word!r}")
    return int(m.group(1))


def _slot(word: str, text: str) -> tuple[int, int]:
    m = _SLOT.match(word.lower())
    if not m:
        raise NotationError(f"{text!r}: expected a slot cXrY (X 1..3, Y 1..4), not {word!r}")
    return int(m.group(1)), int(m.group(2))


def parse_move(text: str, deck: Deck) -> Move:
    """Read one move (or chance result) of docs/notation.md; raises NotationError."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError("empty move")
    head, args = words[0].lower(), words[1:]

    def want(n: int, usage: str) -> None:
        if len(args) != n:
            raise NotationError(f"{text!r}: expected '{usage}'")

    if head == "setup":
        want(3, "setup A B C")
        return Move(SETUP, setup=tuple(None if w == "-" else parse_card(w, deck, text) for w in args))
    if head in ("draw", "sirens", "persephone", "recall"):
        want(0, head)
        return Move(head)
    if head == "play":
        want(2, "play CARD cXrY")
        col, row = _slot(args[1], text)
        return Move(PLAY, card=parse_card(args[0], deck, text), col=col, row=row)
    if head in ("challenge", "place", "god"):
        want(1, f"{head} cX")
        return Move(head, col=_column(args[0], text))
    if head in ("pegasus", "pythia"):
        want(1, f"{head} {'hand' if head == 'pegasus' else 'spy'}|cX")
        special = "hand" if head == "pegasus" else "spy"
        if args[0].lower() == special:
            return Move(PEGASUS_HAND if head == "pegasus" else PYTHIA_SPY)
        return Move(PEGASUS_FRONT if head == "pegasus" else PYTHIA_TURN, col=_column(args[0], text))
    if head in ("hades", "top", "chance"):
        want(1, f"{head} CARD")
        return Move(head, card=parse_card(args[0], deck, text))
    if head == "dionysus":
        want(2, "dionysus cXrY cZrW")
        col, row = _slot(args[0], text)
        to_col, to_row = _slot(args[1], text)
        return Move(DIONYSUS, col=col, row=row, to_col=to_col, to_row=to_row)
    raise NotationError(f"{text!r}: unknown move {words[0]!r}")
