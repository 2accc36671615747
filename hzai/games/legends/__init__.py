"""Legends of Hellas, the cooperative game for 1-5 heroes, as an hzai.core game:
the data file (`data`), the reference rules (`rules`, over `table`), notation and
action ids (`moves`), records (`record`), what each seat knows (`knowledge`, `view`),
the heuristic policy, drawing positions (`render`) and an all-seeing team for
benchmarks (`team`). docs/legends.md is its rules text."""

from hzai.core.registry import register_game
from hzai.games.legends.game import LegendsGame, make

register_game(LegendsGame.name, make)

__all__ = ["LegendsGame", "make"]
