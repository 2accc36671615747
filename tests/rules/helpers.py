"""Small helpers shared by the rule tests: build, act, look."""

from __future__ import annotations

from hzai.games.hera_zeus.rules import Game, Record, state_to_json
from hzai.games.hera_zeus.rules.position import Side, position  # noqa: F401  (re-exported for the tests)
from hzai.games.hera_zeus.rules.state import Event

HERA, ZEUS = 0, 1


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def kinds(state) -> set[str]:
    """The first word of every legal move ('pegasus hand' counts as 'pegasus')."""
    return {str(m).split()[0] for m in state.legal_moves()}


def push(state, *texts: str):
    for text in texts:
        state.push_text(text)
    return state


def js(state) -> dict:
    return state_to_json(state)


def column(state, player: str, c: int) -> list[str]:
    """Column cX of a side as tokens: 'figure', 'Hydra', 'Hydra*' (face up), 'Hydra@zeus'."""
    out = []
    for entry in js(state)["sides"][player]["columns"][c - 1]:
        if entry["card"] == "figure":
            out.append("figure")
            continue
        token = entry["card"] + ("" if entry["owner"] == player else f"@{entry['owner']}")
        out.append(token + ("*" if entry["face_up"] else ""))
    return out


def pile(state, player: str) -> list[str]:
    """Discard pile bottom first; cards of the other owner as NAME@owner."""
    return [
        c["card"] + ("" if c["owner"] == player else f"@{c['owner']}")
        for c in js(state)["sides"][player]["discard_cards"]
    ]


def hand(state, player: str) -> list[str]:
    return sorted(
        c["card"] + ("" if c["owner"] == player else f"@{c['owner']}")
        for c in js(state)["sides"][player]["hand_cards"]
    )


def result(state) -> tuple:
    j = js(state)
    return j["winner"], j["reason"]


def reveals(state, since: int = 0) -> list[Event]:
    return [e for e in state.events[since:] if e.kind == "reveal"]


def whole_deck(game: Game, owner: int) -> list[str]:
    return [game.deck.cards[x].name for x in game.deck.ids_of(owner)]


def explicit_setup(game: Game, hera_hand: list[str], zeus_hand: list[str]) -> dict:
    """A deal with the given hands; the rest of each deck in file order, top first."""
    setup = {}
    for owner, (player, chosen) in enumerate((("hera", hera_hand), ("zeus", zeus_hand))):
        rest = whole_deck(game, owner)
        for name in chosen:
            rest.remove(name)
        setup[player] = {"hand": list(chosen), "deck": rest}
    return setup


def record(hera_hand, zeus_hand, moves_=(), variants=None) -> Record:
    game = Game.create(variants)
    return Record(game, setup=explicit_setup(game, hera_hand, zeus_hand), moves=list(moves_))
