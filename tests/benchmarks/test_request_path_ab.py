"""`python -m benchmarks.request_path_ab` in miniature: another commit's server, taken
from git and run beside this tree's, answers; the report pairs them by round."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_old_server_is_the_old_commit_s_code():
    from benchmarks.request_path_ab import LAUNCHER

    folder = REPO / "server"  # this tree's, through the launcher: the launcher's import, not the install's
    probe = LAUNCHER.replace('runpy.run_module("hzai_server", run_name="__main__", alter_sys=True)',
                             'import hzai_server.decision as d; print(d.__file__)')
    done = subprocess.run([sys.executable, "-c", probe, "/nonexistent"], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0, "a launcher given no server folder still found one"
    done = subprocess.run([sys.executable, "-c", probe, str(folder)], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == str(folder / "hzai_server" / "decision.py"), done.stdout + done.stderr


def test_a_small_paired_run_writes_both_servers_figures(tmp_path):
    out = tmp_path / "ab.json"
    done = subprocess.run([sys.executable, "-m", "benchmarks.request_path_ab", "--old", "HEAD", "--iterations", "5",
                           "--rounds", "2", "--calls", "3", "--positions", "3", "--out", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["old"] == "HEAD" and list(report["budgets"]) == ["5"]
    rounds = report["budgets"]["5"]["rounds"]
    assert len(rounds) == 2 and all(r["search_ms"] > 0 and r["old_ms"] >= 0 and r["new_ms"] >= 0 for r in rounds)
    assert "| 5 |" in out.with_suffix(".md").read_text()
