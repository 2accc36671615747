"""`python -m benchmarks --size smoke` still runs end to end and writes numbers.

The smallest size measures nothing worth keeping; it checks that every part, the
report and the plots are still produced, the locust load part included (locust is in
the `test` extra as well as `bench`); plots need matplotlib.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytest.importorskip("hzai._native")


def positive(x) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x) and x > 0


def tree_status() -> str:
    """`git status` of benchmarks/: the smoke run must leave it as it was."""
    done = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", "benchmarks"],
                          cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def smoke():
    """The smoke run with its default output folder (no --out), as a user would start it."""
    before = tree_status()
    done = subprocess.run([sys.executable, "-m", "benchmarks", "--size", "smoke"],
                          cwd=REPO, capture_output=True, text=True, timeout=900)
    found = re.search(r"^report: (.+)/report\.md \(", done.stdout, re.MULTILINE)
    out = Path(found.group(1)) if found else None
    try:
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        assert out is not None, done.stdout[-3000:]
        yield out, done.stdout, before
    finally:
        if out is not None and out.name.startswith("hzai-bench-smoke-"):
            shutil.rmtree(out, ignore_errors=True)


def test_smoke_output_stays_out_of_the_tree(smoke):
    out, _, before = smoke
    assert not out.resolve().is_relative_to(REPO), out
    assert tree_status() == before


def read(out: Path, name: str) -> dict:
    return json.loads((out / name).read_text())


def test_progress_is_printed(smoke):
    _, stdout, _ = smoke
    for i, part in enumerate(("engine", "search", "load", "overhead", "latency", "strength"), 1):
        assert f"[{i}/6] {part} (smoke)" in stdout
    assert "report: " in stdout


def test_engine_and_search_numbers(smoke):
    out, _, _ = smoke
    engine = read(out, "engine.json")
    for entry in engine["positions"].values():
        assert positive(entry["reference"]["games_per_s"])
        assert positive(entry["native_1_thread"]["games_per_s"])
        assert positive(entry["native_2_threads"]["games_per_s"])
    search = read(out, "search.json")
    assert set(search["phases"]) == {"early", "mid", "late"}
    for row in search["phases"].values():
        assert positive(row["iterations_per_s_1_thread"]) and positive(row["iterations_per_s_2_threads"])


def test_overhead_same_moves_in_process_and_through_the_service(smoke):
    out, _, _ = smoke
    overhead = read(out, "overhead.json")
    assert sorted(overhead["budgets"], key=int) == ["50", "200"]
    for row in overhead["budgets"].values():
        for path in ("in_process_search", "in_process_whole_path", "service", "service_match", "in_process_parallel",
                     "service_parallel"):
            assert positive(row[path]["moves_per_s"]), path
        assert row["service"]["count"] == row["service_match"]["count"] == row["in_process_search"]["count"] > 0
        # an iteration budget, one thread and the same seed: the same move in-process, from
        # a record and from a hosted match in the same position
        assert row["same_move_share"] == 1.0
        assert math.isfinite(row["overhead_vs_search"])


def test_latency_levels(smoke):
    out, _, _ = smoke
    latency = read(out, "latency.json")
    assert [lv["clients"] for lv in latency["levels"]] == [1, 2, 3]
    assert latency["budget_ms"] == 50 and latency["max_searches"] == 2
    for lv in latency["levels"]:
        assert lv["accepted"]["count"] > 0
        assert lv["accepted"]["p50_ms"] <= lv["accepted"]["p99_ms"] <= lv["accepted"]["max_ms"]
        # a time budget is spent, not skipped
        assert lv["accepted"]["min_ms"] >= 0.8 * latency["budget_ms"]
        assert lv["other_errors"] == {}
    assert latency["levels"][0]["refused"]["count"] == 0  # one client never meets the limit


def test_load(smoke):
    out, _, _ = smoke
    run = read(out, "run.json")
    # locust is in the test extra: the load part runs wherever the tests do (it was skipped on every CI run).
    assert importlib.util.find_spec("locust") is not None, "pip install -e '.[test]' installs locust"
    assert run["parts"]["load"]["status"] == "ok", run["parts"]["load"]
    load = read(out, "load.json")
    (row,) = load["runs"]
    assert row["total_requests"] > 0 and row["total_errors"] == 0
    names = set(row["requests"])
    assert {"SuggestMove @50", "SuggestMove @300", "Analyze @100", "BotPlayTurn (match @20)"} <= names
    for name in ("SuggestMove @50", "SuggestMove @300", "Analyze @100"):
        assert positive(row["requests"][name]["requests_per_s"]) and positive(row["requests"][name]["p99_ms"])
    assert positive(row["server_cpu_cores"])
    # The server's own counts, scraped from its metrics endpoint after the run.
    (scraped,) = load["metrics"]
    calls = {(r["method"], r["code"]): r for r in scraped["rpcs"]}
    suggested = sum(row["requests"][n]["requests"] for n in ("SuggestMove @50", "SuggestMove @300"))
    assert calls[("SuggestMove", "OK")]["calls"] >= suggested  # locust may stop before reading the last answers
    assert 0 < calls[("SuggestMove", "OK")]["p50_ms"] <= calls[("SuggestMove", "OK")]["p99_ms"]
    assert positive(scraped["search_iterations"]) and positive(scraped["iterations_per_search_second"])
    assert "What the server counted" in (out / "report.md").read_text()


def test_histogram_quantiles_interpolate_within_buckets():
    from benchmarks.service import histogram_quantile

    buckets = [(0.01, 0.0), (0.02, 10.0), (0.05, 20.0), (float("inf"), 20.0)]
    assert histogram_quantile(0.5, buckets) == pytest.approx(0.02)
    assert histogram_quantile(0.25, buckets) == pytest.approx(0.015)
    assert histogram_quantile(0.99, [(0.01, 1.0), (float("inf"), 2.0)]) == 0.01  # past the last bound
    assert math.isnan(histogram_quantile(0.5, [(float("inf"), 0.0)]))


def test_strength_and_report(smoke):
    out, _, _ = smoke
    strength = read(out, "strength.json")
    assert strength["size"] == "smoke" and strength["pairings"]
    for p in strength["pairings"]:
        assert 0.0 <= p["a_score_ci95"][0] <= p["a_score"] <= p["a_score_ci95"][1] <= 1.0
    run = read(out, "run.json")
    assert all(part["status"] in ("ok", "reused") or part["status"].startswith("skipped")
               for part in run["parts"].values())
    report = (out / "report.md").read_text()
    for heading in ("## Headline numbers", "## Engine and search", "## Service overhead", "## Latency discipline",
                    "## Strength"):
        assert heading in report
    if importlib.util.find_spec("matplotlib") is not None:
        for png in ("engine_search.png", "overhead.png", "latency.png", "strength.png"):
            assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
            assert f"]({png})" in report
