"""How `hzai play` styles its output: ANSI colour on a terminal that takes it.

The board itself is the server's (GetViewResponse.board, drawn for the seat), so the
terminal game draws no game of its own.
"""

from __future__ import annotations

import os


class Style:
    """ANSI colour when the terminal takes it; plain text otherwise."""

    CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, text: str, *styles: str) -> str:
        if not self.enabled or not styles:
            return text
        return "\x1b[" + ";".join(self.CODES[s] for s in styles) + "m" + text + "\x1b[0m"


def colour_wanted(stream, env=None) -> bool:
    """Colour only on a terminal that is not 'dumb', and never with NO_COLOR set."""
    env = os.environ if env is None else env
    if "NO_COLOR" in env:
        return False
    if env.get("TERM", "dumb") in ("", "dumb"):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())
