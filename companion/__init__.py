"""Coin Table Companion: a referee, monitor and game record for coin games on a real table."""

__version__ = "0.1.0"
