"""The committed Python code of the API matches the .proto files."""

from pathlib import Path

import hzai_proto
from hzai_proto.generate import FILES, SUFFIXES, generate

PACKAGE = Path(hzai_proto.__file__).parent / "v3"


def test_generated_code_matches_the_proto_files(tmp_path):
    written = generate(tmp_path)
    assert len(written) == len(FILES) * len(SUFFIXES)
    stale = [p.name for p in written if p.read_bytes() != (PACKAGE / p.name).read_bytes()]
    assert not stale, f"regenerate with `python -m hzai_proto.generate`: {stale} differ from the .proto files"


def test_generated_imports_do_not_shadow_the_library():
    for path in PACKAGE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "from hzai.v3" not in text and "import hzai.v3" not in text, path.name


def test_only_the_served_api_version_is_in_the_tree():
    """hzai.v1 is gone (the server answers its methods UNIMPLEMENTED): neither its .proto
    files nor generated code of it, or of anything but the files generate.py writes."""
    proto_dir = Path(hzai_proto.__file__).resolve().parents[2] / "hzai"
    assert sorted(p.name for p in proto_dir.iterdir() if p.is_dir()) == ["v3"]
    assert sorted(p.stem for p in (proto_dir / "v3").glob("*.proto")) == sorted(FILES)
    generated = Path(hzai_proto.__file__).parent
    assert sorted(p.name for p in generated.iterdir() if p.is_dir() and p.name != "__pycache__") == ["v3"]
    expected = {f"{name}{suffix}" for name in FILES for suffix in SUFFIXES} | {"__init__.py"}
    assert {p.name for p in PACKAGE.iterdir() if p.is_file()} <= expected
