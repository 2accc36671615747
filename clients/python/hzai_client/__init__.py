"""Python client of the hzai gRPC service, sync and asyncio.

    from hzai_client import HzaiClient
    with HzaiClient("127.0.0.1:50051") as client:
        reply = client.suggest_move(Path("game.json"), iterations=1000, seed=1)
        print(reply.move.text)

Replies are the generated protobuf messages (typed through their .pyi stubs); errors are
`grpc.RpcError` with the server's status code and message (`describe_error` prints one).
"""

from hzai_client.aio import AsyncHzaiClient
from hzai_client.messages import (
    DEFAULT_TARGET,
    bad_request_fields,
    budget,
    describe_error,
    player,
    player_name,
    position,
    variants,
)
from hzai_client.sync import HzaiClient

__all__ = [
    "DEFAULT_TARGET",
    "AsyncHzaiClient",
    "HzaiClient",
    "bad_request_fields",
    "budget",
    "describe_error",
    "player",
    "player_name",
    "position",
    "variants",
]
