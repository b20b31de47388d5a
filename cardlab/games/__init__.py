"""The games cardlab knows. Importing this package registers each of them."""

from . import bobs_hat, teds_game, whot  # noqa: F401

__all__ = ["bobs_hat", "teds_game", "whot"]
