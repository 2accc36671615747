"""The model a game ships beside its package (`Game.model_file`), loaded once per process."""

from __future__ import annotations

from pathlib import Path


def shipped_path(game) -> Path | None:
    """The game's kept model file, or None when it ships none."""
    path = getattr(game, "model_file", None)
    return Path(path) if path is not None and Path(path).is_file() else None


def shipped_model(game):
    """(weights, native model) of the game's kept model, or None; ModelError for a file
    that is there but broken (a wrong checksum, a shape that does not fit)."""
    from hzai.learn.model import load_cached

    path = shipped_path(game)
    return None if path is None else load_cached(game, path)


def model_id(game) -> str | None:
    """name@version of the game's kept model, or None."""
    loaded = shipped_model(game)
    return None if loaded is None else loaded[0].model_id
