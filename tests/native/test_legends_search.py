"""The generic native search on the Legends twin: `make_bot("ismcts")` and "pimc" on a
Legends view run in C++ (no Python callback), deterministically for a seed and budget,
on one or two threads, and decide from the seat's view only."""

from hzai import _native
from hzai.core.limits import Limits
from hzai.games.legends.game import LegendsGame
from hzai.rng import SplitMix64
from hzai.search import make_bot
from hzai.search.ismcts import new_pimc, new_tree

HEROES = ["Perseus", "Jason", "Achilles", "Hercules", "Atalanta"]


def midgame(mission=2, seats=3, steps=14, seed=4):
    game = LegendsGame(mission=mission, heroes=HEROES[:seats])
    state = game.new_state(seed)
    rng = SplitMix64(seed)
    for _ in range(steps):
        options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
        state.apply(options[rng.below(len(options))])
    assert state.current_seat is not None
    return state


def stats(view, seed, iterations=600, threads=1):
    return make_bot("ismcts").decide(view, Limits(iterations=iterations, threads=threads), seed=seed)


def test_the_search_of_a_legends_view_is_the_native_twin():
    view = midgame().view(midgame().current_seat)
    assert isinstance(new_tree(view, 1), _native.LegendsSearch)
    assert isinstance(new_tree(view, 1, threads=2), _native.LegendsSearch)
    assert isinstance(new_pimc(view, 1, 4), _native.LegendsPimc)


def test_same_seed_and_budget_same_answer_on_one_and_two_threads():
    state = midgame()
    view = state.view(state.current_seat)
    for threads in (1, 2):
        a, b = stats(view, 7, threads=threads), stats(view, 7, threads=threads)
        assert a.move == b.move and a.iterations == b.iterations == 600
        assert [(m.move, m.visits) for m in a.analysis.moves] == [(m.move, m.visits) for m in b.analysis.moves]
        assert a.move in state.legal_moves()
    tree = new_tree(view, 3)
    tree.run(400)
    assert sum(v for _, v, _, _ in tree.root_stats()) == 400
    legal = sorted(state.game.action_of(m) for m in state.legal_moves())
    assert sorted(a for a, _, _, _ in tree.root_stats()) == legal


def test_pimc_plays_a_legal_move_deterministically():
    state = midgame(mission=6, seats=2, steps=10, seed=2)
    view = state.view(state.current_seat)
    bot = make_bot("pimc")
    a = bot.decide(view, Limits(iterations=320), seed=5)
    assert a.move == bot.decide(view, Limits(iterations=320), seed=5).move and a.move in state.legal_moves()


def test_histories_the_seat_cannot_tell_apart_give_the_same_answer():
    """Two deals equal for p1 (its hand, every count) but with the teammates' hands and
    the pile dealt differently: p1's search answers the same for the same seed."""
    game = LegendsGame(mission=1, heroes=HEROES[:3])
    hands, pile, monsters = game.rules.shuffled_deal(game, 12)
    others = hands[1] + hands[2] + pile
    shuffled = list(others)
    SplitMix64(99).shuffle(shuffled)
    assert shuffled != others
    one = game.state_from_deal(hands, pile, monsters)
    two = game.state_from_deal([hands[0], shuffled[:4], shuffled[4:8]], shuffled[8:], monsters)
    assert one.t.kind != two.t.kind and one.t.kind[:4] == two.t.kind[:4]  # p1 holds the same cards
    v1, v2 = one.view(0), two.view(0)
    a, b = stats(v1, 21, iterations=500), stats(v2, 21, iterations=500)
    assert a.move == b.move
    assert [(m.move, m.visits, m.value) for m in a.analysis.moves] == [(m.move, m.visits, m.value)
                                                                       for m in b.analysis.moves]


def test_the_search_values_are_team_results():
    state = midgame(mission=1, seats=4, steps=20, seed=8)
    tree = new_tree(state.view(state.current_seat), 5)
    tree.run(500)
    for _, visits, value, _ in tree.root_stats():
        assert 0.0 <= value <= visits
