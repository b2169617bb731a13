"""The FIBS ``board:`` line (CLIP "boardstyle 3", also called rawboard).

Pure Python; the only nardy imports are :mod:`nardy.errors` and the side
helpers of :mod:`nardy.formats.gnubg_id`.

Format
======

53 colon-separated tokens, from the point of view of "the player" (you, or
the player you watch) against "the opponent"::

    board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0

=====  =====================================================================
token  meaning
=====  =====================================================================
0      the literal ``board``
1, 2   the player's and the opponent's names
3      match length, 9999 for an unlimited match
4, 5   the player's and the opponent's scores
6-31   the board: 26 numbers, positions 0..25.  Positive counts are O's
       checkers, negative X's; 0 and 25 are the bars (below).
32     turn: the colour on roll (-1 X, 1 O), 0 when the game is over
33-34  the player's dice (0 0 when not rolled)
35-36  the opponent's dice
37     the cube value
38, 39 the player may double, the opponent may double (0/1)
40     was doubled: the opponent has just doubled (1); gnubg writes the
       sign of who doubled (-1/1), so any of -1, 0, 1 is read
41     colour: the player's colour, -1 X, 1 O
42     direction: -1 the player moves from 24 to 1, 1 from 1 to 24
43     home: 0 when direction is -1, 25 when it is 1 (the player bears off
       there)
44     bar: 25 - home, the board position of the player's bar; the
       opponent's bar is the other end, position ``home``
45, 46 checkers borne off by the player, by the opponent
47, 48 checkers on the bar of the player, of the opponent (kept as read:
       gnubg's writer always sends 0 here, the board bars are authoritative)
49     can move: how many checkers the player can move (0..4)
50     forced move (FIBS says: don't use)
51     did Crawford (FIBS says: don't use; gnubg puts its Crawford flag here)
52     redoubles: maximum number of instant redoubles (unlimited matches)
=====  =====================================================================

In the player's own coordinates (``docs/coordinates.md``), the player's point
``p`` is board position ``p`` when direction is -1 and ``25 - p`` when it is
1; the opponent's index ``j`` lies on the player's index ``23 - j``.

:class:`FibsBoard` keeps every token.  :meth:`FibsBoard.player_side` and
:meth:`FibsBoard.opponent_side` give 26-entry side arrays (borne off from the
"on home" tokens), :meth:`FibsBoard.sides` gives ``(mover, opponent)`` from
the point of view of the colour on roll, and :meth:`FibsBoard.from_sides`
builds a board line from side arrays.

Validation (:class:`~nardy.errors.InvalidIdError`): 53 tokens, the literal
``board``, non-empty names, integers everywhere else (ASCII digits with an
optional minus sign, surrounding blanks allowed), turn in -1/0/1, colour and
direction +-1, home and bar consistent with the direction, dice 0..6 with
both or neither zero, cube a power of two, may-double flags 0/1, was-doubled
-1/0/1, counts non-negative, each bar holding only its owner's colour, and
each side's checkers on the board, on its bar and borne off summing to 15.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Tuple

from nardy import _validate
from nardy.errors import Error, InvalidIdError
from nardy.formats.gnubg_id import (
    CHECKERS,
    Side,
    _as_int,
    _check_dice,
    _check_sides,
)

__all__ = ["FibsBoard", "format_fibs_board", "parse_fibs_board"]

UNLIMITED = 9999
_NTOKENS = 53
_INT = re.compile(r"[ \t]*-?[0-9]{1,9}[ \t]*\Z")


@dataclass(frozen=True)
class FibsBoard:
    """Every token of a FIBS ``board:`` line, named (see the module doc)."""

    player_name: str
    opponent_name: str
    match_length: int
    player_score: int
    opponent_score: int
    board: Tuple[int, ...]
    turn: int
    player_dice: Tuple[int, int]
    opponent_dice: Tuple[int, int]
    cube: int
    player_may_double: bool
    opponent_may_double: bool
    was_doubled: int
    colour: int
    direction: int
    home: int
    bar: int
    player_off: int
    opponent_off: int
    player_on_bar: int
    opponent_on_bar: int
    can_move: int = 0
    forced_move: int = 0
    did_crawford: int = 0
    redoubles: int = 0

    def __post_init__(self) -> None:
        err = InvalidIdError
        for name in ("player_name", "opponent_name"):
            v = getattr(self, name)
            if not isinstance(v, str) or not v or ":" in v or "\n" in v:
                raise err(f"{name} must be a non-empty str without ':' or newline, got {v!r}")
        try:
            board = tuple(_as_int(v, "board entry", err) for v in self.board)
        except TypeError:
            raise err("board must be a sequence of 26 ints") from None
        if len(board) != 26:
            raise err(f"board must have 26 entries, got {len(board)}")
        ints = {}
        for name in (
            "match_length", "player_score", "opponent_score", "turn", "cube",
            "was_doubled", "colour", "direction", "home", "bar", "player_off",
            "opponent_off", "player_on_bar", "opponent_on_bar", "can_move",
            "forced_move", "did_crawford", "redoubles",
        ):
            ints[name] = _as_int(getattr(self, name), name, err)
        for name in ("match_length", "player_score", "opponent_score", "player_off",
                     "opponent_off", "player_on_bar", "opponent_on_bar", "can_move",
                     "forced_move", "did_crawford", "redoubles"):
            if ints[name] < 0:
                raise err(f"{name} must not be negative, got {ints[name]}")
        for name in ("player_off", "opponent_off", "player_on_bar", "opponent_on_bar"):
            if ints[name] > CHECKERS:
                raise err(f"{name} must be at most {CHECKERS}, got {ints[name]}")
        if ints["turn"] not in (-1, 0, 1):
            raise err(f"turn must be -1 (X), 1 (O) or 0 (game over), got {ints['turn']}")
        for name in ("colour", "direction"):
            if ints[name] not in (-1, 1):
                raise err(f"{name} must be -1 or 1, got {ints[name]}")
        home = 0 if ints["direction"] == -1 else 25
        if ints["home"] != home or ints["bar"] != 25 - home:
            raise err(
                f"with direction {ints['direction']} home must be {home} and bar "
                f"{25 - home}, got home {ints['home']} bar {ints['bar']}"
            )
        cube = ints["cube"]
        if cube < 1 or cube & (cube - 1):
            raise err(f"cube must be a power of two, got {cube}")
        if ints["was_doubled"] not in (-1, 0, 1):
            raise err(f"was_doubled must be -1, 0 or 1, got {ints['was_doubled']}")
        if ints["can_move"] > 4:
            raise err(f"can_move must be 0..4, got {ints['can_move']}")
        flags = {}
        for name in ("player_may_double", "opponent_may_double"):
            v = getattr(self, name)
            if not isinstance(v, (bool, int)) or v not in (0, 1):
                raise err(f"{name} must be 0 or 1, got {v!r}")
            flags[name] = bool(v)
        dice = {}
        for name in ("player_dice", "opponent_dice"):
            try:
                d = tuple(_as_int(v, name, err) for v in getattr(self, name))
            except TypeError:
                raise err(f"{name} must be a pair of ints") from None
            if len(d) != 2:
                raise err(f"{name} must be a pair of ints, got {d!r}")
            try:
                _check_dice(d)
            except Error as e:
                raise err(f"{name}: {e}") from None
            dice[name] = d
        # The bars hold only their owner's colour.
        colour = ints["colour"]
        pbar, obar = board[ints["bar"]], board[home]
        if pbar * colour < 0:
            raise err(f"the player's bar (position {ints['bar']}) holds opponent checkers")
        if obar * colour > 0:
            raise err(f"the opponent's bar (position {home}) holds player checkers")
        set_ = object.__setattr__
        for name, v in ints.items():
            set_(self, name, v)
        for name, v in flags.items():
            set_(self, name, v)
        for name, v in dice.items():
            set_(self, name, v)
        set_(self, "board", board)
        # 15 checkers a side.
        for who, side in (("player", self._side(True)), ("opponent", self._side(False))):
            if sum(side) != CHECKERS:
                raise err(
                    f"the {who} has {sum(side)} checkers on the board, bar and borne off "
                    f"(must be {CHECKERS})"
                )

    # -- side arrays -----------------------------------------------------------

    def _pos(self, i: int) -> int:
        """Board position of the player's index ``i`` (0..23)."""
        return i + 1 if self.direction == -1 else 24 - i

    def _side(self, player: bool) -> Side:
        sign = self.colour if player else -self.colour
        counts = [0] * 26
        for i in range(24):
            # the opponent's index j lies on the player's index 23 - j
            v = self.board[self._pos(i if player else 23 - i)] * sign
            counts[i] = v if v > 0 else 0
        bar_pos = self.bar if player else self.home
        counts[24] = abs(self.board[bar_pos])
        counts[25] = self.player_off if player else self.opponent_off
        return tuple(counts)

    def player_side(self) -> Side:
        """The player's side array in the player's own coordinates."""
        return self._side(True)

    def opponent_side(self) -> Side:
        """The opponent's side array in the opponent's own coordinates."""
        return self._side(False)

    @property
    def player_on_roll(self) -> Optional[bool]:
        """True if the player is on roll, False if the opponent, None if over."""
        if self.turn == 0:
            return None
        return self.turn == self.colour

    def sides(self) -> Tuple[Side, Side]:
        """``(mover, opponent)`` from the point of view of the colour on roll.

        Raises :class:`~nardy.errors.InvalidIdError` when the game is over
        (turn 0).
        """
        on_roll = self.player_on_roll
        if on_roll is None:
            raise InvalidIdError("the game is over (turn 0): nobody is on roll")
        p, o = self.player_side(), self.opponent_side()
        return (p, o) if on_roll else (o, p)

    @classmethod
    def from_sides(
        cls,
        player,
        opponent,
        *,
        player_name: str = "You",
        opponent_name: str = "Opponent",
        match_length: int = UNLIMITED,
        player_score: int = 0,
        opponent_score: int = 0,
        player_on_roll: Optional[bool] = True,
        player_dice: Tuple[int, int] = (0, 0),
        opponent_dice: Tuple[int, int] = (0, 0),
        cube: int = 1,
        player_may_double: bool = True,
        opponent_may_double: bool = True,
        was_doubled: int = 0,
        colour: int = 1,
        direction: int = -1,
        can_move: int = 0,
        forced_move: int = 0,
        did_crawford: int = 0,
        redoubles: int = 0,
    ) -> "FibsBoard":
        """Build a board line from the player's and the opponent's side arrays.

        ``player_on_roll`` None means the game is over (turn 0).  The on-bar
        tokens are filled from the side arrays.
        """
        p, o = _check_sides(player, opponent)
        colour = _as_int(colour, "colour", InvalidIdError)
        direction = _as_int(direction, "direction", InvalidIdError)
        if colour not in (-1, 1) or direction not in (-1, 1):
            raise InvalidIdError("colour and direction must be -1 or 1")
        home = 0 if direction == -1 else 25
        bar = 25 - home
        board = [0] * 26
        for i in range(24):
            pos = i + 1 if direction == -1 else 24 - i
            if p[i]:
                board[pos] = colour * p[i]
            elif o[23 - i]:
                board[pos] = -colour * o[23 - i]
        board[bar] = colour * p[24]
        board[home] = -colour * o[24]
        if player_on_roll is None:
            turn = 0
        else:
            turn = colour if player_on_roll else -colour
        return cls(
            player_name=player_name,
            opponent_name=opponent_name,
            match_length=match_length,
            player_score=player_score,
            opponent_score=opponent_score,
            board=tuple(board),
            turn=turn,
            player_dice=player_dice,
            opponent_dice=opponent_dice,
            cube=cube,
            player_may_double=player_may_double,
            opponent_may_double=opponent_may_double,
            was_doubled=was_doubled,
            colour=colour,
            direction=direction,
            home=home,
            bar=bar,
            player_off=p[25],
            opponent_off=o[25],
            player_on_bar=p[24],
            opponent_on_bar=o[24],
            can_move=can_move,
            forced_move=forced_move,
            did_crawford=did_crawford,
            redoubles=redoubles,
        )


def format_fibs_board(b: FibsBoard) -> str:
    """The ``board:...`` line of a :class:`FibsBoard`."""
    if not isinstance(b, FibsBoard):
        raise TypeError(f"format_fibs_board takes a FibsBoard, got {type(b).__name__}")
    values = [
        b.match_length, b.player_score, b.opponent_score, *b.board, b.turn,
        *b.player_dice, *b.opponent_dice, b.cube, int(b.player_may_double),
        int(b.opponent_may_double), b.was_doubled, b.colour, b.direction, b.home,
        b.bar, b.player_off, b.opponent_off, b.player_on_bar, b.opponent_on_bar,
        b.can_move, b.forced_move, b.did_crawford, b.redoubles,
    ]
    return ":".join(["board", b.player_name, b.opponent_name, *map(str, values)])


def parse_fibs_board(s: str) -> FibsBoard:
    """Parse a FIBS ``board:`` line (a trailing newline is allowed).

    Raises :class:`~nardy.errors.InvalidIdError` on any malformed input.
    """
    if not isinstance(s, str):
        raise InvalidIdError(f"a FIBS board must be a str, got {type(s).__name__}")
    _validate.text(s, "a FIBS board", _validate.MAX_ID_CHARS, error=InvalidIdError)
    line = s[:-1] if s.endswith("\n") else s
    line = line[:-1] if line.endswith("\r") else line
    tokens = line.split(":")
    short = s if len(s) <= 80 else s[:77] + "..."
    if len(tokens) != _NTOKENS:
        raise InvalidIdError(
            f"FIBS board {short!r}: expected {_NTOKENS} ':'-separated tokens, got {len(tokens)}"
        )
    if tokens[0] != "board":
        raise InvalidIdError(f"FIBS board {short!r}: does not start with 'board:'")
    nums = []
    for k, t in enumerate(tokens[3:], start=3):
        if not _INT.match(t):
            raise InvalidIdError(f"FIBS board {short!r}: token {k} ({t!r}) is not an integer")
        nums.append(int(t))
    n = iter(nums)

    def take(count: int = 1):
        if count == 1:
            return next(n)
        return tuple(next(n) for _ in range(count))

    try:
        match_length, pscore, oscore = take(), take(), take()
        board = take(26)
        turn = take()
        pdice, odice = take(2), take(2)
        cube, pmay, omay, doubled = take(), take(), take(), take()
        colour, direction, home, bar = take(), take(), take(), take()
        poff, ooff, pbar, obar = take(), take(), take(), take()
        can_move, forced, crawford, redoubles = take(), take(), take(), take()
        return FibsBoard(
            player_name=tokens[1],
            opponent_name=tokens[2],
            match_length=match_length,
            player_score=pscore,
            opponent_score=oscore,
            board=board,
            turn=turn,
            player_dice=pdice,
            opponent_dice=odice,
            cube=cube,
            player_may_double=pmay,
            opponent_may_double=omay,
            was_doubled=doubled,
            colour=colour,
            direction=direction,
            home=home,
            bar=bar,
            player_off=poff,
            opponent_off=ooff,
            player_on_bar=pbar,
            opponent_on_bar=obar,
            can_move=can_move,
            forced_move=forced,
            did_crawford=crawford,
            redoubles=redoubles,
        )
    except Error as e:
        raise InvalidIdError(f"FIBS board {short!r}: {e}") from None
