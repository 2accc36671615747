"""The breaking-change check of the .proto files: Buf's `breaking` rules (set in
proto/buf.yaml) against each published package version kept in proto/published/.

    python -m hzai_proto.breaking                  # check proto/ against every snapshot
    python -m hzai_proto.breaking --publish v3     # check, then snapshot proto/hzai/v3 as published
    python -m hzai_proto.breaking --proto DIR      # check another copy of the proto folder

A snapshot, proto/published/hzai-vN.binpb, is the Buf image (`buf build --path hzai/vN
--exclude-source-info`) of package hzai.vN as it was last published: committed, so the
check needs no git history or tags. Buf comes from the npm registry (@bufbuild/buf,
pinned in proto/buf/package-lock.json) and is installed with `npm ci --prefix proto/buf`
the first time the check runs. Exit status: 0 compatible, 1 a published version would
break (or, with --publish, was not written), 2 bad input or no Buf.

The check also says when a package has compatible changes that are not yet published
(its snapshot differs from a build of today's files): publishing them protects them too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

PROTO_ROOT = Path(__file__).resolve().parents[2]  # the repository's proto/ folder
PUBLISHED = PROTO_ROOT / "published"
BUF_TOOLS = PROTO_ROOT / "buf"  # package.json + package-lock.json pinning @bufbuild/buf
BUF_SCRIPT = BUF_TOOLS / "node_modules" / "@bufbuild" / "buf" / "bin" / "buf"
PROGRAM = "hzai_proto.breaking"
DOCS = "docs/api.md#breaking-changes"
_VERSION = re.compile(r"v[1-9][0-9]*")
_SNAPSHOT = re.compile(r"hzai-(v[1-9][0-9]*)\.binpb")


class CheckError(Exception):
    """Something the check cannot do (no Node.js, a bad folder): exit status 2."""


@contextmanager
def _install_lock() -> Iterator[None]:
    """One `npm ci` at a time into proto/buf (it empties node_modules first): test workers
    and checkouts may ask at once. An flock on a file in the temporary directory."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield
        return
    import hashlib

    name = hashlib.sha256(str(BUF_TOOLS).encode()).hexdigest()[:12]
    with open(Path(tempfile.gettempdir()) / f"hzai-buf-{name}.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def buf_command() -> list[str]:
    """The command that runs the pinned Buf, installing it with npm first if it is missing."""
    node = shutil.which("node")
    if not node:
        raise CheckError("the breaking-change check needs Node.js (Buf is installed from npm as @bufbuild/buf)")
    if not (BUF_TOOLS / "package-lock.json").is_file():
        raise CheckError(f"{BUF_TOOLS / 'package-lock.json'} is missing: this needs the repository's proto/ folder")
    with _install_lock():
        if not BUF_SCRIPT.is_file() or not _runs([node, str(BUF_SCRIPT), "--version"]):
            npm = shutil.which("npm")
            if not npm:
                raise CheckError("npm is needed to install Buf: npm ci --prefix proto/buf")
            done = subprocess.run([npm, "ci", "--prefix", str(BUF_TOOLS), "--no-audit", "--no-fund"],
                                  capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                last = (done.stderr.strip().splitlines() or ["no output"])[-1]
                raise CheckError(f"`npm ci --prefix proto/buf` failed (is the npm registry reachable?): {last}")
            if not _runs([node, str(BUF_SCRIPT), "--version"]):
                raise CheckError("Buf was installed but does not run on this platform "
                                 f"({sys.platform}); @bufbuild/buf ships binaries for Linux, macOS and Windows")
    return [node, str(BUF_SCRIPT)]


def _runs(command: list[str]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=60).returncode == 0
    except OSError:
        return False


def _proto_dir(path: Path) -> Path:
    path = Path(path)
    if not (path / "buf.yaml").is_file():
        raise CheckError(f"{path} is not a proto folder: it has no buf.yaml (the repository's is proto/buf.yaml)")
    return path


def snapshots(published: Path = PUBLISHED) -> dict[str, Path]:
    """The published package versions: {'v3': proto/published/hzai-v3.binpb, ...}."""
    found = {}
    for path in sorted(Path(published).glob("*.binpb")):
        match = _SNAPSHOT.fullmatch(path.name)
        if not match:
            raise CheckError(f"{path}: a snapshot is named hzai-vN.binpb")
        found[match.group(1)] = path
    return found


def build(buf: list[str], proto: Path, version: str, out: Path) -> None:
    """The Buf image of package hzai.<version> in `proto` (the form of a snapshot)."""
    if not (proto / "hzai" / version).is_dir():
        raise CheckError(f"there is no package hzai.{version}: {proto / 'hzai' / version} is not a folder")
    done = subprocess.run([*buf, "build", str(proto), "--path", str(proto / "hzai" / version),
                           "--exclude-source-info", "-o", str(out)], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise CheckError(f"buf build failed for hzai.{version}:\n{done.stderr.strip()}")


@dataclass
class Problem:
    path: str
    line: int
    column: int
    rule: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}: " if self.path else ""  # a deleted file has no place
        return f"{where}{self.message} [{self.rule}]"


def _shown(path: str) -> str:
    """A path Buf names, relative to the working directory when it is under it."""
    if not path:
        return path
    try:
        return Path(path).resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path


def breaking(buf: list[str], proto: Path, snapshot: Path) -> list[Problem]:
    """What in `proto` breaks the published `snapshot`, by the rules of proto/buf.yaml."""
    done = subprocess.run([*buf, "breaking", str(proto), "--against", str(snapshot), "--error-format", "json"],
                          capture_output=True, text=True, timeout=120)
    problems = []
    for line in done.stdout.splitlines():
        if line.strip():
            item = json.loads(line)
            problems.append(Problem(_shown(item.get("path", "")), item.get("start_line", 0), item.get("start_column", 0),
                                    item.get("type", ""), item.get("message", "")))
    unbuilt = [p for p in problems if p.rule == "COMPILE"]
    if unbuilt:
        raise CheckError(f"the .proto files in {proto} do not compile:\n" + "\n".join(f"  {p}" for p in unbuilt))
    if done.returncode != 0 and not problems:  # Buf could not compare at all
        raise CheckError(f"buf breaking could not check against {snapshot.name}:\n{done.stderr.strip()}")
    return problems


def unpublished(buf: list[str], proto: Path, version: str, snapshot: Path) -> bool:
    """Whether today's files of hzai.<version> differ from its snapshot."""
    with tempfile.TemporaryDirectory() as tmp:
        image = Path(tmp) / "today.binpb"
        build(buf, proto, version, image)
        return image.read_bytes() != snapshot.read_bytes()


def check(proto: Path, published: Path, out) -> int:
    proto = _proto_dir(proto)
    found = snapshots(published)
    if not found:
        raise CheckError(f"{published} holds no published snapshot (hzai-vN.binpb): publish one with "
                         f"`python -m {PROGRAM} --publish vN`")
    buf = buf_command()
    broken = 0
    for version, snapshot in found.items():
        problems = breaking(buf, proto, snapshot)
        if problems:
            broken += 1
            print(f"hzai.{version}: {len(problems)} change(s) would break clients built from the published "
                  f"files ({snapshot.name}):", file=out)
            for problem in problems:
                print(f"  {problem}", file=out)
        elif unpublished(buf, proto, version, snapshot):
            print(f"hzai.{version}: compatible; it has changes not yet published: publish them with "
                  f"`python -m {PROGRAM} --publish {version}`", file=out)
        else:
            print(f"hzai.{version}: compatible, unchanged since published", file=out)
    if broken:
        print(f"A published package never changes incompatibly: undo the change, or make it in a new package "
              f"version (see {DOCS}).", file=out)
        return 1
    return 0


def publish(proto: Path, published: Path, version: str, out) -> int:
    proto = _proto_dir(proto)
    if not _VERSION.fullmatch(version):
        raise CheckError(f"--publish takes a package version such as v3, not {version!r}")
    buf = buf_command()
    snapshot = Path(published) / f"hzai-{version}.binpb"
    if snapshot.is_file():
        problems = breaking(buf, proto, snapshot)
        if problems:
            print(f"hzai.{version} is not published again: {len(problems)} change(s) would break clients built "
                  f"from its published files:", file=out)
            for problem in problems:
                print(f"  {problem}", file=out)
            return 1
    Path(published).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=published) as tmp:
        image = Path(tmp) / snapshot.name
        build(buf, proto, version, image)
        os.replace(image, snapshot)
    print(f"published hzai.{version}: wrote {snapshot}", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {PROGRAM}",
                                     description="Check the .proto files against the published package versions "
                                                 "with Buf's breaking rules, or publish a version.")
    parser.add_argument("--proto", type=Path, default=PROTO_ROOT,
                        help="the proto folder to check (with its buf.yaml); default: the repository's proto/")
    parser.add_argument("--published", type=Path, default=PUBLISHED,
                        help="the folder of snapshots (hzai-vN.binpb); default: proto/published/")
    parser.add_argument("--publish", metavar="VERSION",
                        help="snapshot package hzai.VERSION (e.g. v3) as published, after checking it against "
                             "its earlier snapshot")
    args = parser.parse_args(argv)
    try:
        if args.publish is not None:
            return publish(args.proto, args.published, args.publish, sys.stdout)
        return check(args.proto, args.published, sys.stdout)
    except CheckError as exc:
        print(f"{PROGRAM}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
