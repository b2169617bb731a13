"""eXtreme Gammon's XGID.

Read and written in C++ (``src/nardy/codecs.cpp``, through :mod:`nardy._core`);
:func:`nardy.batch.to_xgids` and :func:`nardy.batch.from_xgids` code whole numpy arrays at
once.

Format
======

::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10
         position                  | | | |  | | | | max cube (log2)
                                   | | | |  | | | match length (0: money)
                                   | | | |  | | rules
                                   | | | |  | score of the top player (O)
                                   | | | |  score of the bottom player (X)
                                   | | | dice
                                   | | turn
                                   | cube position
                                   cube (log2)

The field meanings below are those of GNU Backgammon's importer
(``SetXGID`` in ``set.c`` and ``PositionFromXG`` in ``positionid.c``),
which reads what eXtreme Gammon writes.  The two players are the
**bottom** player, X, written in upper case (gnubg's player 1) and the
**top** player, O, written in lower case (gnubg's player 0).

position (26 characters)
    Always from the bottom player's side, whoever is on roll (the turn does
    not reorder it).  Character 0 is O's bar, characters 1..24 are the
    points numbered from X's side (X bears off below point 1, so X's point
    ``p`` is X's index ``p - 1``, and O's index ``j`` is character
    ``24 - j``), character 25 is X's bar.  ``-`` is an empty point,
    ``A``..``P`` one to sixteen X checkers, ``a``..``p`` O checkers.  Only
    O may be on character 0 and only X on character 25.  Borne-off checkers
    are what is missing from 15.
cube
    log2 of the cube value.  With a double on offer (dice ``D``) it is the
    cube before the double.
cube position
    1 the bottom player (X) owns the cube, -1 the top player (O), 0 centred.
turn
    1 the bottom player (X) is on roll, -1 the top player (O).  With ``D``
    it names the player who doubled (gnubg then sets its ``fTurn``, the
    player to answer, to the other one).
dice
    ``00`` the player on roll has not rolled (a cube decision may come
    first); two digits 1..6 the roll to play (the order is kept as written);
    ``D`` the player on roll has doubled and the other must take or pass;
    ``B`` doubled and beavered; ``R`` doubled, beavered and raccooned.
    gnubg itself reads only ``00``, digits and ``D``.
scores
    the bottom player's (X) then the top player's (O).
rules
    In match play (length > 0): 1 this is the Crawford game, else 0.  In
    money play: bit 0 the Jacoby rule, bit 1 beavers allowed (0..3).
match length
    0 for money play.
max cube
    log2 of the largest cube allowed (eXtreme Gammon's money setting; gnubg
    ignores it).  ``10`` (1024) is XG's usual value.

:class:`XgidRecord` holds the position as two side arrays from the point
of view of the player on roll (``mover`` is the player named by ``turn``)
and the other fields as written (cube and max cube as values, not
logarithms).  The ``XGID=`` prefix is optional on reading and always
written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from nardy import _core, _validate
from nardy.errors import Error, InvalidIdError
from nardy.formats.gnubg_id import (
    Side,
    _as_int,
    _check_dice,
    _check_sides,
)

__all__ = ["OPENING_XGID", "XgidRecord", "decode_xgid", "encode_xgid"]

OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"

_MAX_EXP = 15  # 2**15 = 32768, the largest cube a gnubg Match ID holds
_MAX_LIMIT_EXP = 16  # the cube limit may be one doubling more, as gnubg reads it
_MAX_LEN = (1 << 15) - 1
_ACTIONS = ("D", "B", "R")


def _power_of_two(value: int, name: str, max_exp: int = _MAX_EXP) -> int:
    value = _as_int(value, name, InvalidIdError)
    if value < 1 or value > 1 << max_exp or value & (value - 1):
        raise InvalidIdError(
            f"{name} must be a power of two from 1 to {1 << max_exp}, got {value}"
        )
    return value


@dataclass(frozen=True)
class XgidRecord:
    """The contents of an XGID.

    ``mover``/``opponent``
        26-entry side arrays from the point of view of the player on roll
        (the player named by ``turn``; with a pending double, the doubler).
    ``cube``
        the cube value (1, 2, 4, ...), before the double when ``action`` is
        set.
    ``cube_position``
        as written: 1 the bottom player (X) owns the cube, -1 the top (O),
        0 centred.  See :attr:`cube_owner` for the mover-relative view.
    ``turn``
        1 the bottom player (X) is on roll, -1 the top player (O).
    ``dice``
        the roll ``(d1, d2)`` in written order, ``(0, 0)`` when not rolled.
    ``action``
        ``None``, or ``"D"`` (doubled), ``"B"`` (beavered), ``"R"``
        (raccooned) when the dice field holds that letter.
    ``score_bottom``/``score_top``
        the scores of X (bottom) and O (top).
    ``rules``
        the raw rules field: Crawford flag in match play, Jacoby (bit 0) and
        beaver (bit 1) flags in money play.
    ``match_length``
        0 for money play.
    ``max_cube``
        the largest cube allowed (a value; the field holds its log2).
    """

    mover: Side
    opponent: Side
    cube: int = 1
    cube_position: int = 0
    turn: int = 1
    dice: Tuple[int, int] = (0, 0)
    action: Optional[str] = None
    score_bottom: int = 0
    score_top: int = 0
    rules: int = 0
    match_length: int = 0
    max_cube: int = 1024

    def __post_init__(self) -> None:
        err = InvalidIdError
        mover, opponent = _check_sides(self.mover, self.opponent)
        cube = _power_of_two(self.cube, "cube")
        max_cube = _power_of_two(self.max_cube, "max_cube", _MAX_LIMIT_EXP)
        cube_position = _as_int(self.cube_position, "cube_position", err)
        if cube_position not in (-1, 0, 1):
            raise err(f"cube_position must be -1, 0 or 1, got {cube_position}")
        turn = _as_int(self.turn, "turn", err)
        if turn not in (-1, 1):
            raise err(f"turn must be 1 (bottom player) or -1 (top player), got {turn}")
        action = self.action
        if action is not None and (not isinstance(action, str) or action not in _ACTIONS):
            raise err(f"action must be None, 'D', 'B' or 'R', got {action!r}")
        try:
            d1, d2 = self.dice
        except (TypeError, ValueError):
            raise err(f"dice must be a pair of ints, got {self.dice!r}") from None
        _check_dice((d1, d2))  # InvalidDiceError on a bad roll
        dice = (_as_int(d1, "die", err), _as_int(d2, "die", err))
        if action is not None and dice != (0, 0):
            raise err(f"a pending {action!r} cube action leaves no dice, got {dice}")
        length = _as_int(self.match_length, "match_length", err)
        if not 0 <= length <= _MAX_LEN:
            raise err(f"match_length must be 0..{_MAX_LEN}, got {length}")
        scores = []
        for name in ("score_bottom", "score_top"):
            v = _as_int(getattr(self, name), name, err)
            if v < 0:
                raise err(f"{name} must not be negative, got {v}")
            if length and v >= length:
                raise err(f"{name} = {v} is not below the match length {length}")
            scores.append(v)
        rules = _as_int(self.rules, "rules", err)
        if length and rules not in (0, 1):
            raise err(f"in match play rules is the Crawford flag 0 or 1, got {rules}")
        if not length and not 0 <= rules <= 3:
            raise err(f"in money play rules is 0..3 (1 Jacoby, 2 beaver), got {rules}")
        set_ = object.__setattr__
        set_(self, "mover", mover)
        set_(self, "opponent", opponent)
        set_(self, "cube", cube)
        set_(self, "max_cube", max_cube)
        set_(self, "cube_position", cube_position)
        set_(self, "turn", turn)
        set_(self, "dice", dice)
        set_(self, "score_bottom", scores[0])
        set_(self, "score_top", scores[1])
        set_(self, "rules", rules)
        set_(self, "match_length", length)

    # -- mover-relative views ------------------------------------------------

    @property
    def mover_is_bottom(self) -> bool:
        """The player on roll is the bottom player (X, upper case)."""
        return self.turn == 1

    @property
    def cube_owner(self) -> Optional[str]:
        """``"mover"``, ``"opponent"`` or ``None`` (centred)."""
        if self.cube_position == 0:
            return None
        return "mover" if self.cube_position == self.turn else "opponent"

    @property
    def mover_score(self) -> int:
        return self.score_bottom if self.turn == 1 else self.score_top

    @property
    def opponent_score(self) -> int:
        return self.score_top if self.turn == 1 else self.score_bottom

    @property
    def crawford(self) -> bool:
        """The Crawford game (match play only)."""
        return bool(self.match_length and self.rules & 1)

    @property
    def jacoby(self) -> bool:
        """The Jacoby rule (money play only)."""
        return bool(not self.match_length and self.rules & 1)

    @property
    def beaver(self) -> bool:
        """Beavers allowed (money play only)."""
        return bool(not self.match_length and self.rules & 2)


def encode_xgid(record: XgidRecord) -> str:
    """The XGID string (with the ``XGID=`` prefix) of an :class:`XgidRecord`."""
    if not isinstance(record, XgidRecord):
        raise TypeError(f"encode_xgid takes an XgidRecord, got {type(record).__name__}")
    r = record
    return _core.encode_xgid(  # type: ignore[no-any-return]
        r.mover, r.opponent, r.cube.bit_length() - 1, r.cube_position, r.turn, r.dice[0],
        r.dice[1], r.action or "", r.score_bottom, r.score_top, r.rules, r.match_length,
        r.max_cube.bit_length() - 1)


def decode_xgid(s: str) -> XgidRecord:
    """Parse an XGID (the ``XGID=`` prefix is optional).

    Raises :class:`~nardy.errors.InvalidIdError` on any malformed input.
    """
    if not isinstance(s, str):
        raise InvalidIdError(f"an XGID must be a str, got {type(s).__name__}")
    _validate.text(s, "an XGID", _validate.MAX_ID_CHARS, error=InvalidIdError)
    try:
        (mover, opponent, cube_exp, cube_position, turn, d1, d2, action, score_bottom,
         score_top, rules, length, max_exp) = _core.decode_xgid(s)
    except InvalidIdError as e:
        raise InvalidIdError(f"XGID {s!r}: {e}") from None
    try:
        return XgidRecord(
            mover=mover,
            opponent=opponent,
            cube=1 << cube_exp,
            cube_position=cube_position,
            turn=turn,
            dice=(d1, d2),
            action=action or None,
            score_bottom=score_bottom,
            score_top=score_top,
            rules=rules,
            match_length=length,
            max_cube=1 << max_exp,
        )
    except Error as e:  # pragma: no cover - the core checks every field first
        raise InvalidIdError(f"XGID {s!r}: {e}") from None
