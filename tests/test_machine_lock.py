"""tests/machine_lock.py: while one process holds a named lock, another cannot take it,
and it can once the holder's block has ended."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.machine_lock import lock_path, machine_lock

TRY = """
import fcntl, sys
with open(sys.argv[1], "a+") as handle:
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("busy")
    else:
        print("free")
"""


def other_process_sees(name: str) -> str:
    done = subprocess.run([sys.executable, "-c", TRY, str(lock_path(name))], capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout.strip()


def test_a_held_lock_is_busy_for_another_process_until_released():
    name = f"selftest-{os.getpid()}"  # no other test run on the machine uses this one
    try:
        with machine_lock(name):
            assert other_process_sees(name) == "busy"
        assert other_process_sees(name) == "free"
    finally:
        lock_path(name).unlink(missing_ok=True)
