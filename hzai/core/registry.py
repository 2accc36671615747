"""Games by name: algorithms and front ends make games from a name and parameters.

hzai's own games are found by their folders: each package under hzai/games/ whose
__init__.py assembles a game (a top-level call of hzai.core.game's `assemble`) is the game
named as its folder, made by the package's `make` (hzai.games.NAME:make). The
folders are listed and their __init__.py read as text when a name is first asked for;
no game is imported until `make_game(name)` loads its factory. A game of another
distribution is an entry point of the group `hzai.games` (name = factory) in that
distribution's metadata; a name that two of them, or one of them and a folder, give to
different factories is a DuplicateGameError. `register_game` adds or replaces a factory at
run time (a test's toy game, a plugin module). The core imports no game: it reads only
folders, names and entry points.
"""

from __future__ import annotations

import ast
import threading
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # annotations only: Presentation.with_params makes games through this registry
    from hzai.core.game import Game

GROUP = "hzai.games"
FACTORY = "make"  # the function of a game package that makes its game from its parameters
_FACTORIES: dict[str, Callable[..., Game]] = {}
_LOADING = threading.Lock()
# hzai's games, a package each (hzai/core/ -> hzai/games/), and the package they are in
GAMES_FOLDER = Path(__file__).resolve().parents[1] / "games"
GAMES_PACKAGE = "hzai.games"


class UnknownGameError(ValueError):
    """No game of that name is registered; the message lists those that are."""


class DuplicateGameError(ValueError):
    """Two declarations give one game name to different factories; the message names both."""


class NotAGameError(ValueError):
    """A declared game that cannot be made: a game folder that assembles a game but has no
    factory to make it, or a declaration whose module cannot be imported."""


def register_game(name: str, factory: Callable[..., Game]) -> None:
    """Make `make_game(name, **params)` call `factory(**params)`. Registering a name
    again replaces its factory."""
    if not isinstance(name, str) or not name:
        raise ValueError("a game name must be a non-empty string")
    _FACTORIES[name] = factory


def _top_level(source: str) -> tuple[bool, bool]:
    """(whether the module calls `assemble` at its top level, whether it binds `make`
    there: a def, an import or an assignment)."""
    assembles = binds = False
    for node in ast.parse(source).body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            assembles |= any(isinstance(call, ast.Call) and _called(call.func) == "assemble" for call in ast.walk(node))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            binds |= node.name == FACTORY
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            binds |= any((alias.asname or alias.name) == FACTORY for alias in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            binds |= any(isinstance(t, ast.Name) and t.id == FACTORY for t in targets)
    return assembles, binds


def _called(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def folder_games(folder: Path = GAMES_FOLDER, package: str = GAMES_PACKAGE) -> dict[str, EntryPoint]:
    """Game name -> entry point (`package.NAME:make`) of each package in `folder` whose
    __init__.py assembles a game, read as text (nothing is imported). A folder whose name
    is no module name, or without __init__.py, or that assembles nothing, is not a game; one
    that assembles a game but binds no `make` is listed, and make_game says what it lacks."""
    found: dict[str, EntryPoint] = {}
    try:
        folders = sorted(p for p in folder.iterdir() if p.is_dir())
    except OSError:
        return found
    for path in folders:
        init = path / "__init__.py"
        if not path.name.isidentifier() or path.name.startswith("_") or not init.is_file():
            continue
        try:
            assembles, binds = _top_level(init.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            assembles, binds = True, True  # unreadable: listed, and make_game's import says what is wrong
        if assembles:
            value = f"{package}.{path.name}:{FACTORY}" if binds else f"{package}.{path.name}"
            found[path.name] = EntryPoint(path.name, value, GROUP)
    return found


def _origin(point: EntryPoint) -> str:
    """Who declared `point`: a distribution's metadata, or a game folder (no distribution)."""
    dist = getattr(point, "dist", None)
    if dist is not None:
        return f"distribution {dist.name}'s entry point"
    return f"the folder {point.value.partition(':')[0].replace('.', '/')}/"


@lru_cache(maxsize=1)
def declared_games() -> dict[str, EntryPoint]:
    """Game name -> entry point: hzai's game folders (`folder_games`), then the `hzai.games`
    entry points of the installed distributions. An entry point that gives a name the same
    factory as a folder (an installed hzai's own metadata) is that game; one that gives it
    another factory is a DuplicateGameError, as are two distributions' for one name."""
    found = folder_games()
    for point in entry_points(group=GROUP):
        other = found.get(point.name)
        if other is None:
            found[point.name] = point
        elif other.value != point.value:
            raise DuplicateGameError(
                f"game {point.name!r} is declared twice: {_origin(other)} makes it with {other.value}, "
                f"{_origin(point)} with {point.value}; rename one of them")
    return found


def _factory(name: str) -> Callable[..., Game] | None:
    factory = _FACTORIES.get(name)
    if factory is None:
        point = declared_games().get(name)
        if point is None:
            return None
        if ":" not in point.value and getattr(point, "dist", None) is None:  # a folder's, without `make`
            raise NotAGameError(f"game {name!r}: {point.value} assembles a game, but its __init__.py has no "
                                f"`{FACTORY}` to make it (the function the registry calls with the parameters)")
        with _LOADING:
            factory = _FACTORIES.get(name)
            if factory is None:
                try:
                    factory = point.load()
                except Exception as exc:  # noqa: BLE001 - a game that cannot be imported is one clear error
                    raise NotAGameError(f"game {name!r}: cannot import {point.value} ({_origin(point)}): "
                                        f"{type(exc).__name__}: {str(exc)[:200]}") from None
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
