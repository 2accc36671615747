"""One registry of bots (hzai.search.bot): make_bot, the service's list, the command
line's help and the table of docs/search.md all read it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hzai.core import make_game
from hzai.search.bot import BotError, bot_kind, bot_kinds, bot_names, bot_table, make_bot, register_bot, served_bots

DOCS = Path(__file__).resolve().parents[2] / "docs" / "search.md"


def test_the_docs_table_is_the_registry_s():
    text = DOCS.read_text(encoding="utf-8")
    assert bot_table() in text, "docs/search.md's bot table differs from the registry; write bot_table() there:\n" + \
        bot_table()


def test_the_service_offers_the_served_bots_that_play_the_game():
    assert served_bots(make_game("hera_zeus")) == ["ismcts", "ismcts-v2", "ismcts-v3", "pimc", "heuristic", "random"]
    assert "ismcts-v3" not in served_bots(make_game("legends"))  # it keeps no earlier model v3
    assert {"light", "ismcts-v1", "level"} <= set(bot_names()) - set(served_bots(make_game("hera_zeus")))
    toy = make_game("toy_guess")
    assert "heuristic" not in served_bots(toy) and "ismcts" in served_bots(toy)
    assert [k.name for k in bot_kinds()][:6] == ["ismcts", "ismcts-v2", "ismcts-v3", "pimc", "heuristic", "random"]


def test_a_registered_bot_is_made_by_name_and_its_options_checked(monkeypatch):
    from hzai.search import bot as registry

    class Picky:
        def __init__(self, pick="0"):
            self.pick = int(pick)

    monkeypatch.delitem(registry._KINDS, "picky", raising=False)
    register_bot("picky", Picky, "the move at index `pick`", served=False)
    try:
        assert make_bot("picky:pick=2").pick == 2 and bot_kind("picky").served is False
        with pytest.raises(BotError, match="unknown option 'x'; options: pick"):
            make_bot("picky:x=1")
        assert "picky" in bot_names()
    finally:
        registry._KINDS.pop("picky", None)
    with pytest.raises(BotError, match="unknown bot 'picky'"):
        make_bot("picky")
    for bad in ("", "Upper", "a:b", "a,b"):
        with pytest.raises(ValueError, match="bot name"):
            register_bot(bad, Picky, "")
