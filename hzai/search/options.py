"""Checking bot option values: every bad value is a BotError naming the option."""

from __future__ import annotations

import math

from hzai.core.bot import BotError
from hzai.text import quoted

def number_option(option: str, value, low: float, high: float) -> float:
    """A finite number within low..high (a string as written after `option=`)."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise BotError(f"option {option} must be a number, not {quoted(value)}") from None
    if not math.isfinite(number) or not low <= number <= high:
        raise BotError(f"option {option} must be a number within {low:g}..{high:g}, not {quoted(value)}")
    return number


def whole_option(option: str, value, low: int, high: int) -> int:
    """A whole number within low..high."""
    text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if text is None or not text.lstrip("+-").isdigit() or len(text) > 20:
        raise BotError(f"option {option} must be a whole number {low}..{high}, not {quoted(value)}")
    number = int(text)
    if not low <= number <= high:
        raise BotError(f"option {option} must be a whole number {low}..{high}, not {number}")
    return number


def choice_option(option: str, value, choices) -> str:
    if value not in choices:
        raise BotError(f"option {option} must be one of {', '.join(choices)}, not {quoted(value)}")
    return value
