"""A principal variation told in words (hzai.explain, MoveInfo.pv_words): the seat's own
moves as it sees them, always in its own voice ("you"), what it cannot know yet (the card
a draw brings) never stated as fact but as a likelihood or as something hidden, and
through the service for the first rows of an analysis."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hzai.core import make_game
from hzai.explain import HIDDEN_LINE, _agreed, pv_in_words
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


def test_a_draw_is_told_without_guessing_the_card_and_in_the_seats_voice():
    game = make_game("hera_zeus")
    for seed in range(5):
        lines = pv_in_words(game, zeus_view(), ["draw"], seed=seed)
        assert lines and lines[0] == HIDDEN_LINE, lines  # the worlds drew different cards
        assert not any(re.search(r"draw [A-Z]", line) or "Zeus" in line for line in lines), lines


def test_a_line_most_worlds_tell_is_told_as_a_likelihood():
    sure, likely, guess = "Hera plays a card face down at c1r1.", "Hera challenges in c2.", "You draw Hydra."
    told = [(sure, likely, guess), (sure, likely, "You draw Satyr."), (sure, likely, "You draw Argus."),
            (sure, "Hera draws a card.", "You draw Medusa."), (sure, likely, "You draw Pythia.")]
    assert _agreed(told) == [sure, "Probably (4 of 5 sampled worlds): Hera challenges in c2.", HIDDEN_LINE]


def test_a_variation_stops_at_a_move_the_world_cannot_play():
    game = make_game("hera_zeus")
    assert pv_in_words(game, zeus_view(), ["play Kraken c1r1", "draw"]) == []


def test_the_service_tells_the_first_rows_in_words(client):
    text = HANDMADE.read_text(encoding="utf-8")
    analysis = client.analyze(text, iterations=1500, seed=3)
    told = [m for m in analysis.moves if m.pv_words]
    assert told and all(m.order < 8 for m in told)
    # Zeus's variations speak to Zeus: "you", never "Zeus"
    assert all(m.pv_words[0].startswith(("You ", "Probably", HIDDEN_LINE)) for m in told)
    assert not [line for m in told for line in m.pv_words if "Zeus" in line]
    assert not any(m.pv_words for m in analysis.moves if m.order >= 8)
    record = json.loads(text)
    assert any(m.move.text.startswith("play ") and m.pv_words[0].startswith("You play ") for m in told), record["moves"][-1]


def test_hzai_analyze_tells_the_first_rows_in_words(capsys):
    from hzai.cli import main

    assert main(["analyze", str(HANDMADE), "--budget", "1500", "--top", "3", "--words", "2"]) == 0
    out = capsys.readouterr().out
    told = re.findall(r"\nafter (.+), the search expects:\n  (.+)\n", out)
    assert len(told) == 2 and all(line.startswith(("You ", "Probably", HIDDEN_LINE)) for _, line in told), out
    assert "Zeus " not in out.split("the search expects:", 1)[1], out
