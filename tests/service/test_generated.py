"""The committed Python code of the API matches the .proto files."""

from pathlib import Path

import hzai_proto
from hzai_proto.generate import FILES, SUFFIXES, generate

PACKAGE = Path(hzai_proto.__file__).parent / "v2"


def test_generated_code_matches_the_proto_files(tmp_path):
    written = generate(tmp_path)
    assert len(written) == len(FILES) * len(SUFFIXES)
    stale = [p.name for p in written if p.read_bytes() != (PACKAGE / p.name).read_bytes()]
    assert not stale, f"regenerate with `python -m hzai_proto.generate`: {stale} differ from the .proto files"


def test_generated_imports_do_not_shadow_the_library():
    for path in PACKAGE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "from hzai.v2" not in text and "import hzai.v2" not in text, path.name
