"""Turns, the short pile and the end of a mission (L-TURN, L-RECOVER-3, L-MISSION-9, L-END).

Unless a test says otherwise: two seats, p1 Perseus (arms) and p2 Hercules (strength),
mission 1, m1 Minotaur, m2 Cyclops, m3 Hydra. `drain` plays turns of `recover 1` and a
discard of the drawn card until the draw pile is as short as the test needs."""

from __future__ import annotations

from tests.legends.rules.contract import (
    PASS, assert_illegal, assert_refused_move, discards, draw_pile, drain, expand, hand_of, kinds, moves,
    record, seen, state, then,
)

DUO = ["Perseus", "Hercules"]
DECK = ["Minotaur", "Cyclops", "Hydra"]
P1 = ["arms", "guile", "courage", "di"]
P2 = ["guile", "speed", "arms", "strength"]


def duo(p1=P1, p2=P2, *, moves_=("place m1", "place m2"), **kw):
    kw.setdefault("deck", DECK)
    return record(kw.pop("heroes", DUO), kw.pop("mission", 1), hands={"p1": p1, "p2": p2}, moves=moves_, **kw)


def test_L_TURN_1_clockwise_from_the_first_player_wrapping_round():
    same = ["guile", "speed", "arms", "strength"]
    rec = record(["Perseus", "Hercules", "Jason"], 1, first_player="p2", deck=DECK,
                 hands={"p1": same, "p2": same, "p3": same}, moves=["place m1", "place m1", "place m1"])
    seen_turns = []
    for n in range(5):
        st = state(rec)
        seen_turns.append((st["turn"], st["to_move"]))
        rec = then(rec, "recover 0", "discard guile" if n < 3 else "discard speed")
    assert seen_turns == [(1, "p2"), (2, "p3"), (3, "p1"), (4, "p2"), (5, "p3")]


def test_L_TURN_3_exactly_the_five_actions_and_no_pass():
    """p1 Perseus on the Minotaur holding arms, courage, di, guile, a full pile."""
    rec = duo()
    cards = ["arms", "courage", "di", "guile"]
    expected = {"fight arms", "fight di arms", "fight di strength"}
    expected |= {f"fight ability {c}" for c in cards}
    expected |= {f"move {m} {c}" for m in ("m2", "m3") for c in cards}
    expected |= {"recover 0", "recover 1", "oracle"}
    from itertools import combinations
    expected |= {"support p2 " + ",".join(c) for n in range(1, 5) for c in combinations(cards, n)}
    offered = moves(rec)
    assert set(offered) == expected and len(offered) == len(expected)
    assert kinds(offered) == {"fight", "move", "recover", "support", "oracle"}
    assert_refused_move(rec, "pass")


def test_L_TURN_3_legal_moves_are_printed_sorted():
    offered = moves(duo())
    assert offered == sorted(offered)


def test_L_TURN_4_mission_5_forced_recover_comes_before_the_new_monsters_and_the_next_turn():
    """Mission 5 (2:+2): p2's slay is the 2nd defeat. First p2 recovers (its own k, then one
    discard), only then do two monsters enter, and then p1's turn starts."""
    rec = record(DUO, 5, deck=["Minotaur", "Centaur", "Giant Lion", "Lamia", "Harpy", "Gorgon"],
                 hands={"p1": ["arms", "di", "speed", "guile"], "p2": ["strength", "di", "strength", "courage"]},
                 moves=["place m1", "place m1", "fight arms", "fight strength", "fight di-slay"])
    st = state(rec)
    assert (st["pending"], st["to_move"], st["turn"], st["normals_defeated"]) == ("forced_recover", "p1", 3, 1)
    assert set(moves(rec)) == {"recover 0", "recover 1", "recover 2", "recover 3"}
    pile = draw_pile(rec)
    rec = then(rec, "recover 1", f"discard {pile[0]}", "move m2 courage", "move m2 guile", "fight strength",
               "fight speed", "fight di-slay")
    st = state(rec)
    assert (st["pending"], st["to_move"], st["normals_defeated"]) == ("forced_recover", "p2", 2)
    assert st["normals_entered"] == 4 and len(st["monsters"]) == 4, "no monster before the forced recover"
    assert set(moves(rec)) == {f"recover {k}" for k in range(1, 6)}  # p2's hand is empty
    rec = then(rec, "recover 2")
    assert state(rec)["pending"] == "recover_discard" and state(rec)["normals_entered"] == 4
    rec = then(rec, f"discard {pile[1]}")
    st = state(rec)
    assert st["normals_entered"] == 6 and [m["cards"] for m in st["monsters"][4:]] == [["Harpy"], ["Gorgon"]]
    assert (st["pending"], st["to_move"], st["turn"]) == ("action", "p1", 9)


def test_L_TURN_5_no_hand_above_four_when_a_turn_starts():
    rec = duo(moves_=["place m1", "place m1"])
    script = ["support p2 arms,courage", "discard arms,courage", PASS, "recover 3", "discard guile",
              "fight strength", "support p2 di", "discard di", PASS]
    for n in range(len(script) + 1):
        st = state(expand(rec, script[:n]))
        if st["pending"] == "action":
            assert max(len(s["hand"]) for s in st["seats"].values()) <= 4, script[:n]
    assert set(m for m in moves(expand(rec, script[:2])) if m.startswith("recover")) == {"recover 0", "recover 1"}


def test_L_TURN_6_solo_one_seat_takes_every_turn_and_never_supports():
    rec = record(["Atalanta"], 1, deck=DECK, hands={"p1": ["guile", "guile", "courage", "speed"]}, moves=["place m2"])
    assert "support" not in kinds(moves(rec))
    assert_refused_move(rec, "support p1 guile")
    for turn, move in enumerate(["fight guile", "fight courage", "move m1 speed"], start=1):
        st = state(rec)
        assert (st["turn"], st["to_move"]) == (turn, "p1")
        rec = then(rec, move)
    assert state(rec)["turn"] == 4 and state(rec)["to_move"] == "p1"


def _short_pile(target, bottom=("speed", "arms", "courage")):
    rec = duo(bottom=list(bottom))
    return drain(rec, target)


def test_L_TURN_7_L_RECOVER_1_recover_draws_at_most_p():
    rec = _short_pile(3)
    st = state(rec)
    assert len(st["draw_pile"]) == 3 and st["to_move"] == "p1"
    rec = then(rec, "support p2 courage,di,guile", "discard courage,di,guile", "recover 0", "discard guile")
    assert hand_of(state(rec), "p1") == ["arms"]
    assert {m for m in moves(rec) if m.startswith("recover")} == {"recover 0", "recover 1", "recover 2", "recover 3"}
    assert_refused_move(rec, "recover 4")


def test_L_TURN_7_L_ORACLE_1_a_short_pile_is_taken_whole():
    rec = then(_short_pile(3), "oracle")
    st = state(rec)
    assert st["oracle_revealed"] == ["speed", "arms", "courage"] and st["draw_pile"] == []
    assert set(moves(rec)) == {f"discard {d} order {','.join(o)}" for d, o in [
        ("arms", ("courage", "speed")), ("arms", ("speed", "courage")), ("courage", ("arms", "speed")),
        ("courage", ("speed", "arms")), ("speed", ("arms", "courage")), ("speed", ("courage", "arms"))]}
    one = then(_short_pile(1), "oracle")
    assert moves(one) == ["discard courage"]
    st = state(then(one, "discard courage"))
    assert st["draw_pile"] == [] and discards(st)[-1] == ("courage", "p1")


def test_L_TURN_7_L_ORACLE_1_no_oracle_on_an_empty_pile():
    rec = _short_pile(0)
    assert_illegal(rec, "oracle")
    assert {m for m in moves(rec) if m.startswith("recover")} == {"recover 0"}


def test_L_MISSION_9_the_discard_pile_is_never_reshuffled():
    rec = _short_pile(0)
    st = state(rec)
    assert st["draw_pile"] == [] and len(st["discard_pile"]) == len(draw_pile(rec))
    rec = then(rec, "recover 0", "discard guile", "recover 0", "discard guile")
    st = state(rec)
    assert st["draw_pile"] == [] and len(st["discard_pile"]) == len(draw_pile(rec)) + 2
    assert_refused_move(rec, "recover 1")


def test_L_TURN_2_L_END_2_L_RECOVER_3_lost_when_a_turn_starts_with_no_card_and_no_pile():
    rec = _short_pile(0)
    st = state(rec)
    assert st["to_move"] == "p2"
    rec = then(rec, "support p1 arms,guile,speed,strength", "discard arms,guile,speed,strength")
    st = state(rec)
    # p2 holds nothing and the pile is empty, but it is p1's turn: nothing is lost yet
    assert (st["result"], st["to_move"], hand_of(st, "p2")) == (None, "p1", [])
    turn = st["turn"]
    lost = state(then(rec, "recover 0", "discard guile"))
    assert (lost["result"], lost["reason"], lost["turn"]) == ("lost", "exhausted", turn + 1)
    assert hand_of(lost, "p1") == ["arms", "courage", "di"]  # even though p1 still holds cards
    assert moves(then(rec, "recover 0", "discard guile")) == []


def test_L_END_2_a_teammate_can_avert_it_with_two_cards():
    rec = then(_short_pile(0), "support p1 arms,guile,speed,strength", "discard arms,guile,speed,strength",
               "support p2 courage,di", "discard di")
    st = state(rec)
    assert (st["result"], st["to_move"], hand_of(st, "p2")) == (None, "p2", ["courage"])
    offered = moves(rec)
    assert "recover 0" in offered and "recover 1" not in offered and "oracle" not in offered


def test_L_END_3_mission_5_forced_recover_with_no_card_and_no_pile_loses():
    rec = duo(["arms", "strength", "di", "guile"], mission=5, moves_=["place m1", "place m2"])
    rec = drain(rec, 0)
    assert state(rec)["to_move"] == "p2"
    rec = then(rec, "recover 0", "discard guile", "fight arms", "recover 0", "discard speed", "fight strength",
               "recover 0", "discard arms", "support p2 guile", "discard guile", "recover 0", "discard strength")
    st = state(rec)
    assert (st["to_move"], hand_of(st, "p1"), st["result"]) == ("p1", ["di"], None)
    st = state(then(rec, "fight di-slay"))
    assert (st["result"], st["reason"], st["normals_defeated"]) == ("lost", "forced_recover", 1)


def test_L_END_5_the_turn_limit_ends_in_a_loss():
    rec = duo(variants={"turn_limit": 3}, moves_=["place m1", "place m2"])
    two = expand(rec, [PASS, PASS])
    assert state(two)["result"] is None and state(two)["turn"] == 3
    st = state(expand(rec, [PASS, PASS, PASS]))
    assert (st["result"], st["reason"], st["turn"]) == ("lost", "turn_limit", 3)
    assert moves(expand(rec, [PASS, PASS, PASS])) == []


def test_L_END_6_one_result_for_the_whole_team():
    rec = duo(variants={"turn_limit": 1}, moves_=["place m1", "place m2"])
    rec = expand(rec, [PASS])
    st = state(rec)
    assert (st["result"], st["reason"]) == ("lost", "turn_limit")
    for seat in ("p1", "p2"):
        v = seen(rec, seat)
        assert (v["result"], v["reason"]) == ("lost", "turn_limit")
    assert st["result"] in ("won", "lost")


def test_L_TURN_7_mission_5_forced_recover_draws_at_most_p():
    rec = duo(["arms", "di", "guile", "speed"], mission=5, moves_=["place m1", "place m2"])
    rec = drain(rec, 1)
    assert state(rec)["to_move"] == "p1"
    rec = then(rec, "fight di arms")
    assert state(rec)["pending"] == "forced_recover"
    assert moves(rec) == ["recover 0", "recover 1"]  # h = 3 would allow 2, but P = 1
