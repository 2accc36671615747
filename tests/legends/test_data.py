"""L-COMP-5: the data file loader refuses what cannot be a legends-data/1 file, naming
the problem."""

from __future__ import annotations

import json

import pytest

from hzai.games.legends.data import DATA_DIR, DataError, load_data, parse_data


def classic() -> dict:
    return json.loads((DATA_DIR / "classic.json").read_text(encoding="utf-8"))


def mission(raw, mid):
    return next(m for m in raw["missions"] if m["id"] == mid)


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(extra=1), "unknown key 'extra'"),
    (lambda r: r["di_table"]["human"].__setitem__(4, 7), "more than the 6"),
    (lambda r: r["monsters"].__setitem__("Hydra", ["speed", "cunning"]), "unknown attribute 'cunning'"),
    (lambda r: r["heroes"].__setitem__("Jason", "wit"), "unknown attribute 'wit'"),
    (lambda r: r["monsters"].__setitem__("hydra", ["speed", "arms"]), "monster name 'hydra' repeats"),
    (lambda r: r["attributes"].append("guile"), "repeats"),
    (lambda r: mission(r, 2)["triggers"].update({"5": "+1", "6": "C"}) or mission(r, 2)["triggers"].pop("5"),
     "can never fire"),
    (lambda r: mission(r, 8).update(triggers={"5": "2C", "4": "H"}), "needs 12 monster cards"),
    (lambda r: mission(r, 1)["triggers"].update({"6": "D"}), r"is not \+n, C, 2C or H"),
    (lambda r: mission(r, 1).update(special="chaos"), "unknown special"),
    (lambda r: r["action_cards"].pop("di"), "action_cards"),
    (lambda r: r.update(format="legends-data/2"), "format"),
])
def test_L_COMP_5_bad_data_is_refused(change, message):
    raw = classic()
    change(raw)
    with pytest.raises(DataError, match=message):
        parse_data(raw, "test")


def test_L_COMP_5_mission_2_may_encode_the_other_reading_but_not_a_trigger_that_never_fires():
    """L-MISSION-3: 1:+1 2:+1 6:C loads; 2:+1 6:C alone lets only 5 normals enter."""
    raw = classic()
    mission(raw, 2)["triggers"] = {"1": "+1", "2": "+1", "6": "C"}
    assert parse_data(raw, "test").missions[2].triggers[6] == "C"
    mission(raw, 2)["triggers"] = {"2": "+1", "6": "C"}
    with pytest.raises(DataError, match="defeat 6 can never fire"):
        parse_data(raw, "test")


def test_files_that_cannot_be_read_name_the_path(tmp_path):
    with pytest.raises(DataError, match="cannot be read"):
        load_data(str(tmp_path / "none.json"))
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(DataError, match="not valid JSON"):
        load_data(str(tmp_path / "bad.json"))
    assert load_data("classic").name == "classic"
