"""`hzai play` as a person meets it: a whole game of Hera and Zeus in a pseudo-terminal
against the random bot on the embedded server (hzai.v3), moves typed short, by number and
in full, a rejected move with the server's reason, narration of a challenge, the bot's
face-down cards never shown, the server's board, and a saved record the other commands
read."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest

fcntl = pytest.importorskip("fcntl", reason="pseudo-terminals are POSIX")
termios = pytest.importorskip("termios", reason="pseudo-terminals are POSIX")

PROMPT = re.compile(r"(hera|zeus) [^\n>]*> $")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
# Generous: only a hung game reaches it; the game itself takes a few seconds.
SESSION_LIMIT = 30.0
# Where a process sleeps while it waits for terminal input (/proc/PID/wchan): readline
# polls its input, a plain read waits in the terminal driver.
READING = ("poll_schedule_timeout", "do_select", "do_sys_poll", "wait_woken", "n_tty_read")


def _own_terminal() -> None:
    """In the child, in its own session (start_new_session): the pseudo-terminal becomes
    its controlling terminal, so that Ctrl-C typed there is a SIGINT as in a real one.
    SIGINT goes back to its default: a suite started in the background by a
    non-interactive shell (`cmd &`) ignores it, an ignored signal survives exec, and a
    Python that starts with SIGINT ignored installs no KeyboardInterrupt, so Ctrl-C
    would do nothing. Nothing here imports: the parent may have other threads."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A child process on a pseudo-terminal; everything it printed is in `text`."""

    def __init__(self, argv: list[str], env: dict):
        self.master, slave = os.openpty()
        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
                                        start_new_session=True, preexec_fn=_own_terminal)
        os.close(slave)
        self.raw = ""
        self.deadline = time.monotonic() + SESSION_LIMIT

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw)

    def read_until_prompt(self, since: int = 0) -> bool:
        """Read until a prompt printed after text position `since` waits for input (True)
        or the program ends (False)."""
        while time.monotonic() < self.deadline:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    return False
                if not chunk:
                    return False
                self.raw += chunk.decode("utf-8", "replace")
                if PROMPT.search(self.text[since:]):
                    return True
            elif self.process.poll() is not None:
                return False
        raise AssertionError("hzai play hung:\n" + self.text[-3000:])

    def wait_reading(self) -> None:
        """Wait until the program's main thread sleeps in a read of the terminal: a line
        typed while readline is still switching the terminal's mode can be flushed away."""
        wchan = f"/proc/{self.process.pid}/task/{self.process.pid}/wchan"
        while time.monotonic() < self.deadline and self.process.poll() is None:
            try:
                with open(wchan) as f:
                    if f.read().strip().startswith(READING):
                        return
            except OSError:  # no /proc here: nothing better to wait for
                return
            time.sleep(0.01)

    def send(self, line: str) -> str:
        """Type a line; answer what was printed until the next prompt (or the end)."""
        start = len(self.text)
        self.wait_reading()
        os.write(self.master, (line + "\n").encode())
        self.read_until_prompt(since=start)  # a new prompt, not the one the line answers
        return self.text[start:]

    def close(self) -> int:
        try:
            code = self.process.wait(30)
            self._drain()
            return code
        finally:
            os.close(self.master)

    def _drain(self) -> None:
        """What the program printed on its way out, after the last prompt."""
        while select.select([self.master], [], [], 0)[0]:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.raw += chunk.decode("utf-8", "replace")


def choose(listing: str) -> str:
    """A move from the `moves` listing, typed as a person would: a challenge if there is
    one (short: ch 2), else setup (the example the listing gives), draw (dr), play (in
    full), else the first move by its number."""
    lines = [line.strip() for line in listing.splitlines() if line.startswith("  ") and not line.startswith(" " * 14)]
    by_word = {line.split()[0]: line for line in lines}
    if "challenge" in by_word:
        return "ch " + by_word["challenge"].split()[1][1:]
    if "setup" in by_word:  # a summed-up group gives its example on a line of its own
        example = re.search(r"e\.g\. (setup [^;\n]*?)(;|\n|$)", listing)
        return example.group(1) if example else "setup " + by_word["setup"].split(" [")[0].split(None, 1)[1]
    if "draw" in by_word:
        return "dr"
    if "play" in by_word:  # `play Hydra c1r1 [2] · ...` or, for many, `play Hydra: c1r1 c1r2 [2-3]`
        first = by_word["play"].split(None, 1)[1].split(" [")[0]
        card, colon, slots = first.partition(": ")
        return f"play {card} {slots.split()[0]}" if colon else f"play {first}"
    return re.search(r"\[(\d+)", lines[0]).group(1)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """One whole game through the terminal; its transcript and the saved record."""
    saved = tmp_path_factory.mktemp("play") / "game.json"
    env = {**os.environ, "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
    env.pop("NO_COLOR", None)
    term = Terminal([sys.executable, "-m", "hzai_client.cli", "play", "--bot", "random", "--seed", "7",
                     "--hint-budget", "50", "--param", "turn_limit=60", "--save", str(saved)], env)
    rejected = None
    try:
        alive = term.read_until_prompt()
        while alive:
            listing = term.send("moves")
            if rejected is None and "  draw" in listing:
                rejected = term.send("challenge c1")  # the first turn: no challenges (R-TURN-6)
            before = len(term.text)
            term.send(choose(listing))
            alive = PROMPT.search(term.text[before:]) is not None
    finally:
        code = term.close()
    return {"text": term.text, "code": code, "saved": saved, "rejected": rejected}


def test_the_game_starts_with_how_to_stop_and_ends_with_a_result(game):
    text = game["text"]
    assert game["code"] == 0, text[-2000:]
    assert "stop with 'quit', Ctrl-C or Ctrl-D" in text and "Type 'help'" in text
    assert "Game over" in text
    assert "Traceback" not in text and '"event"' not in text  # no JSON server logs in the terminal


def test_a_rejected_move_says_why(game):
    assert "Not played: challenge c1: no challenge in a player's first turn" in game["rejected"]


def test_a_challenge_is_narrated_with_what_was_discarded(game):
    lines = game["text"].splitlines()
    told = [i for i, line in enumerate(lines) if re.search(r"(You: challenge c\d|You challenge in c\d)", line)]
    assert told, "the test game made no challenge"
    outcomes = [" ".join(lines[i + 1:i + 4]) for i in told]
    # every challenge is followed by what it did: cards discarded, turned face up, or the end
    assert all(re.search(r"discard|face up|Game over", after) for after in outcomes), outcomes
    assert any("discard" in after for after in outcomes)


def test_the_bot_s_face_down_cards_never_show_before_the_end(game):
    record = json.loads(game["saved"].read_text())
    bot_setup = record["moves"][1]  # Zeus's `setup A B C`
    text = game["text"]
    body = text[: text.index("Game over")]
    assert bot_setup not in body
    for line in body.splitlines():
        shown = re.search(r"Zeus: (setup|play) (.*)", line)
        if shown:
            words = shown.group(2).split()
            cards = words if shown.group(1) == "setup" else words[:1]
            assert all(w in ("?", "-") for w in cards), line
        assert not re.search(r"Zeus plays (?!a card|your )\S+ face down", line), line
    assert re.search(r"Zeus: setup \? \? \?|Zeus sets up 3 face-down cards", body)


def test_the_saved_record_replays_and_analyses(game):
    record = json.loads(game["saved"].read_text())
    assert record["format"] == "hzai-record/1" and len(record["moves"]) > 10
    replay = subprocess.run([sys.executable, "-m", "hzai.cli", "replay", str(game["saved"])],
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["winner"] is not None or json.loads(replay.stdout)["reason"] == "turn_limit"
    review = subprocess.run([sys.executable, "-m", "hzai.cli", "analyze-game", str(game["saved"]), "--as", "hera",
                             "--budget", "200", "--quiet"], capture_output=True, text=True, timeout=120)
    assert review.returncode == 0, review.stderr
    assert "hera:" in review.stdout and "decisions" in review.stdout


def test_ctrl_c_leaves_the_game_and_saves_what_the_seat_saw(tmp_path):
    saved = tmp_path / "partial.json"
    env = {**os.environ, "TERM": "xterm", "PYTHONUNBUFFERED": "1"}
    env.pop("NO_COLOR", None)
    term = Terminal([sys.executable, "-m", "hzai_client.cli", "play", "--bot", "random", "--seed", "7", "--save", str(saved)],
                    env)
    try:
        assert term.read_until_prompt()
        assert "\x1b[" in term.raw  # a terminal that takes colour gets it
        term.send("setup Amazon Cyclops Hydra")
        term.wait_reading()
        os.write(term.master, b"\x03")
        term.read_until_prompt()
    finally:
        code = term.close()
    assert code == 130, term.text[-1000:]
    assert "Interrupted: you left the game." in term.text and "Traceback" not in term.text
    data = json.loads(saved.read_text())
    assert data["format"] == "hzai-seat-view/1"
    assert [m["move"] for m in data["moves"]][:2] == ["setup Amazon Cyclops Hydra", "setup ? ? ?"]
