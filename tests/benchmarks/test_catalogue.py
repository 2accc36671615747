"""`python -m benchmarks list` names every module of benchmarks/ by concern, and
`python -m benchmarks run NAME` runs each one (asked for --help only: seconds)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import harness
from benchmarks.__main__ import catalogue, main, summary_of

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "benchmarks"
MODULES = sorted(p.stem for p in FOLDER.glob("*.py") if p.stem not in ("__init__", "__main__"))


def test_list_names_every_module_under_its_concern(capsys):
    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    groups, current = {}, None
    for line in listed.splitlines():
        if line and not line.startswith(" ") and ":" in line:
            current = line.split(":", 1)[0]
        elif line.startswith("  ") and current:
            groups.setdefault(current, []).append(line.split()[0])
    named = sorted(n for names in groups.values() for n in names)
    assert named == MODULES
    assert set(groups) <= {*harness.CONCERNS, "shared"}
    assert {"strength", "service", "engine", "learning", "legends"} <= set(groups)
    assert "harness" in groups["shared"] and "exploit" in groups["learning"]
    assert "legends_grid" in groups["legends"] and "soak" in groups["service"]


def test_every_benchmark_has_a_summary_and_a_main():
    entries = {e.name: e for e in catalogue()}
    assert sorted(entries) == MODULES
    for e in entries.values():
        assert e.summary, e.name
        assert "\n" not in e.summary and len(e.summary) <= 90, e.name
        assert e.runnable == (e.concern is not None), e.name


@pytest.mark.parametrize("name", [e.name for e in catalogue() if e.runnable])
def test_run_name_help(name, capsys):
    """Each benchmark's own --help, through `run` (in this process: one import of hzai)."""
    assert main(["run", name, "--help"]) == 0, name  # argparse's exit after the help, caught by run
    assert "usage:" in capsys.readouterr().out, name


def test_run_passes_its_arguments_and_exit_status(capsys):
    # an argument the benchmark does not know: its own parser's error and status 2
    assert main(["run", "strength", "--no-such-flag"]) == 2
    assert "--no-such-flag" in capsys.readouterr().err


def test_run_an_unknown_name_or_a_shared_piece_is_refused(capsys):
    assert main(["run", "no_such_benchmark"]) == 2
    assert "no benchmark named 'no_such_benchmark'" in capsys.readouterr().err
    assert main(["run", "harness"]) == 2  # a shared piece, not runnable
    assert main(["run"]) == 2


def test_a_module_without_concern_is_named(tmp_path):
    (tmp_path / "fresh.py").write_text('"""A new benchmark."""\nif __name__ == "__main__":\n    pass\n')
    with pytest.raises(ValueError, match="fresh.py has no CONCERN"):
        catalogue(tmp_path)
    (tmp_path / "fresh.py").write_text('"""A new benchmark."""\nCONCERN = "speed"\n')
    with pytest.raises(ValueError, match="CONCERN 'speed' is not one of strength"):
        catalogue(tmp_path)


def test_summary_is_the_first_sentence():
    assert summary_of("Engine speed: playouts.\n\nMore text.") == "Engine speed: playouts."
    assert summary_of("One line\nwrapped on two.  Then more.") == "One line wrapped on two."
    long = summary_of("word " * 60)
    assert len(long) <= 90 and long.endswith(" …")


def test_the_suite_flags_still_parse():
    """The one-command suite keeps its flags next to the subcommands (its run is
    test_benchmarks_smoke's)."""
    done = subprocess.run([sys.executable, "-m", "benchmarks", "--help"], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for flag in ("--size", "--out", "--parts", "--rerun-strength", "list", "run NAME"):
        assert flag in done.stdout, flag


def test_harness_percentiles_and_intervals():
    values = [5, 1, 4, 2, 3, 6]
    assert harness.percentile(values, 0.5) == 3  # nearest rank: 3 of 6 at or below
    assert harness.percentile(values, 0.5, rule="floor") == 4
    assert harness.percentile(values, 0.5, rule="lower") == 3
    assert harness.percentile(values, 0.5, rule="linear") == 3.5
    assert harness.percentile(values, 1.0) == 6 and harness.percentile([], 0.5) is None
    with pytest.raises(ValueError, match="rule 'median'"):
        harness.percentile(values, 0.5, rule="median")
    with pytest.raises(ValueError, match="q must lie in 0..1"):
        harness.percentile(values, 50)
    mean, low, high = harness.mean_interval([1, 0, 1, 1])
    assert mean == 0.75 and low == pytest.approx(0.75 - 1.96 * 0.5 / 2) and high == pytest.approx(0.75 + 0.49)
    assert harness.mean_interval([1]) == (1.0, 0.0, 2.0)
    assert harness.interval95(list(range(1000))) == (25, 975)


def test_harness_command_and_machine():
    assert harness.command("rating", ["--players", "level 1", "--rounds", "2"]) == \
        "python -m benchmarks.rating --players 'level 1' --rounds 2"
    assert harness.command("strength", []) == "python -m benchmarks.strength"
    described = harness.machine()
    assert described["cpus"] >= 1 and len(described["load_average"]) == 3
    assert harness.machine_text(described).startswith(f"{described['processor']}, {described['cpus']} cores")
    assert harness.machine_text("x86_64, 2 cores, Python 3.11") == "x86_64, 2 cores, Python 3.11"
