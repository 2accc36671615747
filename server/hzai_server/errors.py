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
    from no field; the RPC wrapper clears it before every handler runs)."""
    _call.record_field = field


def record_field() -> str:
    """The request field of the record this thread's call reads ("position" when none
    was noted)."""
    return getattr(_call, "record_field", None) or "position"


def record_error(exc, field: str) -> ApiError:
    """INVALID_ARGUMENT for a RecordError about the record in `field`: naming the move
    (field.moves[i]) or the record's key at fault (field.variants, field.deck) that the
    error carries (RecordError.field)."""
    message = str(exc)
    if getattr(exc, "index", None) is not None:
        return invalid(f"{field}.moves[{exc.index}]", message)
    key = getattr(exc, "field", None) or _key_in_message(message)
    return invalid(f"{field}.{key}" if key else field, message)


def _key_in_message(message: str) -> str | None:
    """The record's key a RecordError that carries none names at the head of its message
    (a game that does not say it yet: Legends' variants): "variants" or "deck"."""
    head = message.split(":")[0]
    if "variant" in head:
        return "variants"
    return "deck" if head == "deck" else None


def from_library(exc: BaseException, field: str | None = None, moves: int | None = None) -> ApiError | None:
    """The status for an error of the library (hzai); None for anything else (a defect
    of the server: INTERNAL). The one table from the library's errors to statuses: the
    RPC wrapper passes it what a handler let through, and the places that read a record
    (hzai_server.convert) what reading or replaying it raised, with the record's `field`
    (else the one `reading` noted) and its number of `moves`."""
    from hzai.core import NoDecision, RecordError, ReplayStopped
    from hzai.core.bot import BotError, RootMovesError
    from hzai.core.limits import LimitsError
    from hzai.jsonread import JsonShapeError

    if isinstance(exc, ApiError):
        return exc
    field = field or record_field()
    if isinstance(exc, RecordError):
        return record_error(exc, field)
    if isinstance(exc, (NoDecision, JsonShapeError)):
        return invalid(field, str(exc))
    if isinstance(exc, ReplayStopped):
        of = "" if moves is None else f" of {moves}"
        return ApiError(grpc.StatusCode.DEADLINE_EXCEEDED,
                        f"{field}: the call ended after replaying {exc.played}{of} moves")
    if isinstance(exc, LimitsError):
        return invalid("budget", str(exc))
    if isinstance(exc, RootMovesError):
        return invalid("root_moves", str(exc))
    if isinstance(exc, BotError):
        return invalid("bot", str(exc))
    return None
