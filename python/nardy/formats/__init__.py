"""Pure-Python codecs for backgammon position formats.

* :mod:`nardy.formats.gnubg_id` -- GNU Backgammon Position ID and Match ID.
* :mod:`nardy.formats.xgid` -- eXtreme Gammon's XGID.
* :mod:`nardy.formats.fibs` -- the FIBS ``board:`` line.

Positions are two 26-entry side arrays, ``mover`` (the player on roll) and
``opponent``, each in its own coordinates (``docs/coordinates.md``).  Every
decoder raises :class:`nardy.errors.InvalidIdError` on malformed input.
These modules depend on nothing else in nardy than :mod:`nardy.errors`.

Formats of nardy's own, which need the engine (imported on first use, so that the codecs
above stay importable without the compiled core):

* :mod:`nardy.formats.text` -- the nardy text form of positions and game states, every variant.
* :mod:`nardy.formats.jsonform` -- JSON dicts of positions, moves, games and matches.
* :mod:`nardy.formats.mat` and :mod:`nardy.formats.sgf` -- ``.mat`` (Jellyfish/gnubg) and SGF
  match records, read through the validating replay of :mod:`nardy.formats._replay`
  (:mod:`nardy.formats.records` gathers them).
* :mod:`nardy.formats.nardyrec` -- the nardy record, for games and matches of every variant,
  and :func:`convert_record` between the record formats.
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

_LAZY = {
    "TextState": "nardy.formats.text", "from_text": "nardy.formats.text",
    "to_text": "nardy.formats.text",
    "FORMAT": "nardy.formats.jsonform", "from_json": "nardy.formats.jsonform",
    "to_json": "nardy.formats.jsonform",
    "MatchRecord": "nardy.formats.records", "read_mat": "nardy.formats.mat",
    "read_sgf": "nardy.formats.sgf", "write_mat": "nardy.formats.mat",
    "write_sgf": "nardy.formats.sgf",
    "read_record": "nardy.formats.nardyrec", "write_record": "nardy.formats.nardyrec",
    "convert_record": "nardy.formats.nardyrec", "convert_text": "nardy.formats.nardyrec",
}
__all__ += ["FORMAT", "MatchRecord", "TextState", "convert_record", "convert_text", "from_json",
            "from_text",
            "read_mat", "read_record", "read_sgf", "to_json", "to_text", "write_mat",
            "write_record", "write_sgf"]


def __getattr__(name: str):  # PEP 562: the engine-backed formats load on first use
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'nardy.formats' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
