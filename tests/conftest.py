"""Shared helpers for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from hzai.core import register_game
from tests.toygame import ToyGame

register_game(ToyGame.name, ToyGame)  # the toy game of tests/toygame, for hzai.core.make_game

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def tmp_record(tmp_path):
    """Write a record dict to a file and return its path."""
    import json

    def write(data, name="game.json"):
        path = tmp_path / name
        path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
        return path

    return write
