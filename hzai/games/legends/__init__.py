"""Legends of Hellas, the cooperative game for 1-5 heroes, as an hzai.core game:
the data file (`data`), the reference rules (`rules`, over `table`), notation and
action ids (`moves`), records (`record`), what each seat knows (`knowledge`, `view`),
the heuristic policy and drawing positions (`render`), the adapters to its C++ twin
(`native`). docs/legends.md is its rules text; hzai.search.arena plays it with a team
of bots. `make` is the factory pyproject.toml declares (entry point `hzai.games`: legends)."""

from hzai.games.legends.game import LegendsGame, make
from hzai.games.legends.record import Record
from hzai.games.legends.view import LegendsView

LegendsGame.view_type = LegendsView
LegendsGame.record_type = Record

__all__ = ["LegendsGame", "LegendsView", "Record", "make"]
