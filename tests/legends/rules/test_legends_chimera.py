"""Chimeras and Hades (L-CHIM, L-MISSION-2, L-MISSION-8, L-END-1).

The classic missions bring a chimera only after five or six defeats; the mechanics are
tested on short missions written as data files (L-COMP-5 lets a mission say `1: C`),
and the classic trigger itself once, on mission 8, in tests/legends/rules/test_legends_missions.py."""

from __future__ import annotations

from tests.legends.rules.contract import (
    PASS, assert_illegal, assert_legal, assert_refused_move, data_with_mission, expand, monster, moves, record,
    seen, state,
)

FIVE = ["Perseus", "Hercules", "Atalanta", "Achilles", "Jason"]  # arms, strength, guile, speed, courage


def _files(mission, start, triggers, special=None):
    return {"short.json": data_with_mission(mission, start, triggers, special)}


def test_L_CHIM_1_a_chimera_is_the_next_two_monster_cards_under_one_id():
    files = _files(1, 1, {"1": "C"})
    rec = record(["Perseus", "Hercules", "Jason"], 1, data="short.json", deck=["Harpy", "Minotaur", "Lamia"],
                 hands={"p1": ["arms", "arms", "arms", "guile"], "p3": ["di", "guile", "arms", "di"]},
                 moves=["place m1", "place m1", "place m1", "fight arms", "fight speed", "fight di-slay"])
    st = state(rec, files)
    assert [m["id"] for m in st["monsters"]] == ["m1", "m2"]
    chimera = monster(st, "m2")
    assert chimera["cards"] == ["Minotaur", "Lamia"]
    assert (chimera["final"], chimera["size"], chimera["status"], chimera["played"]) == (True, 8, "in_play", [])
    assert st["monster_deck"] == ["Centaur", "Giant Lion", "Cyclops", "Gorgon", "Griffin", "Cerberus", "Hydra"]


def test_L_CHIM_2_L_CHIM_3_L_CHIM_4_doubled_arms_six_at_most_and_a_count_defeat_covers_all():
    """Minotaur + Lamia: R = arms x2, strength, courage, size 8. Discs stand on the
    chimera as a whole; while strength and courage are missing, six cards may count as
    arms and no seventh; eight covering cards defeat it."""
    files = _files(1, 1, {"1": "C"})
    rec = record(["Perseus", "Hercules", "Jason"], 1, data="short.json", deck=["Harpy", "Minotaur", "Lamia"],
                 hands={"p1": ["arms", "arms", "arms", "guile"], "p2": ["speed", "guile", "arms", "arms"],
                        "p3": ["di", "guile", "arms", "di"]},
                 top=["arms", "strength", "courage", "guile"],
                 moves=["place m1", "place m1", "place m1", "fight arms", "fight speed", "fight di-slay",
                        "move m2 guile", "move m2 guile", "move m2 guile"])
    st = state(rec, files)
    assert monster(st, "m2")["requires"] == ["arms", "arms", "courage", "strength"]
    assert {s: st["seats"][s]["disc"] for s in ("p1", "p2", "p3")} == {"p1": "m2", "p2": "m2", "p3": "m2"}
    rec = expand(rec, ["fight arms", "fight arms", "fight arms", "fight ability arms", "fight arms"])
    assert_legal(rec, "fight di arms", files)  # the sixth arms: 5 + 1 + 2 <= 8
    rec = expand(rec, ["fight di arms", "recover 4", "discard guile"], drawn=0)
    rec = expand(rec, [PASS, PASS], drawn=4)
    offered = moves(rec, files)
    assert {m for m in offered if m.startswith("fight")} == {"fight courage", "fight strength"}
    assert_illegal(rec, "fight arms", files)
    rec = expand(rec, ["fight strength", PASS, PASS], drawn=6)
    st = state(rec, files)
    assert monster(st, "m2")["status"] == "in_play" and len(monster(st, "m2")["played"]) == 7
    assert_refused_move(rec, "fight di-slay", files)  # nobody slays without a DI; courage still missing
    st = state(expand(rec, ["fight courage"], drawn=8), files)
    assert monster(st, "m2")["status"] == "defeated" and len(monster(st, "m2")["played"]) == 8
    assert (st["result"], st["reason"]) == ("won", "final_defeated")


def test_L_CHIM_5_L_END_1_two_chimeras_at_once_and_the_last_to_fall_wins():
    """A mission written `1: 2C`: Harpy + Gorgon is m2, Lamia + Giant Lion m3. m3 falls
    first (not won yet); the mission is won when m2, the last final monster, falls."""
    files = _files(8, 1, {"1": "2C"})
    hands = {"p1": ["arms", "arms", "di", "guile"], "p2": ["strength", "strength", "guile", "speed"],
             "p3": ["di", "speed", "guile", "arms"], "p4": ["courage", "speed", "arms", "di"],
             "p5": ["courage", "courage", "guile", "guile"]}
    rec = record(FIVE, 8, data="short.json", hands=hands,
                 deck=["Minotaur", "Harpy", "Gorgon", "Lamia", "Giant Lion"],
                 moves=["place m1"] * 5 + ["fight arms", "fight strength", "fight di-slay"])
    st = state(rec, files)
    assert [(m["id"], m["cards"]) for m in st["monsters"][1:]] == [("m2", ["Harpy", "Gorgon"]),
                                                                   ("m3", ["Lamia", "Giant Lion"])]
    assert monster(st, "m2")["requires"] == ["arms", "arms", "guile", "speed"]
    assert monster(st, "m3")["requires"] == ["arms", "courage", "courage", "strength"]
    rec = expand(rec, ["move m2 courage", "move m3 guile", "move m3 guile", "move m3 guile", "move m2 speed",
                       "fight speed", "fight courage", "fight arms", "fight strength", "fight guile",
                       "fight arms", "fight courage", "fight di-slay"])
    st = state(rec, files)
    assert monster(st, "m3")["status"] == "defeated" and monster(st, "m2")["status"] == "in_play"
    assert (st["result"], st["reason"]) == (None, None)
    rec = expand(rec, [PASS, "fight arms", "fight di-slay"])
    st = state(rec, files)
    assert monster(st, "m2")["status"] == "defeated"
    assert (st["result"], st["reason"], st["to_move"]) == ("won", "final_defeated", None)


def _won_in_eleven_turns():
    files = _files(1, 1, {"1": "C"})
    rec = record(["Perseus", "Hercules", "Atalanta"], 1, data="short.json", deck=["Minotaur", "Harpy", "Gorgon"],
                 hands={"p1": ["arms", "arms", "arms", "guile"], "p2": ["strength", "courage", "speed", "di"],
                        "p3": ["di", "guile", "courage", "speed"]},
                 moves=["place m1", "place m1", "place m1", "fight arms", "fight strength", "fight di-slay",
                        "move m2 guile", "move m2 courage", "move m2 courage", "fight arms", "fight speed",
                        "fight ability speed", "fight arms", "fight di-slay"])
    return rec, files


def test_L_END_1_nothing_is_played_after_the_win():
    rec, files = _won_in_eleven_turns()
    st = state(rec, files)
    assert (st["result"], st["reason"], st["to_move"]) == ("won", "final_defeated", None)
    assert moves(rec, files) == []
    assert_refused_move(rec, "recover 0", files)


def test_L_MISSION_2_won_when_the_last_final_monster_falls_with_normals_still_in_play():
    """A mission of two normal monsters and `1: C`: the Minotaur falls, the chimera
    (Harpy + Gorgon) follows; the Cyclops is still in play and the mission is won."""
    files = _files(1, 2, {"1": "C"})
    rec = record(["Perseus", "Hercules", "Atalanta"], 1, data="short.json",
                 deck=["Minotaur", "Cyclops", "Harpy", "Gorgon"],
                 hands={"p1": ["arms", "arms", "arms", "guile"], "p2": ["strength", "courage", "speed", "di"],
                        "p3": ["di", "guile", "courage", "speed"]},
                 moves=["place m1", "place m1", "place m1", "fight arms", "fight strength", "fight di-slay",
                        "move m3 guile", "move m3 courage", "move m3 courage", "fight arms", "fight speed",
                        "fight ability speed", "fight arms"])
    st = state(rec, files)
    assert monster(st, "m3")["cards"] == ["Harpy", "Gorgon"] and st["result"] is None
    st = state(expand(rec, ["fight di-slay"]), files)
    assert (st["result"], st["reason"]) == ("won", "final_defeated")
    assert monster(st, "m2")["status"] == "in_play" and monster(st, "m3")["status"] == "defeated"


def test_L_MISSION_8_hades_three_cards_six_symbols_size_10_slay_needs_all_six():
    files = _files(12, 1, {"1": "H"})
    hands = {"p1": ["arms", "courage", "arms", "di"], "p2": ["strength", "speed", "arms", "strength"],
             "p3": ["di", "courage", "guile", "strength"], "p4": ["guile", "speed", "di", "strength"],
             "p5": ["guile", "courage", "guile", "strength"]}
    rec = record(FIVE, 12, data="short.json", hands=hands, deck=["Minotaur", "Harpy", "Gorgon", "Cyclops"],
                 moves=["place m1"] * 5 + ["fight arms", "fight strength", "fight di-slay"])
    st = state(rec, files)
    hades = monster(st, "m2")
    assert hades["cards"] == ["Harpy", "Gorgon", "Cyclops"]
    assert hades["requires"] == ["arms", "arms", "courage", "guile", "guile", "speed"]
    assert (hades["size"], hades["final"]) == (10, True)
    rec = expand(rec, ["move m2 guile", "move m2 guile", "move m2 courage", "move m2 speed", "move m2 courage",
                       "fight speed", "fight courage", "fight arms", "fight arms", "fight guile"])
    assert_illegal(rec, "fight di-slay", files)  # p4 holds a DI, but one guile is short: doubled needs two
    rec = expand(rec, [PASS, "fight guile"])
    assert_legal(rec, "fight di-slay", files)
    st = state(expand(rec, ["fight di-slay"], drawn=1), files)
    assert monster(st, "m2")["status"] == "defeated" and len(monster(st, "m2")["played"]) == 7
    assert (st["result"], st["reason"]) == ("won", "final_defeated")


def test_L_CHIM_3_a_slay_on_the_chimera_once_two_arms_one_strength_one_courage_lie_there():
    files = _files(1, 1, {"1": "C"})
    rec = record(["Perseus", "Hercules", "Jason"], 1, data="short.json", deck=["Harpy", "Minotaur", "Lamia"],
                 hands={"p1": ["arms", "arms", "guile", "di"], "p2": ["speed", "guile", "arms", "strength"],
                        "p3": ["di", "guile", "courage", "speed"]},
                 moves=["place m1", "place m1", "place m1", "fight arms", "fight speed", "fight di-slay",
                        "move m2 guile", "move m2 guile", "move m2 guile", "fight arms", "fight arms",
                        "fight courage"])
    assert_illegal(rec, "fight di-slay", files)  # strength is still missing
    rec = expand(rec, [PASS, "fight strength", PASS])
    assert_legal(rec, "fight di-slay", files)
    st = state(expand(rec, ["fight di-slay"], drawn=2), files)
    assert len(monster(st, "m2")["played"]) == 5 and (st["result"], st["reason"]) == ("won", "final_defeated")


def test_L_END_6_the_result_is_the_teams():
    rec, files = _won_in_eleven_turns()
    st = state(rec, files)
    assert not {"winner", "score", "scores"} & set(st)
    for seat in ("p1", "p2", "p3"):
        v = seen(rec, seat, files)
        assert (v["result"], v["reason"]) == ("won", "final_defeated")
        assert not any(k in ("result", "won", "score") for k in v["seats"][seat])
