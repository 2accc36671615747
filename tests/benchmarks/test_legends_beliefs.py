"""benchmarks/legends_beliefs.py at a tiny size: a model with a card net, one short cell,
each belief scored on the truth; a model without one is refused by name."""

from __future__ import annotations

import json

import pytest

from benchmarks import legends_beliefs
from tests.learn.test_legends_cards import card_weights

TINY = ["--missions", "1", "--seats", "2", "--games", "1", "--every", "4", "--pool", "12", "--iterations", "4"]


@pytest.fixture(autouse=True)
def _restored_model_file(monkeypatch):
    """--model points the Legends model's file at the file for the process: put it back."""
    from hzai.games.legends.parts import LegendsModel

    monkeypatch.setattr(LegendsModel, "file", LegendsModel.file)


def test_a_tiny_run_scores_the_three_beliefs(tmp_path):
    from hzai.native.model import save

    model = tmp_path / "cards.npz"
    save(card_weights(), model)
    assert legends_beliefs.main([*TINY, "--model", str(model), "--out", str(tmp_path)]) == 0
    (row,) = json.loads((tmp_path / "legends_beliefs.json").read_text())["rows"]
    assert row["positions"] > 0
    for way in legends_beliefs.WAYS:
        assert row[way]["labels"] > 0 and row[way]["cross_entropy"] > 0 and 0 <= row[way]["top_right"] <= 1
    assert "weighted CE" in (tmp_path / "legends_beliefs.md").read_text()


def test_a_model_without_a_card_net_is_refused_by_name(tmp_path, capsys):
    from hzai.native.model import save

    weights = card_weights()
    del weights.nets["cards"]
    model = tmp_path / "plain.npz"
    save(weights, model)
    with pytest.raises(SystemExit):
        legends_beliefs.main([*TINY, "--model", str(model), "--out", str(tmp_path)])
    assert "has no card net" in capsys.readouterr().err
