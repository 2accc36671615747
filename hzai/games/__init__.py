"""The games hzai plays, each a package implementing hzai.core's Game, State and View.
They are declared as entry points of the group `hzai.games` (pyproject.toml), which
hzai.core.registry reads; importing this package loads no game."""
