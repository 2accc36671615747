"""Games by name: algorithms and front ends make games from a name and parameters.

A game is declared as an entry point of the group `hzai.games` (name = factory), as
hzai's own pyproject.toml declares the games it ships; `make_game(name)` loads the
factory of a name on first use. Running from a source tree that was not (re)installed,
the tree's pyproject.toml is read for the same entry points, so the built-in games are
found either way. `register_game` adds or replaces a factory at run time (a test's toy
game, a plugin module). The core imports no game: it reads only names and entry points.
"""

from __future__ import annotations

import threading
import tomllib
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # annotations only: Presentation.with_params makes games through this registry
    from hzai.core.game import Game

GROUP = "hzai.games"
_FACTORIES: dict[str, Callable[..., Game]] = {}
_LOADING = threading.Lock()
# pyproject.toml of the source tree this package runs from, if it does (hzai/core/ -> root)
_SOURCE_TREE = Path(__file__).resolve().parents[2] / "pyproject.toml"


class UnknownGameError(ValueError):
    """No game of that name is registered; the message lists those that are."""


def register_game(name: str, factory: Callable[..., Game]) -> None:
    """Make `make_game(name, **params)` call `factory(**params)`. Registering a name
    again replaces its factory."""
    if not isinstance(name, str) or not name:
        raise ValueError("a game name must be a non-empty string")
    _FACTORIES[name] = factory


def _source_tree_entry_points(path: Path = _SOURCE_TREE) -> list[EntryPoint]:
    """The `hzai.games` entry points of hzai's own pyproject.toml at `path`; none when
    there is no such file or it is another project's."""
    try:
        project = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return []
    if project.get("name") != "hzai":
        return []
    declared = project.get("entry-points", {}).get(GROUP, {})
    return [EntryPoint(name, value, GROUP) for name, value in declared.items()]


@lru_cache(maxsize=1)
def declared_games() -> dict[str, EntryPoint]:
    """Game name -> entry point: the installed distributions', then the source tree's
    (which wins: it is what an editable run's code is)."""
    found = {ep.name: ep for ep in entry_points(group=GROUP)}
    found.update((ep.name, ep) for ep in _source_tree_entry_points())
    return found


def _factory(name: str) -> Callable[..., Game] | None:
    factory = _FACTORIES.get(name)
    if factory is None:
        point = declared_games().get(name)
        if point is None:
            return None
        with _LOADING:
            factory = _FACTORIES.get(name)
            if factory is None:
                factory = point.load()
                _FACTORIES[name] = factory
    return factory


def make_game(name: str, **params) -> Game:
    factory = _factory(name) if isinstance(name, str) else None
    if factory is None:
        known = ", ".join(game_names()) or "none"
        raise UnknownGameError(f"unknown game {str(name)[:60]!r}; registered: {known}")
    return factory(**params)


def game_names() -> list[str]:
    return sorted(set(_FACTORIES) | set(declared_games()))


def record_formats() -> dict[str, str]:
    """Record format -> the name of the registered game whose JSON records have it. A
    registration whose factory fails without parameters is passed over."""
    formats: dict[str, str] = {}
    for name in game_names():
        try:
            game = make_game(name)
        except Exception:  # noqa: BLE001 - a broken registration names no format
            continue
        record_format = getattr(getattr(game, "records", None), "format", None)
        if isinstance(record_format, str):
            formats.setdefault(record_format, name)
    return formats


def game_of_format(record_format: str) -> str | None:
    """The name of the registered game whose JSON records have `record_format`, or None."""
    return record_formats().get(record_format)
