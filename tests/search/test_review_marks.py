"""Issue 42, item 4: honest review marks and analyses with replicas by default.

A played move searched fewer than MIN_VISITS times gets a search of its own; a mark
(`?`, `??`) only where both moves have MIN_VISITS visits and the played move's interval
lies wholly below the best's; the text table of `hzai analyze-game` shows the visits and
intervals; `hzai analyze` and `analyze-game` analyse with the replicas by default. Through
the real command line, on the first 42 moves of the long benchmark record (whose
decisions the search marks at the default budget with seed 7)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from hzai.cli import main
from hzai.search.bot import ANALYSIS_BOT
from hzai.search.review import BLUNDER, DUBIOUS, MIN_VISITS, mark_of

LONG_RECORD = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "analyze_game_record.json"


def run(capsys, *argv) -> str:
    assert main([str(a) for a in argv]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def short_record(tmp_path_factory) -> Path:
    data = json.loads(LONG_RECORD.read_text())
    data["moves"] = data["moves"][:42]
    path = tmp_path_factory.mktemp("marks") / "short.json"
    path.write_text(json.dumps(data))
    return path


@pytest.fixture(scope="module")
def reviews(short_record) -> dict[int, list[dict]]:
    """The review at analyze-game's default budget with seeds 0 and 7, as JSON rows."""
    out = {}
    for seed in (0, 7):
        buffer = io.StringIO()  # capsys is per test: the module's fixture captures by hand
        with contextlib.redirect_stdout(buffer):
            assert main(["analyze-game", str(short_record), "--seed", str(seed), "--quiet", "--json"]) == 0
        out[seed] = json.loads(buffer.getvalue())
    return out


def test_a_mark_needs_the_minimum_visits_of_both_moves_and_separate_intervals():
    apart, overlapping = ((0.30, 0.40), (0.60, 0.70)), ((0.30, 0.65), (0.60, 0.70))
    assert mark_of(0.3, *apart, MIN_VISITS, MIN_VISITS) == "??"
    assert mark_of(DUBIOUS, *apart, MIN_VISITS, 500) == "?"
    assert mark_of(BLUNDER - 0.01, *apart, 500, 500) == "?"
    assert mark_of(0.3, *apart, MIN_VISITS - 1, 500) == "", "the played move searched too little"
    assert mark_of(0.3, *apart, 500, MIN_VISITS - 1) == "", "the best move searched too little"
    assert mark_of(0.3, *overlapping, 500, 500) == "", "intervals that overlap say nothing"
    assert mark_of(DUBIOUS - 0.001, *apart, 500, 500) == "", "a loss under the threshold"
    assert mark_of(None, None, *apart[1:], 0, 500) == ""


def test_no_mark_stands_on_a_move_searched_less_than_the_minimum(reviews):
    for rows in reviews.values():
        for row in rows:
            if row["played"] != row["best"]:  # searched on its own when the analysis gave it too few visits
                assert row["played_visits"] >= MIN_VISITS, row
            if row["mark"]:
                assert min(row["played_visits"], row["best_visits"]) >= MIN_VISITS, row


def test_marks_only_where_the_intervals_separate(reviews):
    rows = [row for seed_rows in reviews.values() for row in seed_rows]
    marked = [r for r in rows if r["mark"]]
    assert marked, "the search marks some decisions with seed 7: a review without marks tests nothing"
    for r in marked:
        assert r["played_interval"][1] < r["best_interval"][0], r
        assert r["mark"] == ("??" if r["loss"] >= BLUNDER else "?") and r["loss"] >= DUBIOUS
    lost_but_unsure = [r for r in rows if r["loss"] is not None and r["loss"] >= DUBIOUS and not r["mark"]]
    assert lost_but_unsure, "losses over the threshold whose intervals overlap are left unmarked"
    for r in lost_but_unsure:
        assert (r["played_interval"][1] >= r["best_interval"][0]
                or min(r["played_visits"], r["best_visits"]) < MIN_VISITS), r


def test_two_review_seeds_mark_alike_at_the_default_budget(capsys):
    """The issue's measure on the whole 173-move record (benchmarks/review_marks.py runs it
    over 20 held-out games as well): the marks of seeds 0 and 7 agree on 90% of the
    decisions or more. (On the record's first 42 moves alone a handful of decisions
    decides it: hz@4 agrees on 37 of them, 165 of the whole record's 171.)"""
    first, second = (json.loads(run(capsys, "analyze-game", LONG_RECORD, "--seed", seed, "--quiet", "--json"))
                     for seed in (0, 7))
    assert [r["index"] for r in first] == [r["index"] for r in second] and len(first) >= 150
    agree = sum(a["mark"] == b["mark"] for a, b in zip(first, second))
    assert agree / len(first) >= 0.9, (agree, len(first))


def test_the_table_shows_visits_and_interval_of_the_played_and_the_best_move(short_record, reviews, capsys):
    table = run(capsys, "analyze-game", short_record, "--seed", 7, "--quiet")
    header = next(line for line in table.splitlines() if line.lstrip().startswith("#"))
    assert header.count("visits") == 2 and header.count("95% interval") == 2 and "lost" in header
    assert f"needs {MIN_VISITS} visits" in table
    lines = {int(line.split()[0]): line for line in table.splitlines() if re.match(r"\s*\d+\s", line)}
    assert sorted(lines) == [r["index"] for r in reviews[7]]
    for r in reviews[7]:
        line = lines[r["index"]]
        played = f"{r['played_visits']:>6} {r['played_value']:>6.3f} " \
                 f"{r['played_interval'][0]:>5.3f}..{r['played_interval'][1]:<5.3f}"
        best = f"{r['best_visits']:>6} {r['best_value']:>6.3f} {r['best_interval'][0]:>5.3f}..{r['best_interval'][1]:<5.3f}"
        assert played in line and best in line, (line, r)
        assert line.endswith(r["mark"]) and (r["mark"] or not line.endswith("?"))
    blunders = [r["index"] for r in reviews[7] if r["mark"] == "??"]
    assert blunders and all(lines[i].endswith("??") for i in blunders)  # the table shows them


def plain(text: str) -> dict:
    data = json.loads(text)
    data.pop("millis")
    return data


def test_analyze_and_analyze_game_analyse_with_the_replicas_by_default(short_record, reviews, capsys):
    assert ANALYSIS_BOT == "ismcts:replicas=4"
    default = plain(run(capsys, "analyze", short_record, "--budget", 2000, "--json"))
    replicas = plain(run(capsys, "analyze", short_record, "--budget", 2000, "--bot", ANALYSIS_BOT, "--json"))
    single = plain(run(capsys, "analyze", short_record, "--budget", 2000, "--bot", "ismcts", "--json"))
    assert default == replicas and default != single
    one = json.loads(run(capsys, "analyze-game", short_record, "--seed", 7, "--quiet", "--bot", ANALYSIS_BOT, "--json"))
    assert one == reviews[7]
    other = json.loads(run(capsys, "analyze-game", short_record, "--seed", 7, "--quiet", "--bot", "ismcts", "--json"))
    assert [r["best_interval"] for r in other] != [r["best_interval"] for r in one]
