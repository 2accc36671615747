"""Python client of the hzai gRPC service, sync and asyncio.

    from hzai_client import HzaiClient
    with HzaiClient("127.0.0.1:50051") as client:
        reply = client.suggest_move(Path("game.json"), iterations=1000, seed=1)
        print(reply.move.text, reply.seat_name)   # the game follows from the record's format

Every call names its game (hzai.v3): `list_games()`, `create_match(game=..., params=...,
bot_seats=[...])`; seats are indices or seat names (hzai_client.sync has the whole list).

Replies are the generated protobuf messages (typed through their .pyi stubs; `detail(m)`
unpacks a message's game-specific `detail` into its typed message); errors are
`grpc.RpcError` with the server's status code and message (`describe_error` prints one,
`bad_request_fields` reads the fields an INVALID_ARGUMENT names).
"""

from __future__ import annotations

from importlib import import_module

from hzai_client.constants import DEFAULT_TARGET

# Loaded on first use, so that `hzai` commands that never talk to a server do not pay
# for importing grpc.
_EXPORTS = {
    "AsyncHzaiClient": "hzai_client.aio",
    "HzaiClient": "hzai_client.sync",
    "bad_request_fields": "hzai_client.messages",
    "budget": "hzai_client.messages",
    "describe_error": "hzai_client.messages",
    "detail": "hzai_client.messages",
    "GameBook": "hzai_client.messages",
    "position": "hzai_client.messages",
    "seat_index": "hzai_client.messages",
    "seat_token": "hzai_client.messages",
}

__all__ = ["DEFAULT_TARGET", *_EXPORTS]


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'hzai_client' has no attribute {name!r}")
