"""A second writing of the Legends feature encoding (hzai/games/legends/native/legends_learn.cpp), in
Python over the reference rules' LegendsView, for the differential tests: the numbers
the C++ search evaluates must be the numbers training reads, and both must follow the
reference's picture of what a seat knows."""

from __future__ import annotations

from collections import Counter

from hzai import _native

MAX_SEATS, MAX_ATTR, MAX_MONSTERS, MAX_LIST, MAX_ORDER = 5, 8, 16, 4, 5
KINDS = MAX_ATTR + 1
COPIES, HAND_CAP, PILE_CAP, ORACLE_COPIES, DEFICIT_CAP, ROOM_CAP, TURN_CAP, COUNT_CAP = 4, 10, 32, 3, 4, 8, 40, 16
MON_STRIDE = 3 + MAX_MONSTERS + MAX_ATTR * DEFICIT_CAP + ROOM_CAP + MAX_SEATS


def layout() -> dict:
    sizes = [("seats", MAX_SEATS), ("special", 5), ("finals", 4), ("start", 4), ("size_normal", 16),
             ("free_reloc", 1), ("hero", MAX_SEATS * MAX_ATTR), ("hand", KINDS * COPIES),
             ("hand_size", MAX_SEATS * HAND_CAP), ("draw", PILE_CAP), ("discard", PILE_CAP), ("aside", 4),
             ("oracle", KINDS * ORACLE_COPIES), ("mdeck", MAX_MONSTERS + 1), ("mon", MAX_MONSTERS * MON_STRIDE),
             ("broken", MAX_SEATS), ("no_disc", MAX_SEATS), ("turn", TURN_CAP), ("turn_seat", MAX_SEATS),
             ("pending", 8), ("actor", MAX_SEATS), ("placed", 4), ("giver", MAX_SEATS + 1), ("flags", 3),
             ("af_defeat", 4), ("entered", COUNT_CAP), ("defeated", COUNT_CAP), ("finals_defeated", 4)]
    out, at = {}, 0
    for name, size in sizes:
        out[name] = at
        at += size
    out["total"] = at
    return out


def _clamp(x, lo, hi):
    return max(lo, min(hi, x))


def view_features(view) -> list[int]:
    """The active features of a LegendsView, from what the reference says the seat knows."""
    from hzai.games.legends.native.twin import game_spec

    game = view.game
    spec = game_spec(game)
    L = layout()
    n, o = game.n, view.seat
    p = view.public

    def rel(s):  # a seat relative to the view's; none (the game is over) reads as seat 0, as the twin's -1 clamped
        return (_clamp(-1 if s is None else s, 0, n - 1) - o) % n

    out = [L["seats"] + _clamp(n - 1, 0, MAX_SEATS - 1),
           L["special"] + list(_native.LEGENDS_SPECIALS).index(spec["special"]),
           L["finals"] + _clamp(spec["finals"], 0, 3), L["start"] + _clamp(spec["start"], 0, 3),
           L["size_normal"] + _clamp(spec["sizes"][0], 0, 15)]
    if spec["free_relocation"]:
        out.append(L["free_reloc"])
    for r in range(n):
        out.append(L["hero"] + r * MAX_ATTR + spec["hero_attr"][(o + r) % n])
    hand = Counter(view.hand)
    for k in range(KINDS):
        out += [L["hand"] + k * COPIES + c for c in range(min(hand[k], COPIES))]
    for r in range(n):
        out.append(L["hand_size"] + r * HAND_CAP + _clamp(view.hand_sizes[(o + r) % n], 0, HAND_CAP - 1))
    known = view.known()
    out.append(L["draw"] + _clamp(len(known.draw) // 2, 0, PILE_CAP - 1))
    out.append(L["discard"] + _clamp(len(known.discard) // 2, 0, PILE_CAP - 1))
    out.append(L["aside"] + _clamp(view.aside, 0, 3))
    oracle = Counter(known.oracle)
    for k in range(KINDS):
        out += [L["oracle"] + k * ORACLE_COPIES + c for c in range(min(oracle[k], ORACLE_COPIES))]
    out.append(L["mdeck"] + _clamp(len(view.monster_deck_left), 0, MAX_MONSTERS))
    for i, (mid, _cards, req, size, final, defeated, played) in enumerate(view.monsters[:MAX_MONSTERS]):
        at = L["mon"] + i * MON_STRIDE
        out += [at, at + 1 + _clamp(mid, 0, MAX_MONSTERS - 1)]
        if defeated:
            out.append(at + 1 + MAX_MONSTERS)
        if final:
            out.append(at + 2 + MAX_MONSTERS)
        cnt = Counter(a for a, _, _ in played if a >= 0)
        deficit = at + 3 + MAX_MONSTERS
        for a in range(MAX_ATTR):
            short = max(0, (req[a] if a < len(req) else 0) - cnt[a])
            out += [deficit + a * DEFICIT_CAP + c for c in range(min(short, DEFICIT_CAP))]
        room = deficit + MAX_ATTR * DEFICIT_CAP
        out.append(room + _clamp(size - len(played), 0, ROOM_CAP - 1))
        out += [room + ROOM_CAP + r for r in range(n) if view.disc[(o + r) % n] == i]
    out += [L["broken"] + r for r in range(n) if view.broken[(o + r) % n]]
    disc = [-1 if d is None else d for d in view.disc]
    out += [L["no_disc"] + r for r in range(n) if disc[(o + r) % n] < 0]
    out.append(L["turn"] + _clamp(p["turn"] // 2, 0, TURN_CAP - 1))
    out.append(L["turn_seat"] + rel(p["turn_seat"]))
    pending = 7 if p["result"] is not None else list(_native.LEGENDS_PENDING).index(p["pending"])
    out.append(L["pending"] + pending)
    out.append(L["actor"] + rel(p["actor"]))
    out.append(L["placed"] + _clamp(p["placed"], 0, 3))
    out.append(L["giver"] + (0 if p["giver"] is None or p["giver"] < 0 else 1 + rel(p["giver"])))
    after = p["after_fight"]
    if p["forced"]:
        out.append(L["flags"])
    if after is not None:
        out.append(L["flags"] + 1)
        if after[1]:
            out.append(L["flags"] + 2)
    out.append(L["af_defeat"] + _clamp(0 if after is None else after[0], 0, 3))
    out.append(L["entered"] + _clamp(p["normals_entered"], 0, COUNT_CAP - 1))
    out.append(L["defeated"] + _clamp(p["normals_defeated"], 0, COUNT_CAP - 1))
    out.append(L["finals_defeated"] + _clamp(p["finals_defeated"], 0, 3))
    return out
