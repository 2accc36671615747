"""A least-recently-used map bounded both in entries and in (estimated) bytes.

Each entry is stored with its cost in bytes as the caller estimates it; adding one
evicts the oldest until both bounds hold again, and an entry bigger than the whole byte
budget is never stored. All methods are short and thread-safe (one lock, never held
while a caller computes anything)."""

from __future__ import annotations

import threading
from collections import OrderedDict


class BoundedCache:
    def __init__(self, max_entries: int, max_bytes: int):
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._items: OrderedDict = OrderedDict()  # key -> (value, cost)
        self._lock = threading.Lock()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key, default=None):
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return default
            self._items.move_to_end(key)
            return item[0]

    def put(self, key, value, cost: int) -> bool:
        """Store `value`; False when it alone is over the byte budget (not stored)."""
        if cost > self.max_bytes or self.max_entries < 1:
            return False
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._items[key] = (value, cost)
            self.bytes += cost
            while len(self._items) > self.max_entries or self.bytes > self.max_bytes:
                _, (_, dropped) = self._items.popitem(last=False)
                self.bytes -= dropped
        return True

    def keys(self) -> list:
        with self._lock:
            return list(self._items)
