"""The games hzai plays, each a package implementing hzai.core's Game, State and View.
hzai.core.registry finds each package here whose __init__.py assembles a game (its name
is the folder's, its factory `make`) without importing it; importing this package loads
no game."""
