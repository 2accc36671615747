"""A principal variation told in words (hzai.explain, MoveInfo.pv_words): the seat's own
moves as it sees them, what it cannot know yet (the card a draw brings) only as a
spectator would hear it, and through the service for the first rows of an analysis."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hzai.core import make_game
from hzai.explain import pv_in_words
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.rules import Record

HANDMADE = Path(__file__).resolve().parents[1] / "data" / "handmade_game.json"  # Zeus to move


def zeus_view():
    state = Record.load(HANDMADE).replay()
    assert state.to_move == 1
    return view_of(state, 1)


def test_the_seats_own_move_is_told_as_it_sees_it():
    game = make_game("hera_zeus")
    assert pv_in_words(game, zeus_view(), ["play Satyr c2r2"]) == ["You play Satyr face down at c2r2.",
                                                                   "Turn 7: Hera's turn, 3 AP."]


def test_a_draw_is_told_without_guessing_the_card():
    game = make_game("hera_zeus")
    for seed in range(5):
        lines = pv_in_words(game, zeus_view(), ["draw"], seed=seed)
        assert lines and lines[0].startswith("Zeus draws a card"), lines
        assert not re.search(r"draw [A-Z]", lines[0])


def test_a_variation_stops_at_a_move_the_world_cannot_play():
    game = make_game("hera_zeus")
    assert pv_in_words(game, zeus_view(), ["play Kraken c1r1", "draw"]) == []


def test_the_service_tells_the_first_rows_in_words(client):
    text = HANDMADE.read_text(encoding="utf-8")
    analysis = client.analyze(text, iterations=1500, seed=3)
    told = [m for m in analysis.moves if m.pv_words]
    assert told and all(m.order < 8 for m in told)
    assert all(m.pv_words[0].startswith(("You ", "Zeus ")) for m in told)
    assert not any(m.pv_words for m in analysis.moves if m.order >= 8)
    record = json.loads(text)
    assert any(m.move.text.startswith("play ") and m.pv_words[0].startswith("You play ") for m in told), record["moves"][-1]


def test_hzai_analyze_tells_the_first_rows_in_words(capsys):
    from hzai.cli import main

    assert main(["analyze", str(HANDMADE), "--budget", "1500", "--top", "3", "--words", "2"]) == 0
    out = capsys.readouterr().out
    told = re.findall(r"\nafter (.+), the search expects:\n  (.+)\n", out)
    assert len(told) == 2 and all(line.startswith(("You ", "Zeus ")) for _, line in told), out
