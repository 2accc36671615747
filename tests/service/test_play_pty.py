"""`hzai play` in a pseudo-terminal, as a person meets it (readline input, a secret deal):
a move typed short that one legal move writes out exactly is played even when longer
moves start the same way (`sup p2 arms` with `support p2 arms,courage` legal too), and
at the end the whole board is shown and the deal's seed and salt are checked against
the commitment printed at the start."""

from __future__ import annotations

import codecs
import hashlib
import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|[\x01\x02]")
PROMPT = re.compile(r"p1 \[\d+ moves?\]> $")


class Terminal:
    """A command on a pseudo-terminal: what it wrote (colour codes dropped), and lines typed."""

    def __init__(self, *argv: str):
        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "200", "PYTHONUNBUFFERED": "1"}
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.raw = ""
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")  # a character may span two reads

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw).replace("\r\n", "\n")

    def read_until(self, pattern: re.Pattern, timeout: float = 120.0) -> str:
        """Everything up to the first match of `pattern` at the end of the output."""
        start, seen = time.monotonic(), len(self.text)
        while time.monotonic() - start < timeout:
            if pattern.search(self.text[seen:]):
                return self.text[seen:]
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    chunk = self.decoder.decode(os.read(self.master, 65536))
                except OSError:  # the command ended: its side of the terminal is closed
                    break
                self.raw += chunk
        if pattern.search(self.text[seen:]):
            return self.text[seen:]
        raise AssertionError(f"no {pattern.pattern!r} in:\n{self.text[-3000:]}")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.process.wait(30)
        finally:
            os.close(self.master)


@pytest.fixture
def terminal():
    made = []

    def start(*args):
        made.append(Terminal(sys.executable, "-m", "hzai_client.cli", "play", *args))
        return made[-1]

    yield start
    for t in made:
        if t.process.poll() is None:
            t.process.kill()
        t.process.wait(10)


def test_exact_beats_prefix_and_the_end_reveals_and_checks_the_deal(terminal):
    term = terminal("--game", "legends", "--seats", "me,bot", "--bot", "random", "--budget", "20")
    opening = term.read_until(PROMPT)
    sealed = re.search(r"The deal is sealed: SHA-256 of its seed and salt is ([0-9a-f]{64})", opening)
    assert sealed, opening
    term.type("1")  # place the disc
    board = term.read_until(PROMPT)
    hand = re.search(r"\n  p1 Perseus \(\w+\), bright, on m\d: ([a-z ]+)\n", board)
    assert hand, board
    cards = sorted(hand.group(1).split())
    assert len(cards) == 4
    # "support p2 X" and "support p2 X,Y" are both legal: the shorter is written out exactly
    term.type(f"sup p2 {cards[0]}")
    after = term.read_until(PROMPT)
    assert "which one?" not in after
    assert f"You supported Atalanta (p2) with {cards[0]}." in after
    # then any move until the mission ends
    ended = False
    for _ in range(200):
        term.type("1")
        # the prompt ends what was printed; the ending may arrive together with the last board after it
        out = term.read_until(re.compile(r"p1 \[\d+ moves?\]> $|Game over: [^\n]*\n"))
        if "Game over" in out:
            ended = True
            break
    assert ended
    if "the deal was fixed before the first move." not in out:  # the last board, then the deal
        term.read_until(re.compile(r"the deal was fixed before the first move\.\n$"))
    assert term.close() == 0
    end = term.text[term.text.rindex("Legends of Hellas, mission"):]
    assert end.splitlines()[0].endswith("[referee]")  # the last board hides nothing
    deal = re.search(r"The deal: seed (\d+), salt ([0-9a-f]+)\. SHA-256 of \"\1:\2\" is ([0-9a-f]{64}), the "
                     r"commitment given when the match was created: checked", term.text)
    assert deal, term.text[-3000:]
    seed, salt, shown = deal.groups()
    assert shown == sealed.group(1) == hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def test_a_setup_built_card_by_card_from_numbered_choices(terminal):
    term = terminal("--bot", "random", "--budget", "20", "--seed", "4")
    board = term.read_until(re.compile(r"hera \[\d+ moves\]> $"))
    hand = re.search(r"hand: ([A-Za-z, ]+)\n", board).group(1).split(", ")
    term.type("setup")
    step = term.read_until(re.compile(r"hera \[setup …\]> $"))
    offered = re.findall(r"\[\d+\] (\w+)", step)
    assert "setup … next: [1] " in step and len(offered) >= 3 and set(offered) <= set(hand) | {"-"}
    chosen = []
    for column in range(3):
        term.type("1")
        out = term.read_until(re.compile(r"(hera \[setup [^\]]*…\]> |hera \[\d+ moves\]> )$"))
        chosen.append(re.findall(r"\[1\] (\w+)", step)[-1])
        step = out
    assert f"You set up your front row face down: c1 {chosen[0]}, c2 {chosen[1]}, c3 {chosen[2]}." in step, step
    term.type("quit")
    assert term.close() == 0
