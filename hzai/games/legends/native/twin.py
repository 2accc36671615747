"""The native twin of Legends of Hellas (hzai/games/legends/native/legends.{hpp,cpp}) behind a small
Python API: the game handle built from the parsed data file, the options and the
action-id layout of `hzai.games.legends.moves.ActionCodec` (the one source of the ids:
C++ reads the block offsets and the multisets from it, never restates them), states
loaded from and dumped to plain dicts, and a seat's view as the native sampler reads it.

    >>> from hzai.games.legends.game import LegendsGame
    >>> game = LegendsGame(mission=3, heroes=["Perseus", "Jason", "Achilles"])
    >>> native = native_state(game.new_state(7))
    >>> native.legal_actions(), native.dump()["pending"]
    >>> won, turns = _native.legends_random_playouts(native, 10_000, seed=1, threads=2)
"""

from __future__ import annotations

from hzai import _native
from hzai.games.legends.heuristic import WEIGHTS
from hzai.games.legends.learned import GuidedView
from hzai.games.legends.moves import HIDDEN, Discard, FightAbility, MoveTo, Support
from hzai.games.legends.rules import deck_kinds
from hzai.games.legends.view import LegendsView

__all__ = ["game_spec", "native_game", "native_state", "native_view", "table_dump", "view_spec"]

_EVENTS = {name: i for i, name in enumerate(_native.LEGENDS_EVENTS)}
_FACES = {name: i for i, name in enumerate(_native.LEGENDS_FACES)}
_TRIGGERS = {name: i for i, name in enumerate(_native.LEGENDS_TRIGGERS)}


def _trigger(text: str) -> tuple[int, int]:
    if text.startswith("+"):
        return _TRIGGERS["+"], int(text[1:])
    return _TRIGGERS[text], 0


def game_spec(game) -> dict:
    """What the C++ game reads: the data (counts, monsters, sizes), the mission, the
    options and the codec's layout."""
    data, codec, mission = game.data, game.codec, game.mission
    deck, aside = deck_kinds(game)
    return {
        "attrs": len(data.attributes), "seats": game.n, "first": game.first, "turn_limit": game.turn_limit,
        "free_relocation": game.free_relocation, "hero_attr": list(game.hero_attr), "deck": list(deck),
        "aside": aside, "monsters": [list(pair) for _, pair in data.monsters],
        "sizes": [data.sizes["normal"], data.sizes["chimera"], data.sizes["hades"]],
        "start": mission.start, "finals": mission.finals, "special": mission.special,
        "triggers": {k: _trigger(v) for k, v in mission.triggers.items()},
        "bases": [codec.base[name] for name in _native.LEGENDS_BLOCKS], "size": codec.size,
        "multisets": [[codec.index[name] for name in m] for m in codec.multisets],
        "seq_base": [codec.seq_base[length] for length in sorted(codec.seq_base)], "seq_count": codec.seq_count,
        "weights": dict(WEIGHTS),  # the heuristic's, for the light playout policy
    }


def native_game(game) -> _native.LegendsGame:
    return _native.LegendsGame(game_spec(game))


def table_dump(t) -> dict:
    """A reference Table in the plain shape of `LegendsState.dump()` (instances kept)."""
    return {
        "kind": list(t.kind), "hands": [list(h) for h in t.hands], "draw": list(t.draw),
        "discard": [tuple(x) for x in t.discard], "aside": len(t.aside), "oracle": list(t.oracle),
        "monster_deck": list(t.monster_deck),
        "monsters": [{"id": m.id, "cards": list(m.cards), "req": list(m.req), "cnt": list(m.cnt), "size": m.size,
                      "final": m.final, "defeated": m.defeated, "played": [tuple(p) for p in m.played]}
                     for m in t.monsters],
        "disc": list(t.disc), "broken": list(t.broken), "turn": t.turn, "turn_seat": t.turn_seat,
        "pending": None if t.result is not None else t.pending, "actor": t.actor, "placed": t.placed,
        "giver": t.giver, "forced": t.forced, "after_fight": None if t.after_fight is None else tuple(t.after_fight),
        "normals_entered": t.normals_entered, "normals_defeated": t.normals_defeated,
        "finals_defeated": t.finals_defeated, "result": t.result, "reason": t.reason,
    }


def native_state(state) -> _native.LegendsState:
    """The twin of a reference LegendsState."""
    return state.game.search.native.state(table_dump(state.t))


def _event(e: tuple) -> tuple:
    """One of knowledge.observed's tuples as the 9 typed fields of LgEvent:
    (type, seat, other, n, monster, face, kind, shown, kinds)."""
    typ = _EVENTS[e[0]]
    name = e[0]
    if name in ("draw", "take_discard"):
        _, seat, n, kinds = e
        return typ, seat, 0, n, 0, 0, -1, kinds is not None, list(kinds or ())
    if name == "play":
        _, seat, mon, face, k = e
        return typ, seat, 0, 0, mon, _FACES[face], -1 if k is None else k, False, []
    if name == "discard":
        _, seat, k = e
        return typ, seat, 0, 0, 0, 0, -1 if k is None else k, False, []
    if name == "give":
        _, giver, receiver, n, kinds = e
        return typ, giver, receiver, n, 0, 0, -1, kinds is not None, list(kinds or ())
    if name == "reveal":
        return typ, 0, 0, len(e[1]), 0, 0, -1, False, list(e[1])
    if name == "back":
        _, seat, k, order = e
        return typ, seat, 0, len(order), 0, 0, k, False, list(order)
    _, seat, n = e  # under_draw, under_discard
    return typ, seat, 0, n, 0, 0, -1, False, []


# The ids of what a seat does not see of another seat's action (legends.hpp, observation):
# from the game's action count up, a hidden ability card, a paid Move to monster m, a
# Support to seat s of n hidden cards, and n hidden discards.
_MAX_MONSTERS, _MAX_SEATS, _MAX_LIST = 16, 5, 4
_PENDING = {name: i for i, name in enumerate(_native.LEGENDS_PENDING)}


def observed_id(game, move, pending: str) -> int:
    """The id of a move as a seat saw it (knowledge.redact's move): the action id where
    the seat saw it whole, else the id standing for what it saw (legends.hpp, observation)."""
    size = game.num_actions
    moved = size + 1
    given = moved + _MAX_MONSTERS
    dropped = given + _MAX_SEATS * (_MAX_LIST + 1)
    typ = type(move)
    if typ is FightAbility and move.card == HIDDEN:
        return size
    if typ is MoveTo and move.card == HIDDEN:
        return moved + move.monster - 1
    if typ is Support and HIDDEN in move.cards:
        return given + move.seat * (_MAX_LIST + 1) + len(move.cards)
    if typ is Discard and HIDDEN in move.cards:
        return dropped + len(move.cards)
    return game.action_of(move)


def view_spec(view) -> dict:
    """The seat's view (LegendsView) field by field as the native sampler reads it: what
    hzai.games.legends.sampler reads, in the same order."""
    p = view.public
    return {
        "seat": view.seat, "own_start": list(view.own_start), "start_hands": list(view.start_hands),
        "start_pile": view.start_pile, "log": [_event(e) for e in view.log],
        "history": [(seat, _PENDING[pending], observed_id(view.game, move, pending))
                    for seat, move, pending in view.history if seat is not None],
        "monsters": [{"id": mid, "cards": list(cards), "req": list(req), "size": size, "final": final,
                      "defeated": defeated, "played": [(a, _FACES[f], by) for a, f, by in played]}
                     for mid, cards, req, size, final, defeated, played in view.monsters],
        "monster_deck_left": list(view.monster_deck_left), "aside": view.aside, "disc": list(view.disc),
        "broken": list(view.broken), "turn": p["turn"], "turn_seat": p["turn_seat"],
        "pending": None if p["result"] is not None else p["pending"], "actor": p["actor"], "placed": p["placed"],
        "giver": p["giver"], "forced": p["forced"],
        "after_fight": None if p["after_fight"] is None else tuple(p["after_fight"]),
        "normals_entered": p["normals_entered"], "normals_defeated": p["normals_defeated"],
        "finals_defeated": p["finals_defeated"], "result": p["result"], "reason": p["reason"],
    }


def native_view(view) -> _native.LegendsView:
    """A LegendsView as its spec; any other view of a Legends game (the all-seeing team's,
    whose every sample is one known state) as the native world view of that state."""
    if isinstance(view, GuidedView):  # the card model's worlds, already in the twin
        return view.native
    if isinstance(view, LegendsView):
        return view.game.search.native.view(view_spec(view))
    return view.game.search.native.world_view(native_state(view.sample(0)))


def selftest_lines(game, views=()) -> list[str]:
    """The game spec and some views as the whitespace-separated numbers
    hzai/games/legends/native/legends_selftest.cpp reads (for the sanitizer and Valgrind runs)."""
    spec = game_spec(game)
    pending = list(_native.LEGENDS_PENDING) + [None]
    results, reasons = list(_native.LEGENDS_RESULTS), list(_native.LEGENDS_REASONS)
    specials = list(_native.LEGENDS_SPECIALS)
    out = [
        [spec["attrs"], spec["seats"], spec["first"], spec["turn_limit"], int(spec["free_relocation"]), spec["aside"]],
        spec["hero_attr"], [len(spec["deck"]), *spec["deck"]],
        [len(spec["monsters"]), *(a for pair in spec["monsters"] for a in pair)], spec["sizes"],
        [spec["start"], spec["finals"], specials.index(spec["special"])],
        [len(spec["triggers"]), *(x for k, (kind, n) in sorted(spec["triggers"].items()) for x in (k, kind, n))],
        [*spec["bases"], spec["size"]],
        [len(spec["multisets"]), *(x for m in spec["multisets"] for x in (len(m), *m))],
        [*spec["seq_base"], spec["seq_count"]],
        [spec["weights"][name] for name in _native.LEGENDS_WEIGHTS],
        [len(views)],
    ]
    for view in views:
        v = view_spec(view)
        out.append([v["seat"], len(v["own_start"]), *v["own_start"], *v["start_hands"], v["start_pile"]])
        out.append([len(v["log"])])
        for typ, seat, other, n, mon, face, k, shown, kinds in v["log"]:
            out.append([typ, seat, other, n, mon, face, k, int(shown), len(kinds), *kinds])
        out.append([len(v["monsters"])])
        for m in v["monsters"]:
            out.append([m["id"], m["size"], int(m["final"]), int(m["defeated"]), len(m["cards"]), *m["cards"], *m["req"],
                        len(m["played"]), *(x for p in m["played"] for x in p)])
        af = v["after_fight"]
        out.append([len(v["monster_deck_left"]), *v["monster_deck_left"], v["aside"],
                    *(-1 if d is None else d for d in v["disc"]), *(int(b) for b in v["broken"])])
        out.append([v["turn"], v["turn_seat"], pending.index(v["pending"]), -1 if v["actor"] is None else v["actor"],
                    v["placed"], -1 if v["giver"] is None else v["giver"], int(v["forced"]), int(af is not None),
                    af[0] if af else 0, int(af[1]) if af else 0, v["normals_entered"], v["normals_defeated"],
                    v["finals_defeated"], results.index(v["result"]), reasons.index(v["reason"])])
    # whole numbers as they are; the weights (floats) as repr, which reads back exactly
    return [" ".join(repr(x) if isinstance(x, float) else str(int(x)) for x in line) for line in out]
