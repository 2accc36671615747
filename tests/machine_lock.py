"""One holder at a time, across processes: for what the tests install or build once for
the whole machine (the Node.js client's packages, Chromium), where two pytest-xdist
workers, or two checkouts' test runs, may ask at the same moment.

    with machine_lock("chromium"):
        if not installed():
            install()

The lock is an flock on a file in the system's temporary directory, released when the
block ends or the process dies. Check again inside the block: the other holder may have
done the work meanwhile."""

from __future__ import annotations

import fcntl
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def lock_path(name: str) -> Path:
    return Path(tempfile.gettempdir()) / f"hzai-tests-{name}.lock"


@contextmanager
def machine_lock(name: str) -> Iterator[None]:
    with open(lock_path(name), "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # waits for the holder; the lock goes with the file
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
