"""The Legends of Hellas data file (`legends-data/1`, L-COMP-5): attributes, the action
cards, the divine intervention (DI) table, monsters, sizes, heroes and missions.

The engine reads everything about cards, monsters and missions from here; `classic`
is hzai/games/legends/data/classic.json. `load_data` checks a file completely and
raises DataError naming the first problem.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hzai.text import quoted

DATA_DIR = Path(__file__).resolve().parent / "data"
FORMAT = "legends-data/1"
DI = "di"
DIFFICULTIES = ("human", "heroic", "godlike")
MAX_SEATS = 5
SPECIALS = (None, "di_recover", "di_swap_draw", "di_swap_discard", "replace_until_6")
TRIGGER = re.compile(r"^(\+[1-9][0-9]?|C|2C|H)$")
KEYS = ("format", "attributes", "action_cards", "di_table", "monsters", "sizes", "heroes", "missions")
MISSION_KEYS = ("id", "name", "start", "triggers", "special")
MAX_DATA_BYTES = 1 << 20


class DataError(ValueError):
    """A data file that is not a valid legends-data/1 file; the message says why."""


@dataclass(frozen=True)
class Mission:
    id: int
    name: str
    start: int
    triggers: dict  # defeat number (int) -> "+n" | "C" | "2C" | "H"
    special: str | None

    @property
    def finals(self) -> int:
        """How many final monsters the mission brings (L-END-1: won when the last falls)."""
        return sum({"C": 1, "2C": 2, "H": 1}.get(v, 0) for v in self.triggers.values())


@dataclass(frozen=True)
class LegendsData:
    name: str
    attributes: tuple[str, ...]
    counts: tuple[int, ...]  # per card kind: the attributes in order, then DI
    di_table: dict  # difficulty -> tuple of DI counts for 1..5 seats
    monsters: tuple[tuple[str, tuple[int, int]], ...]  # name, the two attribute indexes
    sizes: dict  # normal / chimera / hades -> N
    heroes: tuple[tuple[str, int], ...]  # name, attribute index
    missions: dict  # id -> Mission

    @property
    def kinds(self) -> tuple[str, ...]:
        """Card kind names: the attributes, then `di` (a kind is its index here)."""
        return self.attributes + (DI,)

    @property
    def di(self) -> int:
        return len(self.attributes)

    def monster_index(self, name: str) -> int:
        for i, (m, _) in enumerate(self.monsters):
            if m.lower() == str(name).lower():
                return i
        raise DataError(f"{quoted(name)} is not a monster of data {self.name}")

    def hero_index(self, name: str) -> int:
        for i, (h, _) in enumerate(self.heroes):
            if h.lower() == str(name).strip().lower():
                return i
        names = ", ".join(h for h, _ in self.heroes)
        raise DataError(f"{quoted(name)} is not a hero of data {self.name} (heroes: {names})")


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise DataError(message)


def _count(value, what: str, low: int = 0) -> int:
    _need(isinstance(value, int) and not isinstance(value, bool) and low <= value <= 1000,
          f"{what} must be a whole number from {low} to 1000, not {quoted(value)}")
    return value


def key_problem(obj: dict, keys: tuple[str, ...], required: tuple[str, ...], where: str = "") -> str | None:
    """What is wrong with an object's keys (an unknown one, a missing required one), or
    None; `where` prefixes the message ("setup: ")."""
    for key in obj:
        if key not in keys:
            return f"{where}unknown key {quoted(key)} (keys: {', '.join(keys)})"
    for key in required:
        if key not in obj:
            return f"{where}missing key {quoted(key)}"
    return None


def _keys(obj: dict, keys: tuple[str, ...], where: str = "") -> None:
    problem = key_problem(obj, keys, keys, where)
    _need(problem is None, problem or "")


def parse_data(raw, name: str) -> LegendsData:
    """L-COMP-5: a data file's JSON checked and turned into LegendsData."""
    _need(isinstance(raw, dict), "a data file is a JSON object")
    _keys(raw, KEYS)
    _need(raw["format"] == FORMAT, f"format must be {FORMAT!r}, not {quoted(raw['format'])}")
    attrs = raw["attributes"]
    _need(isinstance(attrs, list) and attrs and all(isinstance(a, str) and re.fullmatch(r"[a-z]+", a) for a in attrs),
          "attributes must be a list of lower-case names")
    _need(len(set(attrs)) == len(attrs), "an attribute name repeats")
    _need(DI not in attrs, "'di' is the divine intervention card, not an attribute")
    kinds = list(attrs) + [DI]
    cards = raw["action_cards"]
    _need(isinstance(cards, dict) and sorted(cards) == sorted(kinds),
          f"action_cards must give a count for exactly {', '.join(kinds)}")
    counts = tuple(_count(cards[k], f"action_cards.{k}") for k in kinds)
    table = raw["di_table"]
    _need(isinstance(table, dict) and sorted(table) == sorted(DIFFICULTIES),
          f"di_table must have exactly {', '.join(DIFFICULTIES)}")
    di_table = {}
    for level in DIFFICULTIES:
        row = table[level]
        _need(isinstance(row, list) and len(row) == MAX_SEATS, f"di_table.{level} needs {MAX_SEATS} counts (1..5 seats)")
        for n in row:
            _need(_count(n, f"di_table.{level}") <= counts[-1],
                  f"di_table.{level} asks for {n} DI, more than the {counts[-1]} of action_cards.di")
        di_table[level] = tuple(row)
    index = {a: i for i, a in enumerate(attrs)}

    def attr(value, what):
        _need(isinstance(value, str) and value in index, f"{what}: unknown attribute {quoted(value)}")
        return index[value]

    def pair_of(mname, pair):
        _need(isinstance(pair, list) and len(pair) == 2, f"monster {quoted(mname)} needs two attributes")
        return attr(pair[0], f"monster {mname}"), attr(pair[1], f"monster {mname}")

    monsters = _named(raw["monsters"], "monster", pair_of)
    sizes = raw["sizes"]
    _need(isinstance(sizes, dict) and sorted(sizes) == ["chimera", "hades", "normal"],
          "sizes must have exactly normal, chimera, hades")
    for key, low in (("normal", 2), ("chimera", 4), ("hades", 6)):
        _count(sizes[key], f"sizes.{key}", low)
    heroes = _named(raw["heroes"], "hero", lambda hname, a: attr(a, f"hero {hname}"))
    ms = raw["missions"]
    _need(isinstance(ms, list) and ms, "missions must be a list")
    missions = {}
    for m in ms:
        missions_id = _mission(m, len(monsters))
        _need(missions_id.id not in missions, f"mission id {missions_id.id} repeats")
        missions[missions_id.id] = missions_id
    return LegendsData(name, tuple(attrs), counts, di_table, tuple(monsters), dict(sizes), tuple(heroes), missions)


def _named(items, what: str, read) -> list[tuple]:
    """(name, read(name, value)) for an object of names; a name may not repeat, letter
    case ignored."""
    _need(isinstance(items, dict) and items, f"{what}s must be an object of names")
    out, seen = [], set()
    for name, value in items.items():
        _need(name.strip() and name.lower() not in seen, f"{what} name {quoted(name)} repeats or is empty")
        seen.add(name.lower())
        out.append((name, read(name, value)))
    return out


def _mission(m, monster_cards: int) -> Mission:
    _need(isinstance(m, dict), "each mission is an object")
    _keys(m, MISSION_KEYS, f"mission {quoted(m.get('id'))}: ")
    mid = _count(m["id"], "mission id", 1)
    where = f"mission {mid}"
    _need(isinstance(m["name"], str) and m["name"], f"{where}: name must be a text")
    start = _count(m["start"], f"{where}: start", 1)
    _need(m["special"] in SPECIALS, f"{where}: unknown special {quoted(m['special'])}")
    trig = m["triggers"]
    _need(isinstance(trig, dict), f"{where}: triggers must be an object")
    triggers = {}
    for key, value in trig.items():
        _need(isinstance(key, str) and key.isdigit() and int(key) >= 1, f"{where}: trigger key {quoted(key)} is not a defeat number")
        _need(isinstance(value, str) and TRIGGER.match(value), f"{where}: trigger {quoted(value)} is not +n, C, 2C or H")
        triggers[int(key)] = value
    mission = Mission(mid, m["name"], start, triggers, m["special"])
    _need(mission.finals >= 1, f"{where}: no trigger brings a final monster, so it can never be won")
    # A trigger at the k-th defeat needs k normal monsters entered before it (L-COMP-5).
    entered, cards = start, start
    for k in sorted(triggers):
        before = min(6, start + k - 1) if m["special"] == "replace_until_6" else entered
        _need(before >= k, f"{where}: the trigger at defeat {k} can never fire (only {before} normal monsters enter before it)")
        value = triggers[k]
        if value.startswith("+"):
            entered += int(value[1:])
            cards += int(value[1:])
        else:
            cards += {"C": 2, "2C": 4, "H": 3}[value]
    if m["special"] == "replace_until_6":
        cards += max(0, 6 - start)
    _need(cards <= monster_cards, f"{where} needs {cards} monster cards; the data has {monster_cards}")
    return mission


def _no_repeated_keys(pairs: list) -> dict:
    """A JSON object of the data file; a name written twice in one object (two monsters
    or heroes of one name, a key given twice) is refused instead of the last one quietly
    winning (L-COMP-5)."""
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise DataError(f"{quoted(key)} is written twice in one object")
        seen[key] = value
    return seen


@lru_cache(maxsize=16)
def _load_path(path: str) -> LegendsData:
    p = Path(path)
    try:
        if p.stat().st_size > MAX_DATA_BYTES:
            raise DataError(f"data file {path}: larger than {MAX_DATA_BYTES} bytes")
        raw = json.loads(p.read_text(encoding="utf-8"), object_pairs_hook=_no_repeated_keys)
    except OSError as exc:
        raise DataError(f"data file {quoted(path)} cannot be read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"data file {quoted(path)} is not valid JSON: {exc}") from None
    except DataError as exc:
        if str(exc).startswith("data file"):
            raise
        raise DataError(f"data file {quoted(path)}: {exc}") from None
    try:
        return parse_data(raw, "classic" if p.parent == DATA_DIR and p.stem == "classic" else path)
    except DataError as exc:
        raise DataError(f"data file {quoted(path)}: {exc}") from None


def load_data(name: str = "classic", base: str | Path | None = None) -> LegendsData:
    """`classic` (the shipped file) or the path of a data file; a relative path is taken
    from `base` (the directory of the record that names it) when given."""
    if not isinstance(name, str) or not name:
        raise DataError("data must be 'classic' or the path of a data file")
    if name == "classic":
        return _load_path(str(DATA_DIR / "classic.json"))
    path = Path(name)
    if not path.is_absolute() and base is not None:
        path = Path(base) / path
    return _load_path(str(path.resolve()))
