"""The two kinds of bad input the engine rejects, both ``ValueError`` subclasses."""

from __future__ import annotations


class BoxGinError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidCardError(BoxGinError):
    """Text or values that do not name a card, or a hand that is not a hand."""


class IllegalActionError(BoxGinError):
    """An action the rules do not allow here; the state is left exactly as it was."""
