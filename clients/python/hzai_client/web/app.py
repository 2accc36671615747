"""The ASGI application of `hzai web`: the Connect bridge under `/hzai.v2.*`, the page's
static files (committed in `static/`, no build step) everywhere else."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from hzai_client.web.bridge import ConnectBridge

STATIC = Path(__file__).with_name("static")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
# The page loads nothing from anywhere else; the browser is told so too.
HEADERS = [(b"content-security-policy", b"default-src 'self'; img-src 'self' data:; object-src 'none'"),
           (b"x-content-type-options", b"nosniff"), (b"cache-control", b"no-cache")]


def static_file(path: str) -> Path | None:
    """The committed file a URL path names (`/` is index.html); None outside `static/`."""
    name = path.lstrip("/") or "index.html"
    target = (STATIC / name).resolve()
    if STATIC.resolve() not in target.parents or not target.is_file():
        return None
    return target


async def _send(send, status: int, body: bytes, content_type: str) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode()),
                            *HEADERS]})
    await send({"type": "http.response.body", "body": body})


class WebApp:
    """Routes `/hzai.v2.*` to the bridge and GET of anything else to `static/`."""

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
        if path.startswith("/hzai.v2."):
            await self.bridge(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD"):
            await _send(send, 405, b"only GET here; the API is under /hzai.v2.*\n", "text/plain")
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
