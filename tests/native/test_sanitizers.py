"""The core under AddressSanitizer and UndefinedBehaviorSanitizer: random games over
every variant with the state's invariants checked after every step, the generic search,
and the service's replay and view building (selftest.cpp).
A Valgrind run of the same program is a documented command (docs/native.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hzai.games.hera_zeus.native.deckfile import deck_lines

from .decks import SMALL_DECK

ROOT = Path(__file__).resolve().parents[2]
NATIVE = ROOT / "hzai" / "native"  # the shared headers (search/, rng.hpp, ...)
GAME = ROOT / "hzai" / "games" / "hera_zeus" / "native"
# The game's core (every .cpp but the bindings, as CMakeLists.txt picks it) and selftest.cpp.
SOURCES = [str(p) for p in sorted(GAME.glob("*.cpp")) if not p.name.endswith(("bindings.cpp", "selftest.cpp"))]
SOURCES.append(str(GAME / "selftest.cpp"))


@pytest.fixture(scope="module")
def selftest(tmp_path_factory) -> Path:
    """selftest.cpp and the core, built once under ASan and UBSan for this module's tests."""
    compiler = shutil.which("g++") or shutil.which("c++")
    assert compiler, "a C++ compiler is needed to build the core"
    exe = tmp_path_factory.mktemp("sanitized") / "selftest"
    build = subprocess.run(
        [compiler, "-std=c++17", "-O0", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
         "-fno-omit-frame-pointer", "-I", str(NATIVE), "-o", str(exe), *SOURCES,
         "-lpthread"],
        capture_output=True, text=True,
    )
    assert build.returncode == 0, build.stderr
    return exe


def test_core_is_clean_under_asan_and_ubsan(selftest, tmp_path):
    small = tmp_path / "small.toml"
    small.write_text(SMALL_DECK, encoding="utf-8")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=1", UBSAN_OPTIONS="print_stacktrace=1")
    for name, spec, games in (("classic", "classic", 240), ("small", str(small), 120)):
        deck = tmp_path / f"{name}.deck"
        deck.write_text("\n".join(deck_lines(spec)) + "\n", encoding="utf-8")
        run = subprocess.run([str(selftest), str(deck), str(games), "11", "2"], capture_output=True, text=True, env=env,
                             timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"{games} games" in run.stdout and "invariants held" in run.stdout
        assert " 0 search iterations" not in run.stdout and " 0 replays" not in run.stdout
        assert "arena: " in run.stdout and "arena: 0 actions" not in run.stdout
        assert "runtime error" not in run.stderr  # UBSan reports


def test_selftest_notices_a_broken_deck(selftest, tmp_path):
    """The same sanitized build (the core is not compiled a second time for this)."""
    deck = tmp_path / "bad.deck"
    deck.write_text("Io io 0 0 -1 -1 0 0\nnot a card line\n", encoding="utf-8")
    run = subprocess.run([str(selftest), str(deck), "1"], capture_output=True, text=True)
    assert run.returncode != 0
    assert "runtime error" not in run.stderr and "AddressSanitizer" not in run.stderr  # refused, not crashed
