"""Quoting input inside messages: at most QUOTE_LIMIT characters of it, printable.

Error messages name what was wrong with a request by quoting it, but a request can be
megabytes long; every quote goes through `quoted`, which keeps the head of the text,
says how much was left out, and escapes what is not printable (lone surrogates from
JSON escapes included, so a message always encodes as UTF-8)."""

from __future__ import annotations

QUOTE_LIMIT = 200


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` cut to about `limit` characters, with a note of how many were dropped."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def quoted(value, limit: int = QUOTE_LIMIT) -> str:
    """repr() of `value` (a str quoted, anything else as written), at most `limit`
    characters of it."""
    if isinstance(value, str):
        head = value[:limit]
        text = repr(head)
        return text if len(value) <= limit else f"{text}... ({len(value) - limit} more characters)"
    return shorten(repr(value), limit)


def plural(count: int, word: str, many: str | None = None) -> str:
    """`count` and `word`, the plural when count is not 1: "1 card", "3 cards"."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def without_echo(message: str, text: str) -> str:
    """`message` without a leading copy of `text` (`'draw': ...` or `draw: ...`): the
    caller names the move already, so its reason need not quote it a second time."""
    for prefix in (f"{text!r}: ", f"{text}: ", f"{text.lower()}: "):
        if message.startswith(prefix):
            return message[len(prefix):]
    return message
