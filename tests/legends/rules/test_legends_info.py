"""What each seat knows (L-INFO), through `hzai view RECORD --seat pX`.

The view's layout beyond the state JSON's keys is the engine's; the tests lean on what
any layout must satisfy: two records that differ only in what a seat may not know give
that seat the same view, and records that differ in what it may know give different
views. Where a key of the state JSON is shown, its public part is checked directly."""

from __future__ import annotations

import copy

from tests.legends.rules.contract import (
    assert_refused_move, draw_pile, moves, record, seen, state, then, view_claims_are_true,
)

TRIO = ["Perseus", "Hercules", "Jason"]
DECK = ["Minotaur", "Cyclops", "Hydra"]
HANDS = {"p1": ["guile", "arms", "di", "courage"], "p2": ["strength", "speed", "guile", "arms"],
         "p3": ["courage", "guile", "speed", "arms"]}
TOP_SIX = ["guile", "speed", "arms", "strength", "courage", "di"]


def trio(*more, hands=None, **kw):
    kw.setdefault("deck", DECK)
    return record(TRIO, kw.pop("mission", 1), hands=hands or HANDS, moves=["place m1", "place m1", "place m1", *more],
                  **kw)


def count(x) -> int:
    """A size however a view writes it: a number, a list (of names, '?' or counts), or
    a mapping with a count."""
    if isinstance(x, bool):
        raise AssertionError(f"not a size: {x!r}")
    if isinstance(x, int):
        return x
    if isinstance(x, str):
        return 1
    if isinstance(x, list):
        return sum(e if isinstance(e, int) and not isinstance(e, bool) else 1 for e in x)
    if isinstance(x, dict):
        for key in ("size", "count", "n"):
            if key in x:
                return count(x[key])
    raise AssertionError(f"cannot read a size from {x!r}")


def hand_size(v: dict, seat: str) -> int:
    entry = v["seats"][seat]
    return count(entry["hand_size"]) if "hand_size" in entry else count(entry["hand"])


def pile_size(v: dict) -> int:
    return count(v["draw_pile_size"]) if "draw_pile_size" in v else count(v["draw_pile"])


def test_L_INFO_1_public_cards_discs_sizes_and_who_did_what():
    rec = trio("fight ability guile", "fight strength", "recover 1")
    pile = draw_pile(rec)
    rec = then(rec, f"discard {pile[0]}", "move m2 courage")
    v = seen(rec, "p3")
    played = v["monsters"][0]["played"]
    assert [(p["as"], p["face"], p["by"]) for p in played] == [("arms", "down", "p1"), ("strength", "up", "p2")]
    assert played[1]["card"] == "strength" and played[0]["card"] == "?"
    assert (v["seats"]["p1"]["disc"], v["seats"]["p1"]["broken"], v["seats"]["p2"]["disc"]) == ("m2", True, "m1")
    assert v["seats"]["p1"]["hero"] == "Perseus" and v["seats"]["p2"]["broken"] is False
    assert (hand_size(v, "p1"), hand_size(v, "p2"), hand_size(v, "p3")) == (2, 3, 4)
    assert pile_size(v) == len(pile) - 1
    assert v["set_aside_di"] == 2 and v["mission"] == 1
    assert [d["by"] for d in v["discard_pile"]] == ["p3", "p1"]
    assert v["discard_pile"][1]["card"] == "?"
    assert (v["turn"], v["to_move"]) == (5, "p2")


def test_L_INFO_2_the_own_hand_is_private():
    a = record(TRIO, 1, deck=DECK, hands={**HANDS, "p1": ["guile", "arms", "di", "courage"]}, bottom=["speed"],
               moves=["place m1", "place m1", "place m1", "fight arms"])
    b = record(TRIO, 1, deck=DECK, hands={**HANDS, "p1": ["guile", "arms", "di", "speed"]}, bottom=["courage"],
               moves=["place m1", "place m1", "place m1", "fight arms"])
    assert state(a) != state(b)
    assert seen(a, "p2") == seen(b, "p2") and seen(a, "p3") == seen(b, "p3")
    assert seen(a, "p1") != seen(b, "p1")
    assert seen(a, "p1")["seats"]["p1"]["hand"] == ["courage", "di", "guile"]


def test_L_INFO_2_a_face_down_discard_is_known_to_its_player_only():
    a, b = trio("move m2 arms"), trio("move m2 guile")
    assert seen(a, "p2") == seen(b, "p2") and seen(a, "p3") == seen(b, "p3")
    assert seen(a, "p1") != seen(b, "p1")
    assert seen(a, "p1")["discard_pile"][0]["card"] == "arms"


def test_L_INFO_2_the_ability_card_is_known_to_its_player_only():
    a, b = trio("fight ability guile"), trio("fight ability courage")
    assert seen(a, "p2") == seen(b, "p2") and seen(a, "p3") == seen(b, "p3")
    assert seen(a, "p1") != seen(b, "p1")


def test_L_INFO_2_recovers_discard_is_private():
    rec = trio("recover 1")
    a, b = then(rec, "discard arms"), then(rec, "discard guile")
    assert seen(a, "p2") == seen(b, "p2") and seen(a, "p1") != seen(b, "p1")


def test_L_INFO_2_support_cards_are_known_to_giver_and_receiver_only():
    a, b = trio("support p2 arms"), trio("support p2 guile")
    assert seen(a, "p3") == seen(b, "p3")
    assert seen(a, "p2") != seen(b, "p2") and seen(a, "p1") != seen(b, "p1")
    # the receiver's discard is known to the receiver only, the giver included
    a1, a2 = then(a, "discard arms"), then(a, "discard speed")
    assert seen(a1, "p1") == seen(a2, "p1") and seen(a1, "p3") == seen(a2, "p3")
    assert seen(a1, "p2") != seen(a2, "p2")


def test_L_INFO_2_mission_6_nobody_knows_the_order_under_the_pile():
    rec = trio("fight di arms", mission=6)
    assert state(rec)["pending"] == "chance"
    a, b = then(rec, "chance order courage,guile,arms"), then(rec, "chance order arms,guile,courage")
    assert state(a)["draw_pile"] != state(b)["draw_pile"]
    for seat in ("p1", "p2", "p3"):
        assert seen(a, seat) == seen(b, seat), seat


def test_L_INFO_3_cards_the_oracle_put_back_are_followed_into_the_drawers_hand():
    rec = trio("oracle", top=TOP_SIX)
    a = then(rec, "discard di order speed,arms,strength,courage,guile")
    b = then(rec, "discard di order arms,speed,strength,courage,guile")
    assert seen(a, "p3") != seen(b, "p3"), "the order put back is public"
    a, b = then(a, "recover 1"), then(b, "recover 1")  # p2 draws the known top card
    assert seen(a, "p3") != seen(b, "p3"), "everybody knows which card p2 drew"
    # once p2 discards face down, p3 cannot tell whether the known card went or stayed
    a_keep, a_drop = then(a, "discard guile"), then(a, "discard speed")
    assert seen(a_keep, "p3") == seen(a_drop, "p3") and seen(a_keep, "p2") != seen(a_drop, "p2")
    # the same draw from a pile nobody has seen tells p3 nothing
    c = trio("fight arms", "recover 1", top=["speed", "arms"])
    d = trio("fight arms", "recover 1", top=["arms", "speed"])
    assert seen(c, "p3") == seen(d, "p3") and seen(c, "p1") == seen(d, "p1")
    assert seen(c, "p2") != seen(d, "p2")


def test_L_INFO_1_the_oracles_cards_are_shown_to_every_seat():
    rec = trio("oracle", top=TOP_SIX)
    for seat in ("p1", "p2", "p3"):
        assert seen(rec, seat)["oracle_revealed"] == TOP_SIX


def test_L_INFO_1_a_view_needs_a_seat_of_the_game():
    from tests.legends.rules.contract import refusal, view

    refusal(view(trio(), "p4"))
    refusal(view(trio(), "zeus"))


def test_L_INFO_4_nobody_knows_the_order_of_the_unseen_pile_or_the_monster_deck():
    a = trio("fight arms", "fight strength")
    b = copy.deepcopy(a)
    pile = b["setup"]["draw_pile"]
    i = next(i for i in range(20, len(pile)) if pile[i] != pile[20])
    pile[20], pile[i] = pile[i], pile[20]
    deck = b["setup"]["monster_deck"]
    deck[5], deck[6] = deck[6], deck[5]
    assert state(a) != state(b)
    for seat in ("p1", "p2", "p3"):
        assert seen(a, seat) == seen(b, seat), seat


def test_L_INFO_5_no_message_channel_between_seats():
    rec = trio()
    for text in ("say p2 i hold arms", "show arms", "tell p2 arms", "hint m1"):
        assert_refused_move(rec, text)
    assert {m.split()[0] for m in moves(rec)} <= {"fight", "move", "recover", "support", "oracle"}


def test_L_INFO_6_a_seat_gets_the_same_choices_and_view_from_histories_it_cannot_tell_apart():
    """p2 decides after p1 moved away discarding arms or guile: the same view and the same
    legal moves, so nothing a bot of p2 can read differs."""
    a, b = trio("move m2 arms"), trio("move m2 guile")
    assert state(a)["to_move"] == "p2"
    assert seen(a, "p2") == seen(b, "p2")
    assert moves(a) == moves(b)


def _decision(rec: dict, seat: int, spec: str, seed: int):
    """A bot's move for `seat`, from that seat's view of the record (hzai.core's Bot
    protocol over the game named "legends")."""
    from hzai.core import Limits, make_game
    from hzai.search.bot import make_bot

    game = make_game("legends", mission=rec["mission"], heroes=tuple(rec["heroes"]))
    view = game.records.from_json(rec).replay().view(seat)
    return make_bot(spec).decide(view, Limits.parse("40"), seed).move


def test_L_INFO_6_bots_decide_the_same_on_histories_the_seat_cannot_tell_apart():
    """p1 moved away discarding arms (a) or guile (b): p2's bots, whatever they are, pick
    the same move for the same seed."""
    a, b = trio("move m2 arms"), trio("move m2 guile")
    for spec, seeds in (("random", (1, 2, 3)), ("heuristic", (1,)), ("ismcts", (1,)), ("pimc", (1,))):
        for seed in seeds:
            assert _decision(a, 1, spec, seed) == _decision(b, 1, spec, seed), (spec, seed)


def _worlds(rec: dict, seat: int, n: int = 40) -> list[dict]:
    """States drawn from `seat`'s information set (hzai.core's View.sample)."""
    from hzai.core import make_game

    view = make_game("legends").records.from_json(rec).replay().view(seat)
    return [view.sample(seed).to_json() for seed in range(n)]


def test_L_INFO_3_what_a_seat_has_followed_holds_in_every_world_it_imagines():
    """The Oracle put speed on top; p2 (holding no speed) draws it: in every world p3 can
    imagine, p2 holds that speed. After p2 discards one card face down, p3 can no longer
    be sure: some of its worlds have the speed gone."""
    hands = {**HANDS, "p2": ["strength", "courage", "guile", "arms"]}
    put_back = trio("oracle", "discard di order speed,arms,strength,courage,guile", hands=hands, top=TOP_SIX)
    for seat in ("p1", "p2", "p3"):  # reading: a view names the pile places its seat knows
        assert seen(put_back, seat)["draw_pile"][:5] == ["speed", "arms", "strength", "courage", "guile"]
    rec = then(put_back, "recover 1")
    assert all("speed" in w["seats"]["p2"]["hand"] for w in _worlds(rec, 2))
    dropped = then(rec, "discard speed")
    assert not all("speed" in w["seats"]["p2"]["hand"] for w in _worlds(dropped, 2))
    kept = then(rec, "discard guile")
    assert not all("speed" in w["seats"]["p2"]["hand"] for w in _worlds(kept, 2)), "p3 cannot tell the two apart"
    assert all("speed" in w["seats"]["p2"]["hand"] for w in _worlds(kept, 1)), "p2 itself knows it kept it"
    for r in (rec, dropped, kept):  # and no view claims what is not so
        for seat in ("p1", "p2", "p3"):
            assert view_claims_are_true(seen(r, seat), state(r), seat) == []


def test_L_INFO_2_L_INFO_4_a_seats_worlds_keep_its_own_hand_and_vary_what_it_cannot_know():
    rec = trio("fight arms", "fight strength")
    truth = state(rec)
    worlds = _worlds(rec, 0)
    assert all(w["seats"]["p1"]["hand"] == truth["seats"]["p1"]["hand"] for w in worlds)
    assert all(w["monsters"] == truth["monsters"] and len(w["draw_pile"]) == len(truth["draw_pile"]) for w in worlds)
    assert len({tuple(w["seats"]["p2"]["hand"]) for w in worlds}) > 1, "p2's hand is not p1's to know"
    assert len({tuple(w["draw_pile"][:5]) for w in worlds}) > 1, "nor the order of the pile"
    assert len({tuple(w["monster_deck"]) for w in worlds}) > 1, "nor the order of the monster deck"
    assert all(sorted(w["monster_deck"]) == sorted(truth["monster_deck"]) for w in worlds)
