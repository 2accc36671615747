"""Errors a handler raises to answer with a status code; the RPC wrapper turns them
into `context.abort` (see hzai_server.rpc)."""

from __future__ import annotations

import grpc


class ApiError(Exception):
    """A request the server answers with `code` and a message a person can act on."""

    def __init__(self, code: grpc.StatusCode, message: str, field: str | None = None,
                 retry_after: float | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.retry_after = retry_after  # seconds; sent as google.rpc.RetryInfo


def invalid(field: str, why: str) -> ApiError:
    """INVALID_ARGUMENT naming the request field at fault."""
    return ApiError(grpc.StatusCode.INVALID_ARGUMENT, f"{field}: {why}", field)


def not_found(what: str) -> ApiError:
    return ApiError(grpc.StatusCode.NOT_FOUND, what)


def precondition(why: str) -> ApiError:
    return ApiError(grpc.StatusCode.FAILED_PRECONDITION, why)
