"""The Legends twin under AddressSanitizer and UndefinedBehaviorSanitizer
(legends_selftest.cpp): random games with the state checked after every step, the
sampler on views from reference games (missions with every special rule), and ISMCTS
on two threads and PIMC from those views."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hzai.games.legends.game import LegendsGame
from hzai.games.legends.native.twin import selftest_lines
from hzai.rng import SplitMix64

ROOT = Path(__file__).resolve().parents[2]
NATIVE = ROOT / "hzai" / "native"  # the shared headers (search/, rng.hpp, ...)
GAME = ROOT / "hzai" / "games" / "legends" / "native"
# The twin's core (every .cpp but the bindings, as CMakeLists.txt picks it) and legends_selftest.cpp.
SOURCES = [str(p) for p in sorted(GAME.glob("*.cpp")) if not p.name.endswith(("bindings.cpp", "selftest.cpp"))]
SOURCES.append(str(GAME / "legends_selftest.cpp"))
HEROES = ["Perseus", "Jason", "Achilles", "Hercules", "Atalanta"]


@pytest.fixture(scope="module")
def selftest(tmp_path_factory):
    compiler = shutil.which("g++") or shutil.which("c++")
    assert compiler, "a C++ compiler is needed to build the twin"
    exe = tmp_path_factory.mktemp("legends") / "legends_selftest"
    build = subprocess.run(
        [compiler, "-std=c++17", "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
         "-fno-omit-frame-pointer", "-I", str(NATIVE), "-o", str(exe), *SOURCES, "-lpthread"],
        check=False, capture_output=True, text=True,
    )
    assert build.returncode == 0, build.stderr
    return exe


def spec_file(path: Path, mission: int, seats: int, seed: int) -> Path:
    """The game and the views of every seat at every 5th step of one random game."""
    game = LegendsGame(mission=mission, heroes=HEROES[:seats], relocation=("paid", "free")[seed % 2])
    state = game.new_state(seed)
    rng = SplitMix64(seed)
    views, step = [], 0
    while not state.is_terminal and len(views) < 40:
        if step % 5 == 4:
            views.extend(state.view(s) for s in range(seats))
        options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
        state.apply(options[rng.below(len(options))])
        step += 1
    path.write_text("\n".join(selftest_lines(game, views)) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("mission,seats", [(5, 2), (6, 3), (7, 4), (10, 5), (3, 1)])
def test_twin_is_clean_under_asan_and_ubsan(selftest, tmp_path, mission, seats):
    spec = spec_file(tmp_path / "spec.txt", mission, seats, 40 + mission)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=1", UBSAN_OPTIONS="print_stacktrace=1")
    run = subprocess.run([str(selftest), str(spec), "60", "3", "2"], check=False, capture_output=True, text=True, env=env,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "60 games" in run.stdout and "invariants held" in run.stdout
    assert " 0 samples checked" not in run.stdout and " 0 search iterations" not in run.stdout
    assert "runtime error" not in run.stderr


def test_selftest_refuses_a_broken_spec(selftest, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("5 2 0 200 0 1\n2 3\n", encoding="utf-8")
    run = subprocess.run([str(selftest), str(bad), "1"], check=False, capture_output=True, text=True)
    assert run.returncode == 1 and "spec file" in run.stderr
