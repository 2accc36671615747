"""One wrapper around every handler: status codes from ApiError, one log line per call,
and no exception ever escapes as a bare traceback to the client or kills the process.

Services are registered by `add_service` rather than the generated `add_*_to_server`:
its request deserializers never raise (grpc would answer a message that does not decode
with INTERNAL and no log line of ours); they hand the handler an `Undecodable` instead,
which it answers with INVALID_ARGUMENT and one log line like any other bad request.
`Lifecycle` tells handlers when the server is draining (new calls: UNAVAILABLE) and when
running searches must answer with what they have (see app.HzaiServer.stop); a call's
`CallStop` reads it, the client's cancel and deadline, and counts the call's searches in
its metrics. `CallHooks`
carry the server's metrics and rate limiter: every call is timed and counted by method
and code, and a call over its client's rate is refused before its work; health checks
and reflection are not ours, so they are neither limited nor counted, but `add_guarded`
registers them with deserializers that never raise too (it says why)."""

from __future__ import annotations

import functools
import inspect
import logging
import threading
import time
from dataclasses import dataclass

import grpc
from google.protobuf import any_pb2, message_factory
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from hzai_server.errors import ApiError, from_library, quoted, reading, safe_text
from hzai_server.logs import log


class Lifecycle:
    """What the server's calls need to know about its shutdown, and how many run."""

    def __init__(self):
        self.draining = threading.Event()  # set: new calls are refused
        self.stop_searches = threading.Event()  # set: running searches answer now
        self._idle = threading.Condition()
        self.active = 0

    def enter(self) -> None:
        if self.draining.is_set():
            raise ApiError(grpc.StatusCode.UNAVAILABLE, "the server is shutting down; retry on another instance",
                           reason="draining")
        with self._idle:
            self.active += 1

    def leave(self) -> None:
        with self._idle:
            self.active -= 1
            self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """True once no call runs; False when `timeout` seconds passed first."""
        with self._idle:
            return self._idle.wait_for(lambda: self.active == 0, timeout=max(0.0, timeout))


@dataclass(frozen=True)
class CallHooks:
    """What the wrapper does around each call besides the lifecycle (both optional)."""

    metrics: object | None = None  # hzai_server.metrics.ServerMetrics
    limiter: object | None = None  # hzai_server.ratelimit.RateLimiter
    max_answer_bytes: int | None = None  # grpc's send limit: a larger answer is refused, not lost
    trailing: tuple = ()  # trailing metadata on every answer: a worker's ("hzai-worker", index)


NO_HOOKS = CallHooks()
_current = threading.local()


def current_lifecycle() -> Lifecycle | None:
    """The lifecycle of the server whose call runs on this thread (None outside calls)."""
    return getattr(_current, "lifecycle", None)


def current_hooks() -> CallHooks:
    """The metrics and limiter of the server whose call runs on this thread."""
    return getattr(_current, "hooks", NO_HOOKS)


class CallStop:
    """True once the call should stop its work: cancelled, past its deadline, or the
    server is stopping."""

    def __init__(self, context: grpc.ServicerContext | None):
        self.event = threading.Event()
        self.context = context
        lifecycle = current_lifecycle()
        self.shutdown = lifecycle.stop_searches if lifecycle is not None else None
        self.metrics = current_hooks().metrics
        if context is not None and not context.add_callback(self.event.set):
            self.event.set()  # the call has already ended

    def __call__(self) -> bool:
        if self.event.is_set() or (self.shutdown is not None and self.shutdown.is_set()):
            return True
        remaining = self.context.time_remaining() if self.context is not None else None
        return remaining is not None and remaining <= 0

    def ended(self) -> bool:
        """The call itself is over (the client will not read an answer)."""
        return self.event.is_set() or (self.context is not None and not self.context.is_active())

    def searched(self, iterations: int, start: float) -> None:
        """Count a search of this call that ran `iterations` since `start` (perf_counter)."""
        if self.metrics is not None:
            self.metrics.searched(iterations, time.perf_counter() - start)


class Undecodable:
    """Stands in for a request message whose bytes did not decode."""

    def __init__(self, type_name: str, why: str):
        self.type_name = type_name
        self.why = why


def _safe_deserializer(message_class):
    name = message_class.DESCRIPTOR.full_name

    def parse(data: bytes):
        try:
            return message_class.FromString(data)
        except Exception as exc:  # noqa: BLE001 - DecodeError, and whatever else a parser raises
            return Undecodable(name, str(exc))

    return parse


def _serialize(message) -> bytes:
    return message.SerializeToString()


# ----- services that are not ours: health and reflection --------------------------------
class _Collector:
    """Stands in for a grpc.Server while a generated add_*_to_server registers a
    service: it keeps the method handlers instead of serving them."""

    def __init__(self):
        self.services: dict[str, dict] = {}

    def add_generic_rpc_handlers(self, handlers) -> None:
        pass  # the same handlers come again, by name, through add_registered_method_handlers

    def add_registered_method_handlers(self, service: str, handlers: dict) -> None:
        self.services[service] = dict(handlers)


def _guarded_deserializer(deserialize):
    """`deserialize` (a generated FromString) made never to raise: an Undecodable instead."""
    owner = getattr(deserialize, "__self__", None)
    name = getattr(getattr(owner, "DESCRIPTOR", None), "full_name", "request")

    def parse(data: bytes):
        try:
            return deserialize(data)
        except Exception as exc:  # noqa: BLE001 - DecodeError, and whatever else a parser raises
            return Undecodable(name, str(exc))

    return parse


def _refuse_undecodable(path: str, request: Undecodable, context) -> None:
    message = f"request: not a valid {request.type_name} message ({quoted(request.why)})"
    log("rpc", logging.WARNING, method=path, code="INVALID_ARGUMENT", peer=context.peer(), error=message)
    context.abort(grpc.StatusCode.INVALID_ARGUMENT, message)


def _checked_requests(path: str, requests, context):
    for request in requests:
        if isinstance(request, Undecodable):
            _refuse_undecodable(path, request, context)
        yield request


def _guard(path: str, method: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    """`method` with a deserializer that never raises and a behaviour that answers an
    undecodable request with INVALID_ARGUMENT (and one log line)."""
    deserialize = _guarded_deserializer(method.request_deserializer)
    if method.request_streaming:
        kind = "stream_stream" if method.response_streaming else "stream_unary"
        inner = getattr(method, kind)

        def behaviour(requests, context, *rest):
            return inner(_checked_requests(path, requests, context), context, *rest)
    else:
        kind = "unary_stream" if method.response_streaming else "unary_unary"
        inner = getattr(method, kind)

        def behaviour(request, context, *rest):
            if isinstance(request, Undecodable):
                _refuse_undecodable(path, request, context)
            return inner(request, context, *rest)

    for attribute in ("experimental_non_blocking", "experimental_thread_pool"):  # grpc reads these
        if hasattr(inner, attribute):
            setattr(behaviour, attribute, getattr(inner, attribute))
    return method._replace(request_deserializer=deserialize, **{kind: behaviour})


def add_guarded(server: grpc.Server, add_to_server, servicer) -> list[str]:
    """Register a service that is not ours (grpc's health and reflection) through its
    generated `add_to_server(servicer, server)`, but with request deserializers that
    never raise; the names of the services registered.

    Why: grpc answers a request that does not decode with INTERNAL ("Exception
    deserializing request!") and, in the grpcio versions tried (1.85), leaves the call's
    handler thread waiting for a request that never comes: memory grows with every such
    request, and a stream-request call (reflection) keeps server.stop() from ever
    returning. A deserializer that does not raise never takes that path
    (tests/service/test_undecodable.py keeps a reproduction against grpc itself)."""
    collector = _Collector()
    add_to_server(servicer, collector)
    if not collector.services:  # generated code of a grpcio that registers by generic handler only
        raise RuntimeError(f"{getattr(add_to_server, '__name__', add_to_server)} registered no method handlers "
                           "by name: this grpcio's generated code is not the kind add_guarded reads")
    for service, methods in collector.services.items():
        guarded = {name: _guard(f"/{service}/{name}", method) for name, method in methods.items()}
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, guarded),))
    return list(collector.services)


def add_service(server: grpc.Server, servicer, service_descriptor, lifecycle: Lifecycle,
                hooks: CallHooks = NO_HOOKS, search_pool=None, search_methods=()) -> None:
    """Register every method of `service_descriptor` on `servicer` (methods wrapped by
    `handler`), with deserializers that never raise. The methods named in
    `search_methods` run on the threads of `search_pool` (a ThreadPoolExecutor) when one
    is given, the others on the server's own: calls waiting for a search slot then never
    hold the threads that health checks and cheap calls need."""
    handlers = {}
    for method in service_descriptor.methods:
        behaviour = getattr(servicer, method.name)
        request_class = message_factory.GetMessageClass(method.input_type)
        if method.client_streaming:
            raise NotImplementedError(f"{method.full_name}: client streaming is not used by this API")
        if method.server_streaming:
            def streaming(request, context, _behaviour=behaviour):
                _current.lifecycle = lifecycle
                _current.hooks = hooks
                yield from _behaviour(request, context)

            handlers[method.name] = grpc.unary_stream_rpc_method_handler(
                streaming, request_deserializer=_safe_deserializer(request_class), response_serializer=_serialize)
        else:
            def unary(request, context, _behaviour=behaviour):
                _current.lifecycle = lifecycle
                _current.hooks = hooks
                return _behaviour(request, context)

            handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                unary, request_deserializer=_safe_deserializer(request_class), response_serializer=_serialize)
        if search_pool is not None and method.name in search_methods:
            behaviour_of = handlers[method.name]
            # grpc runs a behaviour carrying this attribute on that pool (grpc._server).
            (behaviour_of.unary_stream or behaviour_of.unary_unary).experimental_thread_pool = search_pool
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service_descriptor.full_name, handlers),))


def _finish(method: str, context, start: float, code: grpc.StatusCode, message: str = "", **fields) -> None:
    metrics = current_hooks().metrics
    if metrics is not None:
        metrics.observe_call(method, code.name, time.perf_counter() - start)
    level = logging.INFO if code in (grpc.StatusCode.OK, grpc.StatusCode.CANCELLED) else logging.WARNING
    log("rpc", level, method=method, code=code.name, millis=round((time.perf_counter() - start) * 1000, 1),
        peer=context.peer(), **({"error": message} if message else {}), **fields)


def _bad_request(exc: ApiError) -> status_pb2.Status:
    """The message, plus google.rpc.BadRequest naming the field for programs to read."""
    detail = any_pb2.Any()
    why = exc.message.removeprefix(f"{exc.field}: ")
    detail.Pack(error_details_pb2.BadRequest(
        field_violations=[error_details_pb2.BadRequest.FieldViolation(field=exc.field, description=why)]))
    return status_pb2.Status(code=exc.code.value[0], message=exc.message, details=[detail])


def _retry_info(exc: ApiError) -> status_pb2.Status:
    """The message, plus google.rpc.RetryInfo saying when a retry may succeed."""
    detail = any_pb2.Any()
    delay = error_details_pb2.RetryInfo()
    delay.retry_delay.FromNanoseconds(int(exc.retry_after * 1e9))
    detail.Pack(delay)
    return status_pb2.Status(code=exc.code.value[0], message=exc.message, details=[detail])


def _with_tag(status):
    """A status from rpc_status.to_status, whose trailing metadata (the details) replaces
    what the call set: with the worker's tag (_tag) kept in it."""
    trailing = current_hooks().trailing
    return status._replace(trailing_metadata=(*status.trailing_metadata, *trailing)) if trailing else status


def _abort(method: str, context, start: float, exc: Exception):
    exc = from_library(exc) or exc  # a library error the handler let through: still a named field
    if isinstance(exc, ApiError):
        metrics = current_hooks().metrics
        if metrics is not None and exc.reason is not None:
            metrics.refused(exc.reason)
        _finish(method, context, start, exc.code, exc.message)
        if exc.retry_after is not None:
            context.abort_with_status(_with_tag(rpc_status.to_status(_retry_info(exc))))
        if exc.field is not None:
            context.abort_with_status(_with_tag(rpc_status.to_status(_bad_request(exc))))
        context.abort(exc.code, exc.message)
    _finish(method, context, start, grpc.StatusCode.INTERNAL, safe_text(f"{type(exc).__name__}: {exc}"))
    log("internal error", logging.ERROR, method=method, exc_info=exc)
    context.abort(grpc.StatusCode.INTERNAL, f"internal error: {type(exc).__name__}")


def _check_size(message) -> None:
    """Refuse an answer grpc would fail to send (over the send limit): INVALID_ARGUMENT
    naming the limit, instead of an OK in the log and RESOURCE_EXHAUSTED at the client."""
    limit = current_hooks().max_answer_bytes
    if limit is None:
        return
    size = message.ByteSize()
    if size > limit:
        raise ApiError(grpc.StatusCode.INVALID_ARGUMENT,
                       f"request: the answer would be {size} bytes, over this server's --max-message-bytes of "
                       f"{limit}; ask for less in one call (fewer positions in a batch, fewer belief samples)",
                       "request")


def _admit(request, context, lifecycle: Lifecycle | None) -> None:
    """Refuse a call while the server drains, one over its client's rate, and a
    request that did not decode (after the rate: garbage costs a token too)."""
    if lifecycle is not None:
        lifecycle.enter()
    try:
        limiter = current_hooks().limiter
        if limiter is not None:
            limiter.admit(context)
        if isinstance(request, Undecodable):
            raise ApiError(grpc.StatusCode.INVALID_ARGUMENT,
                           f"request: not a valid {request.type_name} message ({quoted(request.why)})", "request")
    except ApiError:
        if lifecycle is not None:
            lifecycle.leave()
        raise


def _tag(context) -> None:
    """Name the answering worker process in the trailing metadata (answers and errors alike)."""
    trailing = current_hooks().trailing
    if trailing:
        context.set_trailing_metadata(trailing)


def handler(method_function):
    """Wrap a unary or server-streaming servicer method."""
    name = method_function.__name__

    if inspect.isgeneratorfunction(method_function):

        @functools.wraps(method_function)
        def streaming(self, request, context):
            start = time.perf_counter()
            sent = 0
            lifecycle = current_lifecycle()
            _tag(context)
            try:
                _admit(request, context, lifecycle)
            except ApiError as exc:
                _abort(name, context, start, exc)
            reading(None)  # no record read yet by this call (the thread's last call may have noted one)
            try:
                for item in method_function(self, request, context):
                    _check_size(item)
                    sent += 1
                    yield item
            except GeneratorExit:  # the client cancelled or went away mid-stream
                _finish(name, context, start, grpc.StatusCode.CANCELLED, messages=sent)
                raise
            except Exception as exc:  # noqa: BLE001 - every failure becomes a status
                _abort(name, context, start, exc)
            else:
                code = grpc.StatusCode.OK if context.is_active() else grpc.StatusCode.CANCELLED
                _finish(name, context, start, code, messages=sent)
            finally:
                if lifecycle is not None:
                    lifecycle.leave()

        return streaming

    @functools.wraps(method_function)
    def unary(self, request, context):
        start = time.perf_counter()
        lifecycle = current_lifecycle()
        _tag(context)
        try:
            _admit(request, context, lifecycle)
        except ApiError as exc:
            _abort(name, context, start, exc)
        reading(None)  # no record read yet by this call (the thread's last call may have noted one)
        try:
            response = method_function(self, request, context)
            _check_size(response)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a status
            _abort(name, context, start, exc)
        finally:
            if lifecycle is not None:
                lifecycle.leave()
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:  # grpc will not send it: not an OK
            _finish(name, context, start, grpc.StatusCode.DEADLINE_EXCEEDED,
                    "the answer was ready after the client's deadline; it was not sent")
        else:
            _finish(name, context, start, grpc.StatusCode.OK)
        return response

    return unary
