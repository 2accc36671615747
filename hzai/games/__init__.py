"""The games hzai plays, each a package implementing hzai.core's Game, State and View.
Importing this package registers them with hzai.core.registry."""

from hzai.games import hera_zeus  # noqa: F401  (registers "hera_zeus")
from hzai.games import legends  # noqa: F401  (registers "legends")
