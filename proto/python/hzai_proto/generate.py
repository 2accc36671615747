"""Regenerate hzai_proto/v3 from proto/hzai/v3/*.proto with grpcio-tools.

    python -m hzai_proto.generate            # rewrite the committed files
    python -m hzai_proto.generate OUT_DIR    # write them elsewhere (the freshness test)

protoc names Python modules after the .proto paths (`hzai.v3`), which is the library
package's name; the imports are moved under `hzai_proto.v3` so both can be installed.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

PROTO_ROOT = Path(__file__).resolve().parents[2]  # the repository's proto/ folder
PACKAGE_DIR = Path(__file__).resolve().parent / "v3"
# Every .proto file of the published package, found, not listed: a game that adds its
# typed messages adds proto/hzai/v3/<game>.proto and nothing here.
FILES = tuple(sorted(p.stem for p in (PROTO_ROOT / "hzai" / "v3").glob("*.proto")))
SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")

_IMPORT = re.compile(r"^(from|import) hzai\.v3( import|\.)", re.MULTILINE)


def _fix_imports(text: str) -> str:
    return _IMPORT.sub(lambda m: f"{m.group(1)} hzai_proto.v3{m.group(2)}", text)


def generate(out_dir: Path) -> list[Path]:
    """Write the generated modules into out_dir (flat: game_pb2.py, ...)."""
    from grpc_tools import protoc

    try:
        from importlib.resources import files

        include = str(files("grpc_tools") / "_proto")
    except Exception:  # pragma: no cover - old grpcio-tools layout
        include = None
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as raw:
        args = ["protoc", f"-I{PROTO_ROOT}"]
        if include:
            args.append(f"-I{include}")
        args += [f"--python_out={raw}", f"--pyi_out={raw}", f"--grpc_python_out={raw}"]
        args += [str(PROTO_ROOT / "hzai" / "v3" / f"{name}.proto") for name in FILES]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed (see the messages above)")
        written = []
        for name in FILES:
            for suffix in SUFFIXES:
                source = Path(raw) / "hzai" / "v3" / f"{name}{suffix}"
                target = out_dir / f"{name}{suffix}"
                target.write_text(_fix_imports(source.read_text(encoding="utf-8")), encoding="utf-8")
                written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else PACKAGE_DIR
    for path in generate(out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
