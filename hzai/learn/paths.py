"""Paths as a model header records them: relative to the repository, never a machine's
absolute path (a header travels with the model file to other machines)."""

from __future__ import annotations

import os
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]  # the folder that holds hzai/


def repo_path(path: str | os.PathLike) -> str:
    """`path` relative to the repository, with forward slashes: `records/m1` for a
    folder inside it, `../data/m1` for one beside it (on another drive, its name only)."""
    full = Path(os.path.abspath(path))
    try:
        rel = os.path.relpath(full, REPOSITORY)
    except ValueError:  # another drive (Windows): no relative path exists
        return full.name
    return Path(rel).as_posix()
