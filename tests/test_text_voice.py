"""One voice (issue 42, item 5): the text drawn for a seat speaks to it as "you", as its
narration does; the referee's picture names every seat. Through `hzai show`."""

from __future__ import annotations

from pathlib import Path

from hzai_client.cli import main

HANDMADE = Path(__file__).parent / "data" / "handmade_game.json"  # Zeus to move, turn 6


def first_line(capsys, *argv) -> str:
    assert main([str(a) for a in argv]) == 0
    return capsys.readouterr().out.splitlines()[0]


def test_the_hera_and_zeus_board_says_your_turn_to_the_seat_whose_turn_it_is(capsys):
    assert first_line(capsys, "show", HANDMADE, "--seat", "zeus") == "Turn 6 · your turn · 1 AP left"
    assert first_line(capsys, "show", HANDMADE, "--seat", "hera") == "Turn 6 · Zeus's turn · 1 AP left"
    assert first_line(capsys, "show", HANDMADE) == "Turn 6 · Zeus's turn · 1 AP left"


def test_the_legends_board_says_you_to_the_seat_it_is_drawn_for(capsys, tmp_path):
    record = tmp_path / "mission.json"
    assert main(["new", "--game", "legends", "--mission", "1", "--seed", "3", "-o", str(record)]) == 0
    capsys.readouterr()
    mine = first_line(capsys, "show", record, "--seat", "p1")
    assert mine.endswith("turn 0: you (p1) to decide (place) [as you, p1, see it]"), mine
    other = first_line(capsys, "show", record, "--seat", "p2")
    assert other.endswith("turn 0: p1 to decide (place) [as you, p2, see it]"), other
    assert first_line(capsys, "show", record).endswith("turn 0: p1 to decide (place) [referee]")
