"""The registration line that makes a server play the toy game:
`hzai-server --load-games tests.toygame.plugin` (or HZAI_LOAD_GAMES)."""

from hzai.core import register_game
from tests.toygame import ToyGame

register_game(ToyGame.name, ToyGame)

from tests.toygame.team import TeamGame  # noqa: E402  (the cooperative toy game, three seats)

register_game(TeamGame.name, TeamGame)
