"""Who may act in a hosted match: secret seat and spectator tokens.

CreateMatch hands out one token per human seat and one spectator token; the server keeps
only their SHA-256 hashes. A call presents its token as gRPC metadata
`authorization: Bearer TOKEN`. No token is UNAUTHENTICATED; any token that does not open
the match (wrong, another match's, a match that never existed or is gone) gets the very
same PERMISSION_DENIED message, so an answer never tells whether a match exists.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

import grpc

from hzai_server.errors import ApiError

AUTH_KEY = "authorization"
TOKEN_BYTES = 24  # 192 random bits
MATCH_ID_BYTES = 16  # 128 random bits
MAX_TOKEN_CHARS = 256
DENIED = "this token does not open that match for this call"
# Compared against when a match is unknown, so that the work done is the same.
_NOBODY = hashlib.sha256(b"no match").hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_match_id() -> str:
    return secrets.token_hex(MATCH_ID_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def denied(why: str = DENIED) -> ApiError:
    return ApiError(grpc.StatusCode.PERMISSION_DENIED, why)


def presented_token(context) -> str:
    """The bearer token of the call's metadata; UNAUTHENTICATED without a usable one."""
    values = [v for k, v in (context.invocation_metadata() or ()) if k.lower() == AUTH_KEY]
    if not values:
        raise ApiError(grpc.StatusCode.UNAUTHENTICATED,
                       "this call needs the match token CreateMatch answered, as metadata 'authorization: Bearer TOKEN'")
    scheme, _, token = str(values[0]).strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(grpc.StatusCode.UNAUTHENTICATED, "metadata authorization: write it as 'Bearer TOKEN'")
    if len(token) > MAX_TOKEN_CHARS:
        raise denied()
    return token


@dataclass(frozen=True)
class Grant:
    """What a token opens: a seat (an index of the game's seats) or, with `seat` None,
    the spectator view."""

    seat: int | None

    @property
    def spectator(self) -> bool:
        return self.seat is None


def grant_for(hashes: dict | None, token: str) -> Grant:
    """The role `token` holds among `hashes` ("seats": a hash per seat, None for a bot
    seat; "spectator": a hash); every role is compared, in constant time, whatever
    matches. PERMISSION_DENIED if none."""
    presented = token_hash(token)
    roles = [*((hashes or {}).get("seats") or ()), (hashes or {}).get("spectator")]
    found = -1
    for index, stored in enumerate(roles):
        if hmac.compare_digest(presented, stored or _NOBODY) and stored:
            found = index
    if found < 0:
        raise denied()
    return Grant(None if found == len(roles) - 1 else found)


def acting_seat(grant: Grant, requested: int | None) -> int:
    """The seat a seat-scoped call acts for: the token's; a request naming another seat,
    or a spectator token, is PERMISSION_DENIED."""
    if grant.spectator:
        raise denied("a spectator token only watches: it cannot view a seat, list or play its moves")
    if requested is not None and requested != grant.seat:
        raise denied("the request names another seat than the seat of this token")
    return grant.seat
