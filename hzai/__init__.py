"""hzai: an AI opponent service for the card game Hera and Zeus."""

__version__ = "0.1.0"
