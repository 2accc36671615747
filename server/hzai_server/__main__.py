"""`hzai-server` and `python -m hzai_server`."""

from __future__ import annotations

import socket
import sys

from hzai_server.config import parse_config
from hzai_server.logs import log, setup_logging


def bind_error(address: str) -> str | None:
    """Why `address` cannot be listened on, or None when it can (or the port is 0).

    Checked with a plain socket before gRPC tries: gRPC's C core reports a failed bind
    with a log line of its own on stderr, ahead of our one-line message. Like gRPC, the
    address is usable when any of the addresses its host resolves to binds."""
    host, _, port = address.rpartition(":")
    if int(port) == 0:
        return None
    try:
        infos = socket.getaddrinfo(host.strip("[]") or None, int(port), type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"cannot listen on {address}: {exc.strerror}"
    reason = "no address"
    for family, kind, proto, _, where in infos:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(where)
                return None
            except OSError as exc:
                reason = exc.strerror or str(exc)
    return f"cannot listen on {address}: {reason}"


def main(argv: list[str] | None = None) -> int:
    config = parse_config(argv)
    setup_logging(config.log_level, config.worker)
    # A worker shares its port (SO_REUSEPORT) with the others: its supervisor checked it.
    # A supervisor checks it without SO_REUSEPORT: another server's port is in use.
    problem = bind_error(config.address) if config.worker < 0 else None
    if problem:
        log("cannot start", level=40, error=problem)
        return 1
    if config.processes > 1:  # a supervisor of worker processes, which imports no grpc
        from hzai_server.workers import supervise

        return supervise(config, sys.argv[1:] if argv is None else list(argv))
    from hzai_server.app import serve

    try:
        return serve(config)
    except OSError as exc:
        log("cannot start", level=40, error=str(exc))
        return 1


if __name__ == "__main__":
    sys.exit(main())
