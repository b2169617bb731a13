"""Positions, moves and legal-move sets.

A :class:`Position` is an immutable value: a variant (with its rule options), the checkers of
both sides and the colour on roll. Internally it is the C++ core's packed key, always from the
point of view of the player on roll (see ``docs/coordinates.md``).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from nardy import _core, _validate
from nardy.errors import (
    IllegalMoveError,
    InvalidDiceError,
    InvalidNotationError,
    InvalidPositionError,
)
from nardy.notation import format_move, parse_chains, parse_move_steps
from nardy.variants import BLACK, WHITE, Variant, as_variant

BAR = 24
OFF = -1

Key = bytes  # the core's packed position: 32 bytes, mover first
SideArray = tuple[int, ...]


class Step(NamedTuple):
    """One checker moved by one die, in the mover's coordinates (BAR = 24 enters, OFF = -1)."""

    from_: int
    to: int
    hit: bool = False


def _check_dice(dice: Any) -> tuple[int, int]:
    return _validate.dice(dice)


class Move:
    """A complete move: its checker steps in order. Immutable and hashable.

    Two moves are equal when their steps are equal; a position recognises a move as legal by
    where it leads, so ``8/5 6/5`` and ``6/5 8/5`` are both found in ``legal_moves``.
    """

    __slots__ = ("_steps",)

    def __init__(self, steps: Iterable[Step | tuple[int, int] | tuple[int, int, bool]]) -> None:
        norm = []
        for s in steps:
            if len(s) == 2:
                s = (s[0], s[1], False)
            f, t, h = s
            if not (isinstance(f, int) and isinstance(t, int) and 0 <= f <= BAR and OFF <= t <= 23):
                raise InvalidNotationError(f"not a step: {s!r}")
            norm.append(Step(f, t, bool(h)))
        if len(norm) > 4:
            raise InvalidNotationError("a move has at most four steps")
        self._steps: tuple[Step, ...] = tuple(norm)

    @property
    def steps(self) -> tuple[Step, ...]:
        return self._steps

    def __len__(self) -> int:
        return len(self._steps)

    def __bool__(self) -> bool:
        return bool(self._steps)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other._steps == self._steps

    def __hash__(self) -> int:
        return hash(self._steps)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, (self._steps,))

    def __repr__(self) -> str:
        return f"Move({self.notation()!r})"

    def __str__(self) -> str:
        return self.notation()

    def notation(self, variant: Variant | None = None, color: int = WHITE) -> str:
        """Standard notation (``13/8 24/23``, ``bar/22*``, ``6/off``, ``8/5(2)``).

        Point names come from the variant (backgammon by default: the mover's point numbers).
        A checker that moves on keeps one chain (``24/18*/13``); intermediate points are shown
        only where it hit. The empty move is ``pass``.
        """
        return format_move(self, as_variant(variant), color)

    @classmethod
    def from_notation(cls, text: str, variant: Variant | None = None, color: int = WHITE) -> Move:
        """Parses notation whose every segment is one die (``24/18 18/13``, ``bar/22*``).

        Chains that skip points (``24/13``) need the position and dice to be split into single
        steps: use :meth:`Position.parse_move`.
        """
        return cls(parse_move_steps(text, as_variant(variant), color))


PASS = Move(())


# The core builds Move objects itself (shared Step values, no __init__ call).
_core._set_move_types(Move, Step)


class Position:
    """An immutable position: variant, checkers of both sides, colour on roll."""

    __slots__ = ("_variant", "_key", "_turn")

    def __init__(self, variant: Variant | type[Variant] | str | None = None) -> None:
        v = as_variant(variant)
        side = v.initial_side()
        self._variant = v
        self._key: Key = _core.encode(side, side)
        self._turn = WHITE

    # -- construction --------------------------------------------------------------------
    @classmethod
    def _raw(cls, variant: Variant, key: Key, turn: int) -> Position:
        p = object.__new__(cls)
        p._variant = variant
        p._key = key
        p._turn = turn
        return p

    @classmethod
    def start(cls, variant: Variant | type[Variant] | str | None = None) -> Position:
        """The starting position of the variant, white on roll."""
        return cls(variant)

    @classmethod
    def from_sides(
        cls,
        variant: Variant | type[Variant] | str | None,
        mover: Sequence[int],
        opponent: Sequence[int],
        turn: int = WHITE,
    ) -> Position:
        """A position from the mover's and the opponent's side arrays (26 counts each, own
        coordinates: 0..23 points by distance, 24 bar, 25 borne off). Validated."""
        v = as_variant(variant)
        us = _side(mover, "mover")
        them = _side(opponent, "opponent")
        turn = _validate.color(turn, "turn", error=InvalidPositionError)
        err = _core.validate(v.core_variant, us, them)
        if err:
            raise InvalidPositionError(err)
        return cls._raw(v, _core.encode(us, them), turn)

    @classmethod
    def from_colors(
        cls,
        variant: Variant | type[Variant] | str | None,
        white: Sequence[int],
        black: Sequence[int],
        turn: int = WHITE,
    ) -> Position:
        """Like :meth:`from_sides`, with the sides given by colour."""
        turn = _validate.color(turn, "turn", error=InvalidPositionError)
        if turn == WHITE:
            return cls.from_sides(variant, white, black, WHITE)
        return cls.from_sides(variant, black, white, turn)

    # -- accessors -----------------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def turn(self) -> int:
        """The colour on roll: ``nardy.WHITE`` (0) or ``nardy.BLACK`` (1)."""
        return self._turn

    @property
    def key(self) -> Key:
        """The core's packed key (mover's perspective)."""
        return self._key

    def sides(self) -> tuple[SideArray, SideArray]:
        """(mover, opponent) side arrays."""
        us, them = _core.decode(self._key)
        return tuple(us), tuple(them)

    def side(self, color: int) -> SideArray:
        """The side array of ``color`` in that colour's own coordinates."""
        us, them = self.sides()
        return us if color == self._turn else them

    # Counts that mean something only in some variants: the variant answers, or raises
    # QueryError naming the queries it has (``variant.queries``).
    def pip_count(self, color: int | None = None) -> int:
        """Pips ``color`` (default: the mover) needs to bear off (the bar counts 25)."""
        return self._variant.pip_count(self, self._turn if color is None else color)

    def borne_off(self, color: int) -> int:
        """Checkers ``color`` has borne off."""
        return self._variant.borne_off(self, color)

    def reserves(self, color: int) -> int:
        """Shlem: checkers ``color`` has still to enter."""
        return self._variant.reserves(self, color)

    def hit_out(self, color: int) -> int:
        """Shlem: checkers of ``color`` hit out of the game."""
        return self._variant.hit_out(self, color)

    def prisoners_held(self, color: int) -> int:
        """Shlem: opponent checkers ``color`` holds prisoner."""
        return self._variant.prisoners_held(self, color)

    def status(self, passes: int = 0) -> dict[str, Any]:
        """The variant's end-of-game state (:meth:`nardy.Variant.status`)."""
        return self._variant.status(self, passes)

    def is_game_over(self) -> bool:
        return bool(self._variant.status(self)["over"])

    def winner(self) -> int | None:
        """The colour that has won (borne off every checker, or the variant's end rule), or
        None."""
        winner: int | None = self._variant.status(self)["winner"]
        return winner

    # -- moves ---------------------------------------------------------------------------
    def legal_moves(self, dice: Sequence[int]) -> LegalMoves:
        """Every legal complete move for the roll, one per resulting position. Empty when the
        player cannot move (then :meth:`pass_turn`)."""
        # the core checks the dice (with nardy._validate.dice for anything but a plain tuple)
        return self._variant.engine.legal_moves(self, dice)  # type: ignore[no-any-return]

    def play(self, move: Move | str, dice: Sequence[int]) -> Position:
        """The position after a validated move (a :class:`Move` or notation) for the roll,
        with the opponent on roll. Raises :class:`IllegalMoveError` if it is not legal."""
        dice = _validate.dice(dice)
        moves = self.legal_moves(dice)
        if isinstance(move, str):
            move = self.parse_move(move, dice)
        elif not isinstance(move, Move):
            raise InvalidNotationError(
                f"a move must be a Move or notation text, not {type(move).__name__}")
        if not moves and not move:
            return self.pass_turn()
        idx = moves.index_of(move)
        if idx < 0:
            raise IllegalMoveError(f"{move.notation(self._variant, self._turn)} is not legal "
                                   f"for {dice[0]}-{dice[1]} in {self!r}")
        return self._raw(self._variant, _core.swap(moves.key(idx)), 1 - self._turn)

    def play_unchecked(self, move: Move) -> Position:
        """Fast path: applies the steps without checking the dice or whole-turn rules. Each
        step must still be a possible single step, else :class:`IllegalMoveError`."""
        key = self._variant.engine.apply(self._key, [(s.from_, s.to, s.hit) for s in move.steps])
        if key is None:
            raise IllegalMoveError(f"{move} cannot be applied to {self!r}")
        return self._raw(self._variant, _core.swap(key), 1 - self._turn)

    def pass_turn(self) -> Position:
        """The same checkers with the opponent on roll (the turn passes)."""
        return self._raw(self._variant, _core.swap(self._key), 1 - self._turn)

    def parse_move(self, text: str, dice: Sequence[int]) -> Move:
        """The legal move that ``text`` denotes for the roll (chains like ``24/13`` allowed).
        Raises :class:`InvalidNotationError` or :class:`IllegalMoveError`."""
        dice = _check_dice(dice)
        chains = parse_chains(text, self._variant, self._turn)
        moves = self.legal_moves(dice)
        if not chains:
            if moves:
                raise IllegalMoveError(f"cannot pass with {dice[0]}-{dice[1]}: a move is possible")
            return PASS
        idx = self._variant.find_move(self, chains, moves, text)
        if idx < 0:
            raise IllegalMoveError(f"{text!r} is not a legal move for {dice[0]}-{dice[1]}")
        return moves[idx]  # type: ignore[no-any-return]

    # -- value semantics -----------------------------------------------------------------
    def copy(self) -> Position:
        return self  # immutable

    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position._raw, (self._variant, self._key, self._turn))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and other._key == self._key
                and other._turn == self._turn and other._variant == self._variant)

    def __hash__(self) -> int:
        return hash((self._key, self._turn))

    def __repr__(self) -> str:
        white, black = self.side(WHITE), self.side(BLACK)
        return (f"Position.from_colors({self._variant!r}, {list(white)}, {list(black)}, "
                f"turn={'WHITE' if self._turn == WHITE else 'BLACK'})")

    def _repr_svg_(self) -> str:
        from nardy.svg import board

        return board(self, size=400)

    def __str__(self) -> str:
        """The text board (:func:`nardy.textboard.board`)."""
        from nardy.textboard import board

        return board(self)


def _side(values: Sequence[int], who: str) -> tuple[int, ...]:
    try:
        raw = tuple(values)
    except TypeError:
        raise InvalidPositionError(f"{who} side must be a sequence of 26 integers") from None
    # any integer type (numpy's included), never bool or float
    if not all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in raw):
        raise InvalidPositionError(f"{who} side must hold integers, got {raw!r}")
    side = tuple(int(x) for x in raw)
    if len(side) == 25:  # gnubg's layout without the off count
        side = side + (15 - sum(side),)
    if len(side) != 26:
        raise InvalidPositionError(f"{who} side must be 26 integers (24 points, bar, off)")
    if any(x < -1 or x > 15 for x in side):  # -1: a Shlem prisoner (the core validates)
        raise InvalidPositionError(f"{who} side has a count outside 0..15: {side}")
    return side


class LegalMoves(list):  # type: ignore[type-arg]
    """The legal moves of one position and roll: a read-only list of :class:`Move`, one per
    resulting position (empty when the player cannot move and the turn passes).

    ``move in legal_moves`` tests legality by where the move leads, so any step order of a
    legal move is found. Built by the core in one call; iteration and indexing run at list
    speed.
    """

    __slots__ = ("_position", "_dice", "_results")
    _position: Position
    _dice: tuple[int, int]
    _results: bytes

    @property
    def dice(self) -> tuple[int, int]:
        return self._dice

    @property
    def position(self) -> Position:
        return self._position

    def count(self, value: Any = None) -> int:  # type: ignore[override]
        """Number of legal moves (python-chess style); with an argument, as ``list.count``."""
        return len(self) if value is None else super().count(value)

    def find(self, key: Key) -> int:
        """Index of the move leading to the core key ``key`` (mover's view, unswapped), or -1."""
        return _core.find_result(self._results, key)  # type: ignore[no-any-return]

    def key(self, index: int) -> Key:
        """The core key of move ``index``'s result (mover's view, unswapped)."""
        return self.keys()[index]

    def keys(self) -> list[Key]:
        return _core.unpack_results(self._results)  # type: ignore[no-any-return]

    def all_steps(self) -> list[tuple[Step, ...]]:
        return [m.steps for m in self]

    @property
    def _set(self) -> LegalMoves:
        return self

    def index_of(self, move: object) -> int:
        """Index of the legal move leading where ``move`` leads, or -1."""
        if not isinstance(move, Move) or not move.steps:
            return -1
        p = self._position
        key = p.variant.engine.apply(p.key, [(s.from_, s.to, s.hit) for s in move.steps])
        return -1 if key is None else self.find(key)

    def __contains__(self, move: object) -> bool:
        return self.index_of(move) >= 0

    def results(self) -> list[Position]:
        """The resulting positions, opponent on roll, in move order."""
        p = self._position
        return [Position._raw(p.variant, _core.swap(k), 1 - p.turn) for k in self.keys()]

    def __repr__(self) -> str:
        p = self._position
        shown = ", ".join(m.notation(p.variant, p.turn) for m in self[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"<LegalMoves {self._dice[0]}-{self._dice[1]}: {len(self)} ({shown}{more})>"

    def _repr_html_(self) -> str:
        """Up to twelve moves: a small board per move, the move drawn as arrows on the
        result; more: the list of moves."""
        from html import escape

        from nardy.svg import board, board_html

        p = self._position
        head = f"<p>{len(self)} legal move(s) for {self._dice[0]}-{self._dice[1]}</p>"
        if len(self) > 12:
            return head + "<pre>" + escape(
                "\n".join(m.notation(p.variant, p.turn) for m in self)) + "</pre>"
        shown = [(m.notation(p.variant, p.turn),
                  board(r, size=180, coordinates=False, pips=False, last_move=m,
                        last_move_color=p.turn))
                 for m, r in zip(self, self.results())]
        return head + board_html(shown)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_legal_moves, (self._position, self._dice))

    def _read_only(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("LegalMoves is read-only; copy it with list(...) to change it")

    append = extend = insert = remove = pop = clear = sort = reverse = _read_only  # type: ignore[assignment]
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only  # type: ignore[assignment]


def _rebuild_legal_moves(position: Position, dice: tuple[int, int]) -> LegalMoves:
    return position.legal_moves(dice)


_core._set_legal_moves_type(LegalMoves)


__all__ = ["BAR", "OFF", "PASS", "LegalMoves", "Move", "Position", "Step"]

