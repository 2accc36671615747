"""A turn's budget split over its decisions (issue 15, item 3: option ismcts:split=S):
the arithmetic of split_limits, the views' turn_progress it reads (public, the same for
views that are equal), the budget a split bot really spends, reproducibility, and bad
option values."""

from __future__ import annotations

import pytest

from hzai.core import make_game
from hzai.games.hera_zeus.belief import View
from hzai.rng import SplitMix64, mix_seed
from hzai.search import BotError, Limits, make_bot
from hzai.search.arena import native_bot
from hzai.search.ismcts import inferred, split_limits


def test_split_limits_shares_a_turn_and_keeps_its_total():
    """Of a turn of n actions, action k gets 1 + S (n - 1 - 2k) / (n - 1) times the
    budget: the shares fall (S > 0) or rise (S < 0) through the turn and add up to n."""
    limits = Limits(iterations=1200, millis=100)
    front = [split_limits(limits, (k, 4 - k), 0.5) for k in range(4)]
    assert [x.iterations for x in front] == [1800, 1400, 1000, 600]
    assert [x.millis for x in front] == [150, 117, 83, 50]
    assert sum(x.iterations for x in front) == 4 * 1200
    back = [split_limits(limits, (k, 3 - k), -0.9) for k in range(3)]
    assert [x.iterations for x in back] == [120, 1200, 2280]
    assert sum(x.iterations for x in back) == 3 * 1200
    # after a god card (0 AP, the turn's AP become 4 - spent) the turn is read anew
    assert split_limits(limits, (1, 3), 0.5).iterations == 1400


@pytest.mark.parametrize("progress,split", [(None, 0.5), ((0, 1), 0.5), ((2, 0), 0.5), ((0, 4), 0.0)])
def test_split_limits_leaves_the_budget_alone_outside_a_turn_of_several_actions(progress, split):
    limits = Limits(iterations=300, millis=40, threads=2)
    assert split_limits(limits, progress, split) == limits


def test_split_limits_never_goes_below_one():
    assert split_limits(Limits(iterations=1), (3, 1), 0.9) == Limits(iterations=1)
    assert split_limits(Limits(millis=1), (3, 1), 0.9) == Limits(millis=1)


def _decisions(game, seed: int, limit: int = 400):
    """(state, seat) at every decision of a game of random moves."""
    state, rng = game.new_state(seed), SplitMix64(seed)
    for _ in range(limit):
        if state.is_terminal:
            return
        if state.current_seat is None:
            state.apply(game.search.draw_chance(state, rng))
            continue
        yield state, state.current_seat
        moves = state.legal_moves()
        state.apply(moves[rng.below(len(moves))])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hera_zeus_turn_progress_is_the_turn_players_ap(seed):
    """R-TURN-3/R-TURN-4: while the turn's player is to act with nothing pending, the
    view says (AP spent, AP left) of its turn, each action one more spent and one less
    left; the setup, a pending `place` or `top`, and the other seat's views say None.
    It is public: the view read back from JSON says the same, and so does the view the
    search gets when it infers."""
    game = make_game("hera_zeus")
    seen = 0
    previous = None  # (turn, spent, left) of the last action decision
    for state, seat in _decisions(game, seed):
        view = state.view(seat)
        progress = view.turn_progress()
        assert state.view(1 - seat).turn_progress() is None
        assert View.from_json(view.to_json(), game).turn_progress() == progress
        if state.phase != "play" or state.pending:
            assert progress is None
            continue
        assert progress == (state.ap_spent, state.ap) and progress[1] >= 1
        assert inferred(view, None, 7).turn_progress() == progress
        if previous is not None and previous[0] == state.turn and progress[0] > 0:
            spent, left = previous[1:]
            # one action later: one more spent and one less left; a god card (0 AP)
            # in between makes the left AP 4 minus the spent ones (R-GOD-2)
            assert progress == (spent + 1, left - 1) or (progress[0] in (spent, spent + 1) and sum(progress) == 4)
        previous = (state.turn, *progress)
        seen += 1
    assert seen > 20


def test_a_split_bot_spends_the_turns_shares_and_is_reproducible():
    """ismcts:split=0.5 at 600 iterations: a turn's first action of three searches 900,
    its last 300, a setup 600; the same seed gives the same move; a game without turn
    progress (Legends) searches the budget as asked."""
    game = make_game("hera_zeus")
    spent = {}
    for state, seat in _decisions(game, 5, 60):
        view = state.view(seat)
        progress = view.turn_progress()
        key = None if progress is None else tuple(progress)
        if key in spent or key not in (None, (0, 3), (2, 1)):
            continue
        one = make_bot("ismcts:split=0.5").decide(view, Limits(iterations=600), seed=mix_seed(5, len(spent)))
        two = make_bot("ismcts:split=0.5").decide(view, Limits(iterations=600), seed=mix_seed(5, len(spent)))
        assert one.move == two.move
        spent[key] = one.analysis.iterations
    assert spent == {None: 600, (0, 3): 900, (2, 1): 300}

    legends = make_game("legends", mission=1, heroes=["Perseus", "Atalanta"])
    state, seat = next(_decisions(legends, 3))
    view = state.view(seat)
    assert view.turn_progress() is None
    split = make_bot("ismcts:split=0.9").decide(view, Limits(iterations=200), seed=1)
    plain = make_bot("ismcts").decide(view, Limits(iterations=200), seed=1)
    assert split.analysis.iterations == 200 and split.move == plain.move


@pytest.mark.parametrize("value", ["1", "-0.95", "abc", "nan"])
def test_a_bad_split_is_a_bot_error_naming_it(value):
    with pytest.raises(BotError, match="option split"):
        make_bot(f"ismcts:split={value}")


def test_a_split_bot_is_played_by_the_python_loop():
    """The native arena's search has no split: such a bot decides in Python."""
    game = make_game("hera_zeus")
    assert native_bot(make_bot("ismcts:infer=0"), Limits(iterations=100), game) is not None
    assert native_bot(make_bot("ismcts:infer=0,split=0.5"), Limits(iterations=100), game) is None


def test_no_peeking_look_alike_games_get_the_same_split_budget_and_move():
    """Two games the seat cannot tell apart (the opponent's unseen cards differ): the
    same turn progress, the same share of the budget and the same move and analysis."""
    from hzai.games.hera_zeus.belief import view_of
    from tests.search.test_mo_ismcts import _hz_look_alike_pairs

    pairs = split_turns = 0
    for state, other, observer in _hz_look_alike_pairs():
        views = [view_of(s, observer) for s in (state, other)]
        assert views[0].turn_progress() == views[1].turn_progress()
        answers = [make_bot("ismcts:split=0.5").decide(v, Limits(iterations=300), seed=23) for v in views]
        a, b = (r.analysis.to_json() for r in answers)
        a.pop("millis"), b.pop("millis")
        assert str(answers[0].move) == str(answers[1].move) and a == b
        progress = views[0].turn_progress()
        split_turns += progress is not None and sum(progress) > 1 and a["iterations"] != 300
        pairs += 1
        if pairs == 6:
            break
    assert pairs == 6 and split_turns > 0
