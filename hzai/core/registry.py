"""Games by name: a game package registers a factory, algorithms and front ends make
games from a name and parameters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # annotations only: Game.with_params makes games through this registry
    from hzai.core.game import Game

_FACTORIES: dict[str, Callable[..., Game]] = {}


class UnknownGameError(ValueError):
    """No game of that name is registered; the message lists those that are."""


def register_game(name: str, factory: Callable[..., Game]) -> None:
    """Make `make_game(name, **params)` call `factory(**params)`. Registering a name
    again replaces its factory."""
    if not isinstance(name, str) or not name:
        raise ValueError("a game name must be a non-empty string")
    _FACTORIES[name] = factory


def make_game(name: str, **params) -> Game:
    factory = _FACTORIES.get(name)
    if factory is None:
        _load_builtin()
        factory = _FACTORIES.get(name)
    if factory is None:
        known = ", ".join(game_names()) or "none"
        raise UnknownGameError(f"unknown game {str(name)[:60]!r}; registered: {known}")
    return factory(**params)


def game_names() -> list[str]:
    _load_builtin()
    return sorted(_FACTORIES)


def game_of_format(record_format: str) -> str | None:
    """The name of the registered game whose JSON records have `record_format`, or None.
    A registration whose factory fails without parameters is passed over."""
    for name in game_names():
        try:
            game = make_game(name)
        except Exception:  # noqa: BLE001 - a broken registration names no format
            continue
        if getattr(game, "record_format", None) == record_format:
            return name
    return None


def _load_builtin() -> None:
    """The games that ship with hzai register themselves when their package is imported;
    the core names no game, so it imports the games' package by name only."""
    import importlib

    importlib.import_module("hzai.games")
