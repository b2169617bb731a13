"""nardy: fast, faithful move generation for the nardy family of dice games.

>>> import nardy
>>> pos = nardy.Position("backgammon")
>>> moves = pos.legal_moves((3, 1))
>>> len(moves)
16
>>> pos.parse_move("8/5 6/5", (3, 1)) in moves
True
"""

from __future__ import annotations

from nardy import _core
from nardy.errors import (
    Error,
    IllegalMoveError,
    InputTooLargeError,
    InvalidArgumentError,
    InvalidColorError,
    InvalidDiceError,
    InvalidIdError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRuleError,
    InvalidSeedError,
    QueryError,
    UnknownVariantError,
)
from nardy.perft import divide, perft
from nardy.position import (BAR, OFF, PASS, LegalMoves, Move, Position, Step, TurnMoves,
                            parse_position)
from nardy.variants import (
    BLACK,
    VARIANTS,
    WHITE,
    AceyDeucey,
    Backgammon,
    Fevga,
    GulBara,
    Hypergammon,
    LongNardy,
    LongNardyClassic,
    LongNardyExtended,
    Moultezim,
    Nackgammon,
    Plakoto,
    Portes,
    Shlem,
    Tavla,
    Variant,
    find_variant,
)

from nardy.errors import CubeError, GameStateError
from nardy.game import (
    SCORINGS,
    Action,
    Game,
    GameRules,
    Phase,
    Result,
    Scoring,
    find_scoring,
)
from nardy.match import Match

from nardy._version import __version__

__all__ = [
    "BAR", "BLACK", "OFF", "PASS", "VARIANTS", "WHITE",
    "AceyDeucey", "Backgammon", "Error", "Fevga", "GulBara", "Hypergammon", "IllegalMoveError",
    "InvalidDiceError", "InvalidIdError",
    "InvalidNotationError", "InvalidPositionError", "InvalidRecordError", "InvalidRuleError",
    "LegalMoves", "LongNardy", "LongNardyClassic", "LongNardyExtended", "Moultezim", "Move",
    "Nackgammon", "Plakoto", "Portes", "Position",
    "QueryError",
    "Shlem", "Step", "Tavla", "TurnMoves", "UnknownVariantError", "Variant", "divide", "find_variant", "perft", "_core",
    "parse_position",
    "Action", "CubeError", "Game", "GameRules", "GameStateError", "Match", "Phase", "Result",
    "SCORINGS", "Scoring", "find_scoring",
    "InputTooLargeError", "InvalidArgumentError", "InvalidColorError", "InvalidSeedError",
]

# Batch APIs, rollouts and the executor layer. nardy.rollout is the function; its
# module stays importable as ``from nardy.rollout import RolloutResult``.
from nardy import batch, parallel, vector
from nardy.rollout import RolloutResult, rollout

__all__ += ["RolloutResult", "batch", "parallel", "rollout", "vector"]

# Evaluators and n-ply search (docs/search.md).
from nardy import evaluators, search

__all__ += ["evaluators", "search"]

# Serialization: the nardy text form, JSON dicts; records in nardy.formats.
from nardy.formats.jsonform import from_json, to_json
from nardy.formats.text import TextState, from_text, to_text
from nardy.formats.gamestate import parse_game, parse_match

__all__ += ["TextState", "from_json", "from_text", "parse_game", "parse_match", "to_json",
            "to_text"]
