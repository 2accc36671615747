"""The Legends twin against the reference engine, move by move (hzai.games.legends.native.check):
every mission, seat count and difficulty, with random heroes, first players, relocation
rules and short turn limits; and bad input refused by name."""

from collections import Counter

import pytest

from hzai import _native
from hzai.games.legends.game import LegendsGame
from hzai.games.legends.native.twin import game_spec, native_state, table_dump
from hzai.games.legends.native.check import Mismatch, cells, make_game, play, run

GAMES = 4 * len(cells())  # 720 games: every (mission, seats, difficulty) four times


def test_random_games_of_every_cell_agree_step_by_step():
    seen = Counter()
    passed, failures = run(GAMES, seed=50_000, seen=seen)
    assert failures == [] and passed == GAMES
    # every kind of decision and of end was met, chance orders (missions 6-7) and mission
    # 5's forced Recover included
    for pending in ("place", "action", "recover_discard", "support_discard", "oracle_return", "forced_recover",
                    "chance"):
        assert seen[pending] > 0, pending
    for reason in ("final_defeated", "exhausted", "turn_limit"):
        assert seen[reason] > 0, reason


def test_the_driver_notices_a_difference(monkeypatch):
    game = make_game(6, 3, "human", 9)
    state = game.new_state(9)
    twin = native_state(state)
    twin.apply(twin.legal_actions()[0])  # one engine a move ahead
    assert twin.dump() != table_dump(state.t)
    # a twin started from another deal is caught at once
    import hzai.games.legends.native.check as check

    monkeypatch.setattr(check, "native_state", lambda s: native_state(s.game.new_state(10)))
    with pytest.raises(Mismatch, match="positions differ"):
        play(game, 9)


def test_illegal_actions_and_chance_outcomes_are_refused():
    game = LegendsGame(mission=6, heroes=["Perseus", "Jason"])
    twin = native_state(game.new_state(4))
    before = twin.dump()
    for bad in (-1, game.num_actions, 10**9, game.action_of(game.parse_move("oracle"))):
        with pytest.raises((ValueError, TypeError)):
            twin.apply(bad)
    assert twin.dump() == before


def test_bad_dumps_and_specs_name_the_problem():
    game = LegendsGame(mission=2, heroes=["Perseus", "Jason", "Hercules"])
    dump = table_dump(game.new_state(1).t)
    for key, value, message in (("kind", [99] * 61, "kind out of range"), ("hands", [[0], [0], []], "two places"),
                                ("draw", list(range(200)), "too long"), ("pending", "sleep", "unknown pending"),
                                ("disc", [7, None, None], "disc out of range"), ("turn_seat", 9, "turn_seat")):
        with pytest.raises(ValueError, match=message):
            game.search.native.state({**dump, key: value})
    with pytest.raises(ValueError, match="missing key"):
        game.search.native.state({k: v for k, v in dump.items() if k != "draw"})
    with pytest.raises(ValueError, match="chance order of 1 to 4 cards"):
        game.search.native.state({**dump, "pending": "chance", "actor": 0, "hands": [[], *dump["hands"][1:]],
                           "draw": dump["draw"] + dump["hands"][0]})
    with pytest.raises(ValueError, match="Oracle return with no card"):
        game.search.native.state({**dump, "pending": "oracle_return", "actor": 0})
    spec = game_spec(game)
    for key, value, message in (("attrs", 40, "attributes"), ("seats", 9, "seats"),
                                ("monsters", [[0, 1]] * 40, "monster cards"), ("sizes", [5, 8, 400], "sizes"),
                                ("deck", [0] * 500, "cards"), ("bases", [0] * 12, "increasing"),
                                ("triggers", {1: (1, 10**6)}, "at most 16 monsters")):
        with pytest.raises(ValueError, match=message):
            _native.LegendsGame({**spec, key: value})


def test_returns_are_the_team_result_for_every_seat():
    game = LegendsGame(mission=1, heroes=["Perseus", "Jason", "Hercules", "Atalanta"])
    twin = native_state(game.new_state(2))
    results = set()
    for seed in range(40):
        end = twin.random_playout(seed)
        r = end.returns()
        assert len(r) == 4 and len(set(r)) == 1
        results.add(r[0])
        assert end.dump()["result"] == ("won" if r[0] == 1.0 else "lost")
    assert results <= {0.0, 1.0}


def test_batch_playouts_do_not_depend_on_threads():
    game = LegendsGame(mission=4, heroes=["Perseus", "Jason"])
    twin = native_state(game.new_state(5))
    one = _native.legends_random_playouts(twin, 300, 11, 1)
    two = _native.legends_random_playouts(twin, 300, 11, 2)
    assert one == two and len(one[0]) == 300
    # game i is the single playout with seed + i
    end = twin.random_playout(11 + 7)
    assert one[1][7] == end.dump()["turn"] and one[0][7] == (end.dump()["result"] == "won")
