"""The compact board of `hzai play`, drawn from the seat's PlayerView only.

The opponent's side is on top, its front row (r1) at the bottom of its block so that the
two front rows face each other; a side shows only as many rows as its deepest column.
Own face-down cards are `(Name)`, face-up cards `Name`, cards the seat cannot see `?`,
figures `<HERA>` / `<ZEUS>`; a card held by the player who does not own it (taken by
Sirens) carries its owner's initial, `Hydra@z`.
"""

from __future__ import annotations

import os

from hzai_client.messages import player_name

CELL = 12


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


def _cell(slot, side: str, style: Style) -> tuple[str, str]:
    """(plain text, styled text) of one slot; the plain one sets the width."""
    which = slot.WhichOneof("content")
    if which == "figure":
        text = f"<{side.upper()}>"
        return text, style(text, "yellow", "bold")
    if which == "card":
        owner = player_name(slot.card.owner)
        text = slot.card.name + ("" if owner == side else f"@{owner[0]}")
        if slot.face_up:
            return text, style(text, "bold")
        return f"({text})", style(f"({text})", "green")
    return "?", style("?", "dim")


def _row_lines(view_side, side: str, rows, style: Style) -> list[str]:
    lines = []
    for r in rows:
        cells = []
        for column in view_side.columns:
            if r < len(column.slots):
                plain, styled = _cell(column.slots[r], side, style)
            else:
                plain, styled = ".", style(".", "dim")
            pad = max(0, CELL - len(plain))
            cells.append(" " * (pad // 2) + styled + " " * (pad - pad // 2))
        lines.append(f"  r{r + 1} " + "".join(cells).rstrip())
    return lines


def _depth(view_side) -> int:
    return max(1, max((len(c.slots) for c in view_side.columns), default=0))


def _pile(view_side) -> str:
    if not view_side.discard:
        return "discard 0"
    top = view_side.discard[-1]
    return f"discard {len(view_side.discard)}, top {top.name}"


def _hand(view_side, holder: str, seat: str) -> str:
    known = sorted(s.card.name + ("" if player_name(s.card.owner) == holder else f"@{player_name(s.card.owner)[0]}")
                   for s in view_side.hand if s.WhichOneof("content") == "card")
    if holder == seat:
        return "hand: " + (", ".join(known) if known else "(empty)")
    hidden = len(view_side.hand) - len(known)
    return f"hand {len(view_side.hand)}" + (f" (known: {', '.join(known)}; {hidden} unknown)" if known else "")


def draw_board(view, seat: str, style: Style) -> str:
    """The position as `seat` sees it, in about ten lines."""
    other = "zeus" if seat == "hera" else "hera"
    mine, theirs = getattr(view, seat), getattr(view, other)
    if view.phase == "over":
        head = "Final position"
    elif view.phase == "setup":
        head = f"Setup · {'your' if player_name(view.to_move) == seat else other.capitalize() + chr(39) + 's'} choice"
    else:
        turn_player = player_name(view.turn_player)
        whose = "your turn" if turn_player == seat else f"{turn_player.capitalize()}'s turn"
        head = f"Turn {view.turn} · {whose} · {view.ap_left} AP left"
    for pending in view.pending:
        head += f" · waiting for {pending.decision} ({player_name(pending.player)})"
    columns = "     " + "".join(f"c{c + 1}".center(CELL) for c in range(3)).rstrip()
    lines = [style(head, "cyan", "bold"),
             f"{other.capitalize():<5}  {_hand(theirs, other, seat)} · deck {theirs.deck_size} · {_pile(theirs)}",
             columns]
    lines += _row_lines(theirs, other, reversed(range(_depth(theirs))), style)
    lines.append("     " + "-" * (CELL * 3))
    lines += _row_lines(mine, seat, range(_depth(mine)), style)
    lines.append(f"{'You':<5}  {_hand(mine, seat, seat)} · deck {mine.deck_size} · {_pile(mine)}")
    return "\n".join(lines)
