"""legends-record/1: written, read back and replayed to the same state; malformed
records and bad moves refused with a message naming the key, or the index, move and
reason."""

from __future__ import annotations

import copy
import json
import shutil

import pytest

from hzai.core import make_game
from hzai.games.legends.data import DATA_DIR
from hzai.games.legends.record import Record, RecordError
from hzai.rng import SplitMix64
from tests.legends.helpers import game, random_game, record_of

HEROES = ["Perseus", "Atalanta", "Hercules", "Jason", "Achilles"]


@pytest.mark.parametrize("mission, seats", [(1, 1), (5, 2), (6, 3), (7, 4), (10, 5), (12, 2)])
def test_write_read_replay_gives_the_same_state_json(mission, seats):
    for upto in (0, 7, 40, None):
        g = make_game("legends", mission=mission, heroes=HEROES[:seats])
        s = random_game(g, mission * 7 + seats, upto)
        text = json.dumps(Record.of_state(s).to_json())
        again = Record.from_json(json.loads(text)).replay()
        assert again.to_json() == s.to_json()


def test_a_seed_record_deals_and_draws_its_chance_orders():
    g = make_game("legends", mission=6, heroes=HEROES[:3])
    rec = Record(g, seed=11)
    assert rec.to_json()["seed"] == 11 and "setup" not in rec.to_json()
    assert Record.from_json(rec.to_json()).replay().to_json() == g.new_state(11).to_json()
    s = rec.replay()
    rng = SplitMix64(3)
    while not s.is_terminal and len(rec.moves) < 150:  # play on, writing only decisions
        moves = s.legal_moves()
        rec.moves.append(g.move_text(moves[rng.below(len(moves))]))
        s = rec.replay()
        assert not s.is_chance  # the seed draws every order when it is due
    chances = [m for _, m, _ in s.t.history if type(m).__name__ == "ChanceOrder"]
    assert Record.from_json(rec.to_json()).replay().to_json() == s.to_json()
    if chances:
        with pytest.raises(RecordError, match="no chance lines"):
            bad = rec.to_json()
            bad["moves"] = bad["moves"] + ["chance order " + ",".join(chances[0].cards)]
            Record.from_json(bad).replay()


def base_record() -> dict:
    return record_of(game(), {"p1": ["guile", "courage", "speed", "speed"]})


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(colour="red"), "unknown key 'colour'"),
    (lambda r: r.update(seed=3), "both"),
    (lambda r: r.pop("setup"), "neither"),
    (lambda r: r.update(format="hzai-record/1"), "format"),
    (lambda r: r.pop("mission"), "missing key 'mission'"),
    (lambda r: r.pop("moves"), "missing key 'moves'"),
    (lambda r: r.update(mission=13), "mission must be one of"),
    (lambda r: r.update(heroes=["Perseus", "perseus"]), "distinct"),
    (lambda r: r.update(heroes=["Perseus", "Zeus"]), "'Zeus' is not a hero"),
    (lambda r: r.update(difficulty="easy"), "difficulty"),
    (lambda r: r.update(first_player="p9"), "first_player"),
    (lambda r: r.update(variants={"relocation": "free", "speed": 2}), "unknown key 'speed'"),
    (lambda r: r.update(variants={"turn_limit": -1}), "turn_limit"),
    (lambda r: r.update(moves="place m1"), "moves must be a list"),
    (lambda r: r["setup"].update(extra=1), "setup: unknown key 'extra'"),
    (lambda r: r["setup"]["hands"]["p1"].pop(), "must hold 4 cards"),
    (lambda r: r["setup"]["hands"].update(p3=["arms"] * 4), "exactly the keys p1, p2"),
    (lambda r: r["setup"]["draw_pile"].append("di"), "1 di too many"),
    (lambda r: r["setup"]["draw_pile"].pop(), "missing"),
    (lambda r: r["setup"]["draw_pile"].append("sword"), "'sword' is not a card"),
    (lambda r: r["setup"]["monster_deck"].pop(), "each of the 10 monsters exactly once"),
    (lambda r: r["setup"]["monster_deck"].__setitem__(0, "Kraken"), "'Kraken' is not a monster"),
    (lambda r: r.update(data="no-such-file.json"), "cannot be read"),
])
def test_malformed_records_are_refused_naming_the_problem(change, message):
    raw = base_record()
    change(raw)
    with pytest.raises(RecordError, match=message.replace("(", r"\(")):
        Record.from_json(raw).replay()


def test_a_seed_must_be_a_64_bit_whole_number():
    raw = base_record()
    raw.pop("setup")
    for bad in (-1, 2**64, 1.5, True, "7"):
        raw["seed"] = bad
        with pytest.raises(RecordError, match="seed must be"):
            Record.from_json(raw)


@pytest.mark.parametrize("moves, index, reason", [
    (["place m1", "place m9"], 1, "m9 is not a monster in play"),
    (["fight guile"], 0, "must decide place mN"),
    (["place m1", "place m1", "recover 1", "discard strength"], 3, "does not hold strength"),
    (["place m1", "place m1", "recover 1", "discard guile,speed"], 3, "exactly 1 card"),
    (["place m1", "place m1", "oracle", "discard guile"], 3, "discard one of the cards shown"),
    (["place m1", "place m1", "fight guile"], 2, "fit"),
    (["place m1", "place m1", "fight arms"], 2, "holds no arms"),
    (["place m1", "place m1", "recover 3"], 2, "k must keep"),
    (["place m1", "place m1", "hello world"], 2, "unknown move"),
    (["place m1", "place m1", "support p3 guile"], 2, "not a seat"),
])
def test_replay_errors_name_the_index_the_move_and_the_reason(moves, index, reason):
    raw = record_of(game(), {"p1": ["guile", "courage", "speed", "speed"]}, monsters=["Minotaur", "Harpy", "Gorgon"])
    raw["moves"] = moves
    with pytest.raises(RecordError) as caught:
        Record.from_json(raw).replay()
    message = str(caught.value)
    assert message.startswith(f"move {index} {moves[index]!r}: ") and reason in message
    assert caught.value.index == index and "\n" not in message


def test_defaults_may_be_omitted_and_a_relative_data_path_is_the_records_folder(tmp_path):
    raw = base_record()
    for key in ("difficulty", "first_player", "variants", "data"):
        raw.pop(key)
    assert Record.from_json(raw).game.params["relocation"] == "paid"
    shutil.copy(DATA_DIR / "classic.json", tmp_path / "mine.json")
    raw["data"] = "mine.json"
    (tmp_path / "game.json").write_text(json.dumps(raw), encoding="utf-8")
    assert Record.load(tmp_path / "game.json").replay().to_json()["pending"] == "place"


def test_hostile_records_only_ever_raise_record_errors():
    """Random values in every field (wrong types, huge numbers, nesting): the reader and
    the replay answer a RecordError or a state, never anything else."""
    rng = SplitMix64(12)
    junk = [None, True, -1, 0, 2**70, 1.5, "", "x" * 5000, "fight di", [], [None], ["arms"] * 9, {}, {"a": 1},
            [[["deep"]]], "place m1", ["place m1", 3], {"p1": "arms"}]
    paths = [("mission",), ("heroes",), ("difficulty",), ("first_player",), ("variants",), ("variants", "turn_limit"),
             ("variants", "relocation"), ("data",), ("setup",), ("setup", "hands"), ("setup", "hands", "p1"),
             ("setup", "draw_pile"), ("setup", "monster_deck"), ("moves",), ("format",)]
    outcomes = {"error": 0, "ok": 0}
    for _ in range(600):
        raw = record_of(game(), {"p1": ["guile", "courage", "speed", "speed"]}, moves=["place m1"])
        for _ in range(1 + rng.below(2)):
            path = paths[rng.below(len(paths))]
            target = raw
            for key in path[:-1]:
                target = target.get(key) if isinstance(target, dict) else None
            if isinstance(target, dict):
                target[path[-1]] = copy.deepcopy(junk[rng.below(len(junk))])
        try:
            Record.from_json(json.loads(json.dumps(raw))).replay()
            outcomes["ok"] += 1
        except RecordError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 600
            outcomes["error"] += 1
    assert outcomes["error"] > 300
