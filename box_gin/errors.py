"""The kinds of bad input the engine rejects, all ``ValueError`` subclasses."""

from __future__ import annotations


class BoxGinError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidCardError(BoxGinError):
    """Text or values that do not name a card, or a hand that is not a hand."""


class IllegalActionError(BoxGinError):
    """An action the rules do not allow here; the state is left exactly as it was."""


class RulesError(BoxGinError):
    """Rules options that are unknown, of the wrong type, or that contradict each other."""


class RecordError(BoxGinError):
    """A match record that cannot be read, or whose claims its own replay contradicts.

    ``field`` names the part of the record at fault, as a path such as
    ``hands[2].actions[5]`` (``""`` for the record as a whole).
    """

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field
