"""Secret seeds with a commitment anyone can check after the game; open matches."""

from __future__ import annotations

import hashlib

import grpc

from hzai.games.hera_zeus.rules import Game, deal
from hzai_server import fairness

from hzai_client.messages import detail

from .matchkit import create, record_of
from .test_errors import rpc_error


def finish(client, seats):
    status = seats.created.status
    while not status.over:
        status = client.bot_play_turn(seats.id, token=seats.any_token).status
    return status


def test_the_commitment_opens_to_the_deal_after_the_game(client):
    seats = create(client, bot_seats=[0, 1], bot="random")
    start = seats.created.status
    assert len(start.seed_commitment) == 64 and start.seed == 0 and start.salt == "" and not start.open
    status = finish(client, seats)
    assert status.seed_commitment == start.seed_commitment
    assert hashlib.sha256(f"{status.seed}:{status.salt}".encode()).hexdigest() == status.seed_commitment
    record = record_of(status)
    assert record.setup == deal(Game.create(), status.seed)


def test_two_secret_matches_get_different_deals(client):
    first, second = (finish(client, create(client, bot_seats=[0, 1], bot="random")) for _ in range(2))
    assert first.seed != second.seed and first.seed_commitment != second.seed_commitment
    assert record_of(first).setup != record_of(second).setup


def test_a_chosen_seed_needs_an_open_match(client):
    error = rpc_error(client.create_match, seed=42)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("seed:")
    seats = create(client, seed=42, open=True, bot="random")
    status = seats.created.status
    assert status.open and status.seed == 42 and status.salt == ""  # the seed always, the salt at the end
    view = client.get_view(seats.id, token=seats["hera"])
    assert view.status.open and view.status.seed == 42
    hand = sorted(s.card.name for s in detail(view.view).sides[0].hand)
    assert hand == sorted(deal(Game.create(), 42)["hera"]["hand"])
    client.delete_match(seats.id, token=seats["hera"])


def test_chance_follows_the_secret_not_public_facts():
    draws = {fairness.chance_rng(7, salt, 30).next_u64() for salt in ("a" * 32, "b" * 32)}
    assert len(draws) == 2  # same seed and move index, another salt: another draw
    assert fairness.chance_rng(7, "a" * 32, 30).next_u64() == fairness.chance_rng(7, "a" * 32, 30).next_u64()
    assert fairness.chance_rng(7, "a" * 32, 30).next_u64() != fairness.chance_rng(7, "a" * 32, 31).next_u64()


def test_an_open_match_plays_out_the_same_for_the_same_seed(client):
    """Open matches are for analysis, replays and tests: the same seed gives the same
    game, bot moves and chance results included (the salt follows from the seed)."""
    records = []
    for _ in range(2):
        status = finish(client, create(client, bot_seats=[0, 1], bot="random", seed=5, open=True))
        assert status.open and status.salt == fairness.open_salt(5)
        records.append(list(record_of(status).moves))
    assert records[0] == records[1] and len(records[0]) > 10
    secret = finish(client, create(client, bot_seats=[0, 1], bot="random"))
    assert secret.salt != fairness.open_salt(secret.seed)  # a secret match's salt is drawn, not derived
