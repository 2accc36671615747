"""Components, options and setup (L-COMP, L-VAR, L-SETUP) through the replay contract."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from tests.legends.rules.contract import (
    ATTRS, DI_TABLE, HEROES, MISSIONS, MONSTERS, SEATS, action_cards, all_action_cards, assert_illegal,
    classic_data, data_with_mission, di_count, draw_pile, hand_of, moves, monster, played, record, refusal,
    replay, seen, state, then,
)

DUO = ["Perseus", "Hercules"]


def _cards_in_play_zones(st: dict) -> Counter:
    total = all_action_cards(st)
    total["di"] -= st["set_aside_di"]
    return total


# ----- L-COMP ------------------------------------------------------------------------------
def test_L_COMP_1_one_mission_of_61_action_cards_10_monster_cards_and_5_heroes():
    st = state(record(list(HEROES), 1))
    assert st["game"] == "legends" and st["mission"] == 1
    assert sum(all_action_cards(st).values()) == 61
    monster_cards = st["monster_deck"] + [c for m in st["monsters"] for c in m["cards"]]
    assert sorted(monster_cards) == sorted(MONSTERS)
    assert [st["seats"][s]["hero"] for s in SEATS] == list(HEROES)


def test_L_COMP_1_a_hero_outside_the_five_is_refused():
    rec = record(DUO)
    rec["heroes"] = ["Perseus", "Odysseus"]
    assert "Odysseus" in refusal(replay(rec))


def test_L_COMP_2_eleven_cards_of_each_attribute_and_six_di():
    st = state(record(list(HEROES), 1, difficulty="human"))  # 5 seats, human: all 6 DI in play
    assert all_action_cards(st) == Counter({**{a: 11 for a in ATTRS}, "di": 6})


def test_L_COMP_2_a_setup_with_a_twelfth_card_of_one_attribute_is_malformed():
    rec = record(DUO)
    pile = rec["setup"]["draw_pile"]
    pile[pile.index("speed")] = "guile"
    refusal(replay(rec))


def test_L_COMP_2_the_split_is_read_from_the_data_file():
    data = classic_data()
    data["action_cards"].update(guile=12, speed=10)
    counts = {**data["action_cards"]}
    rec = record(DUO, data="split.json", counts=counts)
    st = state(rec, files={"split.json": data})
    assert _cards_in_play_zones(st)["guile"] == 12 and _cards_in_play_zones(st)["speed"] == 10
    # the classic split is then wrong for this record
    refusal(replay({**rec, "data": "classic"}))


@pytest.mark.parametrize("half", [0, 1])
def test_L_COMP_3_monster_attributes_follow_the_table(half):
    names = list(MONSTERS)
    deck = names[5:] + names[:5] if half else names
    st = state(record(list(HEROES), 8, deck=deck))  # mission 8 starts with 5 monsters
    in_play = deck[:5]
    for i, name in enumerate(in_play, start=1):
        m = monster(st, f"m{i}")
        assert m["cards"] == [name]
        assert m["requires"] == sorted(MONSTERS[name])
        assert (m["size"], m["final"], m["status"], m["played"]) == (5, False, "in_play", [])
    assert st["monster_deck"] == deck[5:]


@pytest.mark.parametrize("hero, beast", [("Achilles", "Centaur"), ("Jason", "Hydra"), ("Perseus", "Minotaur"),
                                         ("Hercules", "Minotaur"), ("Atalanta", "Cyclops")])
def test_L_COMP_4_each_hero_has_its_attribute(hero, beast):
    rec = record([hero], 1, hands={"p1": ["di", "guile", "speed", "courage"]}, deck=[beast],
                 moves=["place m1", "fight ability di"])
    st = state(rec)
    assert played(st, "m1") == [("di", HEROES[hero], "down", "p1")]


def test_L_COMP_5_classic_is_the_default_data():
    rec = record(DUO, moves=["place m1", "place m2"])
    assert state(rec) == state({**rec, "data": "classic"})


def test_L_COMP_5_hero_attributes_are_read_from_the_data_file():
    data = classic_data()
    data["heroes"]["Atalanta"] = "speed"
    rec = record(["Atalanta"], 1, hands={"p1": ["di", "guile", "speed", "courage"]}, deck=["Centaur"],
                 moves=["place m1", "fight ability di"], data="swift.json")
    assert played(state(rec, files={"swift.json": data}), "m1") == [("di", "speed", "down", "p1")]


def _broken(change) -> dict:
    data = classic_data()
    change(data)
    return data


BROKEN_DATA = {
    "di_entry_above_supply": lambda d: d["di_table"]["human"].__setitem__(0, 7),
    "unknown_monster_attribute": lambda d: d["monsters"].__setitem__("Hydra", ["speed", "wisdom"]),
    "unknown_hero_attribute": lambda d: d["heroes"].__setitem__("Jason", "wisdom"),
    "repeated_attribute_name": lambda d: d.__setitem__("attributes", ["guile", "guile", "arms", "strength",
                                                                       "courage"]),
    "hero_name_repeated_in_other_case": lambda d: d["heroes"].__setitem__("atalanta", "guile"),
    "monster_name_repeated_in_other_case": lambda d: d["monsters"].__setitem__("HYDRA", ["guile", "arms"]),
    "mission_needs_too_many_monster_cards": lambda d: d["missions"][0]["triggers"].update({"1": "+4", "2": "+4"}),
    "trigger_that_never_fires": lambda d: d["missions"][0].update(start=2, triggers={"6": "C"}),
    "unknown_key": lambda d: d.__setitem__("colours", {}),
}


@pytest.mark.parametrize("name", sorted(BROKEN_DATA))
def test_L_COMP_5_the_loader_rejects_an_inconsistent_data_file(name):
    rec = record(DUO, 1, data="broken.json")
    line = refusal(replay(rec, files={"broken.json": _broken(BROKEN_DATA[name])}))
    assert line


@pytest.mark.parametrize("what, name, pair", [("monsters", "Hydra", '["guile", "arms"]'),
                                              ("heroes", "Atalanta", '"speed"')])
def test_L_COMP_5_a_name_written_twice_in_the_file_is_rejected(what, name, pair):
    """Reading: a JSON object that names the same monster or hero twice is a name that
    repeats, even though a JSON reader would quietly keep the second."""
    text = json.dumps(classic_data())
    first = json.dumps({name: classic_data()[what][name]})[1:-1]
    assert text.count(first) == 1
    text = text.replace(first, f"{first}, {json.dumps(name)}: {pair}")
    line = refusal(replay(record(DUO, 1, data="twice.json"), files={"twice.json": text}))
    assert name in line


def test_L_COMP_5_a_consistent_custom_mission_is_accepted():
    data = data_with_mission(1, 1, {"1": "C"})
    st = state(record(DUO, 1, data="quick.json"), files={"quick.json": data})
    assert [m["id"] for m in st["monsters"]] == ["m1"] and st["normals_entered"] == 1


def test_L_COMP_6_every_card_stays_in_exactly_one_zone():
    """Fight, slay (into the vanquished area), paid move, oracle, support and recover:
    after every move the 61 cards are all there, and the 10 monster cards too."""
    rec = record(DUO, 1, hands={"p1": ["arms", "strength", "di", "guile"], "p2": ["strength", "arms", "courage", "speed"]},
                 deck=["Minotaur", "Cyclops", "Hydra"])
    pile = draw_pile(rec)
    script = ["place m1", "place m1", "fight arms", "fight strength", "fight di-slay",  # m1 falls
              "move m2 courage",  # p2, stranded, pays a card
              "oracle", f"discard {pile[0]} order {','.join(pile[1:6])}",  # p1 looks at the top six
              "support p1 speed",  # p2 gives; p1 holds 2 + 1 = 3 and still discards 1
              "discard guile",
              "recover 1", f"discard {pile[1]}"]  # p2 draws what the oracle put on top
    total = Counter({**{a: 11 for a in ATTRS}, "di": 6})
    for n in range(len(script) + 1):
        st = state(then(rec, *script[:n]))
        assert all_action_cards(st) == total, f"after {script[:n]}"
        names = st["monster_deck"] + [c for m in st["monsters"] for c in m["cards"]]
        assert sorted(names) == sorted(MONSTERS)


# ----- L-VAR -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_L_VAR_1_one_to_five_seats_each_a_different_hero_in_order(n):
    heroes = list(HEROES)[::-1][:n]
    st = state(record(heroes, 1))
    assert sorted(st["seats"]) == SEATS[:n]
    assert [st["seats"][s]["hero"] for s in SEATS[:n]] == heroes


@pytest.mark.parametrize("heroes", [[], list(HEROES) + ["Achilles"], ["Jason", "Jason"]])
def test_L_VAR_1_no_seat_six_seats_or_a_repeated_hero_is_malformed(heroes):
    rec = record(["Achilles", "Jason"], 1)
    rec["heroes"] = heroes
    refusal(replay(rec))


@pytest.mark.parametrize("difficulty", sorted(DI_TABLE))
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_L_VAR_2_di_cards_shuffled_in_and_set_aside(difficulty, n):
    k = DI_TABLE[difficulty][n - 1]
    rec = record(list(HEROES)[:n], 1, difficulty=difficulty)
    st = state(rec)
    assert st["set_aside_di"] == 6 - k
    assert _cards_in_play_zones(st) == action_cards(n, difficulty)
    one_more = copy.deepcopy(rec)
    pile = one_more["setup"]["draw_pile"]
    pile[pile.index("guile")] = "di"
    refusal(replay(one_more))
    if k > 1:
        one_fewer = copy.deepcopy(rec)
        pile = one_fewer["setup"]["draw_pile"]
        pile[pile.index("di")] = "guile"
        refusal(replay(one_fewer))


def test_L_VAR_3_defaults_human_first_player_p1():
    rec = record(DUO, 1)
    st = state(rec)
    assert st["set_aside_di"] == 6 - di_count(2, "human")
    assert st["to_move"] == "p1" and st["pending"] == "place"
    same = {**rec, "difficulty": "human", "first_player": "p1", "variants": {"relocation": "paid", "turn_limit": 200},
            "data": "classic"}
    assert state(same) == st


BAD_OPTIONS = {
    "mission_missing": lambda r: r.pop("mission"),
    "mission_0": lambda r: r.__setitem__("mission", 0),
    "mission_13": lambda r: r.__setitem__("mission", 13),
    "heroes_missing": lambda r: r.pop("heroes"),
    "difficulty_easy": lambda r: r.__setitem__("difficulty", "easy"),
    "first_player_p3_of_two": lambda r: r.__setitem__("first_player", "p3"),
    "relocation_cheap": lambda r: r.__setitem__("variants", {"relocation": "cheap"}),
    "turn_limit_0": lambda r: r.__setitem__("variants", {"turn_limit": 0}),
    "turn_limit_text": lambda r: r.__setitem__("variants", {"turn_limit": "many"}),
    "unknown_variant": lambda r: r.__setitem__("variants", {"reshuffle": True}),
    "unknown_top_level_key": lambda r: r.__setitem__("colour", "red"),
    "setup_and_seed": lambda r: r.__setitem__("seed", 4),
    "neither_setup_nor_seed": lambda r: r.pop("setup"),
    "hand_of_three": lambda r: r["setup"]["draw_pile"].append(r["setup"]["hands"]["p1"].pop()),
    "monster_deck_not_a_permutation": lambda r: r["setup"]["monster_deck"].__setitem__(0, "Hydra"),
    "unknown_card_in_the_pile": lambda r: r["setup"]["draw_pile"].__setitem__(0, "wisdom"),
    "a_hand_for_a_seat_that_is_not_there": lambda r: r["setup"]["hands"].__setitem__("p3", ["guile"] * 4),
    "a_seat_without_a_hand": lambda r: r["setup"]["draw_pile"].extend(r["setup"]["hands"].pop("p2")),
    "moves_not_a_list": lambda r: r.__setitem__("moves", "place m1"),
    "a_move_that_is_not_text": lambda r: r.__setitem__("moves", [1]),
    "more_moves_than_any_mission_has": lambda r: r.__setitem__("moves", ["place m1"] * 100_000),
    "format_of_hera_and_zeus_fields": lambda r: r.__setitem__("format", "legends-record/2"),
}


@pytest.mark.parametrize("name", sorted(BAD_OPTIONS))
def test_L_VAR_3_bad_options_and_malformed_records_exit_2(name):
    rec = record(DUO, 1)
    BAD_OPTIONS[name](rec)
    line = refusal(replay(rec))
    if name == "unknown_top_level_key":
        assert "colour" in line
    if name == "unknown_variant":
        assert "reshuffle" in line


@pytest.mark.parametrize("mission", range(1, 13))
def test_L_VAR_3_every_mission_1_to_12_can_be_chosen(mission):
    assert state(record(DUO, mission))["mission"] == mission


# ----- L-SETUP -----------------------------------------------------------------------------
def test_L_SETUP_1_every_disc_starts_bright_and_unplaced():
    st = state(record(list(HEROES), 1))
    for seat in SEATS:
        assert st["seats"][seat]["broken"] is False
        assert st["seats"][seat]["disc"] is None
    assert (st["turn"], st["pending"], st["result"], st["reason"]) == (0, "place", None, None)


@pytest.mark.parametrize("mission, start", [(m, s) for m, _, s, _, _ in MISSIONS])
def test_L_SETUP_2_the_start_monsters_come_from_the_top_of_the_monster_deck(mission, start):
    deck = list(MONSTERS)[::-1]
    st = state(record(DUO, mission, deck=deck))
    assert [m["id"] for m in st["monsters"]] == [f"m{i}" for i in range(1, start + 1)]
    assert [m["cards"] for m in st["monsters"]] == [[name] for name in deck[:start]]
    assert st["monster_deck"] == deck[start:]
    assert (st["normals_entered"], st["normals_defeated"]) == (start, 0)


def test_L_SETUP_3_a_seed_record_deals_55_plus_k_cards():
    rec = {"format": "legends-record/1", "mission": 1, "heroes": ["Jason", "Atalanta", "Achilles"],
           "difficulty": "heroic", "seed": 17, "moves": []}
    st = state(rec)
    assert _cards_in_play_zones(st) == action_cards(3, "heroic")
    assert st["set_aside_di"] == 6 - DI_TABLE["heroic"][2]
    assert all(len(s["hand"]) == 4 for s in st["seats"].values())
    assert state(rec) == st, "a seed deals the same every time"
    others = {tuple(state({**rec, "seed": seed})["draw_pile"]) for seed in (1, 2, 3)}
    assert len(others) > 1, "the seed must shuffle"


def test_L_SETUP_4_hands_of_four_as_dealt_and_the_pile_in_order():
    hands = {"p1": ["di", "arms", "arms", "guile"], "p2": ["courage", "speed", "strength", "guile"]}
    rec = record(DUO, 1, hands=hands)
    st = state(rec)
    assert hand_of(st, "p1") == sorted(hands["p1"]) and hand_of(st, "p2") == sorted(hands["p2"])
    assert st["draw_pile"] == draw_pile(rec)
    five = copy.deepcopy(rec)
    five["setup"]["hands"]["p2"].append(five["setup"]["draw_pile"].pop())
    refusal(replay(five))


def test_L_SETUP_5_placement_from_the_first_player_clockwise_any_monster_shared_allowed():
    rec = record(["Perseus", "Hercules", "Jason"], 1, first_player="p2")
    order = []
    for placed in range(3):
        st = state(then(rec, *["place m3"] * placed))
        assert st["pending"] == "place" and st["turn"] == 0
        order.append(st["to_move"])
        assert moves(then(rec, *["place m3"] * placed)) == ["place m1", "place m2", "place m3"]
    assert order == ["p2", "p3", "p1"]
    # each seat sees the placements made before its own
    assert seen(then(rec, "place m2"), "p3")["seats"]["p2"]["disc"] == "m2"
    st = state(then(rec, "place m3", "place m3", "place m3"))
    assert {s: st["seats"][s]["disc"] for s in ("p1", "p2", "p3")} == {"p1": "m3", "p2": "m3", "p3": "m3"}


def test_L_SETUP_5_a_monster_not_in_play_cannot_be_chosen():
    assert_illegal(record(DUO, 1), "place m4")


def test_L_SETUP_5_first_player_volunteer_is_the_option():
    st = state(record(["Perseus", "Hercules", "Jason"], 1, first_player="p3", moves=["place m1"]))
    assert st["seats"]["p3"]["disc"] == "m1" and st["seats"]["p1"]["disc"] is None
    assert st["to_move"] == "p1"


@pytest.mark.parametrize("first", ["p1", "p2", "p3"])
def test_L_SETUP_6_the_first_player_takes_turn_1(first):
    st = state(record(["Perseus", "Hercules", "Jason"], 1, first_player=first,
                      moves=["place m1", "place m2", "place m1"]))
    assert (st["turn"], st["to_move"], st["pending"]) == (1, first, "action")
