"""Errors a handler raises to answer with a status code; the RPC wrapper turns them
into `context.abort` (see hzai_server.rpc).

`from_library` is the one place where the library's own errors (a record that does not
read or replay, a budget out of range, chosen root moves that are not legal, JSON of a
hostile shape) become statuses: the wrapper of every RPC passes any exception a handler
lets through to it before answering, so an error the handler did not convert itself is
INVALID_ARGUMENT naming the request field all the same, never INTERNAL. The field of
the record a call is reading is noted by `reading` (hzai_server.convert calls it).

Input quoted in a message goes through `quoted` (at most QUOTE_LIMIT characters of it);
as a last guard every message is also cut to MAX_MESSAGE characters and made encodable,
so no request can make an error trailer too big or unsendable."""

from __future__ import annotations

import threading

import grpc

from hzai.text import QUOTE_LIMIT, quoted, shorten

__all__ = ["ApiError", "MAX_MESSAGE", "QUOTE_LIMIT", "from_library", "invalid", "not_found", "precondition", "quoted",
           "reading", "record_error", "safe_text"]

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


# ----- library errors ------------------------------------------------------------------
_call = threading.local()


def reading(field: str | None) -> None:
    """Note that the call running on this thread reads its record from `field` (None:
    from no field; the RPC wrapper clears it at the start of every call)."""
    _call.record_field = field


def record_field() -> str:
    """The request field of the record this thread's call reads ("position" when none
    was noted)."""
    return getattr(_call, "record_field", None) or "position"


def record_error(exc, field: str) -> ApiError:
    """INVALID_ARGUMENT for a RecordError about the record in `field`: naming the move
    (field.moves[i]), the variants or the deck when the error is about them."""
    message = str(exc)
    if getattr(exc, "index", None) is not None:
        return invalid(f"{field}.moves[{exc.index}]", message)
    head = message.split(":")[0]
    if "variant" in head:
        return invalid(f"{field}.variants", message)
    if head == "deck":
        return invalid(f"{field}.deck", message)
    return invalid(field, message)


def from_library(exc: BaseException) -> ApiError | None:
    """The status for an error of the library (hzai) that a handler let through; None
    for anything else (a defect of the server: INTERNAL)."""
    from hzai.core import NoDecision, RecordError, ReplayStopped
    from hzai.core.bot import BotError, RootMovesError
    from hzai.core.limits import LimitsError
    from hzai.jsonread import JsonShapeError

    if isinstance(exc, ApiError):
        return exc
    field = record_field()
    if isinstance(exc, RecordError):
        return record_error(exc, field)
    if isinstance(exc, (NoDecision, JsonShapeError)):
        return invalid(field, str(exc))
    if isinstance(exc, ReplayStopped):
        return ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, f"{field}: the call ended after replaying {exc.played} moves")
    if isinstance(exc, LimitsError):
        return invalid("budget", str(exc))
    if isinstance(exc, RootMovesError):
        return invalid("root_moves", str(exc))
    if isinstance(exc, BotError):
        return invalid("bot", str(exc))
    return None
