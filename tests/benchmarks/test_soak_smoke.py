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
    assert verdicts["acknowledged_moves_lost"] == 0 and verdicts["acknowledged_moves_of_vanished_matches"] == 0
    assert verdicts["acknowledged_moves_unverified"] >= 0  # counted, not silently dropped
    assert verdicts["internal_or_unknown"] == 0
    assert len(report["windows"]) == 6 and sum(w["calls"] for w in report["windows"]) == report["calls_total"]
    assert any(s.get("replica0") for s in report["samples"])
    table = out.with_suffix(".md").read_text()
    assert "| window (s) | calls | OK | p50 ms | p99 ms |" in table
    assert out.with_suffix(".png").stat().st_size > 1000


def test_a_half_minute_soak_of_one_server_with_two_processes_counts_the_worker_restarts(tmp_path):
    """`--processes 2`: one hzai-server, a worker killed by SIGKILL and started again by its
    supervisor (counted from the server's log), RSS per process, the CPU split."""
    out = tmp_path / "soak.json"
    done = subprocess.run([sys.executable, "-m", "benchmarks.soak", "--processes", "2", "--minutes", "0.5",
                           "--kill-every", "0.2", "--sample", "2", "--players", "1", "--askers", "1", "--seed", "3",
                           "--max-matches", "20", "--out", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    report = json.loads(out.read_text())
    kills = [k for k in report["kills"] if "pid" in k]
    assert kills, report["kills"]
    restarts = report["restarts"]
    assert restarts["kills"] == len(kills)
    assert restarts["worker_died"] >= len(kills) - 1 and restarts["worker_restarted"] >= 1, restarts
    assert all(e.get("signal") == "SIGKILL" for e in restarts["events"] if e["event"] == "worker died")
    verdicts = report["verdicts"]
    assert verdicts["acknowledged_moves"] > 0 and verdicts["acknowledged_moves_lost"] == 0
    assert verdicts["internal_or_unknown"] == 0, report.get("internal_answers")
    # Twenty places, and finished matches free theirs: the players' matches are never refused.
    assert verdicts["create_match_refused_over_cap"] == 0, report["create_match_refused"]
    assert any(s.get("worker0") for s in report["samples"]) and any(s.get("worker1") for s in report["samples"])
    cpu = report["cpu"]
    assert cpu["server_s"] > 0 and cpu["loadgen_s"] > 0
    table = out.with_suffix(".md").read_text()
    assert "hzai-server --processes 2" in table and "Workers killed (SIGKILL)" in table
