"""`hzai arena --game NAME`: the arena plays any registered two-seat game, Hera and Zeus
by default; an unknown game, a parameter the game lacks, a cooperative game and a bot
the game cannot play are each one line on stderr and exit 2, before any game is played."""

from __future__ import annotations

import json

import pytest

from hzai.cli import main


def _arena(capsys, *args) -> tuple[int, str, str]:
    rc = main(["arena", *map(str, args)])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("game, seats", [("tossup", {"first", "second"}), ("hera_zeus", {"hera", "zeus"})])
def test_the_arena_plays_the_game_named(capsys, tmp_path, game, seats):
    target = tmp_path / "arena.json"
    rc, out, err = _arena(capsys, "ismcts", "random", "--game", game, "--games", 2, "--budget", 20, "--jobs", 1,
                          "--quiet", "--json", target)
    assert rc == 0, err
    assert "ismcts vs random" in out and "2 games" in out
    result = json.loads(target.read_text())
    assert result["games"] == 2 and len(result["results"]) == 2
    assert result["a_wins"] + result["b_wins"] + result["draws"] == 2
    assert set(result["a_wins_by_seat"]) == seats, "the seats are the named game's"
    for played in result["results"]:
        assert set(played["seating"]) == seats and set(played["seating"].values()) == {"A", "B"}


def test_hera_and_zeus_is_the_default(capsys, tmp_path):
    target = tmp_path / "arena.json"
    rc, _, err = _arena(capsys, "random", "random", "--games", 2, "--jobs", 1, "--quiet", "--json", target)
    assert rc == 0, err
    assert set(json.loads(target.read_text())["a_wins_by_seat"]) == {"hera", "zeus"}


def test_an_unknown_game_lists_the_games(capsys):
    rc, out, err = _arena(capsys, "random", "random", "--game", "chess", "--games", 1)
    assert rc == 2 and out == ""
    assert "--game: no game 'chess'" in err and "tossup" in err and "hera_zeus" in err


def test_a_bot_the_game_cannot_play_is_refused_naming_both(capsys):
    """Toss-up has no heuristic policy: the heuristic bot is refused whichever seat names
    it, before a game is played (a million games would take minutes)."""
    for bots in (("heuristic", "random"), ("random", "heuristic")):
        rc, out, err = _arena(capsys, *bots, "--game", "tossup", "--games", 1_000_000, "--quiet")
        assert rc == 2 and out == "", err
        assert "bot heuristic" in err and "tossup" in err and "heuristic" in err.split("tossup", 1)[1]
    rc, _, err = _arena(capsys, "random", "nobody", "--game", "tossup", "--games", 1)
    assert rc == 2 and "unknown bot 'nobody'" in err


def test_a_parameter_is_checked_against_the_named_game(capsys):
    rc, _, err = _arena(capsys, "random", "random", "--game", "tossup", "--param", "turn_limit=3", "--games", 1)
    assert rc == 2
    assert "--param turn_limit: tossup has no parameter turn_limit" in err


def test_a_cooperative_game_is_sent_to_hzai_team(capsys):
    rc, _, err = _arena(capsys, "random", "random", "--game", "legends", "--games", 1)
    assert rc == 2
    assert "legends is cooperative" in err and "hzai team" in err


@pytest.mark.parametrize("spec", ["ismcts:pbi=1", "ismcts:replicas=2"])
def test_the_native_arena_leaves_options_it_cannot_play_to_the_python_loop(spec):
    """The native arena's BotSpec has no policy-weighted worlds and one replica: a bot with
    either is played by the Python loop (native_bot None), never silently without it."""
    from hzai.core import make_game
    from hzai.search import Limits
    from hzai.search.arena import native_bot
    from hzai.search.bot import make_bot

    game = make_game("hera_zeus")
    assert native_bot(make_bot("ismcts"), Limits(iterations=50), game) is not None
    assert native_bot(make_bot(spec), Limits(iterations=50), game) is None


def test_a_policy_weighted_bot_on_a_game_without_a_policy_is_refused(capsys):
    rc, _, err = _arena(capsys, "ismcts:pbi=1", "random", "--game", "tossup", "--games", 2, "--budget", 20,
                        "--jobs", 1, "--quiet")
    assert rc == 2, err
    assert "pbi" in err and "tossup" in err
