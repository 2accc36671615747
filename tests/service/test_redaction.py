"""No peeking: whole games against a bot seat, and nothing any answer to the human seat
carries names a card that seat cannot see.

The human seat plays random legal moves through the API; after the game the test
rebuilds every referee state from the final record and checks each answer against the
library: the human's view (hzai.games.hera_zeus.belief.view_of) decides which bot cards were hidden;
views and boards must be the library's for that seat; every move shown must be the
seat's observed text, with no card name where the card was hidden.
"""

from __future__ import annotations

import json
import re

import pytest

from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.render import render
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, parse_move
from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.observed import seen_move
from hzai_client import messages as m

from .matchkit import seat_name
from .matchkit import create, play_out, record_of

GAMES = 20
NAMES = sorted({c.name for c in Game.create().deck.cards})
# Narration names the players; "Hera" and "Zeus" are also god cards, played face up.
CARD_WORD = re.compile(r"\b(" + "|".join(n for n in NAMES if n not in ("Hera", "Zeus")) + r")\b")


def hidden_from(view: dict, owner: str, kind: str, move) -> bool:
    """Whether the card(s) `move` (by `owner`) put on the table are hidden in `view`."""
    columns = view["sides"][owner]["columns"]
    if kind == mv.PLAY:
        return "group" in columns[move.col - 1][move.row - 1]
    return all("group" in column[0] for column, card in zip(columns, move.setup or ()) if card is not None)


def check_entry(entry_move, narration, index, states, moves, human):
    """One move as shown to `human` against the library's picture of it."""
    before, move = states[index], moves[index]
    expected = seen_move(before, move, human)
    assert entry_move.text == expected.text, (index, entry_move.text, expected.text)
    mover = before.to_move if not move.is_chance else None
    if mover is None or mover == human or move.kind not in (mv.SETUP, mv.PLAY):
        return False
    view = view_of(states[index + 1], human).to_json()
    if not hidden_from(view, seat_name(mover), move.kind, move):
        return False
    assert entry_move.redacted, (index, entry_move.text)
    assert not CARD_WORD.search(entry_move.text) and "Hera" not in entry_move.text.split()[1:]
    detail = m.detail(entry_move)
    assert not entry_move.HasField("action")  # an action id would name the card
    assert detail.card.name == "" and all(c.name == "" for c in detail.setup)
    for line in narration:
        assert not CARD_WORD.search(line), (index, line)
    return True


@pytest.mark.parametrize("game", range(GAMES))
def test_nothing_shown_to_the_human_seat_names_a_hidden_card(client, game):
    human_name = ("hera", "zeus")[game % 2]
    human = game % 2
    open_ = game % 4 < 2  # half the games from a chosen seed, half from a secret one
    seats = create(client, seed=1000 + game if open_ else 0, open=open_, bot=("random", "heuristic")[game // 2 % 2],
                   bot_seats=[1 - human])
    token = seats[human_name]
    seen: list[tuple[str, object]] = []
    rng = SplitMix64(game)

    def observe(_who, reply):
        seen.append(("reply", reply))
        if not reply.status.over:
            assert not reply.status.record_json and not reply.status.final_state_json
            assert not reply.status.salt and (reply.status.seed == 0) != open_
        view = client.get_view(seats.id, token=token, with_history=len(seen) % 8 == 0)
        seen.append(("view", view))

    final = play_out(client, seats, rng, observe)
    record = record_of(final)
    states = [record.start()]
    moves = []
    for text in record.moves:
        moves.append(parse_move(text, states[-1].deck))
        after = states[-1].copy()
        after.push(moves[-1])
        states.append(after)

    redacted = 0
    for kind, message in seen:
        if kind == "view":
            n = message.status.moves_played
            # the board of a finished game hides nothing (its record is public by then)
            assert message.board == render(states[n], None if states[n].is_over else human)
            assert json.loads(message.view.json) == json.loads(json.dumps(view_of(states[n], human).to_json()))
            assert [h.index for h in message.history] == (list(range(n)) if message.history else [])
            for h in message.history:
                redacted += check_entry(h.move, h.narration, h.index, states, moves, human)
            continue
        shown = [message.played, *message.chance] if hasattr(message, "played") else list(message.moves)
        assert [e.move for e in message.events] == shown
        for entry in message.events:
            expected = None if moves[entry.index].is_chance else states[entry.index].to_move
            assert (entry.seat if entry.HasField("seat") else None) == expected
            redacted += check_entry(entry.move, entry.narration, entry.index, states, moves, human)
    assert redacted >= 1  # at least the bot's setup was hidden and checked
