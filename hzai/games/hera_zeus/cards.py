"""Card kinds and deck files (docs/rules.md R-DECK).

A deck file lists the cards of one side's deck; both sides get the same list except for
the cards whose name is given per side (the hostage and the god card). Every card
*instance* of a game has an integer id: Hera's cards are 0..n-1, Zeus's n..2n-1, in the
order of the file. Nothing else in the engine knows how many cards of a kind there are.
"""

from __future__ import annotations

from functools import lru_cache

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

# The card kinds and myth powers are written once, in hzai/games/hera_zeus/native/tables.def,
# which the C++ twin compiles (KINDS.index / POWERS.index are the numbers it is given).
from hzai.games.hera_zeus.native.tables import KINDS, POWERS  # noqa: F401  (re-exported)

PLAYERS = ("hera", "zeus")
TRAITS = ("slays_medusa", "falls_to_pythia")
# Myth cards whose power is used from the hand (R-ACT-4); Medusa and Pandora are only placed.
HAND_POWERS = ("pegasus", "pythia", "sirens", "hades", "persephone", "dionysus")


class DeckError(ValueError):
    """A deck file is unreadable or inconsistent; the message names the problem."""


@dataclass(frozen=True)
class CardType:
    name: str
    kind: str
    strength: int | None = None
    power: str | None = None
    traits: frozenset[str] = frozenset()

    @property
    def placeable(self) -> bool:
        """Cards with a strength, and the hostage, may stand on a side (R-DECK-2)."""
        return self.strength is not None or self.kind == "hostage"

    @property
    def is_myth(self) -> bool:
        return self.kind == "myth"

    @property
    def can_challenge(self) -> bool:
        """R-CH-2: the hostage, Medusa and Pandora never challenge."""
        return self.placeable and self.kind != "hostage" and self.power not in ("medusa", "pandora")


@dataclass(frozen=True)
class Card:
    """One physical card of a game: its id, owner and type."""

    id: int
    owner: int  # 0 = hera, 1 = zeus
    type: CardType

    @property
    def name(self) -> str:
        return self.type.name


class Deck:
    """The card list of a game: per-side card types and all card instances."""

    def __init__(self, name: str, side_types: tuple[list[CardType], list[CardType]]):
        self.name = name
        self.side_types = side_types
        self.cards: list[Card] = []
        for owner, types in enumerate(side_types):
            for card_type in types:
                self.cards.append(Card(len(self.cards), owner, card_type))
        self.size_per_side = len(side_types[0])
        self.types_by_name: dict[str, CardType] = {}
        for types in side_types:
            for card_type in types:
                self.types_by_name[card_type.name.lower()] = card_type
        self.hostage_id = tuple(self._only(owner, "hostage") for owner in (0, 1))
        self.god_id = tuple(self._only(owner, "god") for owner in (0, 1))

    def _only(self, owner: int, kind: str) -> int:
        ids = [c.id for c in self.cards if c.owner == owner and c.type.kind == kind]
        if len(ids) != 1:
            raise DeckError(f"{PLAYERS[owner]}'s deck must hold exactly one {kind} card, found {len(ids)}")
        return ids[0]

    def ids_of(self, owner: int) -> range:
        return range(owner * self.size_per_side, (owner + 1) * self.size_per_side)

    def type_named(self, name: str) -> CardType | None:
        return self.types_by_name.get(name.lower())

    def __len__(self) -> int:
        return len(self.cards)


def _card_types(entry: dict, where: str) -> tuple[list[CardType], int]:
    """The card type of one `[[cards]]` entry for each side, and its count."""
    unknown = set(entry) - {"name", "kind", "strength", "power", "traits", "count"}
    if unknown:
        raise DeckError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise DeckError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    strength = entry.get("strength")
    if strength is not None and (not isinstance(strength, int) or isinstance(strength, bool) or not 0 <= strength <= 7):
        raise DeckError(f"{where}: strength must be a whole number 0..7, not {strength!r}")
    power = entry.get("power")
    if kind == "myth" and power not in POWERS:
        raise DeckError(f"{where}: a myth card needs a power, one of {', '.join(POWERS)}")
    if kind != "myth" and power is not None:
        raise DeckError(f"{where}: only myth cards have a power")
    if kind in ("hostage", "god") and strength is not None:
        raise DeckError(f"{where}: a {kind} card has no strength")
    if kind == "plain" and strength is None:
        raise DeckError(f"{where}: a plain card needs a strength")
    if power in ("pegasus", "pythia", "medusa", "pandora") and strength is None:
        raise DeckError(f"{where}: {power} is placed on the field and needs a strength")
    if power in ("sirens", "hades", "persephone", "dionysus") and strength is not None:
        raise DeckError(f"{where}: {power} is a myth-only card and has no strength")
    traits = entry.get("traits", [])
    if not isinstance(traits, list) or any(t not in TRAITS for t in traits):
        raise DeckError(f"{where}: traits must be a list drawn from {', '.join(TRAITS)}")
    count = entry.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise DeckError(f"{where}: count must be a whole number ≥ 1, not {count!r}")
    name = entry.get("name")
    if isinstance(name, str):
        names = (name, name)
    elif isinstance(name, dict) and set(name) == set(PLAYERS) and all(isinstance(v, str) for v in name.values()):
        names = (name["hera"], name["zeus"])
    else:
        raise DeckError(f"{where}: name must be a string or a table with keys hera and zeus")
    for n in names:
        if not n or not n.replace("-", "").replace("'", "").isalnum():
            raise DeckError(f"{where}: card name {n!r} must be one word of letters, digits, - or '")
        if n.lower() in ("figure", "hand", "spy", "-") or n.lower() in PLAYERS and kind != "god":
            raise DeckError(f"{where}: card name {n!r} is reserved by the notation")
    types = [CardType(n, kind, strength, power, frozenset(traits)) for n in names]
    return types, count


def parse_deck(text: str, source: str = "deck file") -> Deck:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{source}: not valid TOML: {exc}") from None
    entries = data.get("cards")
    if not isinstance(entries, list) or not entries:
        raise DeckError(f"{source}: needs a list of [[cards]]")
    sides: tuple[list[CardType], list[CardType]] = ([], [])
    seen: dict[str, str] = {}
    for index, entry in enumerate(entries):
        where = f"{source}: cards[{index}]"
        if not isinstance(entry, dict):
            raise DeckError(f"{where}: must be a table")
        types, count = _card_types(entry, where)
        for owner, card_type in enumerate(types):
            key = card_type.name.lower()
            if key in seen and seen[key] != f"{index}":
                raise DeckError(f"{where}: card name {card_type.name!r} is used twice")
            seen[key] = f"{index}"
            sides[owner].extend([card_type] * count)
    expected = data.get("deck_size")
    for owner in (0, 1):
        if expected is not None and len(sides[owner]) != expected:
            raise DeckError(f"{source}: {PLAYERS[owner]}'s deck has {len(sides[owner])} cards, deck_size says {expected}")
    return Deck(str(data.get("name", source)), sides)


@lru_cache(maxsize=1)
def _classic_text() -> str:
    return resources.files("hzai.games.hera_zeus.data").joinpath("classic.toml").read_text(encoding="utf-8")


# A deck is only ever read, so equal texts share one Deck: every record names its deck,
# and parsing the TOML again for each (about 3 ms) cost more than replaying the record
# natively. A file is read again each time: a changed file is a new deck.
@lru_cache(maxsize=16)
def _parsed(text: str, source: str) -> Deck:
    return parse_deck(text, source)


def load_deck(spec: str | Path = "classic") -> Deck:
    """The deck named `classic`, or one read from a TOML file path."""
    if str(spec) == "classic":
        return _parsed(_classic_text(), "classic")
    path = Path(spec)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckError(f"cannot read deck file {path}: {exc.strerror}") from None
    return _parsed(text, str(path))
