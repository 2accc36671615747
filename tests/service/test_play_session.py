"""The parts of `hzai play` one by one: reading commands, the session against a server
that follows the full API contract (seat tokens, narrated events), saving before the
end, colour, and analyze-game on a record with nothing to analyse."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest
from hzai_proto.v1 import game_pb2, match_pb2

from hzai_client.play import play, rejection
from hzai_client.play_board import colour_wanted
from hzai_client.play_input import InputError, group_moves, read_command
from hzai_client.play_record import redacted_text

NAMES = sorted({"Hydra", "Hero", "Harpy", "Hades", "Pegasus", "Pythia", "Pandora", "Poseidon", "Persephone",
                "Satyr", "Sirens", "Centaur", "Cyclops", "Dionysus", "Medusa", "Amazon", "Nemesis", "Io"})


def moves(*texts: str) -> list[game_pb2.Move]:
    out = []
    for text in texts:
        words = text.split()
        kind = " ".join(words[:2]) if words[1:2] in (["hand"], ["spy"]) else words[0]
        out.append(game_pb2.Move(text=text, kind=kind))
    return out


LEGAL = moves("draw", "play Hydra c1r1", "play Hydra c1r2", "play Pegasus c2r1", "challenge c2", "challenge c3",
              "pegasus hand", "pegasus c1", "dionysus c1r1 c3r1", "hades Satyr")


@pytest.mark.parametrize("typed, meant", [
    ("dr", "draw"), ("ch 2", "challenge c2"), ("ch c3", "challenge c3"), ("pl hyd 1 2", "play Hydra c1r2"),
    ("play hydra c1r1", "play Hydra c1r1"), ("pl peg 21", "play Pegasus c2r1"), ("peg h", "pegasus hand"),
    ("peg 1", "pegasus c1"), ("dio 1 1 3 1", "dionysus c1r1 c3r1"), ("ha sat", "hades Satyr"),
])
def test_prefixes_mean_one_legal_move(typed, meant):
    command = read_command(typed, LEGAL, NAMES)
    assert (command.move, command.legal) == (meant, True)


def test_a_complete_move_that_is_not_legal_is_still_sent_for_its_reason():
    command = read_command("ch 1", LEGAL, NAMES)
    assert (command.move, command.legal) == ("challenge c1", False)
    assert read_command("play Satyr c3r1", LEGAL, NAMES).move == "play Satyr c3r1"


@pytest.mark.parametrize("typed, words", [
    ("xyzzy", "unknown command 'xyzzy'"), ("p", "could be"), ("pl", "could be play or place"),
    ("pl hyd 1", "which one? play Hydra c1r1, play Hydra c1r2"), ("play Kraken c1r1", "unknown card 'Kraken'"),
    ("ch 1 2", "challenge takes 1 number"), ("setup hyd", "setup takes three cards"),
])
def test_bad_lines_say_what_to_type(typed, words):
    with pytest.raises(InputError, match=re.escape(words)):
        read_command(typed, LEGAL if typed != "pl" else [m for m in LEGAL if m.kind not in ("play", "place")], NAMES)


def test_session_words_and_the_moves_listing():
    assert read_command("hi", LEGAL, NAMES).session == "hint"
    assert read_command("pl 2", moves("place c1", "place c2"), NAMES).move == "place c2"  # play is not legal now
    assert read_command("q", LEGAL, NAMES).session == "quit" and read_command("?", LEGAL, NAMES).session == "help"
    listing = "\n".join(group_moves(LEGAL))
    assert "  play        Hydra: c1r1 c1r2 · Pegasus: c2r1" in listing
    assert "  challenge   c2 c3" in listing and "  pegasus hand" in listing


def test_rejection_drops_the_field_and_the_move():
    details = "move: move 12 'challenge c1': challenge c1: your column c1 is empty: nothing there to challenge with"
    assert rejection(details, "challenge c1") == "your column c1 is empty: nothing there to challenge with"


def test_redaction_of_the_other_seat_s_moves():
    assert redacted_text("setup Hydra - Satyr") == "setup ? - ?"
    assert redacted_text("play Amazon c2r3") == "play ? c2r3"
    assert redacted_text("challenge c2") == "challenge c2"


def test_colour_only_on_a_real_terminal_without_no_color():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert colour_wanted(Tty(), {"TERM": "xterm"})
    assert not colour_wanted(Tty(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert not colour_wanted(Tty(), {"TERM": "dumb"})
    assert not colour_wanted(io.StringIO(), {"TERM": "xterm"})


# ----- a session against the full contract ----------------------------------------------
HERA, ZEUS = game_pb2.PLAYER_HERA, game_pb2.PLAYER_ZEUS


class ContractServer:
    """A stand-in for a server that sends seat tokens and narrated events: two of Hera's
    actions and one bot turn, then the end. It records every token it was shown."""

    def __init__(self):
        self.tokens: list = []
        self.move_numbers: list = []
        self.step = 0

    def _status(self) -> match_pb2.MatchStatus:
        status = match_pb2.MatchStatus(match_id="m1", moves_played=10 + self.step, phase="play", turn=3,
                                       to_move=HERA if self.step < 2 else ZEUS, ap_left=max(0, 2 - self.step))
        if self.step >= 3:
            status.over, status.phase, status.winner, status.reason = True, "over", "zeus", "hostage_found"
            status.record.seed = 4
            status.record.moves.extend(["setup Hydra Cyclops Satyr", "setup Satyr Hero Harpy"])
        return status

    def create_match(self, **kwargs):
        return match_pb2.CreateMatchResponse(status=self._status(), seats=[match_pb2.SeatToken(player=HERA, token="t1")])

    def get_view(self, match_id, player=None, *, token=None, with_history=False, timeout=None):
        self.tokens.append(token)
        view = game_pb2.PlayerView(phase="over" if self.step >= 3 else "play", turn=3, turn_player=HERA, ap_left=2)
        for side in (view.hera, view.zeus):
            side.columns.add().slots.add(group=0)
            side.columns.add()
            side.columns.add()
        return match_pb2.GetViewResponse(view=view, status=self._status())

    def legal_moves(self, match_id, player=None, *, token=None):
        self.tokens.append(token)
        return moves("draw", "challenge c1")

    def play_move(self, match_id, player, move, *, token=None, move_number=None):
        self.tokens.append(token)
        self.move_numbers.append(move_number)
        self.step += 1
        event = game_pb2.SeenMove(index=9 + self.step, player=HERA, move=game_pb2.Move(text=move, kind=move.split()[0]),
                                   narration=[f"NARRATED {move}"])
        return match_pb2.PlayMoveResponse(played=event.move, status=self._status(), events=[event])

    def bot_play_turn(self, match_id, seed=0, *, token=None):
        self.tokens.append(token)
        self.step += 1
        hidden = game_pb2.Move(text="play ? c1r2", kind="play", redacted=True)
        events = [game_pb2.SeenMove(index=12, player=ZEUS, move=hidden, narration=["Zeus plays a card face down at c1r2."]),
                  game_pb2.SeenMove(index=13, player=ZEUS, move=game_pb2.Move(text="challenge c1", kind="challenge"),
                                     narration=["Game over: Zeus found your hostage Io at c1r1. Zeus wins."])]
        return match_pb2.BotPlayTurnResponse(moves=[e.move for e in events], status=self._status(), events=events)

    def analyze(self, **kwargs):
        raise AssertionError("not asked")

    def delete_match(self, match_id, *, token=None, timeout=None):
        self.tokens.append(token)


def test_session_shows_the_server_s_narration_and_presents_the_seat_token(tmp_path):
    server, out, saved = ContractServer(), io.StringIO(), tmp_path / "game.json"
    code = play(server, "hera", seed=None, bot="random", budget={}, variants={}, hint_budget={}, save=str(saved),
                stdin=io.StringIO("ch 1\ndr\n"), out=out, colour=False)
    text = out.getvalue()
    assert code == 0, text
    assert "NARRATED challenge c1" in text and "NARRATED draw" in text
    assert "Zeus plays a card face down at c1r2." in text and "Zeus: play" not in text
    assert text.count("Game over") == 1  # the server's ending line, not a second one of ours
    assert server.tokens and set(server.tokens) == {"t1"}
    assert server.move_numbers == [10, 11]
    assert json.loads(saved.read_text()) == {"format": "hzai-record/1", "seed": 4,
                                             "moves": ["setup Hydra Cyclops Satyr", "setup Satyr Hero Harpy"]}


# ----- against the server of this tree (no events yet) ----------------------------------
def test_quit_before_the_end_saves_only_what_the_seat_saw(tmp_path):
    saved = tmp_path / "partial.json"
    run = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--bot", "random", "--seed", "7", "--save", str(saved)],
                         input="setup Amazon Cyclops Hydra\ndraw\nquit\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "not a game record" in run.stdout and run.stderr == ""
    data = json.loads(saved.read_text())
    assert data["format"] == "hzai-seat-view/1" and data["finished"] is False
    zeus = [m for m in data["moves"] if m["player"] == "zeus"]
    assert zeus and all(m["move"] in ("setup ? ? ?",) or not m["move"].startswith(("setup", "play")) or "?" in m["move"]
                        for m in zeus)
    refused = subprocess.run([sys.executable, "-m", "hzai.cli", "replay", str(saved)], capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr


def test_analyze_game_on_a_fresh_record_says_there_is_nothing_to_analyse(tmp_path):
    path = tmp_path / "fresh.json"
    subprocess.run([sys.executable, "-m", "hzai.cli", "new", "--seed", "3", "-o", str(path)], check=True, timeout=60)
    run = subprocess.run([sys.executable, "-m", "hzai.cli", "analyze-game", str(path)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0
    assert "nothing to analyse: the record has no decisions yet" in run.stdout
