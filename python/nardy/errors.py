"""Exceptions raised by nardy. Every one is a :class:`ValueError`."""

from __future__ import annotations


class Error(ValueError):
    """Base class of every error nardy raises for bad input."""


class InvalidArgumentError(Error):
    """An argument of the wrong type or outside its allowed range (the message names the
    argument and what it allows)."""


class InvalidColorError(InvalidArgumentError):
    """A colour that is not 0 (``nardy.WHITE``) or 1 (``nardy.BLACK``)."""


class InvalidSeedError(InvalidArgumentError):
    """A random seed of a type or size the function does not take."""


class InputTooLargeError(InvalidArgumentError):
    """Input over a documented size limit (text to parse, a game count, a depth...)."""


class InvalidPositionError(Error):
    """A board or side array that cannot be a position of the variant."""


class InvalidDiceError(InvalidArgumentError):
    """Dice that are not two integers from 1 to 6."""


class InvalidNotationError(Error):
    """Move notation that cannot be parsed."""


class IllegalMoveError(Error):
    """A well-formed move that is not legal in the position."""


class InvalidIdError(Error):
    """A malformed position or match identifier (gnubg ID, XGID, FIBS, nardy text)."""


class InvalidRecordError(Error):
    """A game or match record that cannot be read or replayed."""


class UnknownVariantError(Error):
    """A variant name that no registered variant answers to."""


class InvalidRuleError(InvalidArgumentError):
    """An unknown rule option or an option value out of range."""


class GameStateError(Error):
    """An action at the wrong moment of a game or match (rolling twice, moving before
    rolling, answering a double nobody offered, playing on after the end...)."""


class CubeError(GameStateError):
    """A cube action the rules forbid now: no cube in these rules, the Crawford game, a cube
    owned by the opponent, above the maximum cube, beaver or raccoon not agreed."""


class QueryError(Error):
    """A question that has no meaning in the position's variant (a pip count in Shlem, whose
    checkers are never borne off). ``Variant.queries`` lists the ones that do."""
