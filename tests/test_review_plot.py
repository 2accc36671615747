"""`hzai analyze-game RECORD --plot FILE`: a PNG of sensible size (no pixel
comparisons), the same table as without it, and one clear line when it cannot draw."""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

from hzai.cli import main

HANDMADE = Path(__file__).parent / "data" / "handmade_game.json"


def short_record(tmp_path: Path, moves: int = 8) -> Path:
    data = json.loads(HANDMADE.read_text())
    data["moves"] = data["moves"][:moves]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data))
    return path


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", "a PNG file"
    return struct.unpack(">II", head[16:24])


def test_the_plot_is_a_png_and_the_table_is_unchanged(tmp_path, capsys):
    record = short_record(tmp_path)
    flags = ["--budget", "120", "--quiet", "--seed", "3"]
    assert main(["analyze-game", str(record), *flags]) == 0
    plain = capsys.readouterr().out
    picture = tmp_path / "game.png"
    assert main(["analyze-game", str(record), *flags, "--plot", str(picture)]) == 0
    out = capsys.readouterr()
    assert out.out == plain and f"plot written to {picture}" in out.err
    width, height = png_size(picture)
    assert 600 <= width <= 3000 and 300 <= height <= 3000
    assert 10_000 < picture.stat().st_size < 2_000_000


def test_a_plot_for_one_side_only(tmp_path, capsys):
    picture = tmp_path / "hera.svg"
    assert main(["analyze-game", str(short_record(tmp_path)), "--budget", "60", "--as", "hera", "--quiet",
                 "--plot", str(picture)]) == 0
    assert picture.read_text().lstrip().startswith("<?xml") and "where hera believes" in picture.read_text()


def test_without_matplotlib_the_command_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    assert main(["analyze-game", str(short_record(tmp_path)), "--budget", "20", "--plot",
                 str(tmp_path / "g.png")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "hzai analyze-game: --plot needs matplotlib: pip install 'hzai[plot]'"
    assert not (tmp_path / "g.png").exists()


def test_a_plot_of_several_records_or_nothing_is_refused(tmp_path, capsys):
    record = short_record(tmp_path)
    assert main(["analyze-game", str(record), str(record), "--plot", str(tmp_path / "g.png")]) == 2
    assert "--plot draws one record" in capsys.readouterr().err
    empty = short_record(tmp_path, moves=0)
    assert main(["analyze-game", str(empty), "--plot", str(tmp_path / "g.png")]) == 0
    assert "nothing to analyse" in capsys.readouterr().out and not (tmp_path / "g.png").exists()
