"""The Legends of Hellas contract, called in-process, and records built for the rule tests.

`replay`, `legal` and `view` run `hzai.cli.main` on a record written to a temporary
folder and give back (exit code, stdout, stderr); the helpers below them check the
contract's shape once (exit 0, or exit 2 with one line) so that each test states only
what its rule demands. `record` completes a setup: the test names the hands, the top of
the draw pile and of the monster deck it cares about, the rest is dealt in a fixed order.

The game's data (cards, monsters, heroes, DI table, missions) is written out here from
the rules text, as the second author read it; the tests never read the engine's copy.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import tempfile
from collections import Counter
from pathlib import Path

ATTRS = ["guile", "speed", "arms", "strength", "courage"]
HEROES = {"Achilles": "speed", "Jason": "courage", "Perseus": "arms", "Hercules": "strength", "Atalanta": "guile"}
MONSTERS = {
    "Minotaur": ["arms", "strength"], "Centaur": ["strength", "speed"], "Giant Lion": ["courage", "strength"],
    "Lamia": ["courage", "arms"], "Cyclops": ["guile", "courage"], "Harpy": ["speed", "arms"],
    "Gorgon": ["arms", "guile"], "Griffin": ["strength", "guile"], "Cerberus": ["guile", "speed"],
    "Hydra": ["speed", "courage"],
}
PER_ATTRIBUTE, DI_SUPPLY = 11, 6
DI_TABLE = {"human": [3, 4, 4, 5, 6], "heroic": [2, 3, 3, 4, 5], "godlike": [1, 2, 2, 3, 4]}
SIZES = {"normal": 5, "chimera": 8, "hades": 10}
SAME_LATER = {"2": "+2", "4": "+1", "6": "C"}
MISSIONS = [  # id, name, start, triggers, special
    (1, "The Hills of Ithaka", 3, {"1": "+1", "2": "+1", "3": "+1", "6": "C"}, None),
    (2, "The Oracle of Delphi", 4, {"1": "+1", "5": "C"}, None),
    (3, "The Temples at the Acropolis", 3, SAME_LATER, None),
    (4, "Mount Olympus", 4, SAME_LATER, None),
    (5, "The Will of the Gods", 4, SAME_LATER, "di_recover"),
    (6, "The Wrath of the Gods", 4, SAME_LATER, "di_swap_draw"),
    (7, "The Madness of the Gods", 4, SAME_LATER, "di_swap_discard"),
    (8, "The Aeolian Fields", 5, {"5": "2C"}, None),
    (9, "The Aeolian Fields Part 2", 3, {"2": "+2", "5": "2C"}, None),
    (10, "The Gates to the Underworld", 3, {"6": "C"}, "replace_until_6"),
    (11, "The River Styx", 2, {"1": "+1", "2": "+1", "3": "+1", "4": "+1", "6": "C"}, None),
    (12, "The Descent to Tartarus", 2, {"1": "+1", "2": "+1", "3": "+1", "4": "+1", "6": "H"}, None),
]

# Every rule ID of the rules text, in its order: the coverage test's list when the
# repository has no docs/legends.md to read them from.
RULE_IDS = (
    [f"L-COMP-{i}" for i in range(1, 7)] + [f"L-VAR-{i}" for i in range(1, 4)]
    + [f"L-SETUP-{i}" for i in range(1, 7)] + [f"L-TURN-{i}" for i in range(1, 8)]
    + [f"L-FIGHT-{i}" for i in range(1, 7)] + [f"L-DI-{i}" for i in range(1, 5)]
    + [f"L-CHIM-{i}" for i in range(1, 6)] + [f"L-ABIL-{i}" for i in range(1, 4)]
    + [f"L-MOVE-{i}" for i in range(1, 4)] + [f"L-RECOVER-{i}" for i in range(1, 4)]
    + [f"L-SUPPORT-{i}" for i in range(1, 4)] + [f"L-ORACLE-{i}" for i in range(1, 4)]
    + [f"L-MISSION-{i}" for i in range(1, 10)] + [f"L-END-{i}" for i in range(1, 7)]
    + [f"L-INFO-{i}" for i in range(1, 7)]
)

SEATS = [f"p{i}" for i in range(1, 6)]


# ----- the data file -------------------------------------------------------------------
def classic_data() -> dict:
    """The classic data as a legends-data/1 document (a fresh copy to edit)."""
    return {
        "format": "legends-data/1",
        "attributes": list(ATTRS),
        "action_cards": {**{a: PER_ATTRIBUTE for a in ATTRS}, "di": DI_SUPPLY},
        "di_table": copy.deepcopy(DI_TABLE),
        "monsters": copy.deepcopy(MONSTERS),
        "sizes": dict(SIZES),
        "heroes": dict(HEROES),
        "missions": [{"id": i, "name": n, "start": s, "triggers": dict(t), "special": sp}
                     for i, n, s, t, sp in MISSIONS],
    }


def data_with_mission(mission: int, start: int, triggers: dict, special=None) -> dict:
    """Classic data with one mission rewritten (a short way to a chimera or Hades)."""
    data = classic_data()
    for entry in data["missions"]:
        if entry["id"] == mission:
            entry.update(start=start, triggers=dict(triggers), special=special)
    return data


# ----- records ---------------------------------------------------------------------------
def di_count(seats: int, difficulty: str = "human") -> int:
    return DI_TABLE[difficulty][seats - 1]


def action_cards(seats: int, difficulty: str = "human", counts: dict | None = None) -> Counter:
    """The cards of hands + draw pile (L-SETUP-3)."""
    per = counts or {a: PER_ATTRIBUTE for a in ATTRS}
    pool = Counter({a: per[a] for a in ATTRS})
    pool["di"] = di_count(seats, difficulty)
    return pool


def _fill_order(pool: Counter) -> list[str]:
    """What a test left open, in a fixed order: attributes round-robin, DI cards last."""
    left = Counter(pool)
    out = []
    while any(left[a] for a in ATTRS):
        for a in ATTRS:
            if left[a]:
                out.append(a)
                left[a] -= 1
    return out + ["di"] * left["di"]


def _take(pool: Counter, cards, what: str) -> None:
    for card in cards:
        if pool[card] <= 0:
            raise AssertionError(f"test setup: no {card!r} left for {what}")
        pool[card] -= 1


def record(heroes, mission: int = 1, *, hands: dict | None = None, top=(), bottom=(), deck=(), moves=(),
           difficulty: str | None = None, first_player: str | None = None, variants: dict | None = None,
           data: str | None = None, counts: dict | None = None) -> dict:
    """A legends-record/1 with an explicit setup. `hands` names the hands a test cares
    about (4 cards each); `top` the top of the draw pile (first = top), `bottom` its
    bottom (last = bottom); `deck` the top of the monster deck. The rest is dealt in a
    fixed order (attributes round-robin, DI last)."""
    heroes = list(heroes)
    n = len(heroes)
    pool = action_cards(n, difficulty or "human", counts)
    hands = {seat: list(cards) for seat, cards in (hands or {}).items()}
    for seat, cards in hands.items():
        _take(pool, cards, f"the hand of {seat}")
    _take(pool, top, "the top of the draw pile")
    _take(pool, bottom, "the bottom of the draw pile")
    for seat in SEATS[:n]:
        if seat not in hands:
            hands[seat] = _fill_order(pool)[:4]
            _take(pool, hands[seat], f"the hand of {seat}")
    pile = list(top) + _fill_order(pool) + list(bottom)
    monster_deck = list(deck) + [m for m in MONSTERS if m not in deck]
    rec = {"format": "legends-record/1", "mission": mission, "heroes": heroes}
    if difficulty is not None:
        rec["difficulty"] = difficulty
    if first_player is not None:
        rec["first_player"] = first_player
    if variants is not None:
        rec["variants"] = dict(variants)
    if data is not None:
        rec["data"] = data
    rec["setup"] = {"monster_deck": monster_deck, "hands": {s: hands[s] for s in SEATS[:n]}, "draw_pile": pile}
    rec["moves"] = list(moves)
    return rec


def then(rec: dict, *more: str) -> dict:
    """The same record with more moves."""
    out = copy.deepcopy(rec)
    out["moves"] = list(rec["moves"]) + list(more)
    return out


def draw_pile(rec: dict) -> list[str]:
    return list(rec["setup"]["draw_pile"])


def drain(rec: dict, target: int, drawn: int = 0) -> dict:
    """Turns of `recover 1` + `discard` the card just drawn, until the draw pile holds
    `target` cards (every hand keeps its cards; the seat to move must hold 4 or fewer).
    `drawn`: cards already taken from the top by the record's moves."""
    pile = draw_pile(rec)
    more = []
    for card in pile[drawn:len(pile) - target]:
        more += ["recover 1", f"discard {card}"]
    return then(rec, *more)


PASS = "PASS"


def expand(rec: dict, script, drawn: int = 0) -> dict:
    """The record with `script` appended, each PASS written out as a turn that changes no
    hand: `recover 1` and `discard` of the card just drawn (the next card of the setup's
    pile, counting `drawn` cards already taken before the script, and the draws of the
    script's PASSes and `recover K` moves before it; no Oracle in between)."""
    pile = draw_pile(rec)
    out = []
    for move in script:
        if move == PASS:
            out += ["recover 1", f"discard {pile[drawn]}"]
            drawn += 1
        else:
            out.append(move)
            words = move.split()
            if len(words) == 2 and words[0] == "recover" and words[1].isdigit():
                drawn += int(words[1])
    return then(rec, *out)


# ----- the contract, in-process ------------------------------------------------------------
def _run(argv_head: list[str], rec, argv_tail=(), files: dict | None = None) -> tuple[int, str, str]:
    from hzai.cli import main

    with tempfile.TemporaryDirectory(prefix="legends-rules-") as tmp:
        path = Path(tmp) / "record.json"
        path.write_text(rec if isinstance(rec, str) else json.dumps(rec), encoding="utf-8")
        for name, content in (files or {}).items():
            (Path(tmp) / name).write_text(content if isinstance(content, str) else json.dumps(content),
                                          encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv_head + [str(path)] + list(argv_tail))
            except SystemExit as exc:  # argparse refusing the command line
                code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def replay(rec, files: dict | None = None) -> tuple[int, str, str]:
    return _run(["replay"], rec, files=files)


def legal(rec, files: dict | None = None) -> tuple[int, str, str]:
    return _run(["legal"], rec, files=files)


def view(rec, seat: str, files: dict | None = None) -> tuple[int, str, str]:
    return _run(["view"], rec, ["--seat", seat], files=files)


# ----- checked forms -------------------------------------------------------------------------
def _ok(result: tuple[int, str, str], what: str) -> str:
    code, out, err = result
    assert code == 0, f"{what} exited {code}: {err.strip()}"
    assert "Traceback" not in err
    return out


def state(rec, files: dict | None = None) -> dict:
    """The state JSON after the record (exit 0 demanded)."""
    return json.loads(_ok(replay(rec, files), "hzai replay"))


def moves(rec, files: dict | None = None) -> list[str]:
    """The legal moves, as printed (exit 0 demanded; printed sorted)."""
    lines = [line for line in _ok(legal(rec, files), "hzai legal").splitlines() if line.strip()]
    return lines


def seen(rec, seat: str, files: dict | None = None) -> dict:
    """The state as `seat` sees it."""
    return json.loads(_ok(view(rec, seat, files), f"hzai view --seat {seat}"))


def refusal(result: tuple[int, str, str]) -> str:
    """Exit 2 with exactly one stderr line and no traceback; the line."""
    code, out, err = result
    assert code == 2, f"expected exit 2, got {code}; stdout {out[:200]!r} stderr {err[:300]!r}"
    assert "Traceback" not in err and "internal error" not in err.lower(), err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one stderr line, got {lines}"
    return lines[0]


def assert_refused_move(rec: dict, move: str, files: dict | None = None) -> str:
    """Replaying `rec` + `move` exits 2 with one line naming the move's index (0-based)
    and the move; the line."""
    index = len(rec["moves"])
    line = refusal(replay(then(rec, move), files))
    assert re.search(rf"(?<![0-9]){index}(?![0-9])", line), f"index {index} not named: {line}"
    assert " ".join(move.lower().split()) in line.lower(), f"move {move!r} not named: {line}"
    return line


def assert_illegal(rec: dict, move: str, files: dict | None = None) -> None:
    """A rule forbids `move` here: absent from `legal`, and refused by `replay`."""
    offered = moves(rec, files)
    assert offered, "no legal moves at all: the record does not reach the situation"
    assert move not in offered, f"{move!r} is offered: {offered}"
    assert_refused_move(rec, move, files)


def assert_legal(rec: dict, move: str, files: dict | None = None) -> None:
    """`move` is offered, and replaying it succeeds."""
    offered = moves(rec, files)
    assert move in offered, f"{move!r} not offered: {offered}"
    state(then(rec, move), files)


def monster(st: dict, mid: str) -> dict:
    found = [m for m in st["monsters"] if m["id"] == mid]
    assert found, f"no monster {mid} in {[m['id'] for m in st['monsters']]}"
    return found[0]


def played(st: dict, mid: str) -> list[tuple]:
    """The cards on a monster as (card, as, face, by)."""
    return [(p["card"], p["as"], p["face"], p["by"]) for p in monster(st, mid)["played"]]


def discards(st: dict) -> list[tuple]:
    """The discard pile bottom to top as (card, by)."""
    return [(d["card"], d["by"]) for d in st["discard_pile"]]


def hand_of(st: dict, seat: str) -> list[str]:
    return list(st["seats"][seat]["hand"])


def kinds(lines: list[str]) -> set[str]:
    return {line.split()[0] for line in lines}


def all_action_cards(st: dict) -> Counter:
    """Every action card of the state, set-aside DI included (L-COMP-6)."""
    total = Counter(st["draw_pile"])
    total.update(d["card"] for d in st["discard_pile"])
    for seat in st["seats"].values():
        total.update(seat["hand"])
    for m in st["monsters"]:
        total.update(p["card"] for p in m["played"])
    total.update(st.get("oracle_revealed") or [])
    total["di"] += st["set_aside_di"]
    return total


# ----- a view says nothing false -------------------------------------------------------------
CARD_NAMES = set(ATTRS) | {"di"}
HIDDEN = "?"


def _places(runs) -> list:
    """A pile as a view writes it (names, '?', and counts of unknown places) -> one entry
    per place, None where unknown."""
    if isinstance(runs, int) and not isinstance(runs, bool):
        return [None] * runs
    out = []
    for x in runs:
        if isinstance(x, int) and not isinstance(x, bool):
            out += [None] * x
        else:
            out.append(None if x == HIDDEN else x)
    return out


def view_claims_are_true(view_json: dict, truth: dict, seat: str) -> list[str]:
    """What a seat's view states by name that the referee's state contradicts (empty
    when the view is true): pile places, discards, cards on monsters, the own hand, and
    any list of card names a view attaches to another seat (what it knows is there)."""
    wrong = []
    pile = _places(view_json["draw_pile"])
    if len(pile) != len(truth["draw_pile"]):
        wrong.append(f"draw pile of {len(pile)} places, truly {len(truth['draw_pile'])}")
    wrong += [f"draw pile place {i}: {x}, truly {y}" for i, (x, y) in enumerate(zip(pile, truth["draw_pile"]))
              if x is not None and x != y]
    vd, td = view_json["discard_pile"], truth["discard_pile"]
    if len(vd) != len(td):
        wrong.append(f"discard pile of {len(vd)}, truly {len(td)}")
    wrong += [f"discard place {i}: {a}, truly {b}" for i, (a, b) in enumerate(zip(vd, td))
              if a["by"] != b["by"] or a["card"] not in (HIDDEN, b["card"])]
    for vm, tm in zip(view_json["monsters"], truth["monsters"]):
        for i, (a, b) in enumerate(zip(vm["played"], tm["played"])):
            if (a["as"], a["face"], a["by"]) != (b["as"], b["face"], b["by"]) or a["card"] not in (HIDDEN, b["card"]):
                wrong.append(f"{vm['id']} card {i}: {a}, truly {b}")
    for name, entry in view_json["seats"].items():
        true_hand = Counter(truth["seats"][name]["hand"])
        if name == seat:
            if Counter(entry["hand"]) != true_hand:
                wrong.append(f"own hand {entry['hand']}, truly {sorted(true_hand.elements())}")
            continue
        for key, value in entry.items():
            if isinstance(value, list) and value and all(v in CARD_NAMES for v in value):
                if Counter(value) - true_hand:
                    wrong.append(f"{name}.{key} claims {value}; {name} holds {sorted(true_hand.elements())}")
    return wrong
