"""The learned search as a bot (`ismcts` where the game ships a model): guided by the
model's parts, unguided with them off (then move for move `ismcts-v2`), no peeking,
deterministic."""

from __future__ import annotations

import pytest

from hzai.core import Limits
from hzai.core.bot import BotError
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.rules import Game, Record, deal
from hzai.games.hera_zeus.search_support import HeraZeusModel
from hzai.search import make_bot
from hzai.search.ismcts import analyze, shipped_guide
from tests.learn.fixtures import hz, tiny_model_file  # noqa: F401 (fixtures)


@pytest.fixture
def shipped(monkeypatch, tiny_model_file):
    """The tiny model as the game's shipped one."""
    monkeypatch.setattr(HeraZeusModel, "file", tiny_model_file)
    return tiny_model_file


@pytest.fixture
def unshipped(monkeypatch, tmp_path):
    monkeypatch.setattr(HeraZeusModel, "file", tmp_path / "none.npz")


def _views(hz, count=4):
    from hzai.rng import SplitMix64

    out = []
    for seed in range(count):
        state = Record(hz, setup=deal(hz, seed)).start()
        rng = SplitMix64(seed)
        for _ in range(seed * 7 % 30):
            if state.is_over:
                break
            if state.is_chance:
                state.apply(hz.search.draw_chance(state, rng))
            else:
                moves = state.legal_moves()
                state.apply(moves[rng.below(len(moves))])
        if not state.is_over and not state.is_chance:
            out.append(view_of(state, state.to_move))
    return out


def _answer(bot, view, budget=120, seed=3, threads=1):
    result = make_bot(bot).decide(view, Limits(iterations=budget, threads=threads), seed=seed)
    analysis = result.analysis.to_json()
    analysis.pop("millis")
    return str(result.move), analysis


def test_ismcts_is_guided_where_the_game_ships_a_model(shipped, hz):
    assert make_bot("ismcts").guide(hz).model_id == "tiny@1"
    assert make_bot("ismcts-v2").guide(hz) is None
    assert make_bot("ismcts:policy=0").guide(hz).policy is False
    # the levels are built on the policy (issue 31): every level's search is the guided one
    assert make_bot("level:8").search_for(hz).guide(hz) is not None
    assert make_bot("level:3").search_for(hz).guide(hz) is not None and make_bot("level:3").level_for(hz).policy


def test_without_a_model_ismcts_plays_as_ismcts_v2(unshipped, hz):
    assert shipped_guide(hz) is None
    for view in _views(hz, 3):
        assert _answer("ismcts", view) == _answer("ismcts-v2", view)


def test_with_every_part_off_ismcts_plays_as_ismcts_v2(shipped, hz):
    for view in _views(hz, 3):
        assert _answer("ismcts:value=0,policy=0,cards=0", view) == _answer("ismcts-v2", view)


def test_the_model_changes_the_search(shipped, hz):
    changed = 0
    for view in _views(hz, 4):
        guided, plain = _answer("ismcts", view), _answer("ismcts-v2", view)
        changed += guided[1]["moves"] != plain[1]["moves"]
    assert changed >= 3


def test_the_guided_search_is_deterministic_on_one_and_two_threads(shipped, hz):
    for view in _views(hz, 2):
        for threads in (1, 2):
            assert _answer("ismcts", view, threads=threads) == _answer("ismcts", view, threads=threads)


def test_no_peeking_look_alike_games_get_the_same_guided_move_and_analysis(shipped):
    from tests.search.test_mo_ismcts import _hz_look_alike_pairs

    pairs = 0
    for state, other, observer in _hz_look_alike_pairs():
        assert _answer("ismcts", view_of(state, observer)) == _answer("ismcts", view_of(other, observer))
        pairs += 1
        if pairs == 4:
            break
    assert pairs == 4


def test_analysis_answers_from_the_guided_search(shipped, hz):
    view = _views(hz, 1)[0]
    guide = shipped_guide(hz)
    a = analyze(view, Limits(iterations=200), seed=2, guide=guide)
    b = make_bot("ismcts").decide(view, Limits(iterations=200), seed=2).analysis
    assert a.iterations == b.iterations == 200 and len(a.moves) >= 1
    assert sum(m.visits for m in a.moves) == 200


@pytest.mark.parametrize("spec, message", [
    ("ismcts:cpuct=0", "cpuct"),
    ("ismcts:value=2", "value"),
    ("ismcts:tree=multi,policy=1", "tree=single"),
    ("ismcts:pool=0", "pool"),
])
def test_bad_learned_options_are_refused(spec, message):
    with pytest.raises(BotError, match=message):
        make_bot(spec)


def test_mix_is_checked_and_changes_the_search(shipped, hz):
    with pytest.raises(BotError, match="mix"):
        make_bot("ismcts:mix=1.5")
    view = _views(hz, 1)[0]
    assert _answer("ismcts:mix=1", view) != _answer("ismcts:mix=0.5", view)
