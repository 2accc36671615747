"""`hzai play --game legends --param mission=3 --seats me,bot,bot`: a whole mission in the
terminal game, scripted, beside two bot seats: narration of the teammates' moves, the
board for the seat, a mistyped move refused, the end told, the record saved and read back."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from hzai.games.legends import Record
from hzai.games.legends.narrate import REASONS
from hzai_client.commands import CommandError
from hzai_client.play import parse_seats, play


def run_mission(client, tmp_path, script: str, seed: int = 4):
    out = io.StringIO()
    save = tmp_path / "mission.json"
    code = play(client, "0", game="legends", seed=seed, bot="heuristic", budget={}, params={"mission": 3},
                hint_budget={"iterations": 30}, save=str(save), stdin=io.StringIO(script), out=out, colour=False,
                seats=parse_seats("me,bot,bot"))
    return code, out.getvalue(), save


def test_a_scripted_mission_with_two_bots_ends_and_saves_its_record(client, tmp_path):
    code, text, save = run_mission(client, tmp_path, "flee\nmoves\nhint\n" + "1\n" * 2000)
    assert code == 0
    assert text.startswith("Legends of Hellas: you play P1; the bot (heuristic) plays P2, P3.")
    assert "flee" in text and "Type 'help'" in text  # the mistyped command is answered, not played
    assert "Legal moves (3):" in text and "The bot's best moves for you" in text
    # the hint tells what the search expects after its best move, in the game's narration
    assert re.search(r"  After [a-z0-9 ,-]+, the bot expects:\n    You placed your disc on m\d", text)
    # whole sentences naming the heroes and the monsters
    assert re.search(r"  You placed your disc on m\d [A-Z][a-z]+( [A-Z][a-z]+)?\.\n", text)
    assert re.search(r"  Atalanta \(p2\) placed the hero disc on m\d [A-Z][a-z]+( [A-Z][a-z]+)?\.\n", text)
    assert re.search(r"Turn \d+: Hercules \(p3\) to play\.", text) and re.search(r"Turn \d+: your turn\.", text)
    assert re.search(r"m\d [A-Z][a-z ]+ enters; it needs [a-z]+ and [a-z]+\.", text)
    # the ending, told once: the narration's, not the terminal's own line after it
    ending = re.search(r"  Game over: the mission is (won|lost): ([a-z ]+)\. Your team (won|lost)\.\n", text)
    assert ending and ending.group(1) == ending.group(3) and text.count("Game over") == 1, text[-600:]
    record = Record.load(save)
    end = record.game.records.replay(record)
    assert end.t.result == ending.group(1) and REASONS[end.t.reason] == ending.group(2)
    assert record.game.mission.id == 3 and len(record.game.seats) == 3
    # what p1 was told of its teammates' hidden cards never names one
    hidden = 0
    for line in text.splitlines():
        if re.search(r"\(p[23]\) supported \w+ \(p[23]\)", line):
            assert re.fullmatch(r"  \w+ \(p[23]\) supported \w+ \(p[23]\) with \d cards?\.", line), line
        if "'s ability on" in line and not line.startswith("  You"):
            assert "(fight ability ?)" in line, line
        hidden += bool(re.match(r"  \w+ \(p[23]\) discarded a card", line))
    assert hidden  # teammates' discards came by, and stayed hidden
    # each thing is told once: a support is not told again as a handover, a choice not
    # again as the discard it made, a Recover not again as its draw
    told = [line.strip() for line in text.splitlines()]
    assert not [line for line in told if " handed " in line or " chose: " in line]
    assert not [(a, b) for a, b in zip(told, told[1:]) if " recovered" in a and " drew " in b]


def test_the_oracle_is_listed_short_built_with_its_forced_pieces_filled_and_the_board_redrawn(client, tmp_path):
    # seed 4: place, fight, move, ability, move, then the Oracle (the heuristic teammates
    # play the same every time); then its 180 returns listed, and one built from pieces
    code, text, _ = run_mission(client, tmp_path, "1\n" + "moves\n" + "1\n" * 5 + "moves\n" + "discard\n"
                                + "1\n" * 5 + "quit\n")
    assert code == 0
    # the Support choices each with the number that plays it, not a range of numbers
    assert re.search(r"support     p2: arms \[\d+\] · arms,courage \[\d+\] · ", text), text
    listing = text[text.index("Legal moves (180):"):].split("\np1 [")[0].splitlines()[1:]
    assert listing[0] == "  discard     180 moves: arms … [1-60] · courage … [61-90] · guile … [91-150] · speed … [151-180]"
    assert len(listing) == 3 and all(len(line) <= 100 for line in listing)  # was one line of 3,000 characters
    assert "Filled in order: the only choice there." in text  # after the discard, 'order' is the only piece
    assert re.search(r"Filled in \w+: the only choice there\.\n  You discarded \w+ and put back ", text)
    # the board is drawn again after the seat's own move, before its next decision
    oracle = text[text.index("  You consulted the Oracle."):text.index("p1 [180 moves]> ")]
    assert "Legends of Hellas, mission 3" in oracle and "Seats:" in oracle


def test_the_same_seed_plays_the_same_mission(client, tmp_path):
    first = run_mission(client, tmp_path, "1\n" * 2000, seed=9)[1]
    second = run_mission(client, tmp_path, "1\n" * 2000, seed=9)[1]
    assert first == second and "Game over" in first


@pytest.mark.parametrize("text, words", [("me,me", "exactly one"), ("bot,bot", "exactly one"),
                                         ("me,robot", "'robot'")])
def test_bad_seat_lists_are_named(text, words):
    with pytest.raises(CommandError) as caught:
        parse_seats(text)
    assert words in str(caught.value)


def test_seats_on_a_game_of_fixed_seats_is_refused_with_the_servers_reason():
    done = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--seats", "me,bot,bot"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "seats" in done.stderr and "Traceback" not in done.stderr
