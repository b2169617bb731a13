"""GNU Backgammon Position ID and Match ID.

The Position ID codec runs in C++ (``src/nardy/codecs.cpp``, through :mod:`nardy._core`);
:func:`nardy.batch.to_position_ids` and :func:`nardy.batch.from_position_ids` code whole
numpy arrays of boards at once. The Match ID is Python.

Position ID
===========

A position is two *side arrays* of 26 ints in each side's own coordinates
(see ``docs/coordinates.md``): index ``i`` in 0..23 is the point ``i + 1``
of that side, 24 its bar, 25 its borne-off checkers.  ``mover`` is the
player on roll, ``opponent`` the other; the opponent's index ``j`` lies on
the mover's index ``23 - j``.  Each side holds 15 checkers in all.

The 80-bit key is built from gnubg's ``anBoard``: for each side in turn and
for its 25 slots (points 1..24 then the bar), as many 1 bits as checkers,
then a 0 bit; zero padding to 80 bits.  Bits fill each byte from its least
significant bit.  The ID is the standard base64 of the 10 key bytes
without the ``==`` padding: 14 characters, the last one carrying only two
key bits (its low four bits are always zero).

**Side order.**  The gnubg manual says the player on roll comes first, but
gnubg writes ``anBoard[0]`` first, and ``anBoard[0]`` is the player *not*
on roll (``anBoard[1]`` is the player on roll).  So the key starts with the
*opponent*.  ``gnubg.positionid(board)`` takes ``board = (opponent[:25],
mover[:25])``.  The opening is ``4HPwATDgc/ABMA``.

Borne-off checkers are not in the key: on decoding they are
``15 - (checkers on points and bar)``.

Decoding is strict and raises :class:`~nardy.errors.InvalidIdError` for a
wrong length, a character outside the base64 alphabet, bits past the 80-bit
key, a key that ends before both sides are complete, more than 15 checkers
on a side, nonzero bits after the last side, or a point held by both
sides.  It does not apply gnubg's extra legality test (both sides on the bar
against closed boards); that is a question for a position validator, not
for the codec.

Match ID
========

A 9-byte key, bits numbered from 0 filling each byte from its least
significant bit; every field is written least significant bit first.  The
ID is the 12-character base64 of the key.

======  =====  ===============================================================
bits    width  field
======  =====  ===============================================================
0-3     4      log2 of the cube value (cube 1..32768)
4-5     2      cube owner: 0 player 0, 1 player 1, 3 centred (2 is invalid)
6       1      dice owner: the player on roll, or who rolled (``fMove``)
7       1      Crawford game
8-10    3      game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
11      1      turn: the player who must act now (``fTurn``); differs from
               the dice owner while a double or resignation awaits an answer
12      1      a double is offered
13-14   2      resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17   3      die 1 (gnubg writes the higher die first), 0 if not rolled
18-20   3      die 2
21-35   15     match length, 0 for money play
36-50   15     score of player 0
51-65   15     score of player 1
66      1      gnubg sets it to ``not Jacoby``: 1 when the Jacoby rule is off
               (always in match play), 0 in money play with Jacoby
67-71   5      unused, must be zero
======  =====  ===============================================================

Bit 66 is not in gnubg's manual (which describes a 66-bit key) but gnubg
1.x writes it, so e.g. a match-play ID ends in ``E``; :class:`MatchState`
keeps it as ``jacoby``. The Jacoby rule is money play's, so in match play the bit is
ignored when decoding (``jacoby=False``), whichever way gnubg's setting left it.

**Players 0 and 1** are gnubg's absolute seats, not "mover/opponent":
player 1 is the one gnubg draws at the bottom (the human in an interactive
session, X), player 0 the one at the top (O).  Which of them is on roll is
``dice_owner``.  (gnubg's board tuple, by contrast, is always relative:
``(player not on roll, player on roll)`` = ``(opponent, mover)``.)
"""

from __future__ import annotations

import base64
import binascii
import operator
from dataclasses import dataclass
from enum import IntEnum
from typing import Optional, Sequence, Tuple

from nardy import _core
from nardy.errors import (
    InvalidDiceError,
    InvalidIdError,
    InvalidPositionError,
)

__all__ = [
    "CHECKERS",
    "GameState",
    "MatchState",
    "OPENING_POSITION_ID",
    "decode_match_id",
    "decode_position_id",
    "encode_match_id",
    "encode_position_id",
]

CHECKERS = 15
SIDE_LEN = 26
BAR = 24
OFF = 25

OPENING_POSITION_ID = "4HPwATDgc/ABMA"

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_VALUE = {c: i for i, c in enumerate(_B64)}

Side = Tuple[int, ...]


# ---------------------------------------------------------------------------
# shared helpers (also used by nardy.formats.xgid and nardy.formats.fibs)


def _as_int(value, what: str, error=InvalidPositionError) -> int:
    """An int from an int-like value (bool and float refused)."""
    if isinstance(value, bool):
        raise error(f"{what} must be an integer, not a bool")
    try:
        return operator.index(value)
    except TypeError:
        raise error(f"{what} must be an integer, got {value!r}") from None


def _check_side(side, name: str) -> Side:
    """Validate one 26-entry side array and return it as a tuple."""
    try:
        items = list(side)
    except TypeError:
        raise InvalidPositionError(f"{name} must be a sequence of 26 ints") from None
    if len(items) != SIDE_LEN:
        raise InvalidPositionError(
            f"{name} must have {SIDE_LEN} entries (0..23 points, 24 bar, 25 off), "
            f"got {len(items)}"
        )
    out = tuple(_as_int(v, f"{name}[{i}]") for i, v in enumerate(items))
    for i, v in enumerate(out):
        if v < 0:
            raise InvalidPositionError(f"{name}[{i}] is negative ({v})")
    total = sum(out)
    if total != CHECKERS:
        raise InvalidPositionError(
            f"{name} holds {total} checkers (points + bar + off); it must hold {CHECKERS}"
        )
    return out


def _check_sides(mover, opponent) -> Tuple[Side, Side]:
    """Validate a backgammon position given as (mover, opponent) side arrays."""
    m = _check_side(mover, "mover")
    o = _check_side(opponent, "opponent")
    for i in range(24):
        if m[i] and o[23 - i]:
            raise InvalidPositionError(
                f"point {i + 1} of the mover (opponent index {23 - i}) is held by both sides"
            )
    return m, o


def _side_from_counts(counts: Sequence[int]) -> Side:
    """A 26-entry side from 25 counts (points 0..23, bar), off = 15 - rest."""
    return tuple(counts) + (CHECKERS - sum(counts),)


def _b64_check(s: str, length: int, what: str) -> None:
    """Raises InvalidIdError saying what is wrong unless ``s`` is ``length`` base64 characters."""
    if not isinstance(s, str):
        raise InvalidIdError(f"a {what} must be a str, got {type(s).__name__}")
    if len(s) != length:
        raise InvalidIdError(f"a {what} has {length} characters, got {len(s)}: {s!r}")
    for k, c in enumerate(s):
        if c not in _B64_VALUE:
            raise InvalidIdError(
                f"character {c!r} at offset {k} of {what} {s!r} is not in the base64 alphabet"
            )


# ---------------------------------------------------------------------------
# Position ID


def encode_position_id(mover, opponent) -> str:
    """The 14-character gnubg Position ID of a position.

    ``mover`` and ``opponent`` are 26-entry side arrays (own coordinates,
    24 bar, 25 off, 15 checkers each).  Raises
    :class:`~nardy.errors.InvalidPositionError` for an invalid position.
    """
    m, o = _check_sides(mover, opponent)
    return _core.encode_position_id(m, o)  # type: ignore[no-any-return]


def decode_position_id(s: str) -> Tuple[Side, Side]:
    """Decode a gnubg Position ID into ``(mover, opponent)`` side arrays.

    Raises :class:`~nardy.errors.InvalidIdError` on any malformed ID.
    """
    if not isinstance(s, str) or len(s) != 14 or not s.isascii():
        _b64_check(s, 14, "Position ID")
    return _core.decode_position_id(s)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------
# Match ID


class GameState(IntEnum):
    """gnubg's game state (match key bits 8-10)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


_MAX15 = (1 << 15) - 1


@dataclass(frozen=True)
class MatchState:
    """The contents of a gnubg Match ID.

    Players are gnubg's absolute seats 0 and 1 (player 1 is the one drawn at
    the bottom, usually the human; player 0 the top one); see the module
    docstring.

    Fields:

    ``cube``
        the cube value, a power of two from 1 to 32768.
    ``cube_owner``
        0 or 1 for the player who owns the cube, ``None`` when centred.
    ``dice_owner``
        the player on roll (who rolls or has rolled the dice), 0 or 1.
    ``crawford``
        this game is the Crawford game.
    ``game_state``
        a :class:`GameState` (0 none, 1 playing, 2 over, 3 resigned,
        4 dropped).
    ``turn``
        the player who must act now, 0 or 1.  Equals ``dice_owner`` except
        while a double or resignation waits for the other player's answer.
    ``double_offered``
        a double is on offer (``turn`` is then the player to take or pass).
    ``resignation``
        resignation on offer: 0 none, 1 single, 2 gammon, 3 backgammon (the
        resigning player is the one who is not ``turn``).
    ``dice``
        ``(d1, d2)`` with the higher die first (normalised on construction),
        or ``(0, 0)`` when not rolled.
    ``match_length``
        the match length, 0 for money play.
    ``score``
        ``(score of player 0, score of player 1)``.
    ``jacoby``
        the Jacoby rule is in force (key bit 66 holds its negation); gnubg
        writes ``False`` in match play.
    """

    cube: int = 1
    cube_owner: Optional[int] = None
    dice_owner: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: Tuple[int, int] = (0, 0)
    match_length: int = 0
    score: Tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        err = InvalidIdError
        cube = _as_int(self.cube, "cube", err)
        if cube < 1 or cube > 1 << 15 or cube & (cube - 1):
            raise err(f"cube must be a power of two from 1 to 32768, got {cube}")
        owner = self.cube_owner
        if owner is not None:
            owner = _as_int(owner, "cube_owner", err)
            if owner not in (0, 1):
                raise err(f"cube_owner must be 0, 1 or None (centred), got {owner}")
        dice_owner = _as_int(self.dice_owner, "dice_owner", err)
        turn = _as_int(self.turn, "turn", err)
        for name, v in (("dice_owner", dice_owner), ("turn", turn)):
            if v not in (0, 1):
                raise err(f"{name} must be 0 or 1, got {v}")
        try:
            gs = GameState(_as_int(self.game_state, "game_state", err))
        except ValueError:
            raise err(f"game_state must be 0..4, got {self.game_state!r}") from None
        resignation = _as_int(self.resignation, "resignation", err)
        if not 0 <= resignation <= 3:
            raise err(f"resignation must be 0..3, got {resignation}")
        dice = _check_dice(self.dice)
        length = _as_int(self.match_length, "match_length", err)
        if not 0 <= length <= _MAX15:
            raise err(f"match_length must be 0..{_MAX15}, got {length}")
        try:
            s0, s1 = self.score
        except (TypeError, ValueError):
            raise err(f"score must be a pair of ints, got {self.score!r}") from None
        score = (_as_int(s0, "score[0]", err), _as_int(s1, "score[1]", err))
        for k, v in enumerate(score):
            if not 0 <= v <= _MAX15:
                raise err(f"score[{k}] must be 0..{_MAX15}, got {v}")
            if length and v > length:
                raise err(f"score[{k}] = {v} exceeds the match length {length}")
        for name, v in (
            ("crawford", self.crawford),
            ("double_offered", self.double_offered),
            ("jacoby", self.jacoby),
        ):
            if not isinstance(v, (bool, int)) or v not in (0, 1):
                raise err(f"{name} must be a bool, got {v!r}")
        crawford = bool(self.crawford)
        if crawford and not length:
            raise err("a money game (match_length 0) cannot be the Crawford game")
        set_ = object.__setattr__
        set_(self, "cube", cube)
        set_(self, "cube_owner", owner)
        set_(self, "dice_owner", dice_owner)
        set_(self, "crawford", crawford)
        set_(self, "game_state", gs)
        set_(self, "turn", turn)
        set_(self, "double_offered", bool(self.double_offered))
        set_(self, "resignation", resignation)
        set_(self, "dice", dice)
        set_(self, "match_length", length)
        set_(self, "score", score)
        set_(self, "jacoby", bool(self.jacoby))


def _check_dice(dice) -> Tuple[int, int]:
    """(high, low) from a pair of dice, or (0, 0)."""
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise InvalidDiceError(f"dice must be a pair of ints, got {dice!r}") from None
    d1 = _as_int(d1, "die", InvalidDiceError)
    d2 = _as_int(d2, "die", InvalidDiceError)
    if (d1, d2) == (0, 0):
        return (0, 0)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise InvalidDiceError(f"dice must be two values 1..6 or (0, 0), got {(d1, d2)}")
    return (max(d1, d2), min(d1, d2))


def encode_match_id(state: MatchState) -> str:
    """The 12-character gnubg Match ID of a :class:`MatchState`."""
    if not isinstance(state, MatchState):
        raise TypeError(f"encode_match_id takes a MatchState, got {type(state).__name__}")
    fields = (
        (0, 4, state.cube.bit_length() - 1),
        (4, 2, 3 if state.cube_owner is None else state.cube_owner),
        (6, 1, state.dice_owner),
        (7, 1, int(state.crawford)),
        (8, 3, int(state.game_state)),
        (11, 1, state.turn),
        (12, 1, int(state.double_offered)),
        (13, 2, state.resignation),
        (15, 3, state.dice[0]),
        (18, 3, state.dice[1]),
        (21, 15, state.match_length),
        (36, 15, state.score[0]),
        (51, 15, state.score[1]),
        (66, 1, int(not state.jacoby)),
    )
    key = 0
    for pos, _width, value in fields:
        key |= value << pos
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(s: str) -> MatchState:
    """Decode a gnubg Match ID.

    Raises :class:`~nardy.errors.InvalidIdError` on a malformed ID: wrong
    length or alphabet, cube owner 2, game state above 4, a die of 7 or a
    single zero die, a score above the match length, a Crawford money game,
    or nonzero unused bits 67-71.  Dice in low-high order are accepted and
    normalised (gnubg writes the higher die first).
    """
    if not isinstance(s, str) or len(s) != 12 or "=" in s:
        _b64_check(s, 12, "Match ID")
    try:
        # 12 characters are 9 whole bytes: no padding, every bit is the key's
        key = int.from_bytes(base64.b64decode(s, validate=True), "little")
    except (binascii.Error, ValueError):
        _b64_check(s, 12, "Match ID")
        raise InvalidIdError(f"Match ID {s!r} is not base64") from None

    def get(pos: int, width: int) -> int:
        return (key >> pos) & ((1 << width) - 1)

    if key >> 67:
        raise InvalidIdError(f"Match ID {s!r}: unused bits 67-71 are not zero")
    owner_bits = get(4, 2)
    if owner_bits == 2:
        raise InvalidIdError(f"Match ID {s!r}: cube owner field is 2 (0, 1 or 3 only)")
    gs = get(8, 3)
    if gs > 4:
        raise InvalidIdError(f"Match ID {s!r}: game state {gs} is not 0..4")
    d1, d2 = get(15, 3), get(18, 3)
    if d1 == 7 or d2 == 7 or (d1 == 0) != (d2 == 0):
        raise InvalidIdError(f"Match ID {s!r}: invalid dice {d1}{d2}")
    try:
        return MatchState(
            cube=1 << get(0, 4),
            cube_owner=None if owner_bits == 3 else owner_bits,
            dice_owner=get(6, 1),
            crawford=bool(get(7, 1)),
            game_state=GameState(gs),
            turn=get(11, 1),
            double_offered=bool(get(12, 1)),
            resignation=get(13, 2),
            dice=(d1, d2),
            match_length=get(21, 15),
            score=(get(36, 15), get(51, 15)),
            jacoby=not get(66, 1) and get(21, 15) == 0,  # Jacoby is money play only
        )
    except InvalidIdError as e:
        raise InvalidIdError(f"Match ID {s!r}: {e}") from None
    except InvalidDiceError as e:  # pragma: no cover - excluded above
        raise InvalidIdError(f"Match ID {s!r}: {e}") from None
