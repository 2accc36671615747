"""`python -m benchmarks.soak` in miniature: the cluster (two replicas behind nginx,
PostgreSQL) under mixed traffic with a replica killed and restarted, for half a minute.
It checks that the command runs end to end and writes its table, plot and verdicts; the
figures of a 30-minute soak are the benchmark's, not this test's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_a_half_minute_soak_writes_its_table_plot_and_verdicts(tmp_path):
    out = tmp_path / "soak.json"
    done = subprocess.run([sys.executable, "-m", "benchmarks.soak", "--minutes", "0.5", "--kill-every", "0.2",
                           "--sample", "2", "--players", "1", "--askers", "1", "--seed", "3", "--out", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["command"].startswith("python -m benchmarks.soak --minutes 0.5")
    kills = report["kills"]
    assert kills and all("restart_error" not in k for k in kills), kills
    kinds = report["calls_by_kind"]
    assert {"SuggestMove", "Analyze", "CreateMatch"} <= set(kinds), kinds
    assert sum(kinds["SuggestMove"].values()) > 0
    verdicts = report["verdicts"]
    assert verdicts["acknowledged_moves"] > 0
    assert verdicts["acknowledged_moves_lost"] == 0
    assert verdicts["internal_or_unknown"] == 0
    assert len(report["windows"]) == 6 and sum(w["calls"] for w in report["windows"]) == report["calls_total"]
    assert any(s.get("replica0") for s in report["samples"])
    table = out.with_suffix(".md").read_text()
    assert "| window (s) | calls | OK | p50 ms | p99 ms |" in table
    assert out.with_suffix(".png").stat().st_size > 1000
