"""Shared helpers for the test suite."""

from __future__ import annotations

import os
from pathlib import Path

# Tests open gRPC channels and then start programs (subprocess: fork, then exec). gRPC's
# core registers fork handlers that stop its own threads before a fork, and one of them
# can wait forever (seen: tests/service/test_replicas.py hung inside fork() under load).
# Nothing here forks without exec, so the handlers are not needed: off, before grpc loads.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

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


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups in the same hook
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (`--dist loadgroup`, pyproject.toml) the tests are spread over
    the workers one by one, except that a test using a fixture built once per module (a
    server, a browser, a compiled program) goes to its module's group: one worker runs
    the module's tests, so the fixture is built once, not once per worker."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        scopes = {d.scope for defs in info.name2fixturedefs.values() for d in defs}
        if scopes & {"module", "class", "package"}:
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))

