"""Toss-up, a two-seat game of one hidden card each, shipped as the smallest example of a
game with a C++ twin (README.md beside this file has its rules). Everything it is lives in
this folder: the rules (game.py), its parts (parts.py), the twin (native/), which
CMakeLists.txt finds by its folder; `make` is the factory the registry finds by the
folder (hzai.core.registry.folder_games)."""

from hzai.core.game import assemble
from hzai.games.tossup.game import TossupGame, TossupState, TossupView, make
from hzai.lazy import lazy_call

# Every move is seen by both seats (the cards are dealt by the seed and stay hidden); the
# twin and the model part are imported when a game first asks for them.
assemble(TossupGame, search=lazy_call("hzai.games.tossup.parts:TossupSearch"),
         model=lazy_call("hzai.games.tossup.parts:TossupModel"), public_moves=True)

__all__ = ["TossupGame", "TossupState", "TossupView", "make"]
