"""Fight, divine intervention and the special ability (L-FIGHT, L-DI, L-ABIL).

Unless a test says otherwise: two seats, p1 Perseus (arms) and p2 Hercules (strength),
mission 1, m1 Minotaur (arms, strength), m2 Cyclops (guile, courage), m3 Hydra (speed,
courage)."""

from __future__ import annotations

import pytest

from tests.legends.rules.contract import (
    assert_illegal, assert_legal, assert_refused_move, discards, hand_of, kinds, monster, moves, played, record,
    seen, state, then,
)

DUO = ["Perseus", "Hercules"]
DECK = ["Minotaur", "Cyclops", "Hydra"]


def duo(p1, p2, *, mission=1, deck=DECK, heroes=DUO, moves_=(), **kw):
    return record(heroes, mission, hands={"p1": p1, "p2": p2}, deck=deck, moves=moves_, **kw)


def fights(rec) -> set[str]:
    return {m for m in moves(rec) if m.startswith("fight")}


# ----- L-FIGHT -----------------------------------------------------------------------------
def test_L_FIGHT_1_a_card_goes_face_up_onto_the_discs_monster():
    rec = duo(["arms", "guile", "courage", "di"], ["strength", "guile", "speed", "arms"],
              moves_=["place m1", "place m2", "fight arms"])
    st = state(rec)
    assert played(st, "m1") == [("arms", "arms", "up", "p1")]
    assert played(st, "m2") == [] and played(st, "m3") == []
    assert hand_of(st, "p1") == ["courage", "di", "guile"]
    assert (st["to_move"], st["turn"]) == ("p2", 2)


def test_L_FIGHT_1_never_onto_another_monster():
    """p1 stands on the Minotaur: its guile card would fit the Cyclops, but fight never
    names a monster, so guile is not playable."""
    rec = duo(["arms", "guile", "courage", "di"], ["strength", "guile", "speed", "arms"], moves_=["place m1", "place m2"])
    assert_illegal(rec, "fight guile")
    assert_illegal(rec, "fight courage")


def test_L_FIGHT_1_a_stranded_disc_cannot_fight():
    rec = duo(["arms", "di", "strength", "arms"], ["strength", "arms", "guile", "courage"],
              moves_=["place m1", "place m1", "fight arms", "fight strength", "fight di-slay"])
    st = state(rec)
    assert monster(st, "m1")["status"] == "defeated"
    assert st["seats"]["p2"]["stranded"] is True and st["to_move"] == "p2"
    assert "fight" not in kinds(moves(rec))
    assert hand_of(st, "p2") == ["arms", "courage", "guile"]
    assert_refused_move(rec, "fight arms")  # held, fits the Minotaur, but the Minotaur is gone


def test_L_FIGHT_2_each_card_counts_as_one_attribute_or_none():
    """Face down counts as the hero's attribute, a wild DI as declared, a slay as nothing."""
    rec = duo(["guile", "di", "courage", "speed"], ["di", "strength", "guile", "speed"],
              moves_=["place m1", "place m1", "fight ability guile", "fight di strength", "fight di-slay"])
    st = state(rec)
    assert played(st, "m1") == [("guile", "arms", "down", "p1"), ("di", "strength", "up", "p2"),
                                ("di", None, "sideways", "p1")]
    m = monster(st, "m1")
    assert (m["requires"], m["size"], m["status"]) == (["arms", "strength"], 5, "defeated")


def test_L_FIGHT_3_a_card_matching_no_symbol_is_not_playable():
    rec = duo(["arms", "guile", "courage", "speed"], ["strength", "guile", "speed", "arms"], moves_=["place m1", "place m2"])
    assert fights(rec) == {"fight arms", "fight ability arms", "fight ability courage", "fight ability guile",
                           "fight ability speed"}
    assert_illegal(rec, "fight speed")


def test_L_FIGHT_3_the_hydra_example_last_place_kept_for_the_missing_attribute():
    """Hydra (speed, courage): after three speed cards a fourth is still playable
    (3 + 1 + 1 <= 5); after four only courage may follow."""
    rec = record(["Achilles", "Perseus"], 1, deck=["Hydra", "Minotaur", "Cyclops"],
                 hands={"p1": ["speed", "speed", "courage", "di"], "p2": ["speed", "speed", "arms", "courage"]},
                 moves=["place m1", "place m1", "fight speed", "fight speed", "fight speed"])
    assert fights(rec) == {"fight speed", "fight courage"}  # p2: arms fits nothing, Perseus' ability is arms
    rec = then(rec, "fight speed")
    assert fights(rec) == {"fight courage", "fight di courage"}
    for move in ("fight di speed", "fight ability courage", "fight ability di", "fight di-slay"):
        assert_illegal(rec, move)
    st = state(then(rec, "fight courage"))
    assert monster(st, "m1")["status"] == "defeated" and st["normals_defeated"] == 1


def test_L_FIGHT_4_a_monster_falls_when_it_holds_n_cards_not_before():
    rec = duo(["arms", "arms", "arms", "guile"], ["strength", "strength", "guile", "speed"],
              moves_=["place m1", "place m1", "fight arms", "fight strength", "fight arms", "fight strength"])
    st = state(rec)
    assert monster(st, "m1")["status"] == "in_play" and len(monster(st, "m1")["played"]) == 4
    assert st["normals_defeated"] == 0
    st = state(then(rec, "fight arms"))
    assert monster(st, "m1")["status"] == "defeated" and st["normals_defeated"] == 1


def test_L_FIGHT_5_the_fallen_monster_keeps_its_cards_and_strands_its_discs():
    rec = duo(["arms", "arms", "arms", "guile"], ["strength", "strength", "guile", "speed"],
              moves_=["place m1", "place m1", "fight arms", "fight strength", "fight arms", "fight strength",
                      "fight arms"])
    st = state(rec)
    cards = played(st, "m1")
    assert [c[0] for c in cards] == ["arms", "strength", "arms", "strength", "arms"]
    assert discards(st) == []
    assert {s: (st["seats"][s]["disc"], st["seats"][s]["stranded"]) for s in ("p1", "p2")} == \
        {"p1": ("m1", True), "p2": ("m1", True)}
    later = state(then(rec, "move m2 guile", "move m3 guile"))
    assert played(later, "m1") == cards and monster(later, "m1")["status"] == "defeated"
    assert discards(later) == [("guile", "p2"), ("guile", "p1")]
    assert later["seats"]["p1"]["stranded"] is False and later["seats"]["p1"]["disc"] == "m3"


def test_L_FIGHT_5_defeats_are_numbered_in_the_order_they_happen():
    """Mission 3 (2:+2): the Cyclops (m2) falls first and brings nothing; the Minotaur
    (m1, entered first) is the 2nd defeat and brings two monsters."""
    rec = duo(["guile", "di", "courage", "arms"], ["courage", "guile", "strength", "di"], mission=3,
              deck=["Minotaur", "Cyclops", "Hydra", "Harpy", "Gorgon"],
              moves_=["place m2", "place m2", "fight guile", "fight courage", "fight di-slay"])
    st = state(rec)
    assert monster(st, "m2")["status"] == "defeated" and monster(st, "m1")["status"] == "in_play"
    assert (st["normals_defeated"], st["normals_entered"], len(st["monsters"])) == (1, 3, 3)
    st = state(then(rec, "move m1 guile", "move m1 courage", "fight strength", "fight arms", "fight di-slay"))
    assert (st["normals_defeated"], st["normals_entered"]) == (2, 5)
    assert [(m["id"], m["cards"]) for m in st["monsters"][3:]] == [("m4", ["Harpy"]), ("m5", ["Gorgon"])]


def test_L_FIGHT_6_cards_of_several_heroes_on_one_monster_count_together():
    rec = duo(["arms", "di", "guile", "speed"], ["strength", "guile", "speed", "courage"],
              moves_=["place m1", "place m1", "fight arms", "fight strength"])
    st = state(rec)
    assert played(st, "m1") == [("arms", "arms", "up", "p1"), ("strength", "strength", "up", "p2")]
    assert_legal(rec, "fight di-slay")  # covered by both heroes' cards


# ----- L-DI --------------------------------------------------------------------------------
def test_L_DI_1_a_wild_di_counts_as_the_declared_attribute_for_everything():
    rec = duo(["di", "arms", "arms", "di"], ["arms", "arms", "strength", "guile"], moves_=["place m1", "place m1"])
    assert {m for m in fights(rec) if m.startswith("fight di")} == {"fight di arms", "fight di strength"}
    assert_illegal(rec, "fight di guile")
    rec = then(rec, "fight di arms", "fight arms", "fight arms", "fight arms")
    assert played(state(rec), "m1")[0] == ("di", "arms", "up", "p1")
    # four cards count as arms, strength is missing: only a strength may follow
    assert fights(rec) == {"fight di strength"}
    assert_illegal(rec, "fight arms")
    assert_illegal(rec, "fight di arms")
    st = state(then(rec, "fight di strength"))
    assert monster(st, "m1")["status"] == "defeated"


def test_L_DI_2_the_griffin_example_slay_with_three_cards():
    rec = duo(["strength", "di", "arms", "guile"], ["di", "speed", "courage", "arms"],
              deck=["Griffin", "Minotaur", "Cyclops"], moves_=["place m1", "place m1", "fight strength"])
    assert "fight di-slay" not in moves(rec)  # guile still missing
    assert_refused_move(rec, "fight di-slay")
    rec = then(rec, "fight di guile")
    assert_legal(rec, "fight di-slay")
    st = state(then(rec, "fight di-slay"))
    assert played(st, "m1") == [("strength", "strength", "up", "p1"), ("di", "guile", "up", "p2"),
                                ("di", None, "sideways", "p1")]
    assert monster(st, "m1")["status"] == "defeated" and st["normals_defeated"] == 1


def test_L_DI_2_a_slay_is_legal_at_n_minus_1_cards():
    rec = duo(["arms", "arms", "di", "guile"], ["strength", "arms", "guile", "speed"],
              moves_=["place m1", "place m1", "fight arms", "fight strength", "fight arms", "fight arms"])
    assert_legal(rec, "fight di-slay")
    st = state(then(rec, "fight di-slay"))
    assert monster(st, "m1")["status"] == "defeated" and played(st, "m1")[-1] == ("di", None, "sideways", "p1")


def test_L_DI_3_mission_10_a_slay_brings_no_monster():
    rec = duo(["arms", "di", "guile", "speed"], ["strength", "guile", "speed", "courage"], mission=10,
              moves_=["place m1", "place m1", "fight arms", "fight strength", "fight di-slay"])
    st = state(rec)
    assert (st["normals_defeated"], st["normals_entered"], len(st["monsters"])) == (1, 3, 3)


def test_L_DI_3_mission_10_a_wild_di_as_the_nth_card_is_no_slay():
    rec = duo(["arms", "arms", "di", "guile"], ["strength", "strength", "guile", "speed"], mission=10,
              moves_=["place m1", "place m1", "fight arms", "fight strength", "fight arms", "fight strength",
                      "fight di arms"])
    st = state(rec)
    assert monster(st, "m1")["status"] == "defeated"
    assert (st["normals_defeated"], st["normals_entered"]) == (1, 4)
    assert monster(st, "m4")["cards"] == ["Centaur"]


@pytest.mark.parametrize("di_move", ["fight di arms", "fight di-slay"])
def test_L_DI_4_mission_5_a_face_up_di_of_either_kind_is_a_di_use(di_move):
    rec = duo(["arms", "di", "guile", "speed"], ["strength", "guile", "speed", "courage"], mission=5,
              deck=["Minotaur", "Cyclops", "Hydra", "Harpy"],
              moves_=["place m1", "place m1", "fight arms", "fight strength", di_move])
    st = state(rec)
    assert (st["pending"], st["to_move"]) == ("forced_recover", "p1")


def test_L_DI_4_mission_5_a_di_played_face_down_is_not_a_di_use():
    rec = duo(["di", "arms", "guile", "speed"], ["strength", "guile", "speed", "courage"], mission=5,
              deck=["Minotaur", "Cyclops", "Hydra", "Harpy"], moves_=["place m1", "place m1", "fight ability di"])
    st = state(rec)
    assert (st["pending"], st["to_move"], st["turn"]) == ("action", "p2", 2)
    assert played(st, "m1") == [("di", "arms", "down", "p1")]


# ----- L-ABIL ------------------------------------------------------------------------------
def test_L_ABIL_1_once_per_mission_any_card_face_down_disc_broken():
    rec = duo(["guile", "courage", "di", "strength"], ["strength", "guile", "speed", "courage"],
              moves_=["place m1", "place m1"])
    assert {m for m in fights(rec) if "ability" in m} == {
        "fight ability courage", "fight ability di", "fight ability guile", "fight ability strength"}
    rec = then(rec, "fight ability guile")
    st = state(rec)
    assert st["seats"]["p1"]["broken"] is True and st["seats"]["p2"]["broken"] is False
    assert played(st, "m1") == [("guile", "arms", "down", "p1")]
    assert hand_of(st, "p1") == ["courage", "di", "strength"]
    rec = then(rec, "fight strength")  # p2
    assert not {m for m in moves(rec) if "ability" in m}
    assert "fight strength" in moves(rec)  # broken changes nothing else
    assert_refused_move(rec, "fight ability courage")
    st = state(then(rec, "move m2 courage", "fight ability guile"))  # broken stays; p2 uses its own
    assert st["seats"]["p1"]["broken"] is True and st["seats"]["p2"]["broken"] is True


def test_L_ABIL_2_only_on_a_monster_that_needs_the_heros_attribute():
    """Atalanta (guile) on the Minotaur: even an arms card cannot go face down there."""
    rec = record(["Atalanta", "Hercules"], 1, deck=DECK, hands={"p1": ["arms", "di", "guile", "speed"]},
                 moves=["place m1", "place m2"])
    assert not {m for m in moves(rec) if "ability" in m}
    assert_illegal(rec, "fight ability arms")
    # on the Cyclops (guile, courage) it counts as guile, whatever its face
    rec2 = record(["Atalanta", "Hercules"], 1, deck=DECK, hands={"p1": ["arms", "di", "guile", "speed"]},
                  moves=["place m2", "place m2", "fight ability speed"])
    assert played(state(rec2), "m2") == [("speed", "guile", "down", "p1")]


def test_L_ABIL_2_the_face_down_card_covers_its_attribute_and_obeys_the_count():
    """Perseus' face-down card is arms: with a strength the Minotaur can be slain; and on
    a Minotaur holding four arms, the ability (arms) is no longer playable."""
    rec = duo(["guile", "di", "speed", "courage"], ["strength", "guile", "speed", "courage"],
              moves_=["place m1", "place m1", "fight ability guile", "fight strength"])
    assert_legal(rec, "fight di-slay")
    rec = record(DUO, 1, deck=DECK, hands={"p1": ["guile", "arms", "arms", "di"], "p2": ["arms", "arms", "speed", "courage"]},
                 moves=["place m1", "place m1", "fight arms", "fight arms", "fight arms", "fight arms"])
    assert_illegal(rec, "fight ability guile")
    assert fights(rec) == {"fight di strength"}


def test_L_ABIL_3_its_face_stays_hidden_from_the_others_even_after_the_fall():
    rec = duo(["courage", "arms", "di", "guile"], ["strength", "guile", "speed", "arms"],
              moves_=["place m1", "place m1", "fight ability courage"])
    for r in (rec, then(rec, "fight strength", "fight di-slay")):
        other = [p for p in seen(r, "p2")["monsters"][0]["played"] if p["face"] == "down"]
        assert len(other) == 1 and other[0]["card"] == "?" and other[0]["as"] == "arms" and other[0]["by"] == "p1"
        own = [p for p in seen(r, "p1")["monsters"][0]["played"] if p["face"] == "down"]
        assert own[0]["card"] == "courage"
    st = state(then(rec, "fight strength", "fight di-slay"))
    assert monster(st, "m1")["status"] == "defeated"
    assert played(st, "m1")[0] == ("courage", "arms", "down", "p1")  # L-FIGHT-5: it stays face down


def test_L_ABIL_3_the_ability_cannot_slay():
    rec = duo(["di", "arms", "guile", "speed"], ["strength", "guile", "speed", "courage"],
              moves_=["place m1", "place m1", "fight arms", "fight strength"])
    assert not any("ability" in m and "slay" in m for m in moves(rec))
    assert_refused_move(rec, "fight ability di-slay")
