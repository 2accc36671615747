"""One wrapper around every handler: status codes from ApiError, one log line per call,
and no exception ever escapes as a bare traceback to the client or kills the process."""

from __future__ import annotations

import functools
import inspect
import logging
import time

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from hzai_server.errors import ApiError
from hzai_server.logs import log


def _finish(method: str, context, start: float, code: grpc.StatusCode, message: str = "", **fields) -> None:
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


def _abort(method: str, context, start: float, exc: Exception):
    if isinstance(exc, ApiError):
        _finish(method, context, start, exc.code, exc.message)
        if exc.retry_after is not None:
            context.abort_with_status(rpc_status.to_status(_retry_info(exc)))
        if exc.field is not None:
            context.abort_with_status(rpc_status.to_status(_bad_request(exc)))
        context.abort(exc.code, exc.message)
    _finish(method, context, start, grpc.StatusCode.INTERNAL, f"{type(exc).__name__}: {exc}")
    log("internal error", logging.ERROR, method=method, exc_info=exc)
    context.abort(grpc.StatusCode.INTERNAL, f"internal error: {type(exc).__name__}")


def handler(method_function):
    """Wrap a unary or server-streaming servicer method."""
    name = method_function.__name__

    if inspect.isgeneratorfunction(method_function):

        @functools.wraps(method_function)
        def streaming(self, request, context):
            start = time.perf_counter()
            sent = 0
            try:
                for item in method_function(self, request, context):
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

        return streaming

    @functools.wraps(method_function)
    def unary(self, request, context):
        start = time.perf_counter()
        try:
            response = method_function(self, request, context)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a status
            _abort(name, context, start, exc)
        _finish(name, context, start, grpc.StatusCode.OK)
        return response

    return unary
