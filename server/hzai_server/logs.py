"""Structured logs: one JSON object per line on stderr, easy to ship and to grep."""

from __future__ import annotations

import json
import logging
import sys
import time

LOGGER = logging.getLogger("hzai_server")
_worker: dict = {}  # {"worker": index} in a worker process of a supervisor (hzai_server.workers)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "event": record.getMessage(),
        }
        entry.update(_worker)
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def setup_logging(level: str = "info", worker: int = -1) -> None:
    """Log lines to stderr at `level`; `worker` ≥ 0: every line names that worker."""
    _worker.clear()
    if worker >= 0:
        _worker["worker"] = worker
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    LOGGER.handlers[:] = [handler]
    LOGGER.setLevel(level.upper())
    LOGGER.propagate = False


def log(event: str, level: int = logging.INFO, exc_info=None, **fields) -> None:
    LOGGER.log(level, event, extra={"fields": fields}, exc_info=exc_info)
