"""Small words in messages: plurals, and a move quoted once."""

from __future__ import annotations

import subprocess
import sys

from hzai.text import plural, without_echo


def test_plural():
    assert (plural(0, "card"), plural(1, "card"), plural(2, "card")) == ("0 cards", "1 card", "2 cards")
    assert plural(1, "occupant") == "1 occupant" and plural(3, "DI card") == "3 DI cards"


def test_a_reason_does_not_repeat_the_move():
    assert without_echo("'fly away': unknown move 'fly'", "fly away") == "unknown move 'fly'"
    assert without_echo("challenge c1: your column c1 is empty", "challenge c1") == "your column c1 is empty"
    assert without_echo("unknown card 'Kraken'", "play Kraken c1r1") == "unknown card 'Kraken'"


def test_each_budget_help_states_the_default_the_command_uses():
    def help_of(command):
        done = subprocess.run([sys.executable, "-m", "hzai.cli", command, "--help"], capture_output=True, text=True,
                              timeout=60)
        return " ".join(done.stdout.split())

    assert "default 200 iterations" in help_of("team")
    assert "default 1s" in help_of("analyze") and "default 2000 iterations" in help_of("analyze-game")
    assert "default 1000 iterations" in help_of("arena")
