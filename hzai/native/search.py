"""Views flattened for the native sampler and search (search.hpp: ViewSpec).

`flat_view` carries exactly what hzai.belief.Determinizer reads, in the order it reads
it, so that `sample_view(view, seed)` and `Determinizer(view).sample(seed)` give the
same state; tests/native/test_search.py holds them to that.
"""

from __future__ import annotations

from hzai import _native
from hzai.belief import View
from hzai.belief.view import unaccounted
from hzai.cards import PLAYERS
from hzai.native import NativeState, native_game, raw_of
from hzai.rules.game import Game
from hzai.rules.state import FIGURE, State

SLOT_FIGURE, SLOT_KNOWN, SLOT_GROUP = 0, 1, 2
PENDING_KINDS = ("chance", "place", "top")
PHASES = ("setup", "play", "over")
REASONS = (None, "hostage_found", "no_cards", "no_action", "pandora", "turn_limit")
PLAYOUTS = {"random": 0, "light": 1}


class _Names:
    def __init__(self, core: _native.Game):
        self.index = {name: i for i, name in enumerate(core.names)}

    def code(self, name: str, owner: int) -> int:
        return self.index[name] * 2 + owner

    def ids(self, names) -> list[int]:
        return [self.index[n] for n in names]


def flat_view(view: View, game: Game) -> dict:
    core = native_game(game)
    names = _Names(core)

    def slot(s) -> tuple:
        if s.figure:
            return (SLOT_FIGURE, -1, -1, False, [])
        if s.card is not None:
            return (SLOT_KNOWN, names.code(*s.card), -1, s.face_up, [])
        return (SLOT_GROUP, -1, s.group, False, names.ids(s.excluded))

    pools = unaccounted(view, game.deck)
    public = view.public
    pending = []
    for entry in view.pending:
        kind = PENDING_KINDS.index(entry["decision"])
        place = -1
        if "card" in entry:
            place = names.code(entry["card"]["card"], PLAYERS.index(entry["card"]["owner"]))
        pending.append((kind, PLAYERS.index(entry["player"]), place, list(entry.get("pile_positions", []))))
    return {
        "columns": [[[slot(s) for s in column] for column in view.columns[p]] for p in (0, 1)],
        "hands": [[slot(s) for s in view.hands[p]] for p in (0, 1)],
        "discards": [[names.code(n, o) for n, o in view.discards[p]] for p in (0, 1)],
        "deck_sizes": list(view.deck_sizes),
        "groups": [
            (
                g.owner,
                names.ids(name for name, n in sorted(g.known.items()) for _ in range(n)),
                [(count, names.ids(excluded)) for count, excluded in g.wildcards],
            )
            for g in view.groups
        ],
        "pools": [names.ids(sorted(pools[p].elements())) for p in (0, 1)],
        "pending": pending,
        "phase": PHASES.index(public["phase"]),
        "turn": public["turn"],
        "turn_player": PLAYERS.index(public["turn_player"]),
        "to_move": -1 if public["to_move"] is None else PLAYERS.index(public["to_move"]),
        "ap": public["ap_left"],
        "ap_spent": public["ap_spent"],
        "winner": -1 if public["winner"] in (None, "draw") else PLAYERS.index(public["winner"]),
        "reason": REASONS.index(public["reason"]),
    }


def flat_world(state: State | dict, game: Game | None = None) -> dict:
    """A full state (a reference State, or the core's raw dict with its game) as a view
    that knows every card but the deck orders: the world a perfect-information
    search (PIMC) plays in."""
    if isinstance(state, State):
        game, raw = state.game, raw_of(state)
    else:
        raw = state
    core = native_game(game)
    names = _Names(core)
    cards = game.deck.cards
    face_up = set(raw["face_up"])

    def code(card: int) -> int:
        return names.code(cards[card].name, cards[card].owner)

    def known(card: int, up: bool = False) -> tuple:
        if card == FIGURE:
            return (SLOT_FIGURE, -1, -1, False, [])
        return (SLOT_KNOWN, code(card), -1, up, [])

    pending = []
    for kind, player, block in raw["pending"]:
        place = code(block[0]) if kind == "place" else -1
        positions = sorted(raw["discards"][player].index(x) for x in block) if kind == "top" else []
        pending.append((PENDING_KINDS.index(kind), player, place, positions))
    return {
        "columns": [[[known(x, x in face_up) for x in column] for column in raw["columns"][p]] for p in (0, 1)],
        "hands": [[known(x) for x in sorted(raw["hands"][p], key=lambda x: (cards[x].name, x))] for p in (0, 1)],
        "discards": [[code(x) for x in raw["discards"][p]] for p in (0, 1)],
        "deck_sizes": [len(raw["decks"][0]), len(raw["decks"][1])],
        "groups": [],
        "pools": [names.ids(sorted(cards[x].name for x in raw["decks"][p])) for p in (0, 1)],
        "pending": pending,
        "phase": PHASES.index(raw["phase"]),
        "turn": raw["turn"],
        "turn_player": raw["turn_player"],
        "to_move": -1 if raw["to_move"] is None else raw["to_move"],
        "ap": raw["ap"],
        "ap_spent": raw["ap_spent"],
        "winner": -1 if raw["winner"] is None else raw["winner"],
        "reason": REASONS.index(raw["reason"]),
    }


def native_sample_raw(view: View, seed: int, game: Game) -> dict:
    """One determinization as the core's raw dict (no reference State built)."""
    return _native.sample_view(native_game(game), flat_view(view, game), seed).get_raw()


def native_sample(view: View, seed: int, game: Game | None = None) -> State:
    """One determinization drawn by the native core (equal to the Python sampler's)."""
    game = game or view.game()
    core_state = _native.sample_view(native_game(game), flat_view(view, game), seed)
    return NativeState(game, core_state).to_state()


def new_search(game: Game, flat: dict, seed: int, threads: int = 1, exploration: float = 0.7, playout: str = "random") -> _native.Search:
    if playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, not {playout!r}")
    return _native.Search(native_game(game), flat, exploration, PLAYOUTS[playout], seed, threads)
