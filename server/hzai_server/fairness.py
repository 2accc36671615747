"""Secret deals a player can check afterwards, and chance nobody can predict.

The server draws a match's seed from the operating system's CSPRNG and publishes only
SHA-256("SEED:SALT") at creation; seed and salt are shown once the game is over, so
anyone can recompute the commitment and the deal. Chance results (the card Pegasus
draws) and the bot's own randomness come from SHA-256 of the secret seed and salt with
the move index, never from anything public, and need no state of their own: after a
restart the next draw is the one the process would have made.
"""

from __future__ import annotations

import hashlib
import secrets

from hzai.rng import SplitMix64

SALT_BYTES = 16


def draw_seed() -> int:
    return secrets.randbits(64)


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def open_salt(seed: int) -> str:
    """The salt of an open match: fixed by its seed, so that an open match (analysis,
    replays, tests) plays out the same for the same seed, chance and bot moves included.
    Its seed is public anyway, so nothing is lost."""
    return hashlib.sha256(f"open:{seed}".encode()).hexdigest()[: 2 * SALT_BYTES]


def commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def _derived(purpose: str, seed: int, salt: str, index: int) -> int:
    digest = hashlib.sha256(f"{purpose}:{seed}:{salt}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def chance_rng(seed: int, salt: str, index: int) -> SplitMix64:
    """The generator for the chance results drawn at record length `index`."""
    return SplitMix64(_derived("chance", seed, salt, index))


def bot_seed(seed: int, salt: str, index: int) -> int:
    """The bot's search seed for its decision at record length `index`."""
    return _derived("bot", seed, salt, index)
