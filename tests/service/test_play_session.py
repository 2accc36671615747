"""The parts of `hzai play` one by one: reading commands against the legal moves' texts,
the session against a server that follows the full API contract (seat tokens, narrated
events, move numbers, a game the client has never heard of), saving before the end,
colour, and analyze-game on a record with nothing to analyse."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest
from hzai_proto.v3 import bot_pb2, common_pb2, match_pb2

from hzai_client.play import play, rejection
from hzai_client.play_board import colour_wanted
from hzai_client.play_input import InputError, group_moves, read_command


def moves(*texts: str) -> list[common_pb2.Move]:
    return [common_pb2.Move(text=text, action=i) for i, text in enumerate(texts)]


LEGAL = moves("draw", "play Hydra c1r1", "play Hydra c1r2", "play Pegasus c2r1", "challenge c2", "challenge c3",
              "pegasus hand", "pegasus c1", "dionysus c1r1 c3r1", "hades Satyr", "top Hydra@zeus")


@pytest.mark.parametrize("typed, meant", [
    ("dr", "draw"), ("ch 2", "challenge c2"), ("ch c3", "challenge c3"), ("pl hyd 1 2", "play Hydra c1r2"),
    ("play hydra c1r1", "play Hydra c1r1"), ("pl peg 21", "play Pegasus c2r1"), ("peg h", "pegasus hand"),
    ("peg 1", "pegasus c1"), ("dio 1 1 3 1", "dionysus c1r1 c3r1"), ("ha sat", "hades Satyr"),
    ("top hyd@z", "top Hydra@zeus"), ("2", "play Hydra c1r1"), ("PLAY HYDRA C1R2", "play Hydra c1r2"),
])
def test_prefixes_and_numbers_mean_one_legal_move(typed, meant):
    command = read_command(typed, LEGAL)
    assert (command.move, command.legal) == (meant, True)


def test_a_move_written_as_a_number_is_that_move_not_a_listing_number():
    legal = moves("1", "3", "pass")
    assert read_command("3", legal).move == "3" and read_command("2", legal).move == "3"  # listing: 1, 3, pass


def test_a_line_that_fits_no_legal_move_is_sent_for_the_server_s_reason():
    # the numbers go into the one pattern the words fit: the server says why c1 is refused
    assert (read_command("ch 1", LEGAL).move, read_command("ch 1", LEGAL).legal) == ("challenge c1", False)
    assert read_command("pl hyd 3 3", LEGAL).move == "play Hydra c3r3"
    # no pattern fits: sent as typed
    assert read_command("play Satyr c3r1", LEGAL) .move == "play Satyr c3r1"
    assert read_command("play Kraken c1r1", LEGAL).move == "play Kraken c1r1"
    assert read_command("xyzzy", LEGAL).move == "xyzzy"


@pytest.mark.parametrize("typed, words", [
    ("p", "which one? play Hydra c1r1, play Hydra c1r2, play Pegasus c2r1, pegasus hand, pegasus c1"),
    ("pl hyd", "which one? play Hydra c1r1, play Hydra c1r2"),
    ("h", "'h' could be hint, help or hades Satyr: type more letters"),
    ("12", "no move 12: 'moves' numbers them 1 to 11"), ("0", "no move 0"),
])
def test_ambiguous_lines_say_what_to_type(typed, words):
    with pytest.raises(InputError, match=re.escape(words)):
        read_command(typed, LEGAL)


def test_session_words_and_the_moves_listing():
    assert read_command("hi", LEGAL).session == "hint"
    assert read_command("pl 2", moves("place c1", "place c2")).move == "place c2"  # play is not legal now
    assert read_command("q", LEGAL).session == "quit" and read_command("?", LEGAL).session == "help"
    assert read_command("exit", LEGAL).session == "quit" and read_command("moves", LEGAL).session == "moves"
    listing = group_moves(LEGAL)
    assert listing[0] == "  draw        [1]"
    assert "  play        Hydra c1r1 [2] · Hydra c1r2 [3] · Pegasus c2r1 [4]" in listing
    assert "  challenge   c2 [5] · c3 [6]" in listing and "  pegasus     hand [7] · c1 [8]" in listing
    # a long group: a line per second word; longer still: summed up
    some = moves(*(f"setup {a} {b} -" for a in ("Hydra", "Satyr", "Hero", "Io", "Amazon")
                   for b in ("Pegasus", "Sirens", "Medusa", "Pythia")))
    # every choice with its own number
    assert group_moves(some)[:2] == ["  setup       Hydra: Pegasus - [1] · Sirens - [2] · Medusa - [3] · Pythia - [4]",
                                     "              Satyr: Pegasus - [5] · Sirens - [6] · Medusa - [7] · Pythia - [8]"]
    assert len(group_moves(some)) == 5
    names = [f"Card{chr(65 + i)}" for i in range(17)]
    many = moves(*(f"setup {a} {b} -" for a in names for b in ("Pegasus", "Sirens")))  # 17 second words
    assert group_moves(many) == [
        "  setup       34 moves: CardA … [1-2] · CardB … [3-4] · CardC … [5-6] · CardD … [7-8] ·",
        "              CardE … [9-10] · CardF … [11-12] · CardG … [13-14] · CardH … [15-16] · 9 more",
        "              e.g. setup CardA Pegasus -", "              type 'setup' alone to build one piece by piece"]


def test_rejection_drops_the_field_and_the_move():
    details = "move: move 12 'challenge c1': challenge c1: your column c1 is empty: nothing there to challenge with"
    assert rejection(details, "challenge c1") == "your column c1 is empty: nothing there to challenge with"
    assert rejection("move.text: 'zz' is not a move", "zz") == "'zz' is not a move"


def test_colour_only_on_a_real_terminal_without_no_color():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert colour_wanted(Tty(), {"TERM": "xterm"})
    assert not colour_wanted(Tty(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert not colour_wanted(Tty(), {"TERM": "dumb"})
    assert not colour_wanted(io.StringIO(), {"TERM": "xterm"})


# ----- a session against the full contract ----------------------------------------------
class ContractServer:
    """A stand-in for a server of a three-seat game this client has never heard of: it
    sends seat tokens, its board text and narrated events, two of the human's moves and
    one bot turn, then the end. It records every token and move number it was shown."""

    SEATS = ["red", "green", "blue"]

    def __init__(self):
        self.tokens: list = []
        self.move_numbers: list = []
        self.created: dict = {}
        self.step = 0

    def list_games(self):
        return [common_pb2.GameInfo(name="other", title="Another Game", seats=self.SEATS, record_format="other/1"),
                common_pb2.GameInfo(name="tricolore", title="Tricolore", seats=self.SEATS, record_format="tri/1",
                                    cooperative=True, bots=["random"])]

    def _status(self) -> match_pb2.MatchStatus:
        status = match_pb2.MatchStatus(match_id="m1", game="tricolore", seats=self.SEATS, bot_seats=[0, 2],
                                       moves_played=10 + self.step)
        if self.step < 2:
            status.to_move = 1
        elif self.step < 3:
            status.to_move = 2
        else:
            status.over, status.result, status.reason = True, "won", "all_lit"
            status.returns.extend([1, 1, 1])
            status.record_json = json.dumps({"format": "tri/1", "seed": 4, "moves": ["light 1", "light 2"]})
        return status

    def create_match(self, **kwargs):
        self.created = kwargs
        return match_pb2.CreateMatchResponse(status=self._status(),
                                             seats=[match_pb2.SeatToken(seat=1, seat_name="green", token="t1")])

    def get_view(self, match_id, seat=None, *, token=None, with_history=False, timeout=None):
        self.tokens.append(token)
        return match_pb2.GetViewResponse(view=common_pb2.View(game="tricolore", seat=1, json="{}"),
                                         board=f"BOARD AT STEP {self.step}", status=self._status())

    def legal_moves(self, match_id, seat=None, *, token=None, timeout=None):
        self.tokens.append(token)
        return moves("light 1", "light 2", "pass")

    def play_move(self, match_id, move, seat=None, *, token=None, move_number=None, timeout=None):
        self.tokens.append(token)
        self.move_numbers.append(move_number)
        self.step += 1
        event = common_pb2.SeenMove(index=9 + self.step, seat=1, move=common_pb2.Move(text=move),
                                    narration=[f"NARRATED {move}"])
        return match_pb2.PlayMoveResponse(played=event.move, status=self._status(), events=[event])

    def bot_play_turn(self, match_id, seed=0, *, token=None, move_number=None, timeout=None):
        self.tokens.append(token)
        self.move_numbers.append(move_number)
        self.step += 1
        events = [common_pb2.SeenMove(index=12, seat=2, move=common_pb2.Move(text="light ?", redacted=True)),
                  common_pb2.SeenMove(index=13, move=common_pb2.Move(text="chance 3"),
                                      narration=["Game over: every lamp is lit. The team wins."])]
        return match_pb2.BotPlayTurnResponse(moves=[e.move for e in events], status=self._status(), events=events)

    def analyze(self, **kwargs):
        self.tokens.append(kwargs.get("token"))
        return bot_pb2.Analysis(iterations=50, moves=[bot_pb2.MoveInfo(move=common_pb2.Move(text="light 2"), value=0.75,
                                                                       ci_low=0.5, ci_high=0.9)])

    def delete_match(self, match_id, *, token=None, timeout=None):
        self.tokens.append(token)


def test_session_of_an_unknown_game_runs_on_what_the_server_sends(tmp_path):
    server, out, saved = ContractServer(), io.StringIO(), tmp_path / "game.json"
    code = play(server, "green", game="tricolore", seed=None, bot="random", budget={}, params={"lamps": 3},
                hint_budget={"iterations": 50}, save=str(saved), stdin=io.StringIO("moves\nhint\nl 2\n3\n"), out=out,
                colour=False)
    text = out.getvalue()
    assert code == 0, text
    assert text.startswith("Tricolore: you play Green; the bot (random) plays Red, Blue.")
    assert server.created["game"] == "tricolore" and server.created["bot_seats"] == [0, 2]
    assert server.created["params"] == {"lamps": 3} and server.created["open"] is False
    assert "BOARD AT STEP 0" in text and "  light       1 [1] · 2 [2]" in text and "  pass        [3]" in text
    assert "light 2" in text and "75.0%" in text  # the hint
    assert "NARRATED light 2" in text and "NARRATED pass" in text
    assert "Blue: light ?" in text  # no narration: the move as the seat saw it
    assert text.count("Game over") == 1  # the server's ending line, not a second one of ours
    assert "green [3 moves]> " in text
    assert server.tokens and set(server.tokens) == {"t1"}
    assert server.move_numbers == [10, 11, 12]
    assert json.loads(saved.read_text()) == {"format": "tri/1", "seed": 4, "moves": ["light 1", "light 2"]}


class QuietServer(ContractServer):
    """The same game with no narration at all: the client tells the moves and the end."""

    def bot_play_turn(self, *args, **kwargs):
        reply = super().bot_play_turn(*args, **kwargs)
        for event in reply.events:
            del event.narration[:]
        return reply


def test_without_narration_the_moves_and_the_team_s_result_are_told(tmp_path):
    out = io.StringIO()
    assert play(QuietServer(), "green", game="tricolore", seed=None, bot="random", budget={}, params={}, hint_budget={},
                stdin=io.StringIO("1\n1\n"), out=out, colour=False) == 0
    text = out.getvalue()
    assert "  Blue: light ?" in text and "  Chance: chance 3" in text
    assert "Game over: won (all lit). Your team won." in text


def test_a_seat_by_index_and_a_seat_that_does_not_exist():
    from hzai_client.commands import CommandError

    server, out = ContractServer(), io.StringIO()
    assert play(server, "1", game="tricolore", seed=5, bot="", budget={}, params={}, hint_budget={}, stdin=io.StringIO(""),
                out=out, colour=False) == 0
    assert "you play Green" in out.getvalue() and server.created["open"] is True and server.created["seed"] == 5
    with pytest.raises(CommandError, match="tricolore has no seat 'purple'; its seats are 0 red, 1 green, 2 blue"):
        play(ContractServer(), "purple", game="tricolore", seed=None, bot="", budget={}, params={}, hint_budget={},
             stdin=io.StringIO(""), out=io.StringIO(), colour=False)
    with pytest.raises(CommandError, match="plays no game 'chess'; it plays other, tricolore"):
        play(ContractServer(), "0", game="chess", seed=None, bot="", budget={}, params={}, hint_budget={},
             stdin=io.StringIO(""), out=io.StringIO(), colour=False)


# ----- against the server of this tree ----------------------------------------------------
def test_quit_before_the_end_saves_only_what_the_seat_saw(tmp_path):
    saved = tmp_path / "partial.json"
    run = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--bot", "random", "--seed", "7", "--save", str(saved)],
                         input="setup Amazon Cyclops Hydra\ndraw\nquit\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "not a game record" in run.stdout and run.stderr == ""
    data = json.loads(saved.read_text())
    assert data["format"] == "hzai-seat-view/1" and data["finished"] is False and data["game"] == "hera_zeus"
    zeus = [m for m in data["moves"] if m["seat"] == "zeus"]
    assert zeus and zeus[0]["move"] == "setup ? ? ?"
    assert all("?" in m["move"] for m in zeus if m["move"].startswith(("setup", "play")))
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


def test_an_exact_move_beats_the_longer_moves_it_starts():
    legal = moves("support p2 arms", "support p2 arms,courage", "support p2 arms,arms", "support p3 arms")
    assert read_command("sup p2 arms", legal).move == "support p2 arms"
    assert read_command("support p2 arms", legal).move == "support p2 arms"
    with pytest.raises(InputError, match="which one"):
        read_command("sup p2 ar", legal)  # no move has 'ar' in full: still ambiguous
    taken = moves("play Hydra c1r2", "play Hydra@zeus c1r2")
    assert read_command("pl hydra c1r2", taken).move == "play Hydra c1r2"


def test_a_long_move_is_built_from_its_pieces():
    from hzai_client.play_input import builds, next_pieces, pieces

    texts = ["discard arms order courage,speed", "discard arms order speed,courage",
             "discard speed order arms,courage", "discard speed order courage,arms"]
    assert pieces(texts[0]) == [("discard", " "), ("arms", " "), ("order", " "), ("courage", ","), ("speed", "")]
    start = builds("discard", texts)
    assert start == [("discard", " ")] and builds("discard arms", texts) is None and builds("oracle", texts) is None
    assert next_pieces(texts, start) == ([("arms", " "), ("speed", " ")], None)
    chosen = start + [("arms", " "), ("order", " "), ("speed", ",")]
    assert next_pieces(texts, chosen) == ([("courage", "")], None)
    assert next_pieces(texts, chosen + [("courage", "")]) == ([], "discard arms order speed,courage")
