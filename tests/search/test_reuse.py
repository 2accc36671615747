"""Tree reuse between a seat's consecutive decisions (ismcts:reuse=1, `reroot` in
hzai/native/search/ismcts.hpp and mo_ismcts.hpp) and the reused visits credited toward
the budget (credit=1): when a tree is kept and when a fresh one is built, what the kept
root holds, reproducibility, no peeking, and bad option values."""

from __future__ import annotations

import pytest

from hzai.core import make_game
from hzai.games.hera_zeus.belief import view_of
from hzai.rng import SplitMix64, mix_seed
from hzai.search import BotError, Limits, make_bot
from hzai.search.arena import native_bot, run_arena
from hzai.search.ismcts import credited, new_tree, search_view

GAMES = [("hera_zeus", {}), ("legends", {"mission": 1, "heroes": ["Perseus", "Atalanta"]})]


def _to_decision(game, state, rng) -> bool:
    """Chance results drawn until a seat decides; False at the end of the game."""
    while not state.is_terminal and state.current_seat is None:
        state.apply(game.search.draw_chance(state, rng))
    return not state.is_terminal


def _play(game, spec: str, iterations: int, seed: int, decisions: int = 60, threads: int = 1):
    """A game of `spec` bots, one object a seat, for `decisions` decisions. Yields, per
    decision: (seat, reused visits, whether the seat's previous decision came right
    before it with nothing in between, the seat's kept tree's visits of the chosen move
    before this decision (None: none kept), the result)."""
    state, rng = game.new_state(seed), SplitMix64(seed)
    bots = [make_bot(spec) for _ in game.seats]
    last = [None] * len(game.seats)  # the history length right after each seat's last move
    chosen_visits = [None] * len(game.seats)
    for n in range(decisions):
        if not _to_decision(game, state, rng):
            return
        seat = state.current_seat
        view = state.view(seat)
        follows = last[seat] is not None and view.history_mark()[0] == last[seat]
        before = chosen_visits[seat]
        result = bots[seat].decide(view, Limits(iterations=iterations, threads=threads), seed=mix_seed(seed, n))
        yield seat, bots[seat].reused_visits, follows, before, result
        kept = getattr(bots[seat], "_kept", None)
        chosen_visits[seat] = None if kept is None else {a: v for a, v, *_ in kept.search.root_stats()}.get(kept.action)
        state.apply(result.move)
        last[seat] = view.history_mark()[0] + 1
        for other in range(len(game.seats)):
            if other != seat:
                chosen_visits[other] = None


@pytest.mark.parametrize("tree", ["single", "multi"])
@pytest.mark.parametrize("name,params", GAMES)
def test_a_tree_is_kept_exactly_when_the_seat_decides_again_right_after_its_own_move(name, params, tree):
    """Right after its own move the seat's new root is the chosen move's child: its
    visits before are the reused root's, and the new decision's root moves hold them
    plus the new iterations. After anything else (another seat moved, a chance result)
    the tree is fresh."""
    game = make_game(name, **params)
    kept = fresh = 0
    for seed in (1, 2):
        for seat, reused, follows, before, result in _play(game, f"ismcts:reuse=1,tree={tree}", 120, seed):
            visits = sum(m.visits for m in result.analysis.moves)
            if follows:
                # the chosen child's visits, less the one that made it and those of the dropped moves
                assert 0 <= reused < before
                assert visits == reused + 120  # the kept root moves' visits and the new iterations, nothing else
                assert result.analysis.iterations == 120
                kept += 1
            else:
                assert reused == 0
                assert visits == 120
                fresh += 1
    assert kept >= 5 and fresh >= 5


@pytest.mark.parametrize("name,params", GAMES)
def test_the_root_visits_are_the_kept_moves_visits_plus_the_new_iterations(name, params):
    """Native `reroot` directly: the new root's visits are those of the root moves it
    keeps (a dropped move's are not reused: credit and the root's widening count
    them), the iteration count starts again, and the new iterations each add one visit."""
    game = make_game(name, **params)
    state, rng = game.new_state(3), SplitMix64(3)
    rerooted = 0
    for _ in range(80):
        if not _to_decision(game, state, rng):
            break
        seat = state.current_seat
        view = state.view(seat)
        search = new_tree(view, 5)
        search.run(300, -1.0)
        assert search.root_visits == 300
        stats = {a: v for a, v, _, _ in search.root_stats()}
        action = max(stats, key=stats.get)
        state.apply(game.move_of(action))
        if state.current_seat == seat and state.view(seat).history_mark()[0] == view.history_mark()[0] + 1:
            after = state.view(seat)
            search.reroot(action, search_view(after), 9)
            kept = search.root_visits
            assert kept == sum(v for _, v, *_ in search.root_stats()) and search.iterations == 0
            assert kept <= stats[action] - 1  # at most the child's visits but the one that made it
            search.run(50, -1.0)
            assert search.root_visits == kept + 50 and search.iterations == 50
            assert sum(v for _, v, *_ in search.root_stats()) == kept + 50
            legal = set(after.legal_actions())
            assert {a for a, *_ in search.root_stats()} <= legal  # a move not legal now is never offered
            rerooted += 1
    assert rerooted >= 3


@pytest.mark.parametrize("name,params", GAMES)
def test_multi_observer_reroot_keeps_the_moves_another_seat_sees_hidden(name, params):
    """tree=multi: another seat's tree keys the searching seat's moves by what it sees
    of them, ids that are not action ids (a hidden card play), so the legality filter of
    the searching seat's root must not touch it. Every iteration through the kept
    child's moves in the searching seat's tree also went through the other tree's kept
    node, so that tree keeps at least as many root visits; the case where a follow-up
    move is hidden from it is met."""
    game = make_game(name, **params)
    state, rng = game.new_state(3), SplitMix64(3)
    rerooted = hidden = 0
    for _ in range(120):
        if not _to_decision(game, state, rng):
            break
        seat = state.current_seat
        view = state.view(seat)
        search = new_tree(view, 5, tree="multi")
        search.run(300, -1.0)
        stats = {a: v for a, v, _, _ in search.root_stats()}
        action = max(stats, key=stats.get)
        state.apply(game.move_of(action))
        if state.current_seat == seat and state.view(seat).history_mark()[0] == view.history_mark()[0] + 1:
            search.reroot(action, search_view(state.view(seat)), 9)
            own = search.tree_visits(seat)
            assert own == search.root_visits == sum(v for _, v, *_ in search.root_stats())
            for other in range(len(game.seats)):
                if other != seat:
                    assert search.tree_visits(other) >= own
                    hidden += any(game.observation(state, a, other) != a for a, *_ in search.root_stats())
            rerooted += 1
    assert rerooted >= 3 and hidden >= 1


def test_a_kept_tree_is_bounded_over_a_long_run_of_one_seats_decisions(monkeypatch):
    """A solo Legends hero decides the whole game in one run of consecutive decisions,
    each a reuse candidate. A kept search over MAX_KEPT_NODES nodes is built afresh
    instead, so no tree ever holds more than that plus one budget's nodes (a
    single-observer iteration adds at most one); without the cap the same searches are
    reused."""
    import hzai.search.ismcts as ismcts

    game = make_game("legends", mission=1, heroes=["Perseus"])
    cap, runs = 120, []
    for limit in (10**9, cap):
        monkeypatch.setattr(ismcts, "MAX_KEPT_NODES", limit)
        state, bot, run = game.new_state(1), make_bot("ismcts:reuse=1"), []
        for n in range(40):
            if state.is_terminal:
                break
            assert state.current_seat == 0  # no chance results, no other seat: one run
            before = None if bot._kept is None else bot._kept.search.node_count
            result = bot.decide(state.view(0), Limits(iterations=100), seed=n)
            run.append((before, bot.reused_visits > 0, bot._kept.search.node_count))
            state.apply(result.move)
        runs.append(run)
    unbounded, bounded = runs
    assert any(before > cap and reused for before, reused, _ in unbounded[1:])
    assert all(size <= cap + 101 for *_, size in bounded)
    assert all(not reused for before, reused, _ in bounded[1:] if before > cap)
    assert any(before > cap for before, *_ in bounded[1:]) and any(reused for _, reused, _ in bounded)


def test_reroot_refuses_a_view_of_another_seat():
    game = make_game("hera_zeus")
    state = game.new_state(4)
    view = state.view(state.current_seat)
    search = new_tree(view, 1)
    search.run(50, -1.0)
    action = search.root_stats()[0][0]
    state.apply(game.move_of(action))  # setup: the other seat decides next
    with pytest.raises(ValueError, match="same seat"):
        search.reroot(action, search_view(state.view(state.current_seat)), 1)
    with pytest.raises(ValueError, match="action id"):
        search.reroot(-1, search_view(view), 1)


@pytest.mark.parametrize("spec,threads", [("ismcts:reuse=1", 1), ("ismcts:reuse=1,tree=multi", 1),
                                          ("ismcts:reuse=1,credit=1", 1), ("ismcts:reuse=1,infer=1", 1),
                                          ("ismcts:reuse=1,tree=multi,credit=1", 2), ("ismcts:reuse=1", 2)])
def test_same_seed_budget_and_history_same_moves_with_reuse(spec, threads):
    """Also with the opponent model (the kept tree rerooted onto the new weighted view)
    and on two threads (every thread's tree rerooted, each with its own generator)."""
    game = make_game("hera_zeus")
    runs = [[(str(r.move), reused) for _, reused, _, _, r in _play(game, spec, 150, 7, 50, threads)]
            for _ in range(2)]
    assert runs[0] == runs[1]
    assert any(reused for _, reused in runs[0])


def test_reuse_off_plays_as_before():
    """reuse=0 (the default) keeps nothing and plays ismcts-v1's moves (with the uniform
    belief, infer=0, as ismcts-v1 has)."""
    game = make_game("hera_zeus")
    plain = [str(r.move) for *_, r in _play(game, "ismcts-v1", 100, 5, 30)]
    off = [(str(r.move), reused) for _, reused, _, _, r in _play(game, "ismcts-v2:reuse=0,infer=0", 100, 5, 30)]
    assert plain == [m for m, _ in off] and not any(reused for _, reused in off)


def test_no_peeking_look_alike_histories_get_the_same_moves_with_reuse():
    """Two games the seat cannot tell apart (the opponent's unseen cards differ): the
    same decisions, tree kept or not, from the first decision through the seat's next
    one while it still cannot tell them apart."""
    from tests.search.test_mo_ismcts import _hz_look_alike_pairs

    game = make_game("hera_zeus")
    compared = reused = 0
    for state, other, observer in _hz_look_alike_pairs():
        bots = [make_bot("ismcts:reuse=1"), make_bot("ismcts:reuse=1")]
        states = [state.copy(), other.copy()]
        for step in range(4):
            if any(s.is_terminal or s.is_chance or s.to_move != observer for s in states):
                break
            views = [view_of(s, observer) for s in states]
            if views[0].to_json() != views[1].to_json():
                break  # the seat's own move showed it which game it is in
            answers = [b.decide(v, Limits(iterations=200), seed=11 + step) for b, v in zip(bots, views)]
            assert str(answers[0].move) == str(answers[1].move)
            a, b = (r.analysis.to_json() for r in answers)
            a.pop("millis"), b.pop("millis")
            assert a == b and bots[0].reused_visits == bots[1].reused_visits
            reused += bots[0].reused_visits > 0
            for s in states:
                s.apply(answers[0].move)
        compared += 1
        if compared == 4:
            break
    assert compared == 4 and reused >= 1


def test_a_fresh_tree_after_another_view():
    """The same bot asked about an unrelated position, or the same one again (no move
    between), or another seat's decision, builds a fresh tree."""
    game = make_game("hera_zeus")
    bot = make_bot("ismcts:reuse=1")
    a, b = game.new_state(1), game.new_state(2)
    bot.decide(a.view(a.current_seat), Limits(iterations=60), seed=1)
    bot.decide(b.view(b.current_seat), Limits(iterations=60), seed=1)
    assert bot.reused_visits == 0
    bot.decide(b.view(b.current_seat), Limits(iterations=60), seed=1)
    assert bot.reused_visits == 0
    view = b.view(b.current_seat)
    move = bot.decide(view, Limits(iterations=60), seed=1).move
    b.apply(move)  # the setup: the other seat is next
    bot.decide(b.view(b.current_seat), Limits(iterations=60), seed=1)
    assert bot.reused_visits == 0


def test_a_view_without_a_history_mark_is_never_reused():
    """A view read back from JSON does not know its history: no reuse."""
    from hzai.games.hera_zeus.belief.view import View

    game = make_game("hera_zeus")
    state, rng = game.new_state(3), SplitMix64(3)
    bot = make_bot("ismcts:reuse=1")
    for n in range(40):
        if not _to_decision(game, state, rng):
            break
        seat = state.current_seat
        view = View.from_json(state.view(seat).to_json(), game)
        assert view.history_mark() is None
        state.apply(bot.decide(view, Limits(iterations=60), seed=n).move)
        assert bot.reused_visits == 0 and bot._kept is None


def test_credit_counts_the_reused_visits_toward_the_budget():
    assert credited(Limits(iterations=400), 100, 0.0).iterations == 300
    assert credited(Limits(iterations=400), 390, 0.0).iterations == 100  # never below a quarter
    assert credited(Limits(millis=40), 100, 10.0).millis == 30  # 100 visits at 10 a ms: 10 ms
    assert credited(Limits(millis=40), 10_000, 10.0).millis == 10
    game = make_game("hera_zeus")
    seen = 0
    for _, reused, follows, _, result in _play(game, "ismcts:reuse=1,credit=1", 200, 2, 60):
        assert result.analysis.iterations == (max(200 - reused, 50) if reused else 200)
        seen += reused > 0
    assert seen >= 3


@pytest.mark.parametrize("spec,option", [("ismcts:reuse=2", "reuse"), ("ismcts:reuse=yes", "reuse"),
                                         ("ismcts:credit=1", "credit"), ("ismcts:reuse=1,credit=-1", "credit")])
def test_bad_reuse_options_name_the_option(spec, option):
    with pytest.raises(BotError, match=option):
        make_bot(spec)


def test_the_native_arena_leaves_reuse_to_the_python_loop():
    """A reuse bot is no native arena bot: its games are played in the Python loop,
    the same games for the same seed."""
    limits = Limits(iterations=80)
    assert native_bot(make_bot("ismcts:reuse=1"), limits) is None
    assert native_bot(make_bot("ismcts"), limits) is not None
    runs = [run_arena("ismcts:reuse=1", "ismcts-v1", 2, limits, seed=4, jobs=1) for _ in range(2)]
    assert [(r.winner, r.moves) for r in runs[0].results] == [(r.winner, r.moves) for r in runs[1].results]


def test_reroot_of_a_game_written_in_python():
    """PySearch's reroot (tests/toygame, no twin): the other seat's replies below the
    chosen move are not the searching seat's moves and are dropped, visits and all,
    so the new root's visits and moves come from the new iterations only."""
    game = make_game("toy_guess")
    view = game.new_state(2).view(0)
    search = new_tree(view, 3)
    search.run(200, -1.0)
    stats = {a: v for a, v, *_ in search.root_stats()}
    bet = game.action_of("bet")
    search.reroot(bet, search_view(view), 4)
    assert stats[bet] > 0 and search.root_visits == 0 and search.root_stats() == []
    search.run(30, -1.0)
    assert search.root_visits == 30 and sum(v for _, v, *_ in search.root_stats()) == 30
