"""A pytest plugin that mirrors every `State.push` of a test run into the native core.

Before each push the position is loaded into the core and the legal moves and chance
outcomes are compared; after it the same move is played there and the states compared
(hzai.games.hera_zeus.native.check). A move the reference refuses must be refused by the core too.
Used by test_rule_positions.py on the rule tests' crafted positions; the counts and any
mismatch go to the JSON file named by HZAI_MIRROR_REPORT.
"""

from __future__ import annotations

import json
import os

import pytest

from hzai.games.hera_zeus.native.state import NativeState
from hzai.games.hera_zeus.native.check import Mismatch, compare_moves, compare_states
from hzai.games.hera_zeus.rules.actions import ActionError, encode
from hzai.games.hera_zeus.rules.effects import canonical
from hzai.games.hera_zeus.rules.state import IllegalMoveError, State

_original_push = State.push
_stats = {"pushes": 0, "refused": 0, "refusals_checked": 0, "tests": 0, "mismatches": []}
_current = {"test": "?"}


def _mirrored_push(self: State, move) -> None:
    where = f"{_current['test']} push {move}"
    try:
        ns = NativeState.from_state(self)
        compare_states(self, ns, where)
        compare_moves(self, ns, where)
    except (Mismatch, ValueError) as exc:
        _stats["mismatches"].append(str(exc))
        raise
    try:
        _original_push(self, move)
    except IllegalMoveError:
        _stats["refused"] += 1
        try:
            action = encode(canonical(self, move), self.deck)
        except (IllegalMoveError, ActionError):
            raise  # the core cannot even name it
        _stats["refusals_checked"] += 1
        if ns.core.is_legal(action):
            _stats["mismatches"].append(f"{where}: refused by the reference, legal in the core")
        raise
    _stats["pushes"] += 1
    try:
        ns.apply(encode(self.history[-1], self.deck))
        compare_states(self, ns, where)
        compare_moves(self, ns, where + " (after)")
    except (Mismatch, ValueError) as exc:
        _stats["mismatches"].append(str(exc))
        raise


def pytest_configure(config):
    State.push = _mirrored_push


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _current["test"] = item.nodeid
    _stats["tests"] += 1


def pytest_unconfigure(config):
    State.push = _original_push
    path = os.environ.get("HZAI_MIRROR_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(_stats, f)
