"""A small, fully specified PRNG so that every implementation deals the same game.

A record with `"seed": N` must give the same deal in the reference engine, the native
core and any other program, so the generator and the shuffle are part of the contract
(docs/engine-decisions.md): SplitMix64, unbiased bounded integers by rejection, and a
Fisher–Yates shuffle from the last position down.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1


def mix_seed(seed: int, *salts: int) -> int:
    """A sub-seed for `salts` (a world index, a move number, ...) derived from `seed`,
    always within 0..2^64-1 whatever the inputs: each salt is folded in and scrambled by
    one SplitMix64 step, so nearby seeds and salts give unrelated sub-seeds and nothing
    overflows a native uint64 (a product such as `seed * 7919` does past ~2.3e15)."""
    state = seed & MASK64
    for salt in salts:
        state = SplitMix64(state ^ (salt & MASK64)).next_u64()
    return state


class SplitMix64:
    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = MASK64 - (MASK64 + 1) % n  # largest multiple of n, minus one
        while True:
            x = self.next_u64()
            if x <= limit:
                return x % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
