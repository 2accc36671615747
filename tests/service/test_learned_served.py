"""The shipped learned model through the service: ListGames names it, SuggestMove and
Analyze search with it, and today's default stays on offer as ismcts-v2."""

from __future__ import annotations

from hzai.core import make_game
from hzai.native.model import model_id


def test_list_games_names_the_shipped_model(client):
    games = {g.name: g for g in client.list_games()}
    shipped = model_id(make_game("hera_zeus"))
    assert shipped and games["hera_zeus"].model == shipped
    assert games["legends"].model == ""  # Legends ships none: its bots search unguided


def test_the_default_and_ismcts_v2_answer_with_legal_moves(client, midgame):
    from tests.service.test_bot import legal_texts

    for bot in ("ismcts", "ismcts-v2"):
        reply = client.suggest_move(midgame.to_json(), bot=bot, iterations=150, seed=2)
        assert reply.move.text in legal_texts(midgame) and reply.bot == bot


def test_analyze_searches_with_the_model(client, midgame):
    reply = client.analyze(midgame.to_json(), iterations=300, seed=4)
    analysis = getattr(reply, "analysis", reply)
    assert sum(m.visits for m in analysis.moves) == 300 and analysis.best.text
