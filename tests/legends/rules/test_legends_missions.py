"""The mission table and the special rules of missions 2, 5, 6, 7 and 10 (L-MISSION,
L-END-3, L-END-4), played through the replay contract."""

from __future__ import annotations

from tests.legends.rules.contract import (
    PASS, assert_refused_move, data_with_mission, discards, draw_pile, drain, expand, hand_of, legal, monster, moves,
    record, refusal, replay, state, then,
)

DUO = ["Perseus", "Hercules"]
DECK = ["Minotaur", "Cyclops", "Hydra"]
# One seat per monster: four cards on it in rounds 1-4, a fifth drawn in round 5, played in round 6.
OWN_MONSTER_HANDS = {"p1": ["arms", "strength", "arms", "arms"], "p2": ["strength", "speed", "strength", "strength"],
                     "p3": ["courage", "strength", "courage", "courage"], "p4": ["courage", "arms", "courage", "courage"],
                     "p5": ["guile", "courage", "guile", "guile"]}
FIFTH = {"p1": "arms", "p2": "strength", "p3": "courage", "p4": "courage", "p5": "guile"}


def _one_seat_per_monster(heroes, mission, deck, extra_top=()):
    seats = [f"p{i}" for i in range(1, len(heroes) + 1)]
    hands = {s: OWN_MONSTER_HANDS[s] for s in seats}
    top = [c for s in seats for c in (FIFTH[s], "speed")] + list(extra_top)
    script = [f"place m{i}" for i in range(1, len(seats) + 1)]
    for r in range(4):
        script += [f"fight {hands[s][r]}" for s in seats]
    for s in seats:
        script += ["recover 2", "discard speed"]
    return record(heroes, mission, hands=hands, top=top, deck=deck, moves=script), seats


def test_L_MISSION_1_mission_8_two_chimeras_at_the_5th_defeat():
    deck = ["Minotaur", "Centaur", "Giant Lion", "Lamia", "Cyclops", "Harpy", "Gorgon", "Griffin", "Cerberus", "Hydra"]
    rec, seats = _one_seat_per_monster(["Achilles", "Jason", "Perseus", "Hercules", "Atalanta"], 8, deck)
    for n, seat in enumerate(seats[:4], start=1):
        rec = then(rec, f"fight {FIFTH[seat]}")
        st = state(rec)
        assert (st["normals_defeated"], len(st["monsters"])) == (n, 5), "8: nothing before the 5th defeat"
    st = state(then(rec, "fight guile"))
    assert st["normals_defeated"] == 5 and st["normals_entered"] == 5
    assert [(m["id"], m["cards"], m["final"], m["size"]) for m in st["monsters"][5:]] == [
        ("m6", ["Harpy", "Gorgon"], True, 8), ("m7", ["Griffin", "Cerberus"], True, 8)]
    assert monster(st, "m6")["requires"] == ["arms", "arms", "guile", "speed"]
    assert monster(st, "m7")["requires"] == ["guile", "guile", "speed", "strength"]
    assert st["monster_deck"] == ["Hydra"]
    assert (st["turn"], st["to_move"], st["result"]) == (31, "p1", None)


def test_L_MISSION_1_mission_1_one_monster_at_each_of_the_first_defeats():
    rec = record(DUO, 1, deck=DECK, hands={"p1": ["arms", "di", "guile", "speed"], "p2": ["strength", "guile", "speed", "courage"]},
                 moves=["place m1", "place m1", "fight arms", "fight strength", "fight di-slay"])
    st = state(rec)
    assert (st["normals_entered"], monster(st, "m4")["cards"]) == (4, ["Centaur"])


def test_L_MISSION_3_mission_2_one_monster_at_the_1st_defeat_none_after_and_the_chimera_at_the_5th():
    deck = ["Minotaur", "Centaur", "Giant Lion", "Lamia", "Harpy", "Gorgon", "Griffin", "Cerberus", "Cyclops", "Hydra"]
    round7 = ["guile", "guile", "speed", "arms"] + ["guile", "guile", "arms"] * 3
    rec, seats = _one_seat_per_monster(["Achilles", "Jason", "Perseus", "Hercules"], 2, deck, extra_top=round7)
    rec = then(rec, "fight arms")
    st = state(rec)
    assert (st["normals_defeated"], st["normals_entered"], monster(st, "m5")["cards"]) == (1, 5, ["Harpy"])
    rec = then(rec, "fight strength", "fight courage", "fight courage")
    st = state(rec)
    assert (st["normals_defeated"], st["normals_entered"], len(st["monsters"])) == (4, 5, 5)
    rec = then(rec, "recover 4", "discard guile", *["recover 3", "discard guile"] * 3, *["move m5 guile"] * 4,
               "fight speed", "fight arms", "fight arms", "fight arms")
    assert state(rec)["normals_defeated"] == 4
    st = state(then(rec, "fight arms"))
    assert (st["normals_defeated"], st["normals_entered"]) == (5, 5)
    chimera = monster(st, "m6")
    assert (chimera["cards"], chimera["final"], chimera["requires"]) == (["Gorgon", "Griffin"], True,
                                                                         ["arms", "guile", "guile", "strength"])


def test_L_MISSION_3_a_data_file_may_take_the_other_reading_but_not_an_impossible_one():
    other = data_with_mission(2, 4, {"1": "+1", "2": "+1", "6": "C"})
    st = state(record(DUO, 2, data="other.json"), files={"other.json": other})
    assert st["mission"] == 2 and st["normals_entered"] == 4
    impossible = data_with_mission(2, 4, {"2": "+1", "6": "C"})  # only 5 enter before the 6th defeat
    refusal(replay(record(DUO, 2, data="bad.json"), files={"bad.json": impossible}))


def test_L_MISSION_4_mission_5_no_forced_recover_after_a_di_use_on_the_chimera():
    """A mission 5 written with one normal monster and `1: C`: the DI slay on the Harpy
    brings the forced Recover, before the chimera enters; a wild DI on the chimera brings
    nothing."""
    files = {"m5.json": data_with_mission(5, 1, {"1": "C"}, "di_recover")}
    rec = record(DUO, 5, data="m5.json", deck=["Harpy", "Minotaur", "Lamia"],
                 hands={"p1": ["arms", "di", "di", "guile"], "p2": ["speed", "di", "guile", "courage"]},
                 moves=["place m1", "place m1", "fight arms", "fight speed", "fight di-slay"])
    st = state(rec, files)
    assert (st["pending"], st["to_move"], len(st["monsters"])) == ("forced_recover", "p1", 1)
    pile = draw_pile(rec)
    rec = then(rec, "recover 1", f"discard {pile[0]}")
    st = state(rec, files)
    assert monster(st, "m2")["cards"] == ["Minotaur", "Lamia"] and st["to_move"] == "p2"
    st = state(then(rec, "move m2 guile", "move m2 guile", "fight di strength"), files)
    assert (st["pending"], st["to_move"]) == ("action", "p1")


def test_L_MISSION_5_mission_6_the_hand_goes_under_the_draw_pile_in_a_chance_order_then_n_are_drawn():
    rec = record(DUO, 6, deck=DECK, hands={"p1": ["arms", "di", "guile", "speed"]},
                 moves=["place m1", "place m2", "fight di arms"])
    pile = draw_pile(rec)
    st = state(rec)
    assert (st["pending"], st["to_move"]) == ("chance", None)
    assert hand_of(st, "p1") == ["arms", "guile", "speed"]
    code, out, err = legal(rec)
    assert (code, out.strip()) == (0, "") and err.strip()
    assert_refused_move(rec, "chance order arms,arms,guile")
    assert_refused_move(rec, "chance order arms,guile")
    st = state(then(rec, "chance order speed,arms,guile"))
    assert hand_of(st, "p1") == sorted(pile[:3])
    assert st["draw_pile"] == pile[3:] + ["speed", "arms", "guile"]
    assert (st["pending"], st["to_move"]) == ("action", "p2")


def test_L_MISSION_5_mission_6_an_empty_hand_has_nothing_to_swap():
    rec = record(DUO, 6, deck=DECK, hands={"p1": ["arms", "di", "guile", "speed"], "p2": ["guile", "speed", "arms", "strength"]},
                 moves=["place m1", "place m2", "support p2 arms,guile,speed", "discard arms,guile,speed"])
    rec = expand(rec, [PASS, "fight di arms"])
    st = state(rec)
    assert (st["pending"], st["to_move"], hand_of(st, "p1")) == ("action", "p2", [])
    assert_refused_move(rec, "chance order arms")  # no chance event is due


def test_L_MISSION_5_mission_6_with_a_short_pile_own_cards_come_back():
    rec = record(DUO, 6, deck=DECK, hands={"p1": ["arms", "di", "guile", "speed"]}, bottom=["courage"],
                 moves=["place m1", "place m2"])
    rec = then(drain(rec, 1), "fight di arms", "chance order speed,arms,guile")
    st = state(rec)
    assert hand_of(st, "p1") == ["arms", "courage", "speed"] and st["draw_pile"] == ["guile"]


def test_L_MISSION_6_mission_7_the_hand_goes_under_the_discard_pile_and_the_latest_discards_are_taken():
    rec = record(DUO, 7, deck=DECK, hands={"p1": ["arms", "di", "guile", "speed"], "p2": ["guile", "speed", "arms", "strength"]},
                 top=["courage", "strength"], moves=["place m1", "place m2"])
    rec = expand(rec, [PASS, "recover 0", "discard guile", PASS, "recover 0", "discard speed", "fight di arms"])
    st = state(rec)
    assert (st["pending"], hand_of(st, "p1")) == ("chance", ["arms", "guile", "speed"])
    assert [c for c, _ in discards(st)] == ["courage", "guile", "strength", "speed"]
    st = state(then(rec, "chance order speed,guile,arms"))
    assert hand_of(st, "p1") == ["guile", "speed", "strength"]
    assert [c for c, _ in discards(st)] == ["arms", "guile", "speed", "courage"]
    assert st["draw_pile"] == draw_pile(rec)[2:]


def test_L_MISSION_7_L_END_4_mission_10_three_slays_before_six_entered_lose():
    """Mission 10: each slay brings no monster; after the third, none is in play with
    only 3 entered, and the mission is lost at once."""
    rec = record(["Perseus", "Hercules", "Achilles", "Atalanta"], 10, deck=["Minotaur", "Harpy", "Gorgon"],
                 hands={"p1": ["arms", "arms", "di", "guile"], "p2": ["strength", "guile", "arms", "courage"],
                        "p3": ["di", "di", "speed", "courage"], "p4": ["courage", "speed", "courage", "guile"]},
                 moves=["place m1"] * 4)
    first = ["fight arms", "fight strength", "fight di-slay",
             "move m2 courage", "move m2 guile", PASS, PASS, "fight speed", "fight arms", PASS, PASS, PASS,
             "fight di-slay"]
    rec2 = expand(rec, first)
    st = state(rec2)
    assert (st["normals_defeated"], st["normals_entered"], st["result"]) == (2, 3, None)
    assert monster(st, "m3")["status"] == "in_play"
    rest = ["move m3 guile", "move m3 speed", "move m3 courage", PASS, "fight arms", PASS, "fight guile", PASS, PASS,
            "fight di-slay"]
    st = state(expand(rec, first + rest))
    assert (st["result"], st["reason"], st["turn"]) == ("lost", "no_sixth_monster", 23)
    assert (st["normals_defeated"], st["normals_entered"]) == (3, 3)


def test_L_MISSION_7_mission_10_each_defeat_brings_one_until_six_then_the_6th_defeat_the_chimera():
    """Mission 10, one seat per monster: three count defeats bring m4..m6 (E = 6); then
    three slays bring nothing more, and the 6th defeat brings the chimera."""
    deck = ["Minotaur", "Centaur", "Giant Lion", "Lamia", "Cyclops", "Harpy", "Gorgon", "Griffin", "Cerberus", "Hydra"]
    round7 = ["guile", "guile", "courage", "arms", "di", "speed", "guile", "guile", "courage", "di",
              "speed", "guile", "speed", "arms", "di"]
    rec, seats = _one_seat_per_monster(["Achilles", "Jason", "Perseus"], 10, deck, extra_top=round7)
    for n, seat in enumerate(seats, start=1):
        rec = then(rec, f"fight {FIFTH[seat]}")
        st = state(rec)
        assert (st["normals_defeated"], st["normals_entered"]) == (n, 3 + n)
    assert [m["cards"] for m in st["monsters"][3:]] == [["Lamia"], ["Cyclops"], ["Harpy"]]
    rec = then(rec, "recover 5", "discard guile", "recover 5", "discard speed", "recover 5", "discard speed",
               "move m4 guile", "move m5 guile", "move m6 guile",
               "fight courage", "fight guile", "fight speed", "fight arms", "fight courage", "fight arms",
               "fight di-slay")
    st = state(rec)
    assert (st["normals_defeated"], st["normals_entered"], len(st["monsters"]), st["result"]) == (4, 6, 6, None)
    rec = then(rec, "fight di-slay")
    assert (state(rec)["normals_defeated"], len(state(rec)["monsters"])) == (5, 6)
    st = state(then(rec, "fight di-slay"))
    assert st["normals_defeated"] == 6 and st["result"] is None
    assert [(m["id"], m["cards"], m["final"]) for m in st["monsters"][6:]] == [("m7", ["Gorgon", "Griffin"], True)]


def test_L_TURN_4_mission_6_the_swap_comes_before_the_new_monsters():
    """A mission 6 written with one normal monster and `1: +2`: the slay is a DI use, so
    the chance order is due before the two new monsters enter."""
    files = {"m6.json": data_with_mission(6, 1, {"1": "+2", "2": "C"}, "di_swap_draw")}
    rec = record(DUO, 6, data="m6.json", deck=DECK,
                 hands={"p1": ["arms", "di", "guile", "speed"], "p2": ["strength", "guile", "speed", "arms"]},
                 moves=["place m1", "place m1", "fight arms", "fight strength", "fight di-slay"])
    st = state(rec, files)
    assert (st["pending"], st["normals_entered"], len(st["monsters"])) == ("chance", 1, 1)
    st = state(then(rec, "chance order guile,speed"), files)
    assert (st["pending"], st["to_move"], st["normals_entered"]) == ("action", "p2", 3)
    assert [m["cards"] for m in st["monsters"][1:]] == [["Cyclops"], ["Hydra"]]


def test_L_END_2_under_free_relocation_a_stranded_empty_seat_still_loses():
    rec = record(DUO, 1, deck=DECK, variants={"relocation": "free"},
                 hands={"p1": ["arms", "strength", "di", "guile"], "p2": ["guile", "speed", "arms", "strength"]},
                 moves=["place m1", "place m1"])
    rec = drain(rec, 0)
    assert state(rec)["to_move"] == "p2"
    rec = then(rec, "fight strength", "fight arms", "recover 0", "discard guile", "fight di-slay",
               "support p1 arms,speed", "discard guile", "recover 0", "discard arms")
    st = state(rec)
    assert (st["result"], st["reason"]) == ("lost", "exhausted")
    assert st["seats"]["p2"]["stranded"] is True and hand_of(st, "p2") == []


def test_L_MISSION_5_a_seed_record_draws_the_chance_order_itself():
    """With `seed`, the engine draws mission 6's order when it is due (the same every
    time), and a chance line in such a record is refused."""
    for seed in range(1, 200):
        rec = {"format": "legends-record/1", "mission": 6, "heroes": DUO, "seed": seed, "moves": ["place m1", "place m1"]}
        st = state(rec)
        hand = hand_of(st, "p1")
        if "di" in hand:
            break
    wild = f"fight di {monster(st, 'm1')['requires'][0]}"
    after = state(then(rec, wild))
    assert (after["pending"], after["to_move"]) == ("action", "p2")
    assert len(hand_of(after, "p1")) == 3 and after == state(then(rec, wild))
    rest = list(hand)
    rest.remove("di")
    assert_refused_move(then(rec, wild), "chance order " + ",".join(rest))


def test_L_MISSION_6_mission_7_no_swap_after_a_di_use_on_the_chimera():
    files = {"m7.json": data_with_mission(7, 1, {"1": "C"}, "di_swap_discard")}
    rec = record(DUO, 7, data="m7.json", deck=["Harpy", "Minotaur", "Lamia"],
                 hands={"p1": ["arms", "di", "di", "guile"], "p2": ["speed", "di", "guile", "courage"]},
                 moves=["place m1", "place m1", "fight arms", "fight speed", "fight di-slay"])
    st = state(rec, files)
    assert (st["pending"], len(st["monsters"])) == ("chance", 1)  # the slay on the Harpy is a DI use
    rec = then(rec, "chance order di,guile")
    st = state(rec, files)
    assert hand_of(st, "p1") == ["di", "guile"] and monster(st, "m2")["cards"] == ["Minotaur", "Lamia"]
    st = state(then(rec, "move m2 guile", "move m2 guile", "fight di strength"), files)
    assert (st["pending"], st["to_move"], hand_of(st, "p2")) == ("action", "p1", ["courage"])
