"""`hzai web`: the page and its bridge behind uvicorn, by default with an embedded hzai
server on a free loopback port (the one `hzai play` starts)."""

from __future__ import annotations

import argparse
import contextlib
import socket
import sys

from hzai_client.commands import EXIT_BAD_INPUT, CommandError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def listening_socket(host: str, port: int) -> socket.socket:
    """The page's socket, bound and listening before the address is printed: a browser or
    a test that connects at once waits in the backlog instead of being refused."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise CommandError(f"--port: cannot listen on {host}:{port} ({exc.strerror})", EXIT_BAD_INPUT) from None
    sock.listen(128)
    return sock


def check_host(host: str) -> str:
    if host not in LOOPBACK:
        raise CommandError(f"--host: {host!r} is not a loopback address; the page is served on loopback only",
                           EXIT_BAD_INPUT)
    return host


def _default_budget(args):
    """--budget (or the older --iterations) as Limits; None for the server's default."""
    from hzai.search import Limits, LimitsError

    if args.budget is not None and args.iterations is not None:
        raise CommandError("--budget and --iterations (its older name) both given: give --budget", EXIT_BAD_INPUT)
    if args.iterations is not None:
        if args.iterations < 1:
            raise CommandError(f"--iterations: at least 1, not {args.iterations}", EXIT_BAD_INPUT)
        return Limits(iterations=args.iterations)
    if args.budget is None:
        return None
    try:
        return Limits.parse(args.budget, 1)
    except LimitsError as exc:
        raise CommandError(f"--budget: {str(exc).removeprefix('budget ')}", EXIT_BAD_INPUT) from None


def run(args, out=sys.stdout) -> int:
    try:
        import uvicorn

        from hzai_client.web.app import WebApp
    except ImportError as exc:
        raise CommandError(f"hzai web needs the web extra (pip install \"hzai[web]\"): {exc}", EXIT_BAD_INPUT) from None
    host = check_host(args.host)
    if args.port is not None and not 0 <= args.port <= 65535:
        raise CommandError(f"--port: {args.port} is not a port number", EXIT_BAD_INPUT)
    with contextlib.ExitStack() as stack:
        target = args.server
        if target is None:
            from hzai_client.play import EmbeddedServer

            target = stack.enter_context(EmbeddedServer(_default_budget(args), args.load_games))
        sock = stack.enter_context(listening_socket(host, args.port or 0))
        port = sock.getsockname()[1]
        credentials = None
        if args.server is not None and (args.tls or args.tls_ca or args.tls_cert):
            from hzai_client.messages import channel_credentials

            try:
                credentials = channel_credentials(args.tls_ca, args.tls_cert, args.tls_key)
            except ValueError as exc:
                raise CommandError(str(exc), EXIT_BAD_INPUT) from None
        config = uvicorn.Config(WebApp(target, credentials), log_level="warning", lifespan="on")
        shown = f"[{host}]" if ":" in host else host
        print(f"hzai web: open http://{shown}:{port}/  (gRPC server {target}; Ctrl-C stops)", file=out, flush=True)
        try:
            uvicorn.Server(config).run(sockets=[sock])
        except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again: the normal way out
            pass
    return 0


def add_web_command(sub) -> None:
    p = sub.add_parser("web", help="play and analyse in the browser (a page on loopback, service embedded)",
                       description="Serve the browser page and a Connect bridge to the hzai gRPC service. Without "
                                   "--server an hzai server runs in this process on a free loopback port.")
    p.add_argument("--server", default=None, metavar="HOST:PORT",
                   help="use the hzai-server at this address (default: one started for this page)")
    from hzai_client.commands import add_tls_options

    add_tls_options(p)
    p.add_argument("--host", default="127.0.0.1", help="loopback address to serve the page on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port of the page (default: a free one)")
    p.add_argument("--budget", default=None,
                   help="without --server: the embedded server's search budget for a request that names none: "
                        "iterations (1000), time (250ms, 2s) or both (1000,250ms); default 1000 iterations")
    # the older name, kept for scripts: --iterations N is --budget N
    p.add_argument("--iterations", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--load-games", default="", metavar="MODULES",
                   help="without --server: modules the embedded server imports first (as hzai-server --load-games)")
    from hzai_client.commands import _command

    p.set_defaults(func=_command(run))
