"""Legends of Hellas over gRPC, through the generic BotService and MatchService: the game
listed with its seats, searches on a Legends record, and hosted cooperative matches of a
human and bot seats played to the end, with every answer to a seat checked against the
referee states rebuilt from the final record (no teammate's hidden card, ever), the typed
details (LegendsMove, LegendsView, LegendsStatus) included."""

from __future__ import annotations

import json

import grpc
import pytest

from hzai.core import make_game
from hzai.games.legends import Record
from hzai.rng import SplitMix64

from .legends_typed import check_status, checked_move, view_json
from .matchkit import create

HEROES = ["Perseus", "Atalanta", "Hercules"]
PARAMS = {"mission": 1, "heroes": HEROES}


def states_of(record: Record) -> list:
    """The referee state before every move of `record`, and the end last."""
    game = record.game
    state = record.start()
    states = [state.clone()]
    for index, text in enumerate(record.moves):
        game.records.play(state, index, text)
        states.append(state.clone())
    return states


def play_match(client, seats, rng: SplitMix64, human: str = "p1"):
    """The human seat plays random legal moves, the bots play their turns; every answer
    to the human is kept as (kind, reply, moves played when it was asked)."""
    token = seats[human]
    answers = []
    status = client.get_view(seats.id, token=token).status
    for _ in range(3000):
        if status.over:
            return status, answers
        view = client.get_view(seats.id, token=token, with_history=True)
        answers.append(("view", view, view.status.moves_played))
        if status.HasField("to_move") and status.seats[status.to_move] == human:
            moves = client.legal_moves(seats.id, token=token)
            answers.append(("legal", moves, status.moves_played))
            reply = client.play_move(seats.id, moves[rng.below(len(moves))].text, token=token,
                                     move_number=status.moves_played)
        else:
            reply = client.bot_play_turn(seats.id, token=token, move_number=status.moves_played)
        answers.append(("events", reply, None))
        status = reply.status
    raise AssertionError("the mission did not end")


def test_list_games_shows_legends_with_its_seats(client):
    info = next(g for g in client.list_games() if g.name == "legends")
    assert info.title == "Legends of Hellas"
    assert info.cooperative and info.record_format == "legends-record/1"
    assert list(info.seats) == ["p1", "p2"]  # the default heroes: two seats
    assert "heroes" in info.params_help and "variants" in info.params_help
    assert {"random", "heuristic", "ismcts"} <= set(info.bots)


@pytest.mark.parametrize("heroes", [["Perseus"], HEROES, ["Achilles", "Jason", "Perseus", "Hercules", "Atalanta"]])
def test_the_seat_count_follows_the_heroes(client, heroes):
    seats = create(client, "legends", params={"mission": 3, "heroes": heroes, "difficulty": "godlike",
                                              "variants": {"turn_limit": 150}}, bot_seats=[])
    assert list(seats.created.status.seats) == [f"p{i + 1}" for i in range(len(heroes))]
    assert sorted(seats.tokens) == list(seats.created.status.seats)
    client.delete_match(seats.id, token=seats.any_token)


@pytest.mark.parametrize("params, words", [
    ({"mission": 13}, "mission"),
    ({"heroes": ["Perseus", "Perseus"]}, "distinct"),
    ({"heroes": ["Zeus"]}, "not a hero"),
    ({"difficulty": "easy"}, "difficulty"),
    ({"first_player": "p4"}, "first_player"),
    ({"variants": {"gravity": 1}}, "gravity"),
    ({"data": "/etc/passwd"}, "built-in"),
    ({"colour": "red"}, "colour"),
])
def test_bad_parameters_name_what_is_wrong(client, params, words):
    with pytest.raises(grpc.RpcError) as caught:
        client.create_match("legends", params=params)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "params_json" in caught.value.details() and words in caught.value.details()


def test_a_human_and_two_ismcts_bots_play_a_mission_to_the_end(client):
    seats = create(client, "legends", params=PARAMS, bot_seats=[1, 2], bot="ismcts", iterations=12)
    assert sorted(seats.tokens) == ["p1"]
    status, answers = play_match(client, seats, SplitMix64(5))
    assert status.result in ("won", "lost") and status.reason
    assert list(status.returns) == [1.0] * 3 if status.result == "won" else list(status.returns) == [0.0] * 3
    record = Record.from_json(json.loads(status.record_json))
    assert record.game.heroes == tuple(HEROES) and record.setup is not None
    end = record.game.records.replay(record)
    assert end.t.result == status.result and end.t.reason == status.reason
    assert len(record.moves) == status.moves_played
    # the bots moved: both bot seats decided at least once in the record
    movers = {seat for seat, _, _ in end.t.history if seat is not None}
    assert movers == {0, 1, 2}
    assert any(kind == "events" and reply.events for kind, reply, _ in answers)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_answer_to_a_seat_holds_only_what_it_may_know(client, seed):
    """Whole missions (heuristic bots, so that many fit): views, boards, legal moves,
    history and events are exactly the library's for that seat, state by state."""
    params = {"mission": [1, 2, 3, 6][seed - 1], "heroes": HEROES, "difficulty": "human"}
    seats = create(client, "legends", params=params, bot_seats=[0, 2], bot="heuristic")
    human = 1
    status, answers = play_match(client, seats, SplitMix64(seed), human="p2")
    record = Record.from_json(json.loads(status.record_json))
    game = record.game
    states = states_of(record)
    moves = [game.parse_move(text) for text in record.moves]
    hidden_seen = 0

    def check_seen(seen):
        nonlocal hidden_seen
        before, after = states[seen.index], states[seen.index + 1]
        observed = game.records.observed(before, moves[seen.index], human)
        assert seen.move.text == observed.text and seen.move.redacted == observed.redacted
        assert "?" not in seen.move.text or seen.move.redacted
        checked_move(seen.move)  # the typed move says what the text says, its cards hidden where redacted
        if seen.move.redacted:
            hidden_seen += 1
            assert not seen.move.HasField("action")
        assert list(seen.narration) == game.presentation.narrate(before, moves[seen.index], after, human)

    for kind, reply, at in answers:
        if kind == "view":
            state = states[at]
            assert json.loads(reply.view.json) == state.view(human).to_json()
            # the typed view holds the same facts (no teammate's hand, no hidden card), and the
            # typed status the table's public ones
            assert view_json(reply.view) == json.loads(reply.view.json)
            check_status(reply.status, state)
            assert reply.board == game.presentation.board_text(state, human)
            assert [h.index for h in reply.history] == list(range(at))
            for seen in reply.history:
                check_seen(seen)
        elif kind == "legal":
            assert sorted(m.text for m in reply) == sorted(game.move_text(m) for m in states[at].legal_moves())
            assert states[at].current_seat == human
        else:
            for seen in reply.events:
                check_seen(seen)
            check_status(reply.status, states[reply.status.moves_played])
    assert hidden_seen > 0  # the teammates' hidden cards came by and stayed hidden


def test_a_teammates_hidden_cards_never_reach_the_other_seats(client):
    """The rule by example: what p1 and a spectator are told of p3's support to p2."""
    game = make_game("legends", **PARAMS)
    state = game.new_state(11)
    rng = SplitMix64(3)
    found = 0
    while not state.is_terminal and found < 3:
        options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
        move = options[rng.below(len(options))]
        text = game.move_text(move)
        if text.startswith("support") and state.current_seat != 0 and move.seat != 0:
            shown = game.records.observed(state, move, 0)
            assert shown.redacted and shown.text == f"support p{move.seat + 1} " + ",".join("?" * len(move.cards))
            assert game.records.observed(state, move, None).text == shown.text
            assert game.records.observed(state, move, move.seat).text == text
            found += 1
        state.apply(move)
    assert found


def test_suggest_and_analyze_a_legends_record(client):
    game = make_game("legends", **PARAMS)
    record = Record(game, seed=8, moves=["place m1", "place m2", "place m3"])
    data = record.to_json()
    analysis = client.analyze(data, game="legends", iterations=120, seed=3)
    view = game.records.replay(record).view(0)
    assert analysis.perspective_name == "p1"
    # the default bot's own search: the moves its widened root tried, every one legal
    assert analysis.moves and {m.move.text for m in analysis.moves} <= {game.move_text(m) for m in view.legal_moves()}
    for info in analysis.moves:
        assert 0.0 <= info.ci_low <= info.value + 1e-9 and info.value <= info.ci_high + 1e-9 and info.ci_high <= 1.0
    assert 0.0 <= analysis.value <= 1.0
    suggested = client.suggest_move(data, game="legends", iterations=120, seed=3)
    assert suggested.seat_name == "p1" and suggested.move.text in {m.move.text for m in analysis.moves}


def test_a_bad_legends_record_is_invalid_argument_naming_the_move(client):
    record = {"format": "legends-record/1", "mission": 1, "heroes": HEROES, "seed": 1,
              "moves": ["place m1", "fight arms"]}
    with pytest.raises(grpc.RpcError) as caught:
        client.suggest_move(record, game="legends", iterations=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "moves[1]" in caught.value.details()
    record = {**record, "moves": [], "data": "../../etc/passwd"}
    with pytest.raises(grpc.RpcError) as caught:
        client.suggest_move(record, game="legends", iterations=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "built-in" in caught.value.details()


def test_the_bot_decides_from_the_seats_view_only(client):
    """Two deals that differ only where p1 cannot see (p2's hand, the pile's order) get
    the same suggestion and the same analysis for p1 with the same seed."""
    from hzai.games.legends.rules import shuffled_deal

    game = make_game("legends", **PARAMS)
    hands, pile, monsters = shuffled_deal(game, 21)
    other_hands = [list(h) for h in hands]
    other_pile = list(pile)
    swap = next(i for i, k in enumerate(other_pile) if k != other_hands[1][0])
    other_hands[1][0], other_pile[swap] = other_pile[swap], other_hands[1][0]
    other_pile.reverse()
    moves = ["place m1", "place m2", "place m1"]
    first = Record(game, setup=(hands, pile, monsters), moves=moves).to_json()
    second = Record(game, setup=(other_hands, other_pile, monsters), moves=moves).to_json()
    assert first != second
    assert (Record.from_json(first).replay().view(0).to_json() == Record.from_json(second).replay().view(0).to_json())
    one = client.analyze(first, game="legends", iterations=80, seed=9)
    two = client.analyze(second, game="legends", iterations=80, seed=9)
    assert [(m.move.text, m.visits, m.value) for m in one.moves] == [(m.move.text, m.visits, m.value) for m in two.moves]
    assert (client.suggest_move(first, game="legends", iterations=80, seed=9).move.text
            == client.suggest_move(second, game="legends", iterations=80, seed=9).move.text)


@pytest.mark.parametrize("bot, words", [
    ("ismcts:infer=1", "game legends has no opponent model: option infer is not offered"),
    ("ismcts:tree=multi,infer=1", "option infer is not offered"),
])
def test_inference_on_a_game_without_an_opponent_model_is_invalid_argument(client, bot, words):
    """Legends has no opponent model: the search refuses infer=1 when it meets the game,
    and the service answers INVALID_ARGUMENT naming the option (not INTERNAL)."""
    data = Record(make_game("legends", **PARAMS), seed=8, moves=["place m1"]).to_json()
    with pytest.raises(grpc.RpcError) as caught:
        client.suggest_move(data, game="legends", iterations=20, seed=3, bot=bot)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, caught.value.details()
    assert words in caught.value.details()


def test_the_multi_observer_tree_plays_legends_at_the_service(client):
    data = Record(make_game("legends", **PARAMS), seed=8, moves=["place m1"]).to_json()
    replies = [client.suggest_move(data, game="legends", iterations=60, seed=3, bot="ismcts:tree=multi,prior=1")
               for _ in range(2)]
    assert replies[0].move.text == replies[1].move.text and replies[0].bot == "ismcts"


def test_a_legends_match_with_an_inferring_bot_is_refused_when_created(client):
    with pytest.raises(grpc.RpcError) as caught:
        client.create_match("legends", params=PARAMS, bot_seats=[1], bot="ismcts:infer=1", iterations=12)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details().startswith("bot: ") and "option infer is not offered" in caught.value.details()


def test_learned_bot_teammates_never_receive_the_human_seats_hand():
    """Issue 32 item 4: a human (p1) with two teammates of the default, learned bot in a
    hosted match played to the end. Every view the server hands a bot is that bot seat's
    own view (equal to the referee's view for that seat at that point, rebuilt from the
    final record), never a state, and holds the human's hand as a count only."""
    from hzai_client import HzaiClient
    from hzai_server import matches
    from hzai_server.app import HzaiServer
    from hzai_server.config import ServerConfig

    from hzai.core import State

    given = []
    decide = matches.decide

    def spy(asked, limits, stop, *args, **kwargs):  # every bot move of a hosted match: one DecisionRequest
        given.append((asked.view, asked.view.to_json(), isinstance(asked.view, State)))
        return decide(asked, limits, stop, *args, **kwargs)

    matches.decide = spy
    server = HzaiServer(ServerConfig(address="127.0.0.1:0", data_dir=":memory:", max_searches=2))
    server.start()
    try:
        with HzaiClient(server.address, timeout=60) as client:
            seats = create(client, "legends", params=PARAMS, bot_seats=[1, 2], iterations=20)
            status, _ = play_match(client, seats, SplitMix64(5))
            assert next(g for g in client.list_games() if g.name == "legends").model  # the learned team
    finally:
        matches.decide = decide
        server.stop(0)
    record = Record.from_json(json.loads(status.record_json))
    states = states_of(record)
    by_seen = {}
    for state in states:
        if state.current_seat in (1, 2):
            by_seen.setdefault(json.dumps(state.view(state.current_seat).to_json(), sort_keys=True), state)
    assert given, "no bot decided"
    for view, seen, is_state in given:
        assert not is_state and view.seat in (1, 2)
        assert isinstance(seen["seats"]["p1"]["hand"], int), "the human's hand reached a bot"
        assert json.dumps(seen, sort_keys=True) in by_seen, "a bot got a view no referee state gives its seat"
