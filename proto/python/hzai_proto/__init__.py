"""Generated Python code of the hzai.v3 protobuf API (proto/hzai/v3/*.proto).

The files under v3/ are produced by `python -m hzai_proto.generate` and committed;
tests/service/test_generated.py fails when they no longer match the .proto files.
"""

from __future__ import annotations

import importlib


def load_all() -> list:
    """Import every generated module (each `*_pb2.py` under v3/, one per .proto file), so
    that the default descriptor pool knows every game's typed messages: what unpacking a
    `detail` Any, or writing one as JSON, needs. The modules, by file name. Found in the
    package itself, not from the .proto files, which an installed wheel does not carry."""
    from pathlib import Path

    names = sorted(p.name.removesuffix("_pb2.py") for p in (Path(__file__).parent / "v3").glob("*_pb2.py"))
    return [importlib.import_module(f"hzai_proto.v3.{name}_pb2") for name in names]
