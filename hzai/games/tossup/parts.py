"""The parts of Toss-up above its rules (game.py): the search support, which hands the
generic search the C++ twin (native/tossup.hpp, bound by native/tossup_bindings.cpp),
and the model part (self-play's features; no model file is shipped). The package
assembles them into TossupGame (__init__.py); the rules never import this module."""

from __future__ import annotations

import threading
from pathlib import Path

from hzai.core.search_support import Model, SearchSupport
from hzai.games.tossup.game import MOVES, TossupGame, TossupState, TossupView

try:  # the native core; only where it is not built is it missing
    from hzai import _native
except ImportError:  # pragma: no cover - only without a built core
    _native = None

_HANDLE = None
_LOCK = threading.Lock()


def handle():
    """The twin's game, made once from the reference's move texts (the twin finds each
    move's id by its text, and sorts the texts for the search's tie-break); None where
    the native core is not built or was built without this folder's twin (an install
    older than the game: the Python search plays it)."""
    global _HANDLE
    if getattr(_native, "TossupGame", None) is None:  # no core, or one built before this game's twin
        return None
    with _LOCK:
        if _HANDLE is None:
            _HANDLE = _native.TossupGame(list(MOVES))
    return _HANDLE


def native_state(state: TossupState):
    """The twin's state equal to a reference state."""
    return handle().state(list(state.cards), [state.game.action_of(m) for m in state.history])


class TossupSearch(SearchSupport):
    """The twin (capability native); random playouts, no heuristic, no opponent model."""

    @property
    def native(self):
        return handle()

    def native_view(self, view: TossupView):
        """The view as the twin's typed view: the seat, its card and the moves' ids."""
        return handle().view(view.seat, view.card, [view.game.action_of(m) for m in view.history])

    def native_start(self, seed: int):
        return native_state(self.game.new_state(seed))


if getattr(_native, "TossupGame", None) is None:
    # No core, or one built before this folder's twin (an editable install not rebuilt):
    # the game is then not native (capability native is native_view's presence) and the
    # Python search plays it, rather than an AttributeError in the middle of a search.
    TossupSearch.native_view = None
    TossupSearch.native_start = None


class TossupModel(Model):
    """Self-play's records read the twin's features (tossup_bindings.cpp); the game ships
    no model file, so its search is never guided."""

    file = Path(__file__).resolve().parent / "models" / "tossup.npz"  # absent: no model shipped
    feature_layout = "tossup-1"


__all__ = ["TossupGame", "TossupModel", "TossupSearch", "handle", "native_state"]
