"""Many independent jobs as Ray tasks, on this machine or a cluster.

Generic: a job is a module-level function and its arguments (bot specs, seeds, record
texts: plain picklable values), so anything the project runs one job at a time can run
here too. Ray is imported only when a batch runs; hzai works without it installed.

`address` None or "local" starts a private Ray on this machine (a few CPUs, no
dashboard, worker logs kept out of the terminal) and shuts it down afterwards; any other
address ("auto", "ray://HOST:10001", "HOST:6379") joins that cluster, whose nodes need
the same hzai installed. A Ray already started in this process (ray.init by the caller,
as the tests do) is used as it is and left running.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence

from hzai.lazy import lazy_import

LOCAL = "local"
LOCAL_CPUS = 4  # most CPUs a private local Ray takes
# What --ray accepts as an address; anything else after --ray is taken for a path.
_ADDRESS = re.compile(r"^(auto|local|ray://\S+|[\w.\-\[\]:]+:\d+)$")


class BatchError(Exception):
    """Ray is missing or cannot be reached (said in one line)."""


def is_address(text: str) -> bool:
    return bool(_ADDRESS.match(text)) and not os.path.exists(text)


def _ray():
    """Ray, an optional package (hzai.lazy): BatchError naming the extra when it is missing."""
    try:
        return lazy_import("ray")
    except ImportError:
        raise BatchError("--ray needs Ray: pip install 'hzai[ray]'") from None


@contextmanager
def ray_session(address: str | None = None, cpus: int | None = None):
    """Ray, started or joined for the block (and stopped after it if started here)."""
    ray = _ray()
    if ray.is_initialized():
        yield ray
        return
    try:
        if address in (None, "", LOCAL):
            ray.init(num_cpus=cpus or max(1, min(LOCAL_CPUS, os.cpu_count() or 1)), include_dashboard=False,
                     log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as exc:  # noqa: BLE001 - ConnectionError, RuntimeError, ...: one line for the user
        raise BatchError(f"cannot start or join Ray at {address or LOCAL}: {type(exc).__name__}: {exc}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def run_tasks(function: Callable, calls: Sequence[tuple], address: str | None = None,
              progress: Callable[[int, int], None] | None = None) -> Iterator[tuple[int, object]]:
    """`function(*call)` for every call as a Ray task (one CPU each); yields
    (index of the call, result) as tasks finish, calling `progress(done, total)` after
    each. A task's exception is raised here, as the function raised it."""
    with ray_session(address) as ray:
        task = ray.remote(num_cpus=1)(function)
        pending = {task.remote(*call): index for index, call in enumerate(calls)}
        done = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                index = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = exc.cause if isinstance(getattr(exc, "cause", None), BaseException) else exc
                    raise cause from None
                done += 1
                if progress:
                    progress(done, len(calls))
                yield index, result


def run_all(function: Callable, calls: Sequence[tuple], address: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> list:
    """The results of `run_tasks`, in the order of `calls`."""
    results: list = [None] * len(calls)
    for index, result in run_tasks(function, calls, address, progress):
        results[index] = result
    return results
