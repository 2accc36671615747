"""The ASGI application of `hzai web`: the Connect bridge under `/hzai.v3.*`, the page's
static files (committed in `static/`, no build step) everywhere else."""

from __future__ import annotations

import asyncio
import functools
import json
import mimetypes
from pathlib import Path

from hzai_client.web.bridge import ConnectBridge

STATIC = Path(__file__).with_name("static")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
# The page loads nothing from anywhere else; the browser is told so too.
HEADERS = [(b"content-security-policy", b"default-src 'self'; img-src 'self' data:; object-src 'none'"),
           (b"x-content-type-options", b"nosniff"), (b"cache-control", b"no-cache")]


# Browsers ask for /favicon.ico whatever the page links; both names get the one icon.
ALIASES = {"/favicon.ico": "/favicon.svg"}


def static_file(path: str) -> Path | None:
    """The committed file a URL path names (`/` is index.html); None outside `static/`."""
    name = ALIASES.get(path, path).lstrip("/") or "index.html"
    target = (STATIC / name).resolve()
    if STATIC.resolve() not in target.parents or not target.is_file():
        return None
    return target


async def _send(send, status: int, body: bytes, content_type: str) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode()),
                            *HEADERS]})
    await send({"type": "http.response.body", "body": body})


REVIEW_PATH = "/review/position"
MAX_REVIEW_BYTES = 4 * 1024 * 1024


def review_position(body: bytes) -> dict:
    """The review's board: {"record_json": a record, "upto": N} -> the position after its
    first N moves as the referee sees it (a record hides nothing from its holder):
    {"game", "upto", "board": text, "state": the game's state JSON}. Drawn here by the
    hzai library, because no RPC draws a record's position; ValueError saying why not."""
    from hzai.core import RecordError, game_of_format, make_game

    try:
        request = json.loads(body)
    except ValueError as exc:
        raise ValueError(f"the request is not JSON ({exc})") from None
    if not isinstance(request, dict) or not isinstance(request.get("record_json"), str):
        raise ValueError("give record_json, the record as a JSON string, and upto, how many of its moves")
    upto = request.get("upto", 0)
    if not isinstance(upto, int) or isinstance(upto, bool) or upto < 0:
        raise ValueError(f"upto: a whole number of moves from 0, not {json.dumps(upto)[:40]}")
    try:
        data = json.loads(request["record_json"])
    except ValueError as exc:
        raise ValueError(f"record_json is not JSON ({exc})") from None
    fmt = data.get("format") if isinstance(data, dict) else None
    name = game_of_format(fmt) if isinstance(fmt, str) else None
    if name is None:
        raise ValueError(f"no game here writes records of format {json.dumps(fmt)[:80]}")
    moves = data.get("moves", [])
    if not isinstance(moves, list) or upto > len(moves):
        raise ValueError(f"upto: the record has {len(moves) if isinstance(moves, list) else 0} moves, not {upto}")
    game = make_game(name)
    try:
        record = game.records.read({**data, "moves": moves[:upto]})
        game = record.game if hasattr(record, "game") else game
        state = game.records.replay(record)
    except RecordError as exc:
        raise ValueError(f"the record cannot be replayed: {exc}") from None
    shown = game.presentation
    return {"game": name, "upto": upto, "board": shown.referee_text(state), "state": shown.state_to_json(state),
            **decision_at(game, state)}


def decision_at(game, state) -> dict:
    """Whether a seat decides in `state`, so that the review asks Analyze only where it
    can answer: {"to_move": the seat index or None, "no_decision": why none ("" if one)}."""
    from hzai.core.record import NoDecision

    try:
        game.records.decision_view(state)
    except NoDecision as exc:
        return {"to_move": None, "no_decision": str(exc)}
    return {"to_move": state.current_seat, "no_decision": ""}


CAPABILITIES_PATH = "/capabilities"


@functools.cache
def page_capabilities() -> dict:
    """What the page may ask of each game this hzai library knows, beyond ListGames:
    {"games": {name: {"belief_report": bool, "params": [names]}}}. The page asks Analyze
    for belief samples only of a game that has a belief report (the service refuses them
    otherwise), and offers the new-game form's "Who starts" and "Turn limit" only for a
    game whose parameters include first_player and turn_limit; a game not named here (one
    only a --server knows) is asked, and learnt from its answer."""
    from hzai.core.registry import game_names, make_game

    games = {}
    for name in game_names():
        try:
            game = make_game(name)
            games[name] = {"belief_report": game.capabilities.belief_report, "params": sorted(game.params)}
        except Exception:  # noqa: BLE001 - a game that cannot be made here: the page asks the service
            continue
    return {"games": games}


async def _review(receive, send) -> None:
    body, more = b"", True
    while more:
        message = await receive()
        body += message.get("body", b"")
        more = message.get("more_body", False)
        if len(body) > MAX_REVIEW_BYTES:
            await _send(send, 413, b'{"message": "the record is over 4 MiB"}', "application/json")
            return
    try:
        answer = await asyncio.to_thread(review_position, body)
    except ValueError as exc:
        await _send(send, 400, json.dumps({"message": str(exc)}).encode(), "application/json")
        return
    await _send(send, 200, json.dumps(answer).encode(), "application/json")


class WebApp:
    """Routes `/hzai.v3.*` to the bridge and GET of anything else to `static/`."""

    def __init__(self, target: str, credentials=None):
        """`credentials`: grpc channel credentials for a server that serves TLS (None: plain text)."""
        self.target = target
        self.bridge = ConnectBridge(target, credentials)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        path = scope["path"]
        if path.startswith("/hzai.v3."):
            await self.bridge(scope, receive, send)
            return
        if path == REVIEW_PATH and scope["method"] == "POST":
            await _review(receive, send)
            return
        if path == CAPABILITIES_PATH and scope["method"] == "GET":
            answer = await asyncio.to_thread(page_capabilities)
            await _send(send, 200, json.dumps(answer).encode(), "application/json")
            return
        if scope["method"] not in ("GET", "HEAD"):
            await _send(send, 405, b"only GET here; the API is under /hzai.v3.*\n", "text/plain")
            return
        file = static_file(path)
        if file is None:
            await _send(send, 404, b"not found\n", "text/plain")
            return
        content_type = TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        await _send(send, 200, file.read_bytes(), content_type)

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.bridge.upstream.close()
                await send({"type": "lifespan.shutdown.complete"})
                return
