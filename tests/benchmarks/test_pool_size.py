"""benchmarks/pool_size.py: the fixed-pool bot really draws the full pool, the sized
one follows its budget, and a short run writes its table."""

from __future__ import annotations

import json

import pytest

from benchmarks import pool_size
from hzai.games.hera_zeus.belief.inference import POOL
from hzai.games.hera_zeus.rules import Game, Record, deal
from hzai.games.hera_zeus.search_support import HeraZeusSearch


def test_only_the_fixed_spelling_gets_the_full_pool_and_a_short_run_writes_its_table(tmp_path, monkeypatch):
    monkeypatch.setattr(HeraZeusSearch, "inferred_view", HeraZeusSearch.inferred_view)  # restored after the test
    game = Game.create()
    state = Record(game, setup=deal(game, 3)).start()
    view = state.view(state.to_move)
    pool_size.fix_the_pool_of_explicit_temperatures()
    assert game.search.inferred_view(view, 2.0, 1, 150).native_spec.inference.pool == POOL
    assert game.search.inferred_view(view, None, 1, 150).native_spec.inference.pool == 150
    out = tmp_path / "pool.json"
    assert pool_size.main(["--budgets", "20", "--games", "2", "--jobs", "1", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [r["budget"] for r in data["rows"]] == ["20"] and data["rows"][0]["games"] == 2
    assert "| 20 iterations | 2 |" in out.with_suffix(".md").read_text()


def test_a_bad_budget_is_refused_by_name_before_any_game(capsys):
    with pytest.raises(SystemExit) as exit_:
        pool_size.main(["--budgets", "200", "fast", "--games", "2"])
    assert exit_.value.code == 2 and "budget 'fast'" in capsys.readouterr().err
