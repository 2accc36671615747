"""Typed helpers that build hzai.v3 requests; shared by the sync and asyncio clients.

Games are named as the server names them (`ListGames`: "hera_zeus", ...). Seats are
indices into a game's seats (hera_zeus: 0 hera, 1 zeus); every helper that takes a seat
also takes its name. A record's game follows from its `format` ("hzai-record/1" is
hera_zeus), looked up in the server's game list (`GameBook`).

Game-specific detail comes packed in a `google.protobuf.Any` (`Move.detail`,
`View.detail`, `Belief.detail`, `MatchStatus.detail`): `detail(message)` unpacks it into
the game's typed message (hzai.v3.HeraZeusMove, hzai.v3.LegendsView, ...).
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Iterable, Union

import grpc
import hzai_proto
from google.protobuf import descriptor_pool, message, message_factory
from hzai_proto.v3 import bot_pb2, common_pb2, hera_zeus_pb2, legends_pb2, match_pb2

from hzai_client.constants import DEFAULT_TARGET  # noqa: F401 - re-exported

hzai_proto.load_all()  # every game's typed messages, for `detail`
TypedRecord = Union[hera_zeus_pb2.HeraZeusRecord, legends_pb2.LegendsRecord]  # ... any game's <Game>Record
PositionLike = Union[common_pb2.Position, TypedRecord, dict, str, os.PathLike]
MoveLike = Union[str, int, common_pb2.Move]
SeatLike = Union[int, str]


class GameBook:
    """The games a server plays (its ListGames answer), to find a game by record format
    and a seat by name."""

    def __init__(self, games: Iterable[common_pb2.GameInfo]):
        self.games = {g.name: g for g in games}

    def info(self, game: str) -> common_pb2.GameInfo:
        try:
            return self.games[game]
        except KeyError:
            raise ValueError(f"the server plays no game {game!r}; it plays {', '.join(sorted(self.games))}") from None

    def game_of_format(self, record_format: str) -> str:
        for info in self.games.values():
            if info.record_format == record_format:
                return info.name
        raise ValueError(f"no game of this server writes records of format {record_format!r}; "
                         f"name the game (game=...)")

    def seat(self, game: str | None, seat: SeatLike) -> int:
        """A seat index from an index or a seat name (of `game`, or, without it, of the one
        game that has a seat of that name)."""
        if isinstance(seat, int) and not isinstance(seat, bool):
            return seat
        if not isinstance(seat, str):
            raise TypeError(f"a seat is an index or a name, not {type(seat).__name__}")
        if game is not None:
            return seat_index(self.info(game).seats, seat)
        found = {list(g.seats).index(seat.lower()) for g in self.games.values() if seat.lower() in g.seats}
        if len(found) != 1:
            raise ValueError(f"seat {seat!r} is not one seat of this server's games: give its index")
        return found.pop()


def local_game_of_format(record_format: str) -> str:
    """The game of a record format among the games this process registers (hzai.core),
    for building requests without asking a server."""
    from hzai.core import game_of_format

    name = game_of_format(record_format)
    if name is None:
        raise ValueError(f"no game known here writes records of format {record_format!r}; name the game (game=...)")
    return name


def seat_index(seats: Iterable[str], seat: SeatLike) -> int:
    """A seat index from an index or a name among `seats`."""
    seats = list(seats)
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    if isinstance(seat, str) and seat.lower() in seats:
        return seats.index(seat.lower())
    raise ValueError(f"seat must be one of {', '.join(seats)} (or its index), not {seat!r}")


def record_data(record) -> dict | None:
    """The parsed JSON of a record given as a dict, JSON text or a file; None otherwise."""
    if isinstance(record, dict):
        return record
    if isinstance(record, os.PathLike):
        record = Path(record).read_text(encoding="utf-8")
    if isinstance(record, str):
        try:
            data = json.loads(record)
        except json.JSONDecodeError:
            return None  # the server says what is wrong with it
        return data if isinstance(data, dict) else None
    return None


def needs_book(record, game: str | None) -> bool:
    """Whether building a position from `record` needs the server's game list."""
    return game is None and not isinstance(record, common_pb2.Position) and record_game(record) is None


def record_game(record) -> str | None:
    """The game of a typed record message, from its type: hzai.v3.<Game>Record is the
    record of the game whose name is <Game> in snake case (HeraZeusRecord: hera_zeus,
    LegendsRecord: legends); None for anything else."""
    if not isinstance(record, message.Message):
        return None
    package, _, name = record.DESCRIPTOR.full_name.rpartition(".")
    if package != "hzai.v3" or not name.endswith("Record") or name == "Record":
        return None
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name.removesuffix("Record")).lower()


def detail(message):
    """The typed message packed in `message.detail` (a Move, View, Belief or MatchStatus):
    a HeraZeusMove, LegendsView, ...; None when there is none or its type is one this
    client does not know."""
    packed = getattr(message, "detail", None)
    if packed is None or not packed.type_url:
        return None
    try:
        descriptor = descriptor_pool.Default().FindMessageTypeByName(packed.TypeName())
    except KeyError:
        return None
    out = message_factory.GetMessageClass(descriptor)()
    try:
        return out if packed.Unpack(out) else None
    except message.DecodeError:
        return None


def position(record: PositionLike | None = None, *, game: str | None = None, match_id: str | None = None,
             book: GameBook | None = None) -> common_pb2.Position:
    """A Position from a record (a file path, a dict, JSON text or a typed record message:
    HeraZeusRecord, LegendsRecord) or a hosted match id. Without `game`, a JSON record's `format` names it (through `book`)."""
    if (record is None) == (match_id is None):
        raise ValueError("give a record or a match_id")
    if match_id is not None:
        return common_pb2.Position(game=game or "", match_id=match_id)
    if isinstance(record, common_pb2.Position):
        return record
    if record_game(record) is not None:
        out = common_pb2.Position(game=game or record_game(record))
        out.record.Pack(record)
        return out
    if isinstance(record, os.PathLike):
        record = Path(record).read_text(encoding="utf-8")
    if isinstance(record, dict):
        text = json.dumps(record)

    elif isinstance(record, str):
        text = record
    else:
        raise TypeError(f"cannot make a position from {type(record).__name__}")
    if game is None:
        data = record_data(text)
        if data is None or not isinstance(data.get("format"), str):
            raise ValueError("name the game (game=...): the record has no format to tell it")
        game = book.game_of_format(data["format"]) if book is not None else local_game_of_format(data["format"])
    return common_pb2.Position(game=game, record_json=text)


def budget(iterations: int | None = None, millis: int | None = None,
           threads: int | None = None) -> common_pb2.Budget | None:
    if iterations is None and millis is None and threads is None:
        return None
    return common_pb2.Budget(iterations=iterations or 0, millis=millis or 0, threads=threads or 0)


def suggest_request(record=None, *, game=None, match_id=None, book=None, iterations=None, millis=None, threads=None,
                    seed=0, bot="", priority=None, level=0):
    """A SuggestMoveRequest for a record or match (`position`'s arguments) or a Position;
    `level` 1..GameInfo.max_level a strength level (0: full strength)."""
    return bot_pb2.SuggestMoveRequest(position=position(record, game=game, match_id=match_id, book=book),
                                      budget=budget(iterations, millis, threads), seed=seed, bot=bot,
                                      priority=priority_value(priority), level=level)


# Priority names a client call may give (bot.proto Priority); None or "": the method's own.
PRIORITIES = {"": 0, "interactive": 1, "batch": 2}


def priority_value(priority: str | None) -> int:
    try:
        return PRIORITIES[(priority or "").lower()]
    except KeyError:
        raise ValueError(f"priority must be interactive or batch (or None), not {priority!r}") from None


def analyze_request(record=None, *, game=None, match_id=None, book=None, iterations=None, millis=None, threads=None,
                    seed=0, belief_samples=0, progress_every=0, allow=None, avoid=None, priority=None, bot=""):
    """An AnalyzeRequest; `allow` / `avoid`: chosen root moves in notation; `bot`: whose
    search analyses (a spec; empty: the default bot, as SuggestMove's)."""
    return bot_pb2.AnalyzeRequest(position=position(record, game=game, match_id=match_id, book=book),
                                  budget=budget(iterations, millis, threads), seed=seed,
                                  belief_samples=belief_samples, progress_every=progress_every,
                                  allow_moves=list(allow or ()), avoid_moves=list(avoid or ()),
                                  priority=priority_value(priority), bot=bot)


def batch_position(item, *, book=None, game=None) -> bot_pb2.BatchPosition:
    """One position of a batch: a record (as `position` takes it), or a dict
    {"record": ..., "allow": [...], "avoid": [...], "game": ...}."""
    if isinstance(item, dict) and "record" in item:
        record = item["record"]
        return bot_pb2.BatchPosition(position=position(record, game=item.get("game", game), book=book),
                                     allow_moves=list(item.get("allow") or ()),
                                     avoid_moves=list(item.get("avoid") or ()))
    return bot_pb2.BatchPosition(position=position(item, game=game, book=book))


def batch_request(items, *, book=None, game=None, iterations=None, millis=None, threads=None, seed=0,
                  belief_samples=0, priority=None, bot="") -> bot_pb2.AnalyzeRequest:
    return bot_pb2.AnalyzeRequest(positions=[batch_position(i, book=book, game=game) for i in items],
                                  budget=budget(iterations, millis, threads), seed=seed,
                                  belief_samples=belief_samples, priority=priority_value(priority), bot=bot)


def analyze_game_request(record=None, *, game=None, match_id=None, book=None, iterations=None, millis=None,
                         threads=None, seed=0, seats=(), belief=False, root_moves=None, priority=None, bot=""):
    """An AnalyzeGameRequest; `seats` are indices; `root_moves`: {move index: {"allow": [...],
    "avoid": [...]}}."""
    request = bot_pb2.AnalyzeGameRequest(position=position(record, game=game, match_id=match_id, book=book),
                                         budget=budget(iterations, millis, threads), seed=seed, seats=list(seats),
                                         belief=belief, priority=priority_value(priority), bot=bot)
    for index, choice in (root_moves or {}).items():
        request.root_moves[int(index)].CopyFrom(bot_pb2.RootChoice(allow_moves=list(choice.get("allow") or ()),
                                                                   avoid_moves=list(choice.get("avoid") or ())))
    return request


def batch_needs_book(items, game) -> bool:
    return any(needs_book(i["record"] if isinstance(i, dict) and "record" in i else i, game) for i in items)


def names_needed(bot_seats) -> bool:
    """Whether `bot_seats` (None: the default) needs the game's seat names."""
    return bot_seats is None or not all(isinstance(s, int) and not isinstance(s, bool) for s in bot_seats)


def bot_seat_indices(bot_seats, seats: list[str] | None) -> list[int]:
    """Bot seats as indices (names looked up in `seats`); None: every seat but the first."""
    if bot_seats is None:
        return list(range(1, len(seats or ())))
    return [seat_index(seats or [], s) for s in bot_seats]


def bot_levels_of(bot_seats: list[int], level: int = 0, bot_levels: Iterable[int] | None = None) -> list[int]:
    """CreateMatchRequest.bot_levels: `bot_levels` as given (one per bot seat), else
    `level` for every bot seat (0: none, every bot seat at full strength)."""
    if bot_levels is not None:
        return list(bot_levels)
    return [level] * len(bot_seats) if level else []


def create_match_request(*, game: str, params: dict | str | None = None, bot_seats: Iterable[int] = (), bot="",
                         iterations=None, millis=None, threads=None, seed=0, open_=False, level=0, bot_levels=None):
    params_json = params if isinstance(params, str) else (json.dumps(params) if params else "")
    bot_seats = list(bot_seats)
    return match_pb2.CreateMatchRequest(game=game, params_json=params_json, bot_seats=bot_seats, bot=bot,
                                        budget=budget(iterations, millis, threads), seed=seed, open=open_,
                                        bot_levels=bot_levels_of(bot_seats, level, bot_levels))


def move_message(move: MoveLike) -> common_pb2.Move:
    """A move by its text, its action id, or as a Move message."""
    if isinstance(move, common_pb2.Move):
        return move
    if isinstance(move, int) and not isinstance(move, bool):
        return common_pb2.Move(action=move)
    if isinstance(move, str):
        return common_pb2.Move(text=move)
    raise TypeError(f"a move is its text, its action id or a Move, not {type(move).__name__}")


# The metadata key that carries a seat or spectator token (docs/api.md, "Hosted matches").
AUTH_HEADER = "authorization"


def auth(token: str | None) -> tuple[tuple[str, str], ...] | None:
    """gRPC metadata presenting a match token, or None without one."""
    return None if not token else ((AUTH_HEADER, f"Bearer {token}"),)


def seat_token(created: match_pb2.CreateMatchResponse, seat: SeatLike) -> str:
    """The token CreateMatch answered for `seat` (an index or a seat name of the match)."""
    wanted = seat_index(created.status.seats, seat)
    for entry in created.seats:
        if entry.seat == wanted:
            return entry.token
    raise ValueError(f"the match has no human seat {seat!r} (bot seats get no token)")


def bad_request_fields(error: grpc.RpcError) -> dict[str, str]:
    """The fields an INVALID_ARGUMENT names (google.rpc.BadRequest details): field -> why."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(error) if hasattr(error, "trailing_metadata") else None
    fields: dict[str, str] = {}
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields.update((v.field, v.description) for v in bad.field_violations)
    return fields


def describe_error(error: grpc.RpcError) -> str:
    """One line: the status code and the server's message."""
    code = error.code() if hasattr(error, "code") else None
    details = error.details() if hasattr(error, "details") else str(error)
    return f"{code.name if code else 'ERROR'}: {details}"


# The calls a client's channel tries again, up to RETRY_ATTEMPTS times in all, when they
# end UNAVAILABLE: the server process that had the call died or was stopped, or closed its
# connection (a --max-connection-age past its grace). These read and change nothing, so a
# second try on a new connection (another worker or replica) does no harm. PlayMove and
# BotPlayTurn are tried again only with a move_number (the clients do it: `retry_pauses`),
# which makes a repeat answer the moves already played; CreateMatch and DeleteMatch never.
RETRIED_METHODS = {
    "hzai.v3.BotService": ("ListGames", "SuggestMove", "Analyze", "AnalyzeStream", "AnalyzeGame"),
    "hzai.v3.MatchService": ("GetView", "ListLegalMoves"),
    "grpc.health.v1.Health": ("Check",),
}
RETRY_ATTEMPTS = 5
RETRY_FIRST_PAUSE = 0.1  # seconds; doubled after each try, at most RETRY_MAX_PAUSE
RETRY_MAX_PAUSE = 1.0


def retry_service_config() -> str:
    """The gRPC service config (JSON) that retries RETRIED_METHODS on UNAVAILABLE. gRPC
    waits a random part of each pause, and retries only a call not yet answered in part
    (a stream that has sent a message is not tried again)."""
    names = [{"service": service, "method": method} for service, methods in RETRIED_METHODS.items()
             for method in methods]
    policy = {"maxAttempts": RETRY_ATTEMPTS, "initialBackoff": f"{RETRY_FIRST_PAUSE}s",
              "maxBackoff": f"{RETRY_MAX_PAUSE}s", "backoffMultiplier": 2,
              "retryableStatusCodes": ["UNAVAILABLE"]}
    return json.dumps({"methodConfig": [{"name": names, "retryPolicy": policy}]})


def channel_options(options: list | None = None) -> list:
    """`options` for a new channel, with the retry service config unless they set one."""
    options = list(options or [])
    if not any(name == "grpc.service_config" for name, _ in options):
        options.append(("grpc.service_config", retry_service_config()))
    return options


def retry_pauses() -> list[float]:
    """Seconds to wait before each try after the first of a call retried by the client
    itself (PlayMove and BotPlayTurn with a move_number)."""
    return [min(RETRY_MAX_PAUSE, RETRY_FIRST_PAUSE * 2 ** n) for n in range(RETRY_ATTEMPTS - 1)]


class Retries:
    """The tries of one call within one deadline (`timeout` seconds, None: none): `pauses`
    holds the pause before each further try, None after the last; `left()` the time the
    next try may take; `again(exc, pause)` whether a failed try is tried once more (only
    UNAVAILABLE, only while the pause ends before the deadline). The sync and asyncio
    clients loop over it alike, sleeping their own way."""

    def __init__(self, timeout: float | None, retry: bool):
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.pauses = (*(retry_pauses() if retry else ()), None)

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def again(self, exc, pause: float | None) -> bool:
        return (pause is not None and exc.code() == grpc.StatusCode.UNAVAILABLE
                and (self.deadline is None or time.monotonic() + pause < self.deadline))


def channel_credentials(ca: str | None = None, cert: str | None = None, key: str | None = None):
    """TLS credentials for a channel: the server's certificate checked against the CA
    file `ca` (None: the system's roots), and with `cert`/`key` (PEM files) a client
    certificate for a server that asks for one (mutual TLS). ValueError naming a file
    that cannot be read, or a cert without its key."""
    import grpc

    if bool(cert) != bool(key):
        raise ValueError("a client certificate needs its key: give both --tls-cert and --tls-key, or neither")

    def read(path: str | None, flag: str) -> bytes | None:
        if not path:
            return None
        try:
            with open(path, "rb") as handle:
                return handle.read()
        except OSError as exc:
            raise ValueError(f"{flag}: cannot read {path}: {exc.strerror}") from None

    return grpc.ssl_channel_credentials(root_certificates=read(ca, "--tls-ca"), private_key=read(key, "--tls-key"),
                                        certificate_chain=read(cert, "--tls-cert"))
