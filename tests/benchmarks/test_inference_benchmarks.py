"""The calibration and inference benchmarks run end to end on a tiny size and write
what they promise (the real runs: benchmarks/results/calibration.md, inference.md)."""

from __future__ import annotations

import json

from benchmarks import calibration, inference


def test_calibration_scores_both_beliefs_against_the_truth(tmp_path):
    assert calibration.main(["--games", "2", "--samples", "100", "--bootstrap", "50", "--temperatures", "1",
                             "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "calibration.json").read_text())
    assert report["positions"] > 0 and report["games"] == 2
    for level in ("group", "fine"):
        scores = report["levels"][level]
        assert set(scores) == {"uniform", "T=1", report["default"]}
        assert scores["uniform"]["brier_improvement"] == 0
        for s in scores.values():
            low, high = s["brier_ci95"]
            assert 0 <= low <= s["brier"] <= high <= 2
    assert report["target"]["met"] == (report["target"]["improvement"] >= 0.2)
    assert {"uniform", report["default"]} == set(report["reliability"])
    assert "Target" in (tmp_path / "calibration.md").read_text()


def test_inference_plays_seat_swapped_pairs_on_the_same_deals(tmp_path):
    assert inference.main(["--minutes", "0.0001", "--iterations", "20", "--millis", "2", "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "inference.json").read_text())
    assert [c["label"] for c in report["conditions"]] == ["equal iterations", "equal time"]
    for c in report["conditions"]:
        assert c["games"] % 2 == 0 and c["games"] >= 2
        assert c["a_wins"] + c["draws"] + c["b_wins"] == c["games"]
        assert c["a"] == "ismcts:infer=1" and c["b"] == "ismcts:infer=0"
