"""What a move did, in words, from one seat's side of the table.

`narrate(before, move, after, seat)` takes the referee's states around one move and
tells only what `seat` may know (None: a spectator): the move as the seat saw it
(`hzai.rules.observed`), cards a challenge turned face up and which one lost, the end
of the game and why. Front ends show these lines; they never carry a hidden card.
"""

from __future__ import annotations

from hzai.cards import PLAYERS
from hzai.rules import Move, State
from hzai.rules.observed import seen_move

REASONS = {
    "hostage_found": "found the hostage",
    "no_cards": "the loser had no card left on the own side",
    "no_action": "the loser had action points left and no legal action",
    "pandora": "Pandora's box took a hostage",
    "turn_limit": "the turn limit was reached",
}


def _who(player: int | None, seat: int | None) -> str:
    if player is None:
        return "chance"
    return "you" if player == seat else PLAYERS[player].capitalize()


def ending(after: State, seat: int | None) -> str:
    why = REASONS.get(after.reason or "", (after.reason or "").replace("_", " "))
    if after.winner is None:
        return f"The game is drawn: {why}."
    return f"{'You win' if after.winner == seat else PLAYERS[after.winner].capitalize() + ' wins'}: {why}."


def narrate(before: State, move: Move, after: State, seat: int | None) -> list[str]:
    seen = seen_move(before, move, seat)
    lines = [f"{_who(seen.mover, seat)}: {seen.text}"]
    if after.is_over and not before.is_over:
        lines.append(ending(after, seat))
    return lines
