"""How much a search may spend: a small frozen value, as python-chess's engine limits."""

from __future__ import annotations

from dataclasses import dataclass

from hzai.text import quoted

MAX_THREADS = 64


class LimitsError(ValueError):
    """A budget that cannot be searched with; the message names the field."""


@dataclass(frozen=True)
class Limits:
    """Iterations and/or wall time; with both, whichever comes first. `threads` trees
    search in parallel (root parallelism); iterations are split between them."""

    iterations: int | None = None
    millis: int | None = None
    threads: int = 1

    def __post_init__(self):
        if self.iterations is None and self.millis is None:
            raise LimitsError("a budget needs iterations, millis or both")
        if self.iterations is not None and (not isinstance(self.iterations, int) or self.iterations < 1):
            raise LimitsError(f"iterations must be a whole number ≥ 1, not {self.iterations!r}")
        if self.millis is not None and (not isinstance(self.millis, int) or self.millis < 1):
            raise LimitsError(f"millis must be a whole number ≥ 1, not {self.millis!r}")
        if not isinstance(self.threads, int) or not 1 <= self.threads <= MAX_THREADS:
            raise LimitsError(f"threads must be 1..{MAX_THREADS}, not {self.threads!r}")

    @classmethod
    def parse(cls, text: str, threads: int = 1) -> "Limits":
        """'1000' or '1000i' iterations, '250ms' or '2s' wall time, '1000i,250ms' both."""
        iterations = millis = None
        for part in str(text).replace(" ", "").split(","):
            try:
                if part.endswith("ms"):
                    millis = int(part[:-2])
                elif part.endswith("s"):
                    millis = int(float(part[:-1]) * 1000)
                else:
                    iterations = int(part.removesuffix("i"))
            except (ValueError, OverflowError):  # not a number; inf or nan seconds
                raise LimitsError(f"budget {quoted(str(text))}: write 1000 (iterations), 250ms, 2s, or 1000,250ms") from None
        return cls(iterations, millis, threads)

    def __str__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.millis is not None:
            parts.append(f"{self.millis} ms")
        if self.threads != 1:
            parts.append(f"{self.threads} threads")
        return ", ".join(parts)
