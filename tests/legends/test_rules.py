"""Rule tests of the Legends engine: each names the rule IDs of docs/legends.md it
checks, on positions dealt card by card (tests/legends/helpers.py)."""

from __future__ import annotations

from itertools import combinations

import pytest

from hzai.games.legends.data import load_data
from hzai.games.legends.rules import IllegalMoveError, playable
from hzai.games.legends.table import Monster
from tests.legends.helpers import game, json_of, legal, monster, play, quick_data, start


# ----- components and options -----------------------------------------------------------
def test_L_COMP_1_L_COMP_2_the_61_cards_split_11_per_attribute_and_6_di():
    data = load_data()
    assert dict(zip(data.kinds, data.counts)) == {"guile": 11, "speed": 11, "arms": 11, "strength": 11, "courage": 11, "di": 6}
    assert sum(data.counts) == 61
    assert len(data.heroes) == 5 and len(data.monsters) == 10


def test_L_COMP_3_every_pair_of_attributes_on_exactly_one_monster():
    data = load_data()
    pairs = sorted(tuple(sorted(p)) for _, p in data.monsters)
    assert pairs == sorted(combinations(range(5), 2))
    assert dict(data.monsters)["Hydra"] == (data.attributes.index("speed"), data.attributes.index("courage"))


def test_L_COMP_4_hero_attributes_one_each():
    data = load_data()
    heroes = {h: data.attributes[a] for h, a in data.heroes}
    assert heroes == {"Achilles": "speed", "Jason": "courage", "Perseus": "arms", "Hercules": "strength", "Atalanta": "guile"}


def test_L_COMP_5_sizes_and_missions_are_read_from_the_data_file():
    data = load_data()
    assert data.sizes == {"normal": 5, "chimera": 8, "hades": 10}
    assert sorted(data.missions) == list(range(1, 13))
    assert data.missions[12].triggers[6] == "H" and data.missions[10].special == "replace_until_6"


def test_L_VAR_1_one_to_five_distinct_heroes():
    assert game(heroes=["Jason"]).seats == ("p1",)
    assert len(game(heroes=["Jason", "Perseus", "Atalanta", "Hercules", "Achilles"]).seats) == 5
    for bad in ([], ["Jason", "jason"], ["Jason", "Zeus"], ["Jason"] * 6):
        with pytest.raises(ValueError):
            game(heroes=bad)


@pytest.mark.parametrize("difficulty, seats, di", [("human", 1, 3), ("human", 5, 6), ("heroic", 3, 3), ("godlike", 1, 1),
                                                   ("godlike", 5, 4)])
def test_L_VAR_2_di_in_the_pile_and_set_aside(difficulty, seats, di):
    g = game(heroes=["Jason", "Perseus", "Atalanta", "Hercules", "Achilles"][:seats], difficulty=difficulty)
    j = g.new_state(1).to_json()
    cards = j["draw_pile"] + [c for s in j["seats"].values() for c in s["hand"]]
    assert cards.count("di") == di and j["set_aside_di"] == 6 - di
    assert len(cards) == 55 + di


def test_L_VAR_3_defaults_and_bad_options():
    g = game()
    assert g.params == {"mission": 1, "heroes": ["Perseus", "Atalanta"], "difficulty": "human", "first_player": "p1",
                        "relocation": "paid", "turn_limit": 200, "data": "classic"}
    for bad in ({"mission": 13}, {"difficulty": "easy"}, {"first_player": "p3"}, {"relocation": "cheap"}, {"turn_limit": 0}):
        with pytest.raises(ValueError):
            game(**bad)


# ----- setup -----------------------------------------------------------------------------
def test_L_SETUP_1_L_SETUP_2_bright_discs_and_start_monsters_by_entry():
    s = start(game(mission=2), {}, monsters=["Hydra", "Griffin", "Minotaur", "Lamia", "Cyclops"])
    j = json_of(s)
    assert [m["id"] for m in j["monsters"]] == ["m1", "m2", "m3", "m4"]
    assert [m["cards"] for m in j["monsters"]] == [["Hydra"], ["Griffin"], ["Minotaur"], ["Lamia"]]
    assert j["monster_deck"][0] == "Cyclops" and len(j["monster_deck"]) == 6
    assert all(not e["broken"] and e["disc"] is None for e in j["seats"].values())
    assert j["normals_entered"] == 4 and j["turn"] == 0 and j["pending"] == "place"


def test_L_SETUP_3_L_SETUP_4_deal_p1_first_four_each():
    g = game(heroes=["Perseus", "Atalanta", "Jason"])
    from hzai.games.legends.rules import shuffled_deal

    hands, pile, _ = shuffled_deal(g, 9)
    j = g.new_state(9).to_json()
    kinds = g.data.kinds
    for s, seat in enumerate(g.seats):
        assert j["seats"][seat]["hand"] == sorted(kinds[k] for k in hands[s])
    assert j["draw_pile"] == [kinds[k] for k in pile] and len(pile) == 55 + 4 - 12


def test_L_SETUP_5_L_SETUP_6_L_TURN_1_placement_and_turns_clockwise_from_the_first_player():
    s = start(game(heroes=["Perseus", "Atalanta", "Jason"], first_player="p2"), {})
    order = []
    for _ in range(3):
        order.append(json_of(s)["to_move"])
        assert legal(s) == {"place m1", "place m2", "place m3"}
        play(s, "place m1")
    assert order == ["p2", "p3", "p1"]
    turns = []
    for _ in range(4):
        j = json_of(s)
        turns.append((j["turn"], j["to_move"]))
        play(s, "recover 1", f"discard {j['seats'][j['to_move']]['hand'][0]}")
    assert turns == [(1, "p2"), (2, "p3"), (3, "p1"), (4, "p2")]


# ----- turns -----------------------------------------------------------------------------
def test_L_TURN_3_five_actions_and_no_pass():
    s = start(game(heroes=["Perseus", "Atalanta", "Jason"]), {}, moves=["place m1"] * 3)
    heads = {m.split()[0] for m in legal(s)}
    assert heads == {"fight", "move", "recover", "support", "oracle"}
    with pytest.raises(ValueError):
        play(s, "pass")


def test_L_TURN_6_solo_takes_every_turn_and_never_supports():
    s = start(game(heroes=["Jason"]), {"p1": ["guile", "guile", "courage", "courage"]}, monsters=["Cyclops"],
              moves=["place m1", "fight guile"])
    j = json_of(s)
    assert (j["turn"], j["to_move"]) == (2, "p1")
    assert not any(m.startswith("support") for m in legal(s))


# ----- fight -----------------------------------------------------------------------------
def hydra_fight():
    """m1 Hydra (speed, courage): four speed cards from p1 and p2 together."""
    s = start(game(), {"p1": ["speed", "speed", "speed", "di"], "p2": ["speed", "speed", "courage", "strength"]},
              monsters=["Hydra", "Griffin", "Minotaur"], moves=["place m1", "place m1"])
    return play(s, "fight speed", "fight speed", "fight speed", "fight speed")


def test_L_FIGHT_3_after_four_speed_only_courage_may_follow_on_the_hydra():
    """A6: the rulebook's Hydra example; L-FIGHT-6: both heroes' cards count together."""
    s = hydra_fight()
    moves = legal(s)
    assert "fight speed" not in moves and "fight di speed" not in moves
    assert "fight di courage" in moves and "fight di-slay" not in moves
    with pytest.raises(IllegalMoveError, match="does not fit"):
        play(s, "fight speed")
    assert {p["by"] for p in monster(s, "m1")["played"]} == {"p1", "p2"}


def test_L_FIGHT_1_L_FIGHT_2_only_the_own_monster_and_only_fitting_cards():
    s = start(game(), {"p1": ["speed", "guile", "arms", "strength"]}, monsters=["Hydra", "Griffin", "Minotaur"],
              moves=["place m1", "place m2"])
    fights = {m for m in legal(s) if m.startswith("fight")}
    assert fights == {"fight speed"}  # guile and strength fit m2 and m3, not the own monster
    assert monster(s, "m1")["requires"] == ["courage", "speed"] and monster(s, "m1")["size"] == 5


def test_L_FIGHT_4_L_FIGHT_5_defeat_at_five_cards_vanquished_and_stranded():
    s = play(hydra_fight(), "fight di courage")  # a wild DI as the 5th card: a count defeat (L-DI-3)
    j = json_of(s)
    m1 = monster(s, "m1")
    assert m1["status"] == "defeated" and len(m1["played"]) == 5 and j["discard_pile"] == []
    assert j["normals_defeated"] == 1
    assert j["seats"]["p1"]["stranded"] and j["seats"]["p2"]["stranded"] and j["seats"]["p2"]["disc"] == "m1"
    moves = legal(s)
    assert not any(m.startswith("fight") for m in moves)
    assert "move m2 courage" in moves and not any(m.startswith("move m1") for m in moves)  # L-MOVE-3


def test_L_MISSION_1_a_defeat_brings_what_the_table_says():
    s = play(hydra_fight(), "fight di courage")
    assert [m["cards"] for m in json_of(s)["monsters"]][-1] == ["Centaur"]
    assert json_of(s)["normals_entered"] == 4


def griffin(mission=1, **options):
    """The Griffin example: strength, a DI declared guile, then a DI sideways."""
    s = start(game(mission=mission, **options), {"p1": ["strength", "di", "di", "arms"],
                                                 "p2": ["arms", "arms", "arms", "arms"]},
              monsters=["Griffin", "Hydra", "Minotaur", "Lamia"], moves=["place m1", "place m2"])
    return play(s, "fight strength", "recover 0", "discard arms")


def test_L_DI_1_L_DI_2_wild_then_slay_with_three_cards():
    s = griffin()
    assert "fight di-slay" not in legal(s)
    assert {"fight di guile", "fight di strength"} <= legal(s)
    play(s, "fight di guile", "recover 0", "discard arms")
    assert "fight di-slay" in legal(s)
    play(s, "fight di-slay")
    m1 = monster(s, "m1")
    assert m1["status"] == "defeated" and len(m1["played"]) == 3
    assert m1["played"][1] == {"card": "di", "as": "guile", "face": "up", "by": "p1"}
    assert m1["played"][2] == {"card": "di", "as": None, "face": "sideways", "by": "p1"}


def test_L_CHIM_3_at_most_six_of_a_covered_symbol_while_two_are_missing():
    """Minotaur + Lamia: arms x2, strength, courage; size 8 (a unit test of L-FIGHT-3)."""
    data = load_data()
    a = {n: i for i, n in enumerate(data.attributes)}
    m = Monster(1, (0, 3), [0, 0, 2, 1, 1], 8, True)
    for _ in range(5):
        assert playable(m, a["arms"])
        m.played.append((0, a["arms"], "up", 0))
        m.cnt[a["arms"]] += 1
    assert playable(m, a["arms"])  # the sixth: 6 + 2 = 8
    m.played.append((0, a["arms"], "up", 0))
    m.cnt[a["arms"]] += 1
    assert not playable(m, a["arms"]) and playable(m, a["strength"]) and playable(m, a["courage"])
    assert not playable(m, a["guile"]) and m.deficit() == 2


def test_L_ABIL_1_L_ABIL_2_L_ABIL_3_once_face_down_as_the_heroes_attribute():
    s = start(game(), {"p1": ["guile", "di", "speed", "courage"]}, monsters=["Minotaur", "Cyclops", "Hydra"],
              moves=["place m1", "place m2"])
    assert {m for m in legal(s) if "ability" in m} == {"fight ability guile", "fight ability di", "fight ability speed",
                                                      "fight ability courage"}
    play(s, "fight ability guile")
    played = monster(s, "m1")["played"]
    assert played == [{"card": "guile", "as": "arms", "face": "down", "by": "p1"}]
    assert json_of(s)["seats"]["p1"]["broken"]
    assert monster_of_view(s, 1, "m1")["played"][0]["card"] == "?"  # never revealed to others
    # p2 (Atalanta, guile) stands on Cyclops: guile is in R, so p2 may use it too
    assert "fight ability arms" in legal(s) or any("ability" in m for m in legal(s))
    play(s, "recover 0", f"discard {json_of(s)['seats']['p2']['hand'][0]}")
    assert not any("ability" in m for m in legal(s))  # p1's disc is broken


def monster_of_view(s, seat, mid):
    return next(m for m in s.view(seat).to_json()["monsters"] if m["id"] == mid)


def test_L_ABIL_2_only_where_the_heroes_attribute_is_required():
    s = start(game(), {"p1": ["guile", "courage", "speed", "speed"]}, monsters=["Cyclops", "Hydra", "Lamia"],
              moves=["place m1", "place m2"])
    assert not any("ability" in m for m in legal(s))  # Perseus (arms) on Cyclops (guile, courage)


# ----- move, recover, support, oracle --------------------------------------------------
def test_L_MOVE_1_L_MOVE_2_move_pays_a_discard_and_needs_another_monster():
    s = start(game(), {"p1": ["guile", "courage", "speed", "speed"]}, monsters=["Cyclops", "Hydra", "Lamia"],
              moves=["place m1", "place m2"])
    moves = legal(s)
    assert "move m2 guile" in moves and not any(m.startswith("move m1") for m in moves)
    play(s, "move m2 speed")
    j = json_of(s)
    assert j["seats"]["p1"]["disc"] == "m2" and j["discard_pile"] == [{"card": "speed", "by": "p1"}]
    assert j["seats"]["p1"]["hand"] == ["courage", "guile", "speed"]


def test_L_MOVE_3_free_relocation_from_a_stranded_place():
    s = start(game(relocation="free"), {"p1": ["speed", "speed", "speed", "di"], "p2": ["speed", "speed", "courage", "strength"]},
              monsters=["Hydra", "Griffin", "Minotaur"], moves=["place m1", "place m1"])
    play(s, "fight speed", "fight speed", "fight speed", "fight speed", "fight di courage")
    moves = legal(s)
    assert {"move m2", "move m3", "move m4"} <= moves and not any(m.startswith("move m2 ") for m in moves)
    play(s, "move m2")
    assert json_of(s)["discard_pile"] == [] and json_of(s)["seats"]["p2"]["disc"] == "m2"


def test_L_RECOVER_1_L_RECOVER_2_declared_count_then_one_discard():
    s = start(game(), {"p1": ["guile", "courage", "speed", "speed"]}, top=["arms", "di"], moves=["place m1", "place m1"])
    assert {m for m in legal(s) if m.startswith("recover")} == {"recover 0", "recover 1"}
    with pytest.raises(IllegalMoveError, match="k must keep"):
        play(s, "recover 2")
    play(s, "recover 1")
    j = json_of(s)
    assert j["pending"] == "recover_discard" and j["seats"]["p1"]["hand"] == ["arms", "courage", "guile", "speed", "speed"]
    assert legal(s) == {"discard arms", "discard courage", "discard guile", "discard speed"}
    play(s, "discard arms")
    j = json_of(s)
    assert j["to_move"] == "p2" and len(j["seats"]["p1"]["hand"]) == 4 and j["draw_pile"][0] == "di"


def test_L_SUPPORT_1_L_SUPPORT_2_L_SUPPORT_3_receiver_discards_and_the_turn_passes_from_the_giver():
    s = start(game(heroes=["Perseus", "Atalanta", "Jason"]), {"p1": ["arms", "courage", "speed", "guile"]},
              moves=["place m1"] * 3)
    play(s, "support p3 arms,courage")
    j = json_of(s)
    assert (j["pending"], j["to_move"], j["turn"]) == ("support_discard", "p3", 1)
    assert len(j["seats"]["p3"]["hand"]) == 6 and len(j["seats"]["p1"]["hand"]) == 2
    assert all(len(m.split()[1].split(",")) == 2 for m in legal(s))  # max(1, 6 - 4)
    play(s, min(legal(s)))
    j = json_of(s)
    assert (j["to_move"], j["turn"]) == ("p2", 2) and len(j["seats"]["p3"]["hand"]) == 4
    play(s, "support p1 " + j["seats"]["p2"]["hand"][0])
    assert all(len(m.split()[1].split(",")) == 1 for m in legal(s))  # r = 3: still one discard


def test_L_ORACLE_1_L_ORACLE_2_L_ORACLE_3_six_shown_one_discarded_rest_back_in_order():
    top = ["arms", "di", "guile", "speed", "strength", "courage", "arms"]
    s = start(game(), {"p1": ["arms", "courage", "speed", "guile"]}, top=top, moves=["place m1", "place m2"])
    before = json_of(s)
    play(s, "oracle")
    j = json_of(s)
    assert j["pending"] == "oracle_return" and j["oracle_revealed"] == top[:6]
    assert len(j["draw_pile"]) == len(before["draw_pile"]) - 6 and j["draw_pile"][0] == "arms"
    assert j["seats"]["p1"] == before["seats"]["p1"]
    assert "discard di order arms,guile,speed,strength,courage" in legal(s)
    play(s, "discard di order courage,strength,speed,guile,arms")
    j = json_of(s)
    assert j["draw_pile"][:6] == ["courage", "strength", "speed", "guile", "arms", "arms"]
    assert j["discard_pile"] == [{"card": "di", "by": "p1"}] and j["to_move"] == "p2"


# ----- missions --------------------------------------------------------------------------
def test_L_MISSION_4_L_DI_4_mission_5_forced_recover_after_a_di_use():
    s = start(game(mission=5), {"p1": ["di", "arms", "strength", "guile"]}, monsters=["Minotaur", "Harpy", "Gorgon", "Hydra"],
              moves=["place m1", "place m2", "fight di arms"])
    j = json_of(s)
    assert (j["pending"], j["to_move"], j["turn"]) == ("forced_recover", "p1", 1)
    assert legal(s) == {"recover 0", "recover 1", "recover 2"}
    play(s, "recover 1")
    assert json_of(s)["pending"] == "recover_discard"
    play(s, "discard guile")
    assert json_of(s)["to_move"] == "p2"


def test_L_DI_4_the_ability_with_a_di_is_no_di_use():
    s = start(game(mission=5), {"p1": ["di", "arms", "strength", "guile"]}, monsters=["Minotaur", "Harpy", "Gorgon", "Hydra"],
              moves=["place m1", "place m2", "fight ability di"])
    assert json_of(s)["to_move"] == "p2" and json_of(s)["pending"] == "action"


def test_L_TURN_4_mission_5_recovers_before_the_new_monster_enters(tmp_path):
    s = griffin(mission=24, data=quick_data(tmp_path))
    play(s, "fight di guile", "recover 0", "discard arms")  # p1's forced Recover after the wild DI
    play(s, "recover 0", "discard arms", "fight di-slay")
    j = json_of(s)
    assert j["pending"] == "forced_recover" and j["normals_defeated"] == 1 and j["normals_entered"] == 2
    play(s, "recover 1", "discard " + json_of(s)["draw_pile"][0])
    j = json_of(s)
    assert j["normals_entered"] == 3 and j["to_move"] == "p2"


def test_L_MISSION_5_mission_6_hand_under_the_draw_pile_then_draw():
    s = start(game(mission=6), {"p1": ["di", "arms", "strength", "guile"]}, top=["speed", "speed", "courage"],
              monsters=["Minotaur", "Harpy", "Gorgon", "Hydra"], moves=["place m1", "place m2", "fight di arms"])
    j = json_of(s)
    assert s.is_chance and j["to_move"] is None and j["pending"] == "chance"
    assert j["seats"]["p1"]["hand"] == ["arms", "guile", "strength"]
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 6 and all(p == pytest.approx(1 / 6) for _, p in outcomes)
    play(s, "chance order strength,arms,guile")
    j = json_of(s)
    assert j["seats"]["p1"]["hand"] == ["courage", "speed", "speed"]
    assert j["draw_pile"][-3:] == ["strength", "arms", "guile"] and j["to_move"] == "p2"


def test_L_MISSION_6_mission_7_hand_under_the_discard_pile_then_the_latest_discards():
    s = start(game(mission=7), {"p1": ["di", "arms", "strength", "guile"], "p2": ["courage", "courage", "courage", "courage"]},
              top=["speed", "speed"], monsters=["Minotaur", "Harpy", "Gorgon", "Hydra"],
              moves=["place m1", "place m2", "recover 1", "discard speed", "recover 0", "discard courage", "fight di arms"])
    play(s, "chance order strength,arms,guile")
    j = json_of(s)
    assert j["seats"]["p1"]["hand"] == ["courage", "speed", "strength"]
    assert j["discard_pile"] == [{"card": "guile", "by": "p1"}, {"card": "arms", "by": "p1"}]


def mission_10_slays():
    s = start(game(mission=10, heroes=["Perseus"]), {"p1": ["arms", "strength", "di", "guile"]},
              top=["speed", "arms", "di", "arms", "guile", "arms", "guile", "di", "courage", "courage"],
              monsters=["Minotaur", "Harpy", "Gorgon"], moves=["place m1"])
    return play(s, "fight arms", "fight strength", "fight di-slay")


def test_L_MISSION_7_L_DI_3_L_END_4_mission_10_slays_bring_nothing_and_can_lose_it():
    s = mission_10_slays()
    assert json_of(s)["normals_entered"] == 3 and json_of(s)["normals_defeated"] == 1
    play(s, "move m2 guile", "recover 5", "discard guile", "fight speed", "fight arms", "fight di-slay")
    assert json_of(s)["normals_entered"] == 3 and json_of(s)["result"] is None
    play(s, "move m3 arms", "recover 5", "discard courage", "fight arms", "fight guile", "fight di-slay")
    j = json_of(s)
    assert (j["result"], j["reason"]) == ("lost", "no_sixth_monster") and j["to_move"] is None


def test_L_MISSION_7_a_count_defeat_brings_a_replacement_in_mission_10():
    """L-DI-3: a wild DI that is the 5th card is no slay."""
    s = start(game(mission=10), {"p1": ["speed", "speed", "speed", "di"], "p2": ["speed", "speed", "courage", "strength"]},
              monsters=["Hydra", "Griffin", "Minotaur"], moves=["place m1", "place m1"])
    play(s, "fight speed", "fight speed", "fight speed", "fight speed", "fight di courage")
    assert json_of(s)["normals_entered"] == 4


def chimera_mission(mission, tmp_path, monsters=("Cyclops", "Minotaur", "Lamia", "Harpy", "Gorgon")):
    g = game(mission=mission, heroes=["Perseus"], relocation="free", data=quick_data(tmp_path))
    s = start(g, {"p1": ["guile", "guile", "courage", "courage"]},
              top=["guile", "guile", "arms", "arms", "strength", "courage", "di", "guile"], monsters=list(monsters),
              moves=["place m1"])
    return play(s, "fight guile", "fight guile", "fight courage", "fight courage", "recover 5", "discard guile",
                "fight guile")


def test_L_CHIM_1_L_CHIM_2_L_CHIM_4_L_END_1_a_chimera_enters_and_its_fall_wins(tmp_path):
    s = chimera_mission(21, tmp_path)
    m2 = monster(s, "m2")
    assert m2["cards"] == ["Minotaur", "Lamia"] and m2["requires"] == ["arms", "arms", "courage", "strength"]
    assert m2["size"] == 8 and m2["final"] and m2["status"] == "in_play"
    play(s, "move m2", "fight arms", "fight arms", "fight strength")
    assert "fight di-slay" not in legal(s)
    play(s, "recover 3", "discard guile", "fight courage")
    assert "fight di-slay" in legal(s)
    play(s, "fight di-slay")
    j = json_of(s)
    assert (j["result"], j["reason"], j["to_move"], j["pending"]) == ("won", "final_defeated", None, None)
    assert s.returns() == (1.0,)


def test_L_CHIM_5_two_chimeras_take_the_next_cards_in_order(tmp_path):
    s = chimera_mission(22, tmp_path)
    ms = json_of(s)["monsters"]
    assert [(m["id"], m["cards"]) for m in ms[1:]] == [("m2", ["Minotaur", "Lamia"]), ("m3", ["Harpy", "Gorgon"])]


def test_L_MISSION_8_hades_three_cards_six_symbols_size_ten(tmp_path):
    s = chimera_mission(23, tmp_path)
    m2 = monster(s, "m2")
    assert m2["cards"] == ["Minotaur", "Lamia", "Harpy"] and m2["size"] == 10 and m2["final"]
    assert m2["requires"] == ["arms", "arms", "arms", "courage", "speed", "strength"]


def test_L_MISSION_2_won_with_a_normal_monster_still_in_play(tmp_path):
    s = chimera_mission(25, tmp_path, ("Cyclops", "Hydra", "Minotaur", "Lamia"))
    play(s, "move m3", "fight arms", "fight arms", "fight strength", "recover 3", "discard guile", "fight courage",
         "fight di-slay")
    j = json_of(s)
    assert j["result"] == "won" and monster(s, "m2")["status"] == "in_play"
    classic = load_data()
    for mid in (4, 5, 6, 7):
        m = classic.missions[mid]
        assert m.start + sum(int(v[1:]) for v in m.triggers.values() if v.startswith("+")) == 7


def test_L_MISSION_3_mission_2_brings_the_chimera_at_the_5th_defeat():
    assert load_data().missions[2].triggers == {1: "+1", 5: "C"}


def test_L_END_5_the_turn_limit_ends_in_a_loss():
    s = start(game(turn_limit=3), {}, moves=["place m1", "place m1"])
    for _ in range(3):
        hand = json_of(s)["seats"][json_of(s)["to_move"]]["hand"]
        play(s, "recover 1", f"discard {hand[0]}")
    j = json_of(s)
    assert (j["result"], j["reason"], j["turn"]) == ("lost", "turn_limit", 3)
    assert s.returns() == (0.0, 0.0)  # L-END-6: one result for the team


def test_L_END_6_every_seat_gets_the_teams_result(tmp_path):
    s = chimera_mission(21, tmp_path)
    assert s.returns() == (0.0,)
    play(s, "move m2", "fight arms", "fight arms", "fight strength", "recover 3", "discard guile", "fight courage",
         "fight di-slay")
    assert s.returns() == (1.0,) and s.is_terminal and s.legal_moves() == []


def test_L_TURN_2_L_END_2_L_RECOVER_3_a_turn_that_starts_with_no_card_and_no_pile_is_lost():
    from hzai.core import make_game
    from hzai.games.legends.rules import _recovers
    from hzai.rng import SplitMix64

    g = make_game("legends", mission=3, heroes=["Perseus", "Atalanta"])
    s = g.new_state(4)
    rng = SplitMix64(4)
    while not s.is_terminal:
        moves = s.legal_moves()
        before = (s.t.turn, s.t.turn_seat)
        s.apply(moves[rng.below(len(moves))])
    j = json_of(s)
    assert (j["result"], j["reason"]) == ("lost", "exhausted")
    seat = s.t.turn_seat
    assert s.t.hands[seat] == [] and s.t.draw == [] and _recovers(s.t, seat) == []
    assert j["turn"] == before[0] + 1 and seat == (before[1] + 1) % 2  # the new turn's number and seat
