"""The breaking-change check of the .proto files (`python -m hzai_proto.breaking`, Buf's
FILE rules against the snapshots in proto/published/): it passes on the tree as it is,
the snapshot of hzai.v3 is today's files, and it fails, naming the change, on a copy of
proto/ changed in ways that break clients built from the published files."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2

from hzai_proto.generate import FILES

REPO = Path(__file__).resolve().parents[1]
PROTO = REPO / "proto"
SNAPSHOT = PROTO / "published" / "hzai-v3.binpb"


def check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hzai_proto.breaking", *args], capture_output=True, text=True,
                          timeout=600, cwd=REPO)


@pytest.fixture
def proto_copy(tmp_path) -> Path:
    """proto/'s .proto files and buf.yaml in a folder of their own, to change."""
    copy = tmp_path / "proto"
    shutil.copytree(PROTO / "hzai", copy / "hzai")
    shutil.copy(PROTO / "buf.yaml", copy / "buf.yaml")
    return copy


def edit(path: Path, pattern: str, replacement: str) -> None:
    text = path.read_text(encoding="utf-8")
    changed, count = re.subn(pattern, replacement, text, count=1, flags=re.MULTILINE)
    assert count == 1, f"{pattern!r} is not in {path}"  # the test edits what is there
    path.write_text(changed, encoding="utf-8")


def test_the_tree_is_compatible_with_the_published_v3_and_is_what_was_published():
    run = check()
    assert run.returncode == 0, run.stdout + run.stderr
    # the snapshot is current: a proto change, even a compatible one, is published with it
    lines = run.stdout.splitlines()
    assert "hzai.v3: compatible, unchanged since published" in lines, run.stdout
    assert all(line.endswith(": compatible, unchanged since published") for line in lines), run.stdout
    # and it is the published package: the five files of hzai.v3 (and the Any they import)
    image = descriptor_pb2.FileDescriptorSet.FromString(SNAPSHOT.read_bytes())
    ours = [f for f in image.file if f.name.startswith("hzai/")]
    assert sorted(f.name for f in ours) == sorted(f"hzai/v3/{name}.proto" for name in FILES)
    assert {f.package for f in ours} == {"hzai.v3"}
    budget = next(m for f in ours for m in f.message_type if m.name == "Budget")
    assert "threads" in {field.name for field in budget.field}


def test_the_check_fails_on_a_removed_field_and_names_it(proto_copy):
    edit(proto_copy / "hzai" / "v3" / "common.proto", r"^\s*uint32 threads = 3;.*\n", "")
    run = check("--proto", str(proto_copy))
    assert run.returncode == 1, run.stdout + run.stderr
    assert 'field "3" with name "threads" on message "Budget" was deleted' in run.stdout
    assert "[FIELD_NO_DELETE]" in run.stdout and "hzai/v3/common.proto:" in run.stdout
    assert run.stdout.startswith("hzai.v3: 1 change(s) would break clients built from the published files")
    assert "docs/api.md#breaking-changes" in run.stdout


@pytest.mark.parametrize(("pattern", "replacement", "words"), [
    # a renamed field: the wire is the same, but JSON and every generated accessor are not
    (r"uint32 threads = 3;", "uint32 thread_count = 3;", 'Field "3" on message "Budget" changed name from '
                                                        '"threads" to "thread_count".'),
    # a field given another number: old clients write the value where new servers no longer read it
    (r"uint32 threads = 3;", "uint32 threads = 30;", 'field "3" with name "threads" on message "Budget" was deleted'),
    # a changed type
    (r"uint32 threads = 3;", "string threads = 3;", 'changed type from "uint32" to "string"'),
])
def test_the_check_fails_on_other_incompatible_changes(proto_copy, pattern, replacement, words):
    edit(proto_copy / "hzai" / "v3" / "common.proto", pattern, replacement)
    run = check("--proto", str(proto_copy))
    assert run.returncode == 1, run.stdout + run.stderr
    assert words in run.stdout, run.stdout


def test_the_check_fails_on_a_message_moved_to_another_file(proto_copy):
    # Same package, same wire, and every file still compiles (common.proto imports the new
    # file publicly); but generated code is per file (`from hzai_proto.v3.common_pb2 import
    # Budget`), so the FILE rules of proto/buf.yaml count it as a break.
    common = proto_copy / "hzai" / "v3" / "common.proto"
    budget = re.search(r"^message Budget \{[^}]*\}\n", common.read_text(encoding="utf-8"), re.MULTILINE).group(0)
    (proto_copy / "hzai" / "v3" / "budget.proto").write_text(
        f'syntax = "proto3";\n\npackage hzai.v3;\n\n{budget}', encoding="utf-8")
    edit(common, r"^message Budget \{[^}]*\}\n", "")
    edit(common, r'^import "google/protobuf/any.proto";\n', 'import "google/protobuf/any.proto";\n'
                                                            'import public "hzai/v3/budget.proto";\n')
    run = check("--proto", str(proto_copy))
    assert run.returncode == 1, run.stdout + run.stderr
    assert 'common.proto:1:1: Previously present message "Budget" was deleted from file. [MESSAGE_NO_DELETE]' \
        in run.stdout, run.stdout


def test_files_that_do_not_compile_are_bad_input(proto_copy):
    edit(proto_copy / "hzai" / "v3" / "common.proto", r"^message Budget \{[^}]*\}\n", "")
    run = check("--proto", str(proto_copy))
    assert run.returncode == 2 and "do not compile" in run.stderr and "cannot find `Budget`" in run.stderr, \
        run.stdout + run.stderr


def test_publishing_refuses_a_breaking_change_and_takes_a_compatible_one(proto_copy, tmp_path):
    published = tmp_path / "published"
    published.mkdir()
    shutil.copy(SNAPSHOT, published / SNAPSHOT.name)
    common = proto_copy / "hzai" / "v3" / "common.proto"
    edit(common, r"(uint32 threads = 3;.*\n)", r"\1  uint32 spare = 99;\n")  # a new field: compatible
    run = check("--proto", str(proto_copy), "--published", str(published))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == ("hzai.v3: compatible; it has changes not yet published: publish them with "
                                  "`python -m hzai_proto.breaking --publish v3`")
    run = check("--proto", str(proto_copy), "--published", str(published), "--publish", "v3")
    assert run.returncode == 0 and "published hzai.v3: wrote " in run.stdout, run.stdout + run.stderr
    image = descriptor_pb2.FileDescriptorSet.FromString((published / SNAPSHOT.name).read_bytes())
    budget = next(m for f in image.file for m in f.message_type if m.name == "Budget")
    assert {"threads", "spare"} <= {field.name for field in budget.field}
    assert check("--proto", str(proto_copy), "--published", str(published)).stdout.strip() == \
        "hzai.v3: compatible, unchanged since published"
    # the new field is published now: removing it again is refused, and the snapshot stays
    before = (published / SNAPSHOT.name).read_bytes()
    edit(common, r"^\s*uint32 spare = 99;\n", "")
    run = check("--proto", str(proto_copy), "--published", str(published), "--publish", "v3")
    assert run.returncode == 1 and 'with name "spare" on message "Budget" was deleted' in run.stdout, run.stdout
    assert (published / SNAPSHOT.name).read_bytes() == before


def test_bad_input_gets_one_line(tmp_path):
    for args, words in ((["--proto", str(tmp_path)], "has no buf.yaml"),
                        (["--publish", "3"], "--publish takes a package version such as v3, not '3'"),
                        (["--publish", "v9", "--published", str(tmp_path)], "there is no package hzai.v9")):
        run = check(*args)
        assert run.returncode == 2 and words in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)
