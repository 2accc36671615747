"""A Connect front for the hzai gRPC API, built from the protos themselves.

Every RPC of `hzai.v3.BotService` and `hzai.v3.MatchService` becomes the Connect
endpoint `/hzai.v3.Service/Method`; a call is decoded (Connect's JSON mapping, or
binary protobuf), sent on to the gRPC server with the caller's `authorization` header
and deadline, and its answer or error sent back in the same form. The bridge holds no
state of its own and adds no methods: what a browser can do is exactly what the API lets
a gRPC client do with the same token.
"""

from __future__ import annotations

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format, message_factory

import hzai_proto
from hzai_proto.v3 import bot_pb2, match_pb2

# Every game's typed messages in the descriptor pool, so that the JSON codec can write (and
# read) the `detail` and `record` Any fields: {"@type": "type.googleapis.com/hzai.v3.LegendsView", ...}.
hzai_proto.load_all()

SERVICES = (bot_pb2.DESCRIPTOR.services_by_name["BotService"], match_pb2.DESCRIPTOR.services_by_name["MatchService"])
FORWARDED_HEADERS = ("authorization", "hzai-client")
DEFAULT_TIMEOUT = 60.0  # seconds, for a call that names no deadline
MAX_REQUEST_BYTES = 4 * 1024 * 1024  # the server's default --max-message-bytes


class JsonCodec:
    """Connect's JSON form of a message (protobuf's canonical JSON mapping)."""

    def name(self) -> str:
        return "json"

    def encode(self, message) -> bytes:
        return json_format.MessageToJson(message, indent=None).encode()

    def decode(self, data, message_class):
        try:
            return json_format.Parse(bytes(data), message_class())
        except (json_format.ParseError, UnicodeDecodeError, ValueError) as exc:
            raise ConnectError(Code.INVALID_ARGUMENT, f"request: {str(exc)[:200]}") from None


class BinaryCodec:
    """Connect's binary form: the protobuf wire format."""

    def name(self) -> str:
        return "proto"

    def encode(self, message) -> bytes:
        return message.SerializeToString()

    def decode(self, data, message_class):
        try:
            return message_class.FromString(bytes(data))
        except Exception as exc:  # noqa: BLE001 - protobuf's DecodeError and friends
            raise ConnectError(Code.INVALID_ARGUMENT, f"request: not a valid message ({exc})"[:200]) from None


def connect_code(code: grpc.StatusCode) -> Code:
    """gRPC's status code as Connect names it (both use the same list)."""
    return getattr(Code, code.name, Code.UNKNOWN)


class Upstream:
    """One gRPC channel to the hzai server, opened in the event loop on first use."""

    def __init__(self, target: str, credentials: grpc.ChannelCredentials | None = None):
        """`credentials`: TLS to the server (hzai_client.messages.channel_credentials); None: plain text."""
        self.target = target
        self.credentials = credentials
        self._channel: grpc.aio.Channel | None = None

    def channel(self) -> grpc.aio.Channel:
        if self._channel is None:
            options = [("grpc.max_receive_message_length", MAX_REQUEST_BYTES),
                       ("grpc.max_send_message_length", MAX_REQUEST_BYTES)]
            if self.credentials is None:
                self._channel = grpc.aio.insecure_channel(self.target, options=options)
            else:
                self._channel = grpc.aio.secure_channel(self.target, self.credentials, options=options)
        return self._channel

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close()
            self._channel = None


def _metadata(ctx) -> list[tuple[str, str]]:
    headers = ctx.request_headers
    return [(name, headers[name]) for name in FORWARDED_HEADERS if headers.get(name)]


def _timeout(ctx) -> float:
    millis = ctx.timeout_ms
    return DEFAULT_TIMEOUT if millis is None else max(millis / 1000.0, 0.001)


def _error(exc: grpc.aio.AioRpcError) -> ConnectError:
    return ConnectError(connect_code(exc.code()), exc.details() or exc.code().name.lower())


def _endpoint(upstream: Upstream, service, method) -> tuple[str, Endpoint]:
    request_class = message_factory.GetMessageClass(method.input_type)
    response_class = message_factory.GetMessageClass(method.output_type)
    path = f"/{service.full_name}/{method.name}"
    streaming = method.server_streaming
    info = MethodInfo(name=method.name, service_name=service.full_name, input=request_class, output=response_class,
                      idempotency_level=IdempotencyLevel.UNKNOWN,
                      stream_type=StreamType.SERVER_STREAM if streaming else StreamType.UNARY)
    if method.client_streaming:
        raise ValueError(f"{path}: client streaming is not bridged")  # hzai.v3 has none
    kwargs = dict(request_serializer=request_class.SerializeToString, response_deserializer=response_class.FromString)

    if streaming:
        async def forward_stream(request, ctx):
            call = upstream.channel().unary_stream(path, **kwargs)(request, metadata=_metadata(ctx),
                                                                   timeout=_timeout(ctx))
            try:
                async for reply in call:
                    yield reply
            except grpc.aio.AioRpcError as exc:
                raise _error(exc) from None
            finally:
                call.cancel()

        return path, Endpoint.server_stream(info, forward_stream)

    async def forward(request, ctx):
        try:
            return await upstream.channel().unary_unary(path, **kwargs)(request, metadata=_metadata(ctx),
                                                                        timeout=_timeout(ctx))
        except grpc.aio.AioRpcError as exc:
            raise _error(exc) from None

    return path, Endpoint.unary(info, forward)


class ConnectBridge(ConnectASGIApplication):
    """The ASGI application answering `/hzai.v3.*` by calling `target` over gRPC."""

    def __init__(self, target: str, credentials: grpc.ChannelCredentials | None = None):
        self.upstream = Upstream(target, credentials)
        super().__init__(service=self.upstream, endpoints=endpoints, codecs=[JsonCodec(), BinaryCodec()],
                         read_max_bytes=MAX_REQUEST_BYTES)

    @property
    def path(self) -> str:
        return "/hzai.v3."


def endpoints(upstream: Upstream) -> dict[str, Endpoint]:
    """Every method of the bridged services, by its Connect path."""
    return dict(_endpoint(upstream, service, method) for service in SERVICES for method in service.methods)
