"""Options every hzai command line shares and the one error they raise: `--json [FILE]`
means the same in every command (JSON on standard output without FILE, written to FILE
with one). A module of its own so that each command-line module (hzai.cli, hzai.learn.cli,
the client's and the cluster's) takes them from below, never from one another."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path


class UsageError(Exception):
    """Bad command-line input; reported as one line with exit code 2."""


class AnalysisUsageError(ValueError):
    """A bad option of hzai.analysis_cli for the record at hand; the message names it.
    Here, not there, so that a command can catch it without importing the analysis."""


JSON_STDOUT = "-"  # --json without a value


def add_json_option(p, what: str) -> None:
    """--json [FILE]: `what` as JSON, on standard output without FILE, else written to FILE."""
    p.add_argument("--json", nargs="?", const=JSON_STDOUT, default=None, metavar="FILE",
                   help=f"{what} as JSON: on standard output, or written to FILE when one is given; a "
                        "record right after --json is read as the record, never written over")


def json_to_stdout(args) -> bool:
    return getattr(args, "json", None) == JSON_STDOUT


def json_file(args, *inputs):
    """The file --json FILE names, opened for writing (None for bare --json or none):
    never one of the command's own `inputs`."""
    target = getattr(args, "json", None)
    if target in (None, JSON_STDOUT):
        return None
    path = Path(target)
    for given in inputs:
        if given is not None and Path(given).exists() and path.exists() and path.resolve() == Path(given).resolve():
            raise UsageError(f"--json: {target} is the record read here; name another file for the JSON")
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--json: cannot write {target}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def json_stream(args, *inputs):
    """The stream --json's JSON goes to: standard output, or FILE (closed after)."""
    handle = json_file(args, *inputs)
    try:
        yield handle or sys.stdout
    finally:
        if handle is not None:
            handle.close()


def write_json_option(args, data, indent=1) -> None:
    """`data` where --json sends it: standard output or the file it names."""
    text = json.dumps(data, indent=indent) + "\n"
    handle = json_file(args)
    if handle is None:
        sys.stdout.write(text)
        return
    with handle:
        handle.write(text)


def check_json_target(args) -> None:
    """Before a long run: UsageError now if --json FILE could not be written at its end
    (no such folder, a folder, no permission). Writes nothing."""
    target = getattr(args, "json", None)
    if target in (None, JSON_STDOUT):
        return
    path = Path(target)
    folder = path.parent
    if path.is_dir():
        raise UsageError(f"--json: {target} is a folder; name a file for the JSON")
    if not folder.is_dir():
        raise UsageError(f"--json: cannot write {target}: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"--json: cannot write {target}: permission denied")
