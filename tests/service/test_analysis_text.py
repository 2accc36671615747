"""`hzai analyze` prints the same table in process and through `--server`."""

from __future__ import annotations

from hzai_client.cli import main as hzai_main
from hzai.review import ANALYSIS_HEADER, PV_COLUMN, format_pv


def table_rows(out: str) -> dict[str, str]:
    """move -> its whole row, for the rows under the table header."""
    lines = out.splitlines()
    start = lines.index(ANALYSIS_HEADER) + 1
    rows = {}
    for line in lines[start:]:
        if not line.strip():
            break
        rows[line[:PV_COLUMN].split("  ")[0].strip()] = line
    return rows


def test_format_pv_shows_the_replies_after_the_move():
    assert format_pv(["draw"]) == ""
    assert format_pv(["draw", "challenge c1", "draw"]) == "challenge c1 / draw"
    assert format_pv(["m", "a", "b", "c", "d", "e"]) == "a / b / c / d / …"


def test_local_and_remote_analysis_print_the_same_principal_variations(server, midgame, tmp_record, capsys):
    path = str(tmp_record(midgame.to_json()))
    common = ["--budget", "600", "--seed", "3", "--threads", "1"]
    assert hzai_main(["analyze", path, *common]) == 0
    local = table_rows(capsys.readouterr().out)
    assert hzai_main(["analyze", path, *common, "--server", server.address]) == 0
    remote = table_rows(capsys.readouterr().out)
    assert local and set(local) == set(remote)
    assert any(len(row) > PV_COLUMN for row in local.values()), "no principal variation to compare"
    for move, row in local.items():
        assert row[PV_COLUMN:] == remote[move][PV_COLUMN:], move
        assert "[" not in row[PV_COLUMN:]
