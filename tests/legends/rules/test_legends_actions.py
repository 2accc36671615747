"""Move, Recover, Support and the Oracle (L-MOVE, L-RECOVER, L-SUPPORT, L-ORACLE).

Unless a test says otherwise: two seats, p1 Perseus (arms) and p2 Hercules (strength),
mission 1, m1 Minotaur, m2 Cyclops, m3 Hydra (m4 Centaur enters at the 1st defeat)."""

from __future__ import annotations

from itertools import combinations

from tests.legends.rules.contract import (
    assert_illegal, assert_legal, assert_refused_move, discards, draw_pile, hand_of, kinds, monster, moves, record,
    seen, state, then,
)

DUO = ["Perseus", "Hercules"]
DECK = ["Minotaur", "Cyclops", "Hydra"]
P2 = ["guile", "speed", "arms", "strength"]


def duo(p1, p2=P2, *, moves_=(), **kw):
    kw.setdefault("deck", DECK)
    return record(kw.pop("heroes", DUO), kw.pop("mission", 1), hands={"p1": p1, "p2": p2}, moves=moves_, **kw)


def of_kind(rec, kind: str) -> set[str]:
    return {m for m in moves(rec) if m.split()[0] == kind}


# A position where p1 has given its whole hand away and comes back with none.
EMPTY_HANDED = ["place m1", "place m1", "support p2 arms,courage,di,guile", "discard arms,courage,di,guile",
                "recover 0", "discard guile"]


# ----- L-MOVE ------------------------------------------------------------------------------
def test_L_MOVE_1_the_disc_moves_and_one_chosen_card_is_discarded():
    rec = duo(["arms", "guile", "courage", "di"], moves_=["place m1", "place m1"])
    assert of_kind(rec, "move") == {f"move {m} {c}" for m in ("m2", "m3") for c in ("arms", "courage", "di", "guile")}
    assert_illegal(rec, "move m1 guile")  # not another monster
    assert_illegal(rec, "move m4 guile")  # not in play
    st = state(then(rec, "move m2 guile"))
    assert st["seats"]["p1"]["disc"] == "m2" and hand_of(st, "p1") == ["arms", "courage", "di"]
    assert discards(st) == [("guile", "p1")]
    assert (st["to_move"], st["turn"]) == ("p2", 2)


def test_L_MOVE_1_no_move_with_an_empty_hand():
    rec = duo(["arms", "guile", "courage", "di"], moves_=EMPTY_HANDED)
    st = state(rec)
    assert (st["to_move"], hand_of(st, "p1")) == ("p1", [])
    assert moves(rec) == ["oracle", "recover 1", "recover 2", "recover 3", "recover 4", "recover 5"]
    assert_refused_move(rec, "move m2 arms")


def test_L_MOVE_2_leaving_a_monster_still_in_play_and_only_by_move():
    rec = duo(["arms", "guile", "courage", "di"], moves_=["place m1", "place m1", "fight arms", "fight strength"])
    assert_legal(rec, "move m3 guile")
    st = state(then(rec, "recover 1", f"discard {draw_pile(rec)[0]}", "oracle"))  # recover, then p2 consults
    assert st["seats"]["p1"]["disc"] == "m1" and st["seats"]["p2"]["disc"] == "m1"
    st = state(then(rec, "move m3 guile"))
    assert monster(st, "m1")["status"] == "in_play" and st["seats"]["p1"]["disc"] == "m3"


STRAND = ["place m1", "place m1", "fight arms", "fight strength", "fight di-slay"]  # m1 falls, p2 to move


def test_L_MOVE_3_paid_relocation_a_stranded_disc_leaves_by_a_move_with_a_discard():
    rec = duo(["arms", "di", "strength", "arms"], ["strength", "arms", "guile", "courage"], moves_=STRAND)
    st = state(rec)
    assert st["seats"]["p2"]["stranded"] is True and st["seats"]["p2"]["disc"] == "m1"
    assert of_kind(rec, "move") == {f"move {m} {c}" for m in ("m2", "m3", "m4") for c in ("arms", "courage", "guile")}
    st = state(then(rec, "move m4 guile"))
    assert (st["seats"]["p2"]["disc"], st["seats"]["p2"]["stranded"]) == ("m4", False)
    assert discards(st) == [("guile", "p2")]


def test_L_MOVE_3_free_relocation_a_stranded_disc_moves_without_a_card():
    rec = duo(["arms", "di", "strength", "arms"], ["strength", "arms", "guile", "courage"], moves_=STRAND,
              variants={"relocation": "free"})
    assert of_kind(rec, "move") == {"move m2", "move m3", "move m4"}
    assert_refused_move(rec, "move m2 guile")
    rec = then(rec, "move m2")
    st = state(rec)
    assert st["seats"]["p2"]["disc"] == "m2" and hand_of(st, "p2") == ["arms", "courage", "guile"]
    assert discards(st) == []
    # p1, stranded, gives its last two cards away and comes back empty-handed: still free to move
    rec = then(rec, "support p2 arms,strength", "discard guile", "recover 0", "discard arms")
    st = state(rec)
    assert (st["to_move"], hand_of(st, "p1"), st["seats"]["p1"]["stranded"]) == ("p1", [], True)
    assert set(moves(rec)) == {"move m2", "move m3", "move m4", "oracle"} | {f"recover {k}" for k in range(1, 6)}
    # p2 is no longer stranded: its Move is paid again
    rec = then(rec, "move m3")
    assert of_kind(rec, "move") == {f"move {m} {c}" for m in ("m3", "m4") for c in ("arms", "courage", "strength")}


# ----- L-RECOVER ---------------------------------------------------------------------------
def test_L_RECOVER_1_k_from_0_to_5_minus_h_drawn_from_the_top():
    rec = duo(["arms", "guile", "courage", "di"], moves_=["place m1", "place m1"])
    assert of_kind(rec, "recover") == {"recover 0", "recover 1"}
    rec = then(rec, "fight arms", "fight strength", "move m2 guile", "move m2 arms")  # p1 holds 2
    assert of_kind(rec, "recover") == {"recover 0", "recover 1", "recover 2", "recover 3"}
    assert_refused_move(rec, "recover 4")
    pile = draw_pile(rec)
    st = state(then(rec, "recover 3"))
    assert hand_of(st, "p1") == sorted(["courage", "di"] + pile[:3])
    assert st["draw_pile"] == pile[3:]
    assert (st["pending"], st["to_move"]) == ("recover_discard", "p1")


def test_L_RECOVER_1_an_empty_hand_must_draw_at_least_one():
    rec = duo(["arms", "guile", "courage", "di"], moves_=EMPTY_HANDED)
    assert of_kind(rec, "recover") == {f"recover {k}" for k in range(1, 6)}
    assert_refused_move(rec, "recover 0")


def test_L_RECOVER_2_then_exactly_one_card_is_discarded_a_drawn_one_allowed():
    rec = duo(["arms", "arms", "arms", "arms"], moves_=["place m1", "place m1"], top=["di"])
    rec = then(rec, "recover 1")
    assert moves(rec) == ["discard arms", "discard di"]
    assert_refused_move(rec, "discard arms,arms")
    st = state(then(rec, "discard di"))
    assert hand_of(st, "p1") == ["arms"] * 4 and discards(st) == [("di", "p1")]
    assert (st["to_move"], st["turn"], st["pending"]) == ("p2", 2, "action")
    st = state(then(rec, "discard arms"))
    assert hand_of(st, "p1") == ["arms", "arms", "arms", "di"]


# ----- L-SUPPORT ---------------------------------------------------------------------------
def test_L_SUPPORT_1_any_non_empty_part_of_the_hand_to_another_seat():
    rec = duo(["arms", "guile", "courage", "di"], moves_=["place m1", "place m2"])
    cards = ["arms", "courage", "di", "guile"]
    expected = {"support p2 " + ",".join(c) for n in range(1, 5) for c in combinations(cards, n)}
    assert of_kind(rec, "support") == expected
    assert_refused_move(rec, "support p1 arms")  # not to oneself
    rec2 = duo(["arms", "arms", "guile", "guile"], moves_=["place m1", "place m2"])
    assert of_kind(rec2, "support") == {"support p2 arms", "support p2 arms,arms", "support p2 guile",
                                        "support p2 guile,guile", "support p2 arms,guile", "support p2 arms,arms,guile",
                                        "support p2 arms,guile,guile", "support p2 arms,arms,guile,guile"}


def test_L_SUPPORT_1_a_stranded_receiver_may_be_given_cards():
    rec = duo(["arms", "di", "strength", "arms"], ["strength", "arms", "guile", "courage"],
              moves_=STRAND + ["move m2 guile"])  # p2 leaves; p1 stays stranded on m1
    rec = then(rec, "support p2 arms")  # p1, stranded, gives
    st = state(rec)
    assert (st["pending"], st["to_move"]) == ("support_discard", "p2")
    # and a giver may give to a stranded seat
    rec = duo(["arms", "di", "strength", "arms"], ["strength", "arms", "guile", "courage"], moves_=STRAND)
    rec = then(rec, "support p1 guile")
    assert state(rec)["pending"] == "support_discard" and state(rec)["to_move"] == "p1"


def test_L_SUPPORT_2_the_receiver_discards_max_1_r_minus_4_of_its_choice():
    rec = duo(["courage", "di", "guile", "speed"], ["guile", "speed", "arms", "strength"],
              moves_=["place m1", "place m2", "support p2 courage,di"])
    st = state(rec)
    assert (st["pending"], st["to_move"], st["turn"]) == ("support_discard", "p2", 1)
    assert sorted(hand_of(st, "p2")) == ["arms", "courage", "di", "guile", "speed", "strength"]
    six = ["arms", "courage", "di", "guile", "speed", "strength"]
    assert set(moves(rec)) == {"discard " + ",".join(c) for c in combinations(six, 2)}
    assert_refused_move(rec, "discard arms")
    assert_refused_move(rec, "discard arms,guile,speed")
    st = state(then(rec, "discard courage,guile"))  # one received, one own
    assert hand_of(st, "p2") == ["arms", "di", "speed", "strength"]
    assert discards(st) == [("courage", "p2"), ("guile", "p2")]
    # a receiver under four still discards one
    rec = then(rec, "discard courage,guile", "move m1 arms", "support p2 guile,speed")  # p2 moved (3 left); p1 gives 2: 5
    st = state(rec)
    assert st["to_move"] == "p2" and len(hand_of(st, "p2")) == 5
    assert all(len(m.split()[1].split(",")) == 1 for m in moves(rec))


def test_L_SUPPORT_2_a_small_receiver_discards_exactly_one():
    rec = duo(["arms", "guile", "courage", "di"], moves_=EMPTY_HANDED[:4])  # p1 gave all; p2 holds 4
    rec = then(rec, "support p1 guile,speed")  # p1: 0 + 2 = 2 cards, still discards 1
    st = state(rec)
    assert (st["pending"], st["to_move"]) == ("support_discard", "p1")
    assert moves(rec) == ["discard guile", "discard speed"]


def test_L_SUPPORT_3_the_turn_passes_to_the_givers_neighbour():
    rec = record(["Perseus", "Hercules", "Jason"], 1, deck=DECK, hands={"p1": ["arms", "guile", "courage", "di"]},
                 moves=["place m1", "place m2", "place m3", "support p3 guile"])
    assert state(rec)["to_move"] == "p3"
    st = state(then(rec, "discard guile"))
    assert (st["to_move"], st["turn"], st["pending"]) == ("p2", 2, "action")


# ----- L-ORACLE ----------------------------------------------------------------------------
TOP_SIX = ["guile", "speed", "arms", "strength", "courage", "di"]


def test_L_ORACLE_1_the_top_six_are_turned_up_off_the_pile():
    rec = duo(["arms", "guile", "courage", "di"], moves_=["place m1", "place m2", "oracle"], top=TOP_SIX)
    pile = draw_pile(rec)
    st = state(rec)
    assert st["oracle_revealed"] == TOP_SIX
    assert st["draw_pile"] == pile[6:]
    assert (st["pending"], st["to_move"]) == ("oracle_return", "p1")


def test_L_ORACLE_2_one_discarded_the_rest_back_in_a_chosen_order_all_public():
    rec = duo(["arms", "guile", "courage", "di"], moves_=["place m1", "place m2", "oracle"], top=TOP_SIX)
    offered = moves(rec)
    assert len(offered) == 6 * 120  # 6 discards x 5! orders of distinct cards
    assert "discard di order courage,strength,arms,speed,guile" in offered
    assert all(m.startswith("discard ") and " order " in m for m in offered)
    after = then(rec, "discard di order courage,strength,arms,speed,guile")
    pile = draw_pile(rec)
    st = state(after)
    assert st["draw_pile"] == ["courage", "strength", "arms", "speed", "guile"] + pile[6:]
    assert discards(st) == [("di", "p1")]
    assert_refused_move(rec, "discard di order courage,strength,arms,speed")  # one card short
    assert_refused_move(rec, "discard di order courage,strength,arms,speed,speed")  # not what was shown
    other = seen(after, "p2")
    assert [d["card"] for d in other["discard_pile"]] == ["di"]


def test_L_ORACLE_2_identical_cards_give_one_choice():
    rec = duo(["arms", "guile", "courage", "di"], moves_=["place m1", "place m2", "oracle"], top=["guile"] * 6)
    assert moves(rec) == ["discard guile order guile,guile,guile,guile,guile"]


def test_L_ORACLE_3_hand_and_disc_unchanged_only_the_consulting_seat_chooses():
    rec = duo(["arms", "guile", "courage", "di"], moves_=["place m1", "place m2", "oracle"], top=TOP_SIX)
    st = state(rec)
    assert hand_of(st, "p1") == ["arms", "courage", "di", "guile"] and st["seats"]["p1"]["disc"] == "m1"
    assert st["to_move"] == "p1" and hand_of(st, "p2") == sorted(P2)
    st = state(then(rec, "discard guile order speed,arms,strength,courage,di"))
    assert hand_of(st, "p1") == ["arms", "courage", "di", "guile"] and st["seats"]["p1"]["disc"] == "m1"
    assert (st["to_move"], st["turn"], st["pending"]) == ("p2", 2, "action")
