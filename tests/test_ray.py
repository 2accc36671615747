"""Arenas and record annotation as Ray tasks (hzai.batch) give what the local runs give
for the same seeds. One small local Ray (two CPUs) serves the whole module."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict

import pytest

from hzai import batch
from hzai.search.arena import run_arena
from hzai.cli import main
from hzai.review import review_entry
from hzai.search import Limits

from service.conftest import played_record  # tests/ is on the path (rootdir conftest)

# Everything of a game but the time its bots took.
TIMING = ("think_seconds",)


@pytest.fixture(scope="module")
def local_ray():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def games_of(result) -> list[dict]:
    return [{k: v for k, v in asdict(game).items() if k not in TIMING} for game in result.results]


def test_the_ray_arena_plays_the_very_games_of_the_local_one(local_ray):
    limits = Limits(iterations=60)
    local = run_arena("ismcts", "heuristic", 6, limits, seed=41, jobs=1)
    seen = []
    remote = run_arena("ismcts", "heuristic", 6, limits, seed=41, ray="local",
                       progress=lambda done, total, partial: seen.append((done, total, partial.games)))
    assert games_of(remote) == games_of(local)
    assert [g["seed"] for g in games_of(remote)] == [41 + i for i in range(6)]
    assert (remote.a_wins, remote.b_wins, remote.draws, remote.a_score) == \
        (local.a_wins, local.b_wins, local.draws, local.a_score)
    assert seen == [(i, 6, i) for i in range(1, 7)]  # games done / total, one report a game
    assert local_ray.is_initialized()  # a Ray the caller started is left running


def record_files(folder, count: int):
    folder.mkdir()
    paths = []
    for seed in range(count):
        path = folder / f"game{seed}.json"
        path.write_text(json.dumps(played_record(100 + seed, 7).to_json()), encoding="utf-8")
        paths.append(path)
    (folder / "broken.json").write_text('{"format": "hzai-record/1", "seed": 1, "moves": ["fly away"]}',
                                        encoding="utf-8")
    return sorted(folder.glob("*.json"))


def test_the_ray_annotation_of_a_folder_equals_the_local_one_record_by_record(local_ray, tmp_path, capsys):
    paths = record_files(tmp_path / "records", 3)
    flags = ["--budget", "400", "--seed", "5", "--quiet"]
    assert main(["analyze-game", str(tmp_path / "records"), *flags, "-o", str(tmp_path / "local.jsonl")]) == 2
    assert main(["analyze-game", "--ray", str(tmp_path / "records"), *flags,
                 "-o", str(tmp_path / "ray.jsonl")]) == 2  # a broken record: said, and exit 2
    local = [json.loads(line) for line in (tmp_path / "local.jsonl").read_text().splitlines()]
    remote = [json.loads(line) for line in (tmp_path / "ray.jsonl").read_text().splitlines()]
    assert [e["record"] for e in remote] == [str(p) for p in paths]  # one line per record, in order
    assert remote == local
    errors = [e for e in remote if "error" in e]
    assert [e["record"] for e in errors] == [str(tmp_path / "records" / "broken.json")]
    assert "unknown move" in errors[0]["error"]
    assert "broken.json" in capsys.readouterr().err
    for entry, path in zip(remote, paths):
        if "error" in entry:
            continue
        assert entry["decisions"]  # every good record has decisions to look at
        capsys.readouterr()
        assert main(["analyze-game", str(path), "--json", *flags]) == 0  # one record: as before
        assert json.loads(capsys.readouterr().out) == entry["decisions"]


def test_a_record_task_is_plain_values_in_and_out():
    record = played_record(7, 5).to_json()
    entry = review_entry("r", record, Limits(iterations=300), 2)
    assert json.loads(json.dumps(entry)) == entry
    assert review_entry("r", {"moves": 3}, Limits(iterations=10), 0)["error"]


def test_an_address_after_ray_and_a_path_after_it_are_told_apart(tmp_path):
    for address in ("auto", "local", "ray://head:10001", "10.0.0.5:6379", "head.example:6379"):
        assert batch.is_address(address)
    for path in ("records", "game.json", str(tmp_path)):
        assert not batch.is_address(path)


def test_hzai_works_without_ray(monkeypatch):
    code = ("import sys, hzai.cli, hzai.search.arena, hzai.review, hzai.batch; "
            "sys.exit('ray' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    with pytest.raises(batch.BatchError, match="pip install 'hzai\\[ray\\]'"):
        batch.run_all(len, [("ab",)])


def test_without_ray_the_cli_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["arena", "random", "random", "--games", "2", "--ray", "--quiet"]) == 2
    assert "hzai[ray]" in capsys.readouterr().err
