"""The light playout policy of the Legends twin (hzai/games/legends/native/legends_light.cpp) against
the heuristic it ports (hzai/games/legends/heuristic.py): at every decision of random
and greedy games of every mission, seat count and difficulty, the same score for every
legal move and so the same set of tied best moves; the native step plays one of them.
And Legends is searched with it by default, Hera and Zeus as before."""

from collections import Counter

import pytest

from hzai import _native
from hzai.core.limits import Limits
from hzai.games.legends.game import LegendsGame
from hzai.games.legends.heuristic import WEIGHTS, best_moves
from hzai.games.legends.native.twin import game_spec, native_state, table_dump
from hzai.games.legends.native.check import _Whole, cells, make_game, play
from hzai.rng import SplitMix64
from hzai.search import make_bot


def _compare(counts: Counter, every_view: int):
    """An on_decision hook: the twin's light scores equal the heuristic's, move for move."""

    def check(state, twin, actions):
        game = state.game
        moves = [game.move_of(a) for a in actions]
        native = dict(twin.light_scores())
        assert sorted(native) == actions
        got = [native[a] for a in actions]
        counts["states"] += 1
        # the heuristic on the seat's own view now and then (it must read the same), else
        # on the whole state (the heuristic reads only what the seat may know)
        if counts["states"] % every_view == 0:
            view, counts["views"] = state.view(state.current_seat), counts["views"] + 1
        else:
            view = _Whole(state)
        want = game.search.heuristic_scores(view, moves)
        where = f"{game.params} turn {state.t.turn} pending {state.t.pending}"
        assert got == want, where
        best = best_moves(want)
        counts["ties"] += len(best) > 1
        # the native step plays one of the tied best moves
        for seed in range(2):
            stepped = twin.clone()
            stepped.light_step(seed)
            after = []
            for i in best:
                ref = state.clone()
                ref.apply(moves[i])
                after.append(table_dump(ref.t))
            assert stepped.dump() in after, where

    return check


def test_the_light_step_scores_every_move_as_the_heuristic_does():
    counts = Counter()
    check = _compare(counts, every_view=25)
    for i, (mission, seats, difficulty) in enumerate(cells()):  # 180 cells: 12 missions x 1-5 seats x 3
        seed = 70_000 + i
        play(make_game(mission, seats, difficulty, seed), seed, greedy=i % 2 == 0, on_decision=check)
    assert counts["states"] >= 5000 and counts["views"] >= 200 and counts["ties"] >= 100


def test_the_weights_come_from_the_heuristic_and_are_checked():
    game = LegendsGame(mission=2, heroes=["Perseus", "Jason"])
    spec = game_spec(game)
    assert spec["weights"] == WEIGHTS and sorted(_native.LEGENDS_WEIGHTS) == sorted(WEIGHTS)
    for weights, message in (({k: v for k, v in WEIGHTS.items() if k != "fill"}, "missing fill"),
                             ({**WEIGHTS, "bogus": 1.0}, "unknown name"),
                             ({**WEIGHTS, "order_div": 0.0}, "order_div divides"),
                             ({**WEIGHTS, "slay": float("nan")}, "slay must be finite")):
        with pytest.raises(ValueError, match=message):
            _native.LegendsGame({**spec, "weights": weights})
    # a changed weight changes the native choice: the twin reads it, it restates none
    state = game.new_state(3)
    twin = native_state(state)
    while twin.dump()["pending"] != "action":
        twin.light_step(0)
    other = _native.LegendsGame({**spec, "weights": {**WEIGHTS, "oracle": 1000.0}}).state(twin.dump())
    scores = dict(other.light_scores())
    oracle = game.action_of(game.parse_move("oracle"))
    assert scores[oracle] == 1000.0 and dict(twin.light_scores())[oracle] == WEIGHTS["oracle"]


def test_light_playouts_win_missions_random_ones_never_do():
    game = LegendsGame(mission=2, heroes=["Perseus", "Atalanta"])
    twin = native_state(game.new_state(5))
    light_won, light_turns = _native.legends_light_playouts(twin, 200, 1, 1)
    random_won, _ = _native.legends_random_playouts(twin, 200, 1, 1)
    assert sum(random_won) == 0 and sum(light_won) > 20
    # deterministic, thread-independent, and game i is the single playout with seed + i
    assert _native.legends_light_playouts(twin, 200, 1, 2) == (light_won, light_turns)
    end = twin.light_playout(1 + 9)
    assert end.dump()["turn"] == light_turns[9] and (end.dump()["result"] == "won") == bool(light_won[9])


def _midgame(game, seed=4, steps=12):
    state = game.new_state(seed)
    rng = SplitMix64(seed)
    for _ in range(steps):
        options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
        state.apply(options[rng.below(len(options))])
    return state.view(state.current_seat)


def _answer(view, spec):
    result = make_bot(spec).decide(view, Limits(iterations=300), seed=9)
    return [(m.move, m.visits, m.value) for m in result.analysis.moves]


def test_legends_is_searched_with_the_light_policy_by_default():
    game = LegendsGame(mission=2, heroes=["Perseus", "Atalanta"])
    assert game.search.default_playout == "light"
    view = _midgame(game)
    default = _answer(view, "ismcts")
    assert default == _answer(view, "ismcts:playout=light")
    assert default != _answer(view, "ismcts:playout=random")
    assert sum(v for _, n, v in default) > 0  # some playouts are won: the values tell moves apart


def test_hera_and_zeus_keeps_random_playouts_by_default():
    from hzai.core.registry import make_game

    game = make_game("hera_zeus")
    assert game.search.default_playout == "random"
    view = game.new_state(3).view(0)
    # the unguided search (the learned one's leaves are its value net's, no playouts)
    assert _answer(view, "ismcts-v2") == _answer(view, "ismcts-v2:playout=random")
    assert _answer(view, "ismcts-v2") != _answer(view, "ismcts-v2:playout=light")


def test_with_light_playouts_the_tree_widens_in_the_policy_order():
    """A node visited v times offers its 1 + floor(v^0.5 / 4) best moves by the light
    scores (ties: lower id), best first, a widened root 1 + floor(v^0.5 / 8) (or as its
    option root_widen says): four iterations all go to the heuristic's move; with random
    playouts every move is expanded first. The root is widened only for a bot's move
    (widen_root); an analysis searches every legal move there."""
    from hzai.search.ismcts import new_tree

    game = LegendsGame(mission=1, heroes=["Perseus", "Jason", "Atalanta"])
    for seed in range(6):
        view = _midgame(game, seed=seed, steps=10 + seed)
        state = view.shell()
        moves = state.legal_moves()
        scores = game.search.heuristic_scores(view, moves)
        first = min(game.action_of(moves[i]) for i in best_moves(scores))
        tree = new_tree(view, seed, widen_root=True)  # the game's default playout (light); a bot's move
        tree.run(4)
        assert [a for a, _, _, _ in tree.root_stats()] == [first]
        ranked = sorted(range(len(moves)), key=lambda i: (-scores[i], game.action_of(moves[i])))
        best = [game.action_of(moves[i]) for i in ranked]
        tree.run(61)  # the 65th iteration finds 64 visits: 1 + floor(8 / 8) = 2 moves, the two best
        assert sorted(a for a, _, _, _ in tree.root_stats()) == sorted(best[:2])
        tree.run(192)  # 256 visits: 1 + floor(16 / 8) = 3
        assert sorted(a for a, _, _, _ in tree.root_stats()) == sorted(best[:3])
        paced = new_tree(view, seed, widen_root=True, root_widen=0.25)  # the pace below the root
        paced.run(65)
        assert sorted(a for a, _, _, _ in paced.root_stats()) == sorted(best[:3])
        if len(moves) > 4:
            wide = new_tree(view, seed, playout="random")
            wide.run(4)
            assert len(wide.root_stats()) == 4
        # an analysis (no widening at the root) expands every legal move there
        full = new_tree(view, seed)
        full.run(len(moves))
        assert sorted(a for a, _, _, _ in full.root_stats()) == sorted(game.action_of(m) for m in moves)


def test_the_light_bot_plays_a_best_scored_move_at_every_decision():
    """The `light` bot (the arena's and LightBot) plays the light policy's move, one of the
    heuristic's best-scored moves, not a uniformly drawn legal one (it once did)."""
    from hzai.rng import mix_seed
    from hzai.search.arena import referee_step

    game = LegendsGame(mission=1, heroes=["Perseus", "Atalanta", "Hercules", "Jason"])
    bot = make_bot("light")
    state = game.new_state(5000)
    referee = SplitMix64(5000 ^ 0xA7E4A)
    decisions = 0
    while not state.is_terminal and decisions < 60:
        if state.is_chance:
            referee_step(state, referee)
            continue
        view = state.view(state.current_seat)
        moves = view.legal_moves()
        best = {moves[i] for i in best_moves(game.search.heuristic_scores(view, moves))}
        move = bot.decide(view, None, mix_seed(5000, decisions)).move
        assert move in best, f"decision {decisions}: {move} is not among the best {sorted(map(str, best))}"
        state.apply(move)
        decisions += 1
    assert decisions == 60
