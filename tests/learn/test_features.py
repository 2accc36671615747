"""The learned search's features (docs/learning.md): the C++ encoding held equal to a
second writing in Python over the rules engine's states and views, over random games;
a seat's features from its view alone."""

from __future__ import annotations

import pytest

from hzai.core.registry import make_game
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.rules import Record, deal
from hzai.games.hera_zeus.native.search import flat_view
from hzai.games.hera_zeus.native.state import NativeState
from hzai.rng import SplitMix64
from tests.learn import reference


def _positions(games: int, steps: int = 120):
    """Every position of `games` random games (setup, play, chance and the end)."""
    game = make_game("hera_zeus")
    for seed in range(games):
        state = Record(game, setup=deal(game, seed)).start()
        rng = SplitMix64(seed)
        for _ in range(steps):
            yield game, state
            if state.is_over:
                break
            if state.is_chance:
                state.apply(game.search.draw_chance(state, rng))
            else:
                moves = state.legal_moves()
                state.apply(moves[rng.below(len(moves))])


def test_state_features_of_cpp_and_python_are_equal_over_random_games():
    game = make_game("hera_zeus")
    n = game.search.native.feature_count()
    assert n == reference.layout(len(game.search.native.names))["size"]
    checked = 0
    for game, state in _positions(12):
        native = game.search.native.state_features(NativeState.from_state(state).core)
        assert native == reference.state_features(game, state)
        assert native == sorted(native) and len(set(native)) == len(native) and all(0 <= i < n for i in native)
        checked += 1
    assert checked > 500


def test_view_features_of_cpp_and_python_are_equal_over_random_games():
    checked = 0
    for game, state in _positions(12):
        for seat in (0, 1):
            view = view_of(state, seat)
            assert game.search.native.view_features(flat_view(view, game)) == reference.view_features(game, view)
            checked += 1
    assert checked > 1000


def test_a_full_state_and_the_view_of_an_all_seeing_seat_encode_alike_except_the_hands():
    """What differs between the two encodings is only what a view cannot know: a view of a
    position whose every field card the seat has seen gives its own field as the state does."""
    game = make_game("hera_zeus")
    state = Record(game, setup=deal(game, 3)).start()
    view = view_of(state, 0)
    from_view = set(game.search.native.view_features(flat_view(view, game)))
    from_state = set(game.search.native.state_features(NativeState.from_state(state).core))
    layout = reference.layout(len(game.search.native.names))
    globals_ = {i for i in from_state if i >= layout["deck"]}
    assert globals_ <= from_view  # decks and the public state of play are public


def test_no_peeking_the_hidden_labels_are_given_only_where_the_view_hides_the_card():
    game = make_game("hera_zeus")
    labelled = 0
    for game, state in _positions(8):
        if state.is_over:
            continue
        for seat in (0, 1):
            view = view_of(state, seat)
            spec = flat_view(view, game)
            labels = game.search.native.hidden_labels(NativeState.from_state(state).core, spec, seat)
            assert 0 <= labels[0] < 16
            for c in range(3):
                for r in range(4):
                    label = labels[1 + 4 * c + r]
                    column = view.columns[1 - seat][c]
                    hidden = r < len(column) and column[r].card is None and not column[r].figure
                    assert (label >= 0) == hidden
                    labelled += label >= 0
    assert labelled > 100


def test_view_features_refuse_a_malformed_view():
    from hzai import _native

    game = make_game("hera_zeus")
    spec = _native.ViewSpec()
    spec.columns = [[[]]]
    with pytest.raises(ValueError, match="two sides"):
        game.search.native.view_features(spec)
