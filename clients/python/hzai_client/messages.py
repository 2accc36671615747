"""Typed helpers that build requests; shared by the sync and asyncio clients."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Union

import grpc
from hzai_proto.v1 import bot_pb2, game_pb2, match_pb2

from hzai_client.constants import DEFAULT_TARGET  # noqa: F401 - re-exported

PositionLike = Union[bot_pb2.Position, game_pb2.GameRecord, dict, str, os.PathLike]
_PLAYERS = {"hera": game_pb2.PLAYER_HERA, "zeus": game_pb2.PLAYER_ZEUS}


def player(name: str | int) -> int:
    """'hera' / 'zeus' (or the enum value) -> hzai.v1.Player."""
    if isinstance(name, int):
        return name
    try:
        return _PLAYERS[name.lower()]
    except KeyError:
        raise ValueError(f"player must be hera or zeus, not {name!r}") from None


def player_name(value: int) -> str | None:
    for name, enum in _PLAYERS.items():
        if enum == value:
            return name
    return None


def position(record: PositionLike | None = None, *, match_id: str | None = None) -> bot_pb2.Position:
    """A Position from a record (a file path, a dict, JSON text or a GameRecord) or a
    hosted match id."""
    if (record is None) == (match_id is None):
        raise ValueError("give a record or a match_id")
    if match_id is not None:
        return bot_pb2.Position(match_id=match_id)
    if isinstance(record, bot_pb2.Position):
        return record
    if isinstance(record, game_pb2.GameRecord):
        return bot_pb2.Position(record=record)
    if isinstance(record, dict):
        return bot_pb2.Position(record_json=json.dumps(record))
    if isinstance(record, os.PathLike):
        return bot_pb2.Position(record_json=Path(record).read_text(encoding="utf-8"))
    if isinstance(record, str):
        return bot_pb2.Position(record_json=record)
    raise TypeError(f"cannot make a position from {type(record).__name__}")


def budget(iterations: int | None = None, millis: int | None = None, threads: int | None = None) -> bot_pb2.Budget | None:
    if iterations is None and millis is None and threads is None:
        return None
    return bot_pb2.Budget(iterations=iterations or 0, millis=millis or 0, threads=threads or 0)


def variants(values: dict | None) -> game_pb2.Variants | None:
    if not values:
        return None
    return game_pb2.Variants(**values)


def suggest_request(record=None, *, match_id=None, iterations=None, millis=None, threads=None, seed=0, bot=""):
    return bot_pb2.SuggestMoveRequest(
        position=position(record, match_id=match_id), budget=budget(iterations, millis, threads), seed=seed, bot=bot
    )


def analyze_request(record=None, *, match_id=None, iterations=None, millis=None, threads=None, seed=0,
                    belief_samples=0, progress_every=0):
    return bot_pb2.AnalyzeRequest(
        position=position(record, match_id=match_id),
        budget=budget(iterations, millis, threads),
        seed=seed,
        belief_samples=belief_samples,
        progress_every=progress_every,
    )


def create_match_request(*, seed=0, hera_bot=False, zeus_bot=True, bot="", iterations=None, millis=None,
                         threads=None, variants_=None, open_=False):
    return match_pb2.CreateMatchRequest(
        seed=seed, hera_bot=hera_bot, zeus_bot=zeus_bot, bot=bot,
        budget=budget(iterations, millis, threads), variants=variants(variants_), open=open_,
    )


# The metadata key that carries a seat or spectator token (docs/api.md, "Hosted matches").
AUTH_HEADER = "authorization"


def auth(token: str | None) -> tuple[tuple[str, str], ...] | None:
    """gRPC metadata presenting a match token, or None without one."""
    return None if not token else ((AUTH_HEADER, f"Bearer {token}"),)


def seat_token(created: match_pb2.CreateMatchResponse, seat: str | int) -> str:
    """The token CreateMatch answered for `seat` ('hera' / 'zeus')."""
    wanted = player(seat)
    for entry in created.seats:
        if entry.player == wanted:
            return entry.token
    raise ValueError(f"the match has no human seat {seat!r} (bot seats get no token)")


def optional_player(name: str | int | None) -> int:
    return game_pb2.PLAYER_UNSPECIFIED if name is None else player(name)


def move_message(move: str | game_pb2.Move) -> game_pb2.Move:
    return move if isinstance(move, game_pb2.Move) else game_pb2.Move(text=move)


def bad_request_fields(error: grpc.RpcError) -> dict[str, str]:
    """The fields an INVALID_ARGUMENT names (google.rpc.BadRequest details): field -> why."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(error) if hasattr(error, "trailing_metadata") else None
    fields: dict[str, str] = {}
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields.update((v.field, v.description) for v in bad.field_violations)
    return fields


def describe_error(error: grpc.RpcError) -> str:
    """One line: the status code and the server's message."""
    code = error.code() if hasattr(error, "code") else None
    details = error.details() if hasattr(error, "details") else str(error)
    return f"{code.name if code else 'ERROR'}: {details}"
