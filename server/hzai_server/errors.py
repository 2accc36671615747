"""Errors a handler raises to answer with a status code; the RPC wrapper turns them
into `context.abort` (see hzai_server.rpc).

Input quoted in a message goes through `quoted` (at most QUOTE_LIMIT characters of it);
as a last guard every message is also cut to MAX_MESSAGE characters and made encodable,
so no request can make an error trailer too big or unsendable."""

from __future__ import annotations

import grpc

from hzai.text import QUOTE_LIMIT, quoted, shorten

__all__ = ["ApiError", "MAX_MESSAGE", "QUOTE_LIMIT", "invalid", "not_found", "precondition", "quoted", "safe_text"]

MAX_MESSAGE = 1000


def safe_text(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` shortened to `limit` and with anything UTF-8 cannot encode (lone surrogates) escaped."""
    return shorten(text, limit).encode("utf-8", "backslashreplace").decode("utf-8")


class ApiError(Exception):
    """A request the server answers with `code` and a message a person can act on."""

    def __init__(self, code: grpc.StatusCode, message: str, field: str | None = None,
                 retry_after: float | None = None, reason: str | None = None):
        message = safe_text(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = None if field is None else safe_text(field, QUOTE_LIMIT)
        self.retry_after = retry_after  # seconds; sent as google.rpc.RetryInfo
        self.reason = reason  # why a call was refused before its work (the metrics' refusal label)


def invalid(field: str, why: str) -> ApiError:
    """INVALID_ARGUMENT naming the request field at fault."""
    return ApiError(grpc.StatusCode.INVALID_ARGUMENT, f"{field}: {why}", field)


def not_found(what: str) -> ApiError:
    return ApiError(grpc.StatusCode.NOT_FOUND, what)


def precondition(why: str) -> ApiError:
    return ApiError(grpc.StatusCode.FAILED_PRECONDITION, why)
