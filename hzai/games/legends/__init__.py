"""Legends of Hellas, the cooperative game for 1-5 heroes, as an hzai.core game:
the data file (`data`), the reference rules (`rules`, over `table`), notation and
action ids (`moves`), records (`record`), what each seat knows (`knowledge`, `view`),
the heuristic policy and drawing positions (`render`), the adapters to its C++ twin
(`native`). docs/legends.md is its rules text; hzai.search.arena plays it with a team
of bots.

The game is put together here, in one place: LegendsGame is the rules (game.py), its
parts are parts.py's, imported when a game first asks for one (hzai.lazy). `make` is the
factory the registry finds by the folder (hzai.core.registry.folder_games)."""

from hzai.core.game import assemble
from hzai.games.legends.game import LegendsGame, make
from hzai.games.legends.record import Record
from hzai.games.legends.view import LegendsView
from hzai.lazy import lazy_call

# A team game with a C++ twin, a heuristic, a learned team value and a learned card model
# that weighs the worlds (guided_worlds); no hand-made opponent model and no belief report.
assemble(LegendsGame, records=lazy_call("hzai.games.legends.parts:LegendsRecords"),
         search=lazy_call("hzai.games.legends.parts:LegendsSearch"),
         model=lazy_call("hzai.games.legends.parts:LegendsModel"),
         presentation=lazy_call("hzai.games.legends.parts:LegendsPresentation"), cooperative=True)

__all__ = ["LegendsGame", "LegendsView", "Record", "make"]
