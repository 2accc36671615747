"""A bot registered in hzai.search.bot's registry is listed by the service (GameInfo.bots)
and plays through SuggestMove, with no change to the server for it; one registered as
not served is refused by name."""

from __future__ import annotations

import grpc
import pytest

from hzai.core import PlayResult
from hzai.games.hera_zeus.rules import Record
from hzai.search import bot as registry
from hzai.search.bot import register_bot
from hzai_client import HzaiClient
from hzai_server.app import HzaiServer
from hzai_server.config import ServerConfig

from .test_errors import rpc_error

RECORD = {"format": "hzai-record/1", "seed": 11, "moves": []}


class LastLegalBot:
    """The last legal move, in the order the view lists them (no options)."""

    name = "last-legal"

    def decide(self, view, limits=None, seed=0, stop=None, progress=None, *, root_moves=None):
        return PlayResult(view.legal_moves()[-1])


@pytest.fixture
def served_toy_bot():
    register_bot("last-legal", LastLegalBot, "the last legal move (a test's bot)")
    register_bot("hidden-legal", LastLegalBot, "the same, not offered by the service", served=False)
    server = HzaiServer(ServerConfig(address="127.0.0.1:0", data_dir=":memory:", max_searches=1,
                                     default_iterations=50))
    server.start()
    try:
        yield server
    finally:
        server.stop(0)
        registry._KINDS.pop("last-legal", None)
        registry._KINDS.pop("hidden-legal", None)


def test_a_registered_bot_is_listed_and_plays_through_suggest_move(served_toy_bot):
    with HzaiClient(served_toy_bot.address, timeout=30) as client:
        games = {g.name: g for g in client.list_games()}
        assert "last-legal" in games["hera_zeus"].bots and "last-legal" in games["legends"].bots
        assert "hidden-legal" not in games["hera_zeus"].bots
        reply = client.suggest_move(RECORD, bot="last-legal", seed=3)
        record = Record.from_json(RECORD)
        expected = str(record.game.records.view_to_decide(record).legal_moves()[-1])
        assert reply.bot == "last-legal" and reply.move.text == expected
        error = rpc_error(client.suggest_move, RECORD, bot="hidden-legal")
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "'hidden-legal' is not offered by the service" in error.details() and "last-legal" in error.details()
