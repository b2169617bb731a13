"""Pure-Python codecs for backgammon position formats.

* :mod:`nardy.formats.gnubg_id` -- GNU Backgammon Position ID and Match ID.
* :mod:`nardy.formats.xgid` -- eXtreme Gammon's XGID.
* :mod:`nardy.formats.fibs` -- the FIBS ``board:`` line.

Positions are two 26-entry side arrays, ``mover`` (the player on roll) and
``opponent``, each in its own coordinates (``docs/coordinates.md``).  Every
decoder raises :class:`nardy.errors.InvalidIdError` on malformed input.
These modules depend on nothing else in nardy than :mod:`nardy.errors`.
"""

from nardy.formats.fibs import FibsBoard, format_fibs_board, parse_fibs_board
from nardy.formats.gnubg_id import (
    OPENING_POSITION_ID,
    GameState,
    MatchState,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
)
from nardy.formats.xgid import OPENING_XGID, XgidRecord, decode_xgid, encode_xgid

__all__ = [
    "FibsBoard",
    "GameState",
    "MatchState",
    "OPENING_POSITION_ID",
    "OPENING_XGID",
    "XgidRecord",
    "decode_match_id",
    "decode_position_id",
    "decode_xgid",
    "encode_match_id",
    "encode_position_id",
    "encode_xgid",
    "format_fibs_board",
    "parse_fibs_board",
]
