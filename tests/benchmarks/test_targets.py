"""benchmarks/targets.py: issue 15's targets read from the result files, each row's
status following its rule, missing files listed as not measured."""

from __future__ import annotations

import json
import shutil

import pytest

from benchmarks import targets
from hzai.core.bot import wilson_interval


def test_the_committed_results_give_a_row_a_target_with_the_status_its_rule_says():
    rows = targets.collect(targets.RESULTS)
    assert len(rows) == 11
    for row in rows:
        if row.value is None or row.kind != "share":
            continue
        low = row.interval[0]
        expected = row.value >= row.threshold and (not row.goal.endswith("> 55%") or low > 0.55)
        assert row.met is expected, row.target
        assert row.interval[0] <= row.value <= row.interval[1]
    pooled = rows[0]
    files = [json.loads((targets.RESULTS / n).read_text()) for n in pooled.files]
    wins, games = sum(d["a_wins"] for d in files), sum(d["games"] for d in files)
    assert games == 800 and pooled.value == pytest.approx(wins / games)
    assert pooled.interval == pytest.approx(wilson_interval(wins, games))


def test_a_missing_file_is_not_measured_and_a_good_score_is_met(tmp_path):
    arena = json.loads((targets.RESULTS / "default_vs_pimc_100ms_seed17000.json").read_text())
    arena.update(games=200, a_wins=150, draws=0)  # 75%: interval about 68.6–80.5%
    (tmp_path / "default_vs_pimc_100ms_seed17000.json").write_text(json.dumps(arena))
    shutil.copy(targets.RESULTS / "rating.json", tmp_path / "rating.json")
    rows = {r.target: r for r in targets.collect(tmp_path)}
    pimc = rows["new default vs PIMC, 100 ms a decision"]
    assert pimc.met is True and pimc.value == pytest.approx(0.75)
    assert rows["new default vs `ismcts-v1`, 100 ms a decision"].met is None
    assert rows["closes half the gap from `ismcts-v1` to an all-seeing bot"].met is None
    assert rows["levels span"].met is False  # 462 in the committed rating


def test_the_command_writes_the_table_and_refuses_a_missing_folder(tmp_path, capsys):
    assert targets.main(["--out", str(tmp_path)]) == 0
    table = (tmp_path / "targets.md").read_text()
    assert table.count("\n| ") == 12 and "missed" in table  # the header and a row a target
    with pytest.raises(SystemExit) as stop:
        targets.main(["--results", str(tmp_path / "nowhere")])
    assert stop.value.code == 2 and "not a folder" in capsys.readouterr().err
