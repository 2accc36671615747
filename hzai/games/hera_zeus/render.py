"""A text picture of a position, from the referee's side or one player's."""

from __future__ import annotations

from collections import Counter

from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules.variants import COLUMN_DEPTH, COLUMNS
from hzai.games.hera_zeus.rules.state import FIGURE, State

CELL = 13


def _cell(state: State, card: int, side: int, viewer: int | None, known: str | None = None) -> str:
    if card == FIGURE:
        return "<" + PLAYERS[side].upper() + ">"
    c = state.card(card)
    name = c.name if c.owner == side else f"{c.name}@{PLAYERS[c.owner][0]}"
    if card in state.face_up:
        return name
    # Face down: its holder sees it; so does the owner of a Sirens-taken card (R-SIR-1).
    if viewer is None or viewer == side or viewer == c.owner:
        return f"({name})"
    return f"[{known}]" if known else "?"  # hidden, but the viewer has learned what it is


def _rows(state: State, side: int, viewer: int | None, front_first: bool, known: dict | None = None) -> list[str]:
    rows = range(COLUMN_DEPTH) if front_first else reversed(range(COLUMN_DEPTH))
    lines = []
    for r in rows:
        cells = []
        for c in range(COLUMNS):
            column = state.columns[side][c]
            cells.append(_cell(state, column[r], side, viewer, (known or {}).get((c, r))) if r < len(column) else ".")
        lines.append(f"  r{r + 1} " + "".join(x.center(CELL) for x in cells))
    return lines


def _summary(state: State, side: int, viewer: int | None) -> list[str]:
    name = PLAYERS[side].upper()
    pile = state.discards[side]
    top = state.card(pile[-1]).name if pile else "-"
    lines = [f"{name}  hand {len(state.hands[side])} · deck {len(state.decks[side])} · discard {len(pile)} (top {top})"]
    if viewer is None or viewer == side:
        hand = sorted(state.hands[side], key=lambda x: (state.card(x).name.lower(), x))
        shown = [
            state.card(x).name if state.card(x).owner == side else f"{state.card(x).name}@{PLAYERS[state.card(x).owner]}"
            for x in hand
        ]
        lines.append("      hand: " + (", ".join(shown) if shown else "(empty)"))
    else:
        own_there = [state.card(x).name for x in state.hands[side] if state.card(x).owner == viewer]
        if own_there:  # cards taken by Sirens keep their owner's back (R-SIR-1)
            lines.append(f"      hand holds your {', '.join(sorted(own_there))}")
    return lines


def _learned(state: State, side: int, viewer: int) -> tuple[dict, list[str]]:
    """What `viewer` has learned of `side`'s hidden cards (Pythia, challenges, what it
    saw played), from its information set: the face-down cards it can name, by slot, and
    lines for what it knows of the rest (names among some places, names not there)."""
    data = view_of(state, viewer).to_json()
    theirs = data["sides"][PLAYERS[side]]
    known, places, absent = {}, {}, {}
    for c, column in enumerate(theirs["columns"]):
        for r, slot in enumerate(column):
            where = f"c{c + 1}r{r + 1}"
            if "group" in slot:
                places.setdefault(slot["group"], []).append(where)
                for name in slot.get("excluded", []):
                    absent.setdefault(name, []).append(where)
            elif not slot.get("face_up") and slot.get("card") and slot.get("card") != "figure":
                known[(c, r)] = slot["card"]
    in_hand = Counter(slot["group"] for slot in theirs["hand"] if "group" in slot)
    lines = []
    for index, group in enumerate(data.get("groups", [])):
        if group["owner"] != PLAYERS[side] or not group["known"]:
            continue
        where = places.get(index, []) + ([f"{in_hand[index]} in hand"] if in_hand.get(index) else [])
        names = ", ".join(name if n == 1 else f"{name} x{n}" for name, n in group["known"].items())
        lines.append(f"      you know: {names} among {', '.join(where) or 'these cards'}")
    for name, where in sorted(absent.items()):
        lines.append(f"      you know: no {name} at {', '.join(where)}")
    return known, lines


def render(state: State, viewer: int | None = None) -> str:
    """Top of the picture: the opponent (or Zeus for the referee); bottom: the viewer."""
    bottom = 0 if viewer is None else viewer
    top = 1 - bottom

    def who(p: int) -> str:  # the viewer is "you", as the narration says it
        return "you" if p == viewer else PLAYERS[p].capitalize()

    header = f"Turn {state.turn} · " + (
        f"over: {'draw' if state.winner is None else who(state.winner) + (' win' if state.winner == viewer else ' wins')}"
        f" ({state.reason})"
        if state.is_over
        else ("setup" if state.phase == "setup" else
              f"{'your' if state.turn_player == viewer else PLAYERS[state.turn_player].capitalize() + chr(39) + 's'} "
              f"turn · {state.ap} AP left")
    )
    if state.pending:
        header += f" · waiting for {state.pending[0].kind} ({who(state.pending[0].player)})"
    columns = "      " + "".join(f"c{c + 1}".center(CELL) for c in range(COLUMNS))
    known, learned = _learned(state, top, viewer) if viewer is not None else ({}, [])
    lines = [header, ""]
    lines += _summary(state, top, viewer) + learned
    lines.append(columns)
    lines += _rows(state, top, viewer, front_first=False, known=known)
    lines.append("      " + "-" * (CELL * COLUMNS))
    lines += _rows(state, bottom, viewer, front_first=True)
    lines.append(columns)
    lines += _summary(state, bottom, viewer)
    lines += ["", "(Name) face down · ? hidden · [Name] hidden but known to you · Name@x taken from the other player · "
                  "<HERA>/<ZEUS> figure"]
    return "\n".join(lines)
