"""Only hzai.v3 is served: a client of an older package version gets UNIMPLEMENTED at
once, naming nothing it could misread, rather than a response whose fields moved
(docs/api.md, "Why v3")."""

from __future__ import annotations

import grpc
import pytest

from hzai_proto.v3 import bot_pb2


@pytest.mark.parametrize("package", ["hzai.v1", "hzai.v2"])
def test_an_older_package_is_unimplemented(server, package):
    with grpc.insecure_channel(server.address) as channel:
        call = channel.unary_unary(f"/{package}.BotService/ListGames",
                                   request_serializer=bot_pb2.ListGamesRequest.SerializeToString,
                                   response_deserializer=bot_pb2.ListGamesResponse.FromString)
        with pytest.raises(grpc.RpcError) as caught:
            call(bot_pb2.ListGamesRequest(), timeout=10)
    assert caught.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_v3_is_served_under_its_own_name(server):
    with grpc.insecure_channel(server.address) as channel:
        call = channel.unary_unary("/hzai.v3.BotService/ListGames",
                                   request_serializer=bot_pb2.ListGamesRequest.SerializeToString,
                                   response_deserializer=bot_pb2.ListGamesResponse.FromString)
        games = call(bot_pb2.ListGamesRequest(), timeout=10).games
    assert {"hera_zeus", "legends"} <= {g.name for g in games}
    assert bot_pb2.DESCRIPTOR.package == "hzai.v3"
