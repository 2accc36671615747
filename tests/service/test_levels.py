"""Strength levels over the API: validated at the edge, the same move as the library's
level bot for the same seed, and hosted matches whose bot seats play at their level."""

from __future__ import annotations

import json

import grpc
import pytest

from hzai.core import make_game
from hzai.games.hera_zeus.belief import view_of
from hzai.search import Limits
from hzai.search.levels import MAX_LEVEL, LevelBot
from hzai_client.messages import bad_request_fields
from hzai_server import fairness

from .conftest import played_record
from .matchkit import create
from .test_errors import rpc_error


def test_list_games_says_the_range_of_levels(client):
    assert {g.name: g.max_level for g in client.list_games()}["hera_zeus"] == MAX_LEVEL


@pytest.mark.parametrize("level", [MAX_LEVEL + 1, 1000, 2**32 - 1])
def test_a_level_out_of_range_is_invalid_argument_naming_the_field_and_range(client, level):
    error = rpc_error(client.suggest_move, played_record(3, 4).to_json(), iterations=50, level=level)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f"level: {level} is not a strength level: give 1..{MAX_LEVEL}" in error.details()
    assert "level" in bad_request_fields(error)


def test_a_level_is_of_the_ismcts_bot(client):
    error = rpc_error(client.suggest_move, played_record(3, 4).to_json(), iterations=50, level=2, bot="pimc")
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("level:")
    assert "pimc" in error.details()


@pytest.mark.parametrize("level", [1, 4, MAX_LEVEL])
def test_suggest_at_a_level_is_the_library_level_bot_and_reproducible(client, level):
    record = played_record(21, 9)
    state = record.replay()
    expected = LevelBot(level).decide(view_of(state, state.to_move), Limits(iterations=300), seed=77).move
    replies = [client.suggest_move(record.to_json(), iterations=300, seed=77, level=level) for _ in range(2)]
    assert [r.move.text for r in replies] == [str(expected)] * 2
    assert replies[0].level == level and replies[0].bot == "level"


def test_an_unset_level_is_the_full_strength_bot(client):
    record = played_record(21, 9).to_json()
    plain = client.suggest_move(record, iterations=300, seed=5)
    top = client.suggest_move(record, iterations=300, seed=5, level=MAX_LEVEL)
    assert plain.move.text == top.move.text and plain.level == 0 and plain.bot == "ismcts"


@pytest.mark.parametrize("levels, field, words", [
    ([3], "bot_levels", "gives 1 levels for 2 bot seats"),
    ([3, 4, 5], "bot_levels", "gives 3 levels for 2 bot seats"),
    ([1] * 100_000, "bot_levels", "gives 100000 levels for 2 bot seats"),
    ([3, MAX_LEVEL + 1], "bot_levels[1]", f"is not a strength level: give 1..{MAX_LEVEL}"),
])
def test_create_match_checks_the_levels_of_its_bot_seats(client, levels, field, words):
    error = rpc_error(client.create_match, bot_seats=[0, 1], bot_levels=levels, iterations=50)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith(f"{field}:")
    assert words in error.details() and field in bad_request_fields(error)


def test_a_match_level_needs_the_ismcts_bot(client):
    error = rpc_error(client.create_match, bot_seats=[1], bot="random", level=2)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "bot_levels[0]" in error.details()


def test_a_hosted_match_plays_to_the_end_with_each_seat_at_its_level(client):
    """Hera's bot at level 1 and Zeus's at level 6, an open match: every bot move the
    server played is the library's LevelBot of that seat's level for the seed the server
    derives, so the seats really played at their levels."""
    levels = {0: 1, 1: 6}
    seats = create(client, bot_seats=[0, 1], bot_levels=[levels[0], levels[1]], iterations=120, seed=31, open=True)
    status = seats.created.status
    assert list(status.bot_levels) == [1, 6]
    calls = 0
    while not status.over:
        status = client.bot_play_turn(seats.id, token=seats.spectator).status
        calls += 1
        assert calls < 500
    assert list(status.bot_levels) == [1, 6] and status.result
    moves = json.loads(status.record_json)["moves"]
    game = make_game("hera_zeus")
    state = game.records.start_of(game.records.new(status.seed))
    salt = fairness.open_salt(status.seed)
    checked = 0
    for index, text in enumerate(moves):
        move = game.parse_move(text)
        seat = state.current_seat
        if seat is not None:
            chosen = LevelBot(levels[seat]).decide(state.view(seat), Limits(iterations=120),
                                                   fairness.bot_seed(status.seed, salt, index)).move
            assert game.move_text(chosen) == text, f"move {index}"
            checked += 1
        state.apply(move)
    assert state.is_terminal and checked > 20


def test_a_match_without_levels_reports_full_strength(client):
    seats = create(client, bot_seats=[1], iterations=50)
    assert list(seats.created.status.bot_levels) == [0]


@pytest.mark.parametrize("bot, option", [("ismcts:tree=multi", "tree"), ("ismcts:infer=1", "infer"),
                                         ("ismcts:prior=1", "prior")])
def test_a_level_with_an_option_the_level_bot_does_not_take_names_it(client, bot, option):
    """A level plays the calibrated single-tree search: its options are c and playout
    only; another ismcts option with a level is INVALID_ARGUMENT naming that option."""
    error = rpc_error(client.suggest_move, played_record(3, 4).to_json(), iterations=50, level=3, bot=bot)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("bot: ") and f"unknown option '{option}'" in error.details()
    assert "at a strength level (level 3): there the ismcts bot takes only c, playout" in error.details()
