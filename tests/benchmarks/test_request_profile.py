"""`python -m benchmarks.request_profile` in miniature: the path of one SuggestMove, a
profile of the threads serving it and the server's CPU per call, written as JSON and
Markdown. The figures are the benchmark's; this checks that each part is measured."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_a_small_request_profile_writes_the_path_the_profiles_and_the_cpu(tmp_path):
    out = tmp_path / "rp.json"
    done = subprocess.run([sys.executable, "-m", "benchmarks.request_profile", "--iterations", "1", "--calls", "6",
                           "--cpu-calls", "6", "--cpu-iterations", "20", "40", "--positions", "3", "--top", "12",
                           "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    report = json.loads(out.read_text())
    service = report["path"]["service"]
    assert service["functions"][0] == "hzai_server.rpc:_safe_deserializer.<locals>.parse"
    assert "hzai.search.ismcts" in service["module_order"], "the bot's search is on the path"
    assert service["places"] == len(service["module_order"]) >= service["modules"] > 1
    assert service["returns"] == service["places"] - service["modules"]
    server = report["path"]["server_modules"]
    assert server["module_order"] and all(m.startswith("hzai_server") for m in server["module_order"])
    assert server["module_order"][0] == "hzai_server.rpc" and "hzai_server.bot_service" in server["module_order"]
    assert server["returns"] == server["places"] - server["modules"] and server["places"] < service["places"]
    data = report["path"]["server_data_path"]
    assert data["module_order"][0] == "hzai_server.bot_service" and "hzai_server.rpc" not in data["module_order"]
    missed = report["path_cache_miss"]["service"]["module_order"]
    assert "hzai.bounded_cache" in missed and "hzai.bounded_cache" not in service["module_order"]
    every = report["path"]["every_function"]
    assert every["places"] >= service["places"]
    assert [(p["iterations"], p["replay_cache"]) for p in report["profiles"]] == [(1, 1000), (1, 0)]
    for run in report["profiles"]:
        assert run["calls"] == 6 and run["profiled_ms_per_call"] > 0
        assert any("SuggestMove" in row["function"] for row in run["top_cumulative"]), run["top_cumulative"]
    cpu = report["cpu"]
    assert cpu["iterations"] == 20 and cpu["search_cpu_ms_per_call"] > 0
    assert cpu["warm"]["calls"] == cpu["cold"]["calls"] == 6
    assert list(report["cpu_by_iterations"]) == ["20", "40"] and report["cpu_by_iterations"]["20"] == cpu
    text = out.with_suffix(".md").read_text()
    assert "## The path of one cold call" in text and "## Profile: 1 iterations" in text


def test_only_path_counts_the_paths_alone_of_this_tree_or_of_a_commits_server(tmp_path):
    for extra, name in (([], "tree.json"), (["--server-from", "HEAD"], "head.json")):
        out = tmp_path / name
        done = subprocess.run([sys.executable, "-m", "benchmarks.request_profile", "--only-path", "--positions", "3",
                               *extra, "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
        report = json.loads(out.read_text())
        counts = {"service", "data_path", "server_modules", "server_data_path", "every_function"}
        assert set(report["path"]) == set(report["path_cache_miss"]) == counts
        assert report["profiles"] == [] and "cpu" not in report
        order = report["path"]["server_data_path"]["module_order"]
        assert order[0] == "hzai_server.bot_service" and "hzai_server.searches" in order, order
        assert report.get("server_from") == (extra[1] if extra else None)
    refused = subprocess.run([sys.executable, "-m", "benchmarks.request_profile", "--server-from", "HEAD"], cwd=REPO,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "--only-path" in refused.stderr
