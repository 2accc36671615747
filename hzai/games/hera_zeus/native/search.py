"""A seat's view as the native sampler and search read it (hera_zeus.hpp: ViewSpec).

`flat_view` fills the typed structs of the bindings (ViewSpec, ViewSlot, ViewGroup,
ViewPending) field by field with exactly what hzai.games.hera_zeus.belief.Determinizer reads, in the
order it reads it, so that `native_sample(view, seed)` and
`Determinizer(view).sample(seed)` give the same state (tests/native/test_sampler.py).
The tables (phases, reasons, pending kinds; the playouts from the shared
hzai/native/tables.def) come from the .def files the C++ side compiles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hzai import _native
from hzai.games.hera_zeus.belief.view import View
from hzai.games.hera_zeus.belief.view import unaccounted
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.native.state import NativeState, native_game
from hzai.games.hera_zeus.native.tables import ACTION_BLOCKS, PENDING_KINDS, PHASES, REASONS
from hzai.native.tables import PLAYOUTS

if TYPE_CHECKING:
    from hzai.games.hera_zeus.rules.game import Game
from hzai.games.hera_zeus.rules.state import State

SLOT_FIGURE, SLOT_KNOWN, SLOT_GROUP = 0, 1, 2

__all__ = ["PLAYOUTS", "flat_view", "native_sample", "native_sample_raw", "new_pimc", "new_search", "search_options"]


class _Names:
    def __init__(self, core: _native.Game):
        self.index = {name: i for i, name in enumerate(core.names)}

    def code(self, name: str, owner: int) -> int:
        return self.index[name] * 2 + owner

    def ids(self, names) -> list[int]:
        return [self.index[n] for n in names]


def _slot(s, names: _Names) -> _native.ViewSlot:
    slot = _native.ViewSlot()
    if s.figure:
        slot.kind = SLOT_FIGURE
    elif s.card is not None:
        slot.kind = SLOT_KNOWN
        slot.code = names.code(*s.card)
        slot.face_up = s.face_up
    else:
        slot.kind = SLOT_GROUP
        slot.group = s.group
        slot.excluded = names.ids(s.excluded)
    return slot


def _group(g, names: _Names) -> _native.ViewGroup:
    group = _native.ViewGroup()
    group.owner = g.owner
    group.known = names.ids(name for name, n in sorted(g.known.items()) for _ in range(n))
    group.wildcards = [(count, names.ids(excluded)) for count, excluded in g.wildcards]
    return group


def _pending(entry: dict, names: _Names) -> _native.ViewPending:
    pending = _native.ViewPending()
    pending.kind = PENDING_KINDS.index(entry["decision"])
    pending.player = PLAYERS.index(entry["player"])
    if "card" in entry:
        pending.place_code = names.code(entry["card"]["card"], PLAYERS.index(entry["card"]["owner"]))
    pending.pile_positions = list(entry.get("pile_positions", []))
    return pending


def flat_view(view: View, game: Game) -> _native.ViewSpec:
    built = getattr(view, "native_spec", None)  # a view the core built itself (hzai.games.hera_zeus.native.decision)
    if built is not None:
        return built
    names = _Names(native_game(game))
    pools = unaccounted(view, game.deck)
    public = view.public
    spec = _native.ViewSpec()
    spec.columns = [[[_slot(s, names) for s in column] for column in view.columns[p]] for p in (0, 1)]
    spec.hands = [[_slot(s, names) for s in view.hands[p]] for p in (0, 1)]
    spec.discards = [[names.code(n, o) for n, o in view.discards[p]] for p in (0, 1)]
    spec.deck_sizes = list(view.deck_sizes)
    spec.groups = [_group(g, names) for g in view.groups]
    spec.pools = [names.ids(sorted(pools[p].elements())) for p in (0, 1)]
    spec.pending = [_pending(entry, names) for entry in view.pending]
    spec.phase = PHASES.index(public["phase"])
    spec.turn = public["turn"]
    spec.turn_player = PLAYERS.index(public["turn_player"])
    spec.to_move = -1 if public["to_move"] is None else PLAYERS.index(public["to_move"])
    spec.ap = public["ap_left"]
    spec.ap_spent = public["ap_spent"]
    spec.winner = -1 if public["winner"] in (None, "draw") else PLAYERS.index(public["winner"])
    spec.reason = REASONS.index(public["reason"])
    _history(view, spec)
    return spec


def _history(view: View, spec: _native.ViewSpec) -> None:
    """ViewSpec.history_* from the view's history (belief.view.history_of), as the C++
    tracker writes them (hera_zeus.hpp)."""
    history = getattr(view, "history", None)
    if not history:
        return
    kinds = [text for text, _ in ACTION_BLOCKS]
    slots = []
    for c in range(3):
        for r in range(4):
            origin, age, covered, moved = history["slots"].get((c, r), (-1, 0, 0, False))
            slots += [origin, age, covered, int(moved)]
    spec.history_slots = slots
    spec.history_acts = [kinds.index(k) for k in history["acts"]]
    spec.history_counts = [history["counts"].get(k, 0) for k in kinds]


def native_sample_raw(view: View, seed: int, game: Game) -> dict:
    """One determinization as the core's raw dict (no reference State built)."""
    return _native.sample_view(native_game(game), flat_view(view, game), seed).get_raw()


def native_sample(view: View, seed: int, game: Game | None = None, fitted: bool = False) -> State:
    """One determinization drawn by the native core (equal to the Python sampler's);
    `fitted`: the fitted draw alone, equal to `Determinizer.sample_fitted`."""
    game = game or view.game
    core_state = _native.sample_view(native_game(game), flat_view(view, game), seed, fitted)
    return NativeState(game, core_state).to_state()


def search_options(seed: int, threads: int = 1, exploration: float = 0.7, playout: str = "random") -> _native.SearchOptions:
    if playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, not {playout!r}")
    return _native.SearchOptions(exploration=exploration, playout=PLAYOUTS[playout], seed=seed, threads=threads)


def new_search(game: Game, flat: _native.ViewSpec, seed: int, threads: int = 1, exploration: float = 0.7,
               playout: str = "random") -> _native.Search:
    return native_game(game).search(flat, search_options(seed, threads, exploration, playout))


def new_pimc(game: Game, flat: _native.ViewSpec, seed: int, worlds: int, exploration: float = 0.7,
             playout: str = "random") -> _native.Pimc:
    """PIMC over the view: world w drawn with mix_seed(seed, 2w), searched with mix_seed(seed, 2w+1)."""
    return native_game(game).pimc(flat, search_options(seed, 1, exploration, playout), worlds)
