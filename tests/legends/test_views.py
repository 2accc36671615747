"""What each seat knows (L-INFO): public parts, private parts, the knowledge tracker,
redacted moves, and determinizations that agree with everything the seat has seen."""

from __future__ import annotations

from collections import Counter

import pytest

from hzai.core import Limits, make_game
from hzai.search import make_bot
from tests.legends.helpers import game, play, random_game, start

HEROES = ["Perseus", "Atalanta", "Hercules", "Jason", "Achilles"]


def views(state):
    return [state.view(o).to_json() for o in range(state.game.n)]


def oracle_then_draw():
    s = start(game(), {"p1": ["arms", "courage", "speed", "guile"]},
              top=["arms", "di", "guile", "speed", "strength", "courage"], moves=["place m1", "place m2"])
    return play(s, "oracle", "discard di order courage,strength,speed,guile,arms", "recover 1")


def test_L_INFO_3_oracle_cards_are_known_in_the_hand_that_draws_them_until_it_hides_a_card():
    s = oracle_then_draw()
    v1 = s.view(0).to_json()
    assert v1["seats"]["p2"]["known_in_hand"] == ["courage"]
    assert v1["draw_pile"][:4] == ["strength", "speed", "guile", "arms"] and isinstance(v1["draw_pile"][4], int)
    play(s, "discard courage")
    v1 = s.view(0).to_json()
    assert v1["seats"]["p2"]["known_in_hand"] == []  # it may have gone either way
    assert v1["discard_pile"] == [{"card": "di", "by": "p1"}, {"card": "?", "by": "p2"}]
    assert v1["moves"][-2:] == ["recover 1", "discard ?"]
    assert s.view(1).to_json()["moves"][-1] == "discard courage"


def test_L_INFO_2_A32_support_is_known_to_giver_and_receiver_only():
    s = start(game(heroes=HEROES[:3]), {"p1": ["arms", "courage", "speed", "guile"]}, moves=["place m1"] * 3)
    play(s, "support p2 arms,courage")
    p1, p2, p3 = views(s)
    assert p1["seats"]["p2"]["known_in_hand"] == ["arms", "courage"] and p1["moves"][-1] == "support p2 arms,courage"
    assert p3["seats"]["p2"]["known_in_hand"] == [] and p3["moves"][-1] == "support p2 ?,?"
    assert p2["moves"][-1] == "support p2 arms,courage"
    discard = min(map(str, s.legal_moves()))
    play(s, discard)
    p1, p2, p3 = views(s)
    assert p1["moves"][-1] == "discard ?,?" and p2["moves"][-1] == discard
    assert p3["seats"]["p2"]["hand"] == 4


def test_L_INFO_1_public_parts_are_the_same_for_every_seat():
    s = start(game(heroes=HEROES[:3]), {"p1": ["arms", "courage", "speed", "guile"]},
              monsters=["Minotaur", "Harpy", "Gorgon"], moves=["place m1"] * 3)
    play(s, "fight ability courage", "move m2 " + s.to_json()["seats"]["p2"]["hand"][0], "oracle")
    vs = views(s)
    public = ("turn", "to_move", "pending", "normals_entered", "monster_deck", "set_aside_di", "oracle_revealed",
              "draw_pile_size")
    for key in public:
        assert len({repr(v[key]) for v in vs}) == 1, key
    for v in vs:
        assert [(p["as"], p["face"], p["by"]) for p in v["monsters"][0]["played"]] == [("arms", "down", "p1")]
        assert {seat: (e["disc"], e["broken"]) for seat, e in v["seats"].items()} == \
            {"p1": ("m1", True), "p2": ("m2", False), "p3": ("m1", False)}
    assert [v["monsters"][0]["played"][0]["card"] for v in vs] == ["courage", "?", "?"]
    assert vs[0]["moves"][-2] == "move m2 ?" and vs[1]["moves"][-2].startswith("move m2 ") and "?" not in vs[1]["moves"][-2]


def test_L_INFO_4_the_monster_deck_order_is_never_shown():
    v = start(game(), {}, moves=["place m1"]).view(0).to_json()
    assert v["monster_deck"] == 7 and v["monster_deck_holds"] == sorted(v["monster_deck_holds"])


def test_L_INFO_5_no_message_channel():
    g = game()
    for text in ("say I hold arms", "show arms", "hint m2"):
        with pytest.raises(ValueError):
            g.parse_move(text)


def rich_positions(count: int):
    """Positions from random games of missions 5-7 with 3 seats (Oracle, Support,
    chance orders and hidden discards along the way)."""
    return [random_game(make_game("legends", mission=5 + seed % 3, heroes=HEROES[:3]), seed, 30 + 7 * seed)
            for seed in range(count)]


def agrees(view: dict, referee: dict, seat: str):
    """Every card the view names is where the referee has it."""
    assert referee["seats"][seat]["hand"] == view["seats"][seat]["hand"]
    for other, entry in view["seats"].items():
        if other != seat:
            have = Counter(referee["seats"][other]["hand"])
            assert not Counter(entry["known_in_hand"]) - have and len(referee["seats"][other]["hand"]) == entry["hand"]
    pile = []
    for x in view["draw_pile"]:
        pile.extend([None] * x if isinstance(x, int) else [x])
    assert len(pile) == len(referee["draw_pile"])
    assert all(x is None or x == y for x, y in zip(pile, referee["draw_pile"]))
    assert [d["by"] for d in view["discard_pile"]] == [d["by"] for d in referee["discard_pile"]]
    assert all(d["card"] in ("?", r["card"]) for d, r in zip(view["discard_pile"], referee["discard_pile"]))
    for vm, rm in zip(view["monsters"], referee["monsters"]):
        assert all(p["card"] in ("?", q["card"]) and p["as"] == q["as"] for p, q in zip(vm["played"], rm["played"]))


def test_views_never_hold_a_teammates_hidden_card_and_agree_with_the_referee():
    for s in rich_positions(12):
        referee = s.to_json()
        for o, v in enumerate(views(s)):
            agrees(v, referee, s.game.seats[o])
            for other, entry in v["seats"].items():
                if other != v["seat"]:
                    assert isinstance(entry["hand"], int)
            for m in v["monsters"]:
                for p in m["played"]:
                    if p["face"] == "down" and p["by"] != v["seat"]:
                        assert p["card"] == "?"


def test_determinizations_agree_with_every_reveal_and_handover():
    """Thousands of samples: each one's referee picture agrees with all the view knows,
    and its own view is the view itself (the seat cannot tell it from the truth)."""
    samples = 0
    for s in rich_positions(8):
        for o in range(s.game.n):
            view = s.view(o)
            seen = view.to_json()
            for k in range(90):
                sample = view.sample(k)
                assert sorted(sample.t.all_instances()) == list(range(61))
                agrees(seen, sample.to_json(), s.game.seats[o])
                if k % 30 == 0:
                    assert sample.view(o).to_json() == seen
                samples += 1
    assert samples >= 2000


def test_samples_differ_where_the_seat_cannot_see():
    s = rich_positions(3)[2]
    view = s.view(0)
    hands = {tuple(view.sample(k).to_json()["seats"]["p2"]["hand"]) for k in range(40)}
    assert len(hands) > 5
    assert view.sample(7).to_json() == view.sample(7).to_json()  # the same seed, the same sample


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts"])
def test_L_INFO_6_the_same_view_gets_the_same_decision(spec):
    """Two truths the seat cannot tell apart (the real one and a sample of it) get the
    same decision for the same seed."""
    for s in rich_positions(4):
        if s.is_terminal or s.is_chance:
            continue
        o = s.current_seat
        other = s.view(o).sample(99)
        bot = make_bot(spec)
        limits = Limits(iterations=20) if spec == "ismcts" else None
        a = bot.decide(s.view(o), limits, seed=5).move
        b = bot.decide(other.view(o), limits, seed=5).move
        assert a == b and a in s.legal_moves()
