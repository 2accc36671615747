"""The shipped learned models through the service: ListGames names them, SuggestMove and
Analyze search with them (Hera and Zeus, and Legends' team value), today's default stays
on offer as ismcts-v2, and a Legends bot never reads a hand behind its view."""

from __future__ import annotations

import json

from hzai.core import Limits, make_game
from hzai.native.model import model_id


def test_list_games_names_the_shipped_model(client):
    games = {g.name: g for g in client.list_games()}
    shipped = model_id(make_game("hera_zeus"))
    assert shipped and games["hera_zeus"].model == shipped
    legends = model_id(make_game("legends"))
    assert legends.startswith("legends@") and games["legends"].model == legends


def test_the_default_and_ismcts_v2_answer_with_legal_moves(client, midgame):
    from tests.service.test_bot import legal_texts

    for bot in ("ismcts", "ismcts-v2"):
        reply = client.suggest_move(midgame.to_json(), bot=bot, iterations=150, seed=2)
        assert reply.move.text in legal_texts(midgame) and reply.bot == bot


def test_analyze_searches_with_the_model(client, midgame):
    reply = client.analyze(midgame.to_json(), iterations=300, seed=4)
    analysis = getattr(reply, "analysis", reply)
    assert sum(m.visits for m in analysis.moves) == 300 and analysis.best.text


def _legends_record(p1_hand, p2_hand=("guile", "speed", "arms", "courage"), moves=("place m1",)) -> str:
    """A dealt Legends record (2 heroes, mission 1): the hands as given, the rest of the
    pile in name order; p2 decides after `moves`."""
    from hzai.games.legends.record import Record
    from tests.legends.helpers import game, setup

    g = game(1)
    return json.dumps(Record(g, setup=setup(g, {"p1": list(p1_hand), "p2": list(p2_hand)}), moves=list(moves)).to_json())


def test_a_legends_suggestion_and_analysis_search_with_the_team_value(client):
    from hzai.search.bot import ANALYSIS_BOT, make_bot

    game = make_game("legends", mission=1, heroes=["Perseus", "Atalanta"])
    record = _legends_record(["strength", "strength", "di", "arms"])
    view = game.records.read(json.loads(record)).replay().view(1)
    served = client.analyze(record, game="legends", iterations=200, seed=3)
    served = getattr(served, "analysis", served)
    # an analysis is the analysis bot's own search (issue 33: one configuration for a spec;
    # issue 42: the default bot with its replicas when the request names none)
    guided = make_bot(ANALYSIS_BOT).analyze(view, Limits(iterations=200), seed=3)
    unguided = make_bot("ismcts-v2:replicas=4").analyze(view, Limits(iterations=200), seed=3)
    key = lambda a: sorted((m.move.text if hasattr(m.move, "text") else game.move_text(m.move), m.visits,  # noqa: E731
                            round(m.value, 6)) for m in a.moves)
    assert key(served) == key(guided) != key(unguided)
    for seed in (1, 2, 3):
        reply = client.suggest_move(record, game="legends", bot="ismcts", iterations=150, seed=seed)
        local = make_bot("ismcts").decide(view, Limits(iterations=150), seed=seed).move
        assert reply.seat == 1 and reply.bot == "ismcts" and reply.move.text == game.move_text(local)


def test_a_legends_bot_never_reads_its_partners_hand(client):
    """p2's move is the same whoever holds which cards behind its view: p1's hand (and
    so the pile) changed, p2's own hand kept."""
    moves = set()
    for p1_hand in (["strength", "strength", "di", "arms"], ["speed", "courage", "guile", "di"],
                    ["arms", "arms", "strength", "courage"]):
        for bot in ("ismcts", "ismcts:policy=1"):
            reply = client.suggest_move(_legends_record(p1_hand), game="legends", bot=bot, iterations=120, seed=5)
            moves.add((bot, reply.move.text))
    assert len(moves) == 2
