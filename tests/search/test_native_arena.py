"""The native arena (hzai/native/search/arena.hpp) against the Python arena loop: the same
games, action for action, for the same bots and seeds; and each seat deciding from its
own view only."""

from __future__ import annotations

import pytest

from hzai.core import Limits, make_game
from hzai.games.hera_zeus.native.state import NativeState
from hzai.search.arena import native_arena, native_results, play_game, run_arena

pytest.importorskip("hzai._native")

SEED = 900

# (bot A, bot B, iterations, games): random, light and small searches of every kind
MATCHES = [
    ("random", "random", 1, 16),
    ("light", "random", 1, 6),
    ("ismcts:infer=0", "random", 24, 4),
    ("ismcts:playout=light,c=1.2,infer=0", "light", 16, 3),
    ("pimc:worlds=3", "ismcts:infer=0", 24, 3),
]


def _compare(game_name: str, params: dict | None, spec_a: str, spec_b: str, iterations: int, games: int) -> None:
    game = make_game(game_name, **(params or {}))
    limits = Limits(iterations=iterations)
    bots = native_arena(game, [spec_a, spec_b], limits)
    assert bots is not None, "every bot here is a native bot"
    native = native_results(game, bots, list(range(games)), SEED, threads=2, keep_actions=True)
    for i, got in enumerate(native):
        want = play_game(game_name, params, spec_a, spec_b, i, limits, SEED, keep_actions=True)
        assert got is not None, f"game {i} was not played through natively"
        assert got.actions == want.actions, f"game {i}: the actions differ"
        assert (got.winner, got.moves, got.turns, got.reason, got.seating, got.decisions) == (
            want.winner, want.moves, want.turns, want.reason, want.seating, want.decisions)


@pytest.mark.parametrize("spec_a,spec_b,iterations,games", MATCHES)
def test_hera_zeus_games_equal_the_python_loop(spec_a, spec_b, iterations, games):
    _compare("hera_zeus", None, spec_a, spec_b, iterations, games)


def test_hera_zeus_variants_equal_the_python_loop():
    _compare("hera_zeus", {"first_player": "zeus", "turn_limit": 12}, "random", "light", 1, 6)


def test_run_arena_native_equals_python():
    limits = Limits(iterations=16)
    fast = run_arena("ismcts:infer=0", "random", 4, limits, seed=3, jobs=1)
    slow = run_arena("ismcts:infer=0", "random", 4, limits, seed=3, jobs=1, native=False)
    assert [(r.winner, r.moves, r.turns, r.reason) for r in fast.results] == [
        (r.winner, r.moves, r.turns, r.reason) for r in slow.results]
    assert (fast.a_wins, fast.b_wins, fast.draws) == (slow.a_wins, slow.b_wins, slow.draws)


def test_native_results_do_not_depend_on_threads():
    game = make_game("hera_zeus")
    bots = native_arena(game, ["ismcts:infer=0", "light"], Limits(iterations=16))
    one = native_results(game, bots, list(range(6)), 5, threads=1, keep_actions=True)
    two = native_results(game, bots, list(range(6)), 5, threads=2, keep_actions=True)
    assert [r.actions for r in one] == [r.actions for r in two]


def test_python_only_bots_and_time_budgets_stay_in_python():
    game = make_game("hera_zeus")
    assert native_arena(game, ["heuristic", "random"], Limits(iterations=10)) is None
    assert native_arena(game, ["ismcts:infer=0", "random"], Limits(millis=50)) is None
    assert native_arena(game, ["random", "light"], Limits(millis=50)) is not None  # no budget to spend


@pytest.mark.parametrize("spec", ["ismcts-v2", "ismcts:tree=multi", "ismcts:prior=1", "ismcts:infer=1", "level:3",
                                  "level:8", "ismcts:tree=multi,infer=1"])
def test_searches_the_native_arena_does_not_play_fall_back_to_python(spec):
    """The native arena plays the plain single-observer search only: a bot with another
    tree, a prior, inference (plain `ismcts-v2` infers on Hera and Zeus, the game's
    default_infer) or a level is played by the Python loop, and a game there
    is the one that loop plays (the same as run_arena with native=False)."""
    game = make_game("hera_zeus")
    limits = Limits(iterations=12)
    assert native_arena(game, [spec, "random"], limits) is None
    assert native_arena(game, ["ismcts:c=0.9,infer=0", "random"], limits) is not None
    fast = run_arena(spec, "random", 1, limits, seed=4, jobs=1)
    slow = run_arena(spec, "random", 1, limits, seed=4, jobs=1, native=False)
    assert [(r.winner, r.moves, r.reason) for r in fast.results] == [(r.winner, r.moves, r.reason) for r in slow.results]


def _hidden_swap(state, k: int):
    """`state` with the k-th pair of Zeus's cards swapped between hand and deck (names
    differ, no hostage moved): only Zeus can tell the two deals apart."""
    cards = state.deck.cards
    hostage = {i for i in state.hands[1] if cards[i].type.kind == "hostage"}
    pairs = [(h, d) for h in state.hands[1] if h not in hostage for d in state.decks[1]
             if cards[d].name != cards[h].name]
    h, d = pairs[k % len(pairs)]
    other = state.copy()
    other.hands[1] = sorted([x for x in other.hands[1] if x != h] + [d])
    other.decks[1] = [h if x == d else x for x in other.decks[1]]
    return other


def test_a_seat_does_not_see_what_it_cannot_know():
    """Hera's first decision is the same for deals that differ only in Zeus's hidden
    cards; Zeus, who sees them, decides differently on some of them."""
    from hzai.search.ismcts import shipped_guide

    game = make_game("hera_zeus")
    bots = native_arena(game, ["ismcts:infer=0", "ismcts:infer=0"], Limits(iterations=200))
    assert all(b.model == 0 for b in bots)
    hera_same, zeus_differs = 0, 0
    for seed in range(6):
        state = game.new_state(seed)
        changed = _hidden_swap(state, seed)
        starts = [NativeState.from_state(s).core for s in (state, changed)]
        assert starts[0].get_raw() != starts[1].get_raw()
        # the learned default, guided by the shipped model (native_bot gives it model 0)
        played = game.search.native.arena(bots, starts, [seed, seed], [[0, 1], [0, 1]], 1, True,
                                   models=[shipped_guide(game).model])
        (first, _), (second, _) = played
        hera_same += first.actions[0] == second.actions[0]
        zeus_at = [next(i for i, a in enumerate(o.actions) if game.move_text(game.move_of(a)).startswith("setup")
                        and i > 0) for o in (first, second)]
        zeus_differs += first.actions[zeus_at[0]] != second.actions[zeus_at[1]]
    assert hera_same == 6
    assert zeus_differs > 0


def test_bad_arena_input_is_a_value_error():
    from hzai import _native

    game = make_game("hera_zeus")
    start = game.search.native_start(1)
    with pytest.raises(ValueError, match="worlds"):
        _native.BotSpec(3, 100, worlds=0)
    with pytest.raises(ValueError, match="kind"):
        _native.BotSpec(9)
    with pytest.raises(ValueError, match="seating"):
        game.search.native.arena([_native.BotSpec(0)], [start], [1], [[0, 1]], 1, False)
    with pytest.raises(ValueError, match="one entry per game"):
        game.search.native.arena([_native.BotSpec(0)], [start], [1, 2], [[0, 0]], 1, False)
    with pytest.raises(ValueError, match="threads"):
        game.search.native.arena([_native.BotSpec(0)], [start], [1], [[0, 0]], 0, False)


# ----- Legends of Hellas: team games ---------------------------------------------------
LEGENDS = [  # (params, bot, iterations, games): chance orders in missions 6 and 7
    ({"mission": 1, "heroes": ["Perseus", "Atalanta"]}, "light", 1, 6),
    ({"mission": 6, "heroes": ["Perseus", "Jason", "Achilles"]}, "light", 1, 6),
    ({"mission": 7, "heroes": ["Perseus", "Jason"]}, "light", 1, 6),
    ({"mission": 1, "heroes": ["Perseus", "Atalanta"]}, "ismcts", 16, 2),
    ({"mission": 6, "heroes": ["Perseus", "Jason", "Achilles"]}, "ismcts:playout=light", 12, 2),
    ({"mission": 7, "heroes": ["Perseus", "Jason"]}, "pimc:worlds=2", 12, 2),
    # the default search of Legends: light playouts (Game.default_playout), the root widened
    ({"mission": 6, "heroes": ["Perseus", "Jason", "Achilles"]}, "ismcts:c=0.7", 12, 2),
    # the tree of a seat's own decisions, teammates' moves in it the light policy's
    ({"mission": 1, "heroes": ["Perseus", "Atalanta", "Hercules", "Jason"]}, "ismcts:own_only=1", 16, 2),
    ({"mission": 3, "heroes": ["Perseus", "Atalanta", "Hercules", "Jason"]}, "ismcts:own_only=0", 16, 2),
    ({"mission": 7, "heroes": ["Perseus", "Jason"]}, "ismcts:own_only=1,playout=random", 12, 2),
]


@pytest.mark.parametrize("params,spec,iterations,games", LEGENDS)
def test_legends_team_games_equal_the_python_loop(params, spec, iterations, games):
    from hzai.search.arena import native_team_results, play_team_game

    game = make_game("legends", **params)
    limits = Limits(iterations=iterations)
    bots = native_arena(game, [spec], limits)
    assert bots is not None
    native = native_team_results(game, bots[0], list(range(games)), SEED, threads=2, keep_actions=True)
    chance = 0
    for i, got in enumerate(native):
        want = play_team_game("legends", params, spec, i, limits, SEED, keep_actions=True)
        assert got is not None, f"game {i} was not played through natively"
        assert got.actions == want.actions, f"game {i}: the actions differ"
        assert (got.won, got.moves, got.turns, got.reason) == (want.won, want.moves, want.turns, want.reason)
        chance += len(got.actions) - got.moves
    if params["mission"] in (6, 7) and spec == "light":
        assert chance > 0, "these games should meet the missions' chance orders"


def test_run_team_native_equals_python():
    from hzai.search.arena import run_team

    params = {"mission": 1, "heroes": ["Perseus", "Atalanta"]}
    fast = run_team("light", 4, Limits(iterations=1), seed=2, params=params, jobs=2)
    slow = run_team("light", 4, Limits(iterations=1), seed=2, params=params, native=False)
    assert [(r.won, r.moves, r.turns, r.reason) for r in fast.results] == [
        (r.won, r.moves, r.turns, r.reason) for r in slow.results]


def test_legends_random_bot_stays_in_python():
    game = make_game("legends", mission=1, heroes=["Perseus", "Atalanta"])
    assert native_arena(game, ["random"], Limits(iterations=1)) is None
    from hzai import _native

    with pytest.raises(ValueError, match="random bot"):
        game.search.native.arena([_native.BotSpec(0)], [game.search.native_start(1)], [1], [[0, 0]], 1, False)


def _legends_swap(state, k: int):
    """The twin's start of `state` with the k-th pair of cards swapped between seat 2's
    hand and the draw pile (kinds differ): seat 1 cannot tell the two apart."""
    from hzai.games.legends.native.twin import table_dump

    d = table_dump(state.t)
    kind = d["kind"]
    pairs = [(h, p) for h in d["hands"][1] for p in d["draw"] if kind[h] != kind[p]]
    h, p = pairs[(7 * k) % len(pairs)]
    d["hands"][1] = [p if x == h else x for x in d["hands"][1]]
    d["draw"] = [h if x == p else x for x in d["draw"]]
    return state.game.search.native.state(d)


@pytest.mark.parametrize("spec", ["ismcts", "ismcts:own_only=1"])
def test_a_legends_seat_does_not_see_a_teammate_s_hand(spec):
    """Seat 1's first decision is the same for deals that differ only in seat 2's hand;
    seat 2, who holds it, decides differently on some of them."""
    from hzai.games.legends.native.twin import native_state
    from hzai.search.arena import text_ranks
    from hzai.search.ismcts import shipped_guide

    game = make_game("legends", mission=1, heroes=["Perseus", "Atalanta"])
    bots = native_arena(game, [spec], Limits(iterations=300))
    models = [shipped_guide(game).model]  # ismcts plays Legends with its team's model
    first_same, second_differs = 0, 0
    for seed in range(6):
        state = game.new_state(seed)
        starts = [native_state(state), _legends_swap(state, seed)]
        assert starts[0].dump() != starts[1].dump()
        (a, _), (b, _) = game.search.native.arena(bots, starts, [seed, seed], [[0, 0], [0, 0]], 1, True, text_ranks(game),
                                           models=models)
        first_same += a.actions[0] == b.actions[0]
        second_differs += a.actions[:4] != b.actions[:4]
    assert first_same == 6
    assert second_differs > 0
