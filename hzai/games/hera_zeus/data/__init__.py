"""Deck files shipped with the package."""
