"""`hzai-server` and `python -m hzai_server`."""

from __future__ import annotations

import sys

from hzai_server.config import parse_config
from hzai_server.logs import log, setup_logging


def main(argv: list[str] | None = None) -> int:
    config = parse_config(argv)
    setup_logging(config.log_level)
    from hzai_server.app import serve

    try:
        return serve(config)
    except OSError as exc:
        log("cannot start", level=40, error=str(exc))
        return 1


if __name__ == "__main__":
    sys.exit(main())
