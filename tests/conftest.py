"""Shared helpers for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

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
