"""The rule tests' crafted positions (tests/rules), every move of them played in both
engines: each rule family's special cases, not only what random games happen to reach."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_push_of_the_rule_tests_agrees_in_the_core(tmp_path):
    report = tmp_path / "mirror.json"
    env = dict(os.environ, HZAI_MIRROR_REPORT=str(report),
               PYTHONPATH=os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")])))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "mirror_plugin", "-p", "no:cacheprovider", "tests/rules"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600,
    )
    assert report.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    stats = json.loads(report.read_text())
    assert stats["mismatches"] == [], "\n".join(stats["mismatches"][:5])
    assert stats["tests"] >= 100
    assert stats["pushes"] >= 500
    assert stats["refusals_checked"] >= 1
