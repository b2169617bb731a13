"""Positions, moves and legal-move sets.

A :class:`Position` is an immutable value: a variant (with its rule options), the checkers of
both sides and the colour on roll. Internally it is the C++ core's packed key, always from the
point of view of the player on roll (see ``docs/coordinates.md``).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from nardy import _core, _validate
from nardy.errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidDiceError,
    InvalidIdError,
    InvalidNotationError,
    InvalidPositionError,
)
from nardy.notation import MAX_STEPS, format_move, parse_chains, parse_named_steps, split_named
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

    Two moves are equal when their steps and their named die are equal; a position recognises
    a move as legal by where it leads (and the die it names), so ``8/5 6/5`` and ``6/5 8/5``
    are both found in ``legal_moves``.

    ``named``: the die the move names, where the player chooses dice (Acey-deucey: the double
    played after a 1-2, 5 for 5-5); 0 for every other move. Naming 5-5 and naming 6-6 are two
    moves even where both leave the same position. Notation writes it after the roll's own
    steps: ``24/23 24/22 (5-5) 13/8(2) 6/1(2)``.

    A move taken from a position (:meth:`Position.legal_moves`, :meth:`Position.parse_move`)
    remembers that position's variant and colour on roll and prints in their notation, so that
    ``pos.parse_move(str(m), dice) == m`` in every variant and for both colours: in long nardy
    with black on roll the same steps print ``12/1`` where white's print ``24/13``. The context
    is for printing only: it takes no part in equality or hashing.

    A move built by hand (``Move(steps)``) has no context and prints in the mover's own
    coordinates: point ``i + 1`` for index ``i`` counted from the mover's bear-off end, ``bar``
    for a checker entering (Shlem: a reserve), ``off`` for one borne off -- backgammon's
    notation, for any variant. Give it a context with :meth:`in_context`.
    """

    # _src and _index: a move listed by LegalMoves leaves _steps unset and names its place in
    # the LegalMoves buffer instead; __getattr__ builds the steps the first time they are read.
    __slots__ = ("_steps", "_variant", "_color", "_src", "_index", "_named")
    _src: Any
    _index: int

    def __init__(self, steps: Iterable[Step | tuple[int, int] | tuple[int, int, bool]],
                 named: int = 0) -> None:
        if not _validate.is_int(named) or _validate.is_bool(named) or not 0 <= named <= 6:
            raise InvalidNotationError(f"named is a die 1..6 (0: none), got "
                                       f"{_validate.show(named)}")
        if not isinstance(steps, (list, tuple)):
            raise InvalidNotationError(
                f"a move is a list or tuple of steps, got {_validate.show(steps)}")
        if len(steps) > MAX_STEPS:
            # four for a roll; a turn of several rolls (Gul bara's cascade) up to 24
            raise InvalidNotationError(f"a move has at most {MAX_STEPS} steps")
        norm = []
        for s in steps:
            if not isinstance(s, (tuple, list)) or len(s) not in (2, 3):
                raise InvalidNotationError(
                    f"a step is (from, to) or (from, to, hit), got {_validate.show(s)}")
            f, t, h = s if len(s) == 3 else (s[0], s[1], False)
            if not (_validate.is_int(f) and _validate.is_int(t) and 0 <= f <= BAR
                    and OFF <= t <= 23 and _validate.is_bool(h)):
                raise InvalidNotationError(f"not a step: {_validate.show(s)}")
            norm.append(Step(int(f), int(t), bool(h)))
        self._steps: tuple[Step, ...] = tuple(norm)
        self._variant: Variant | None = None
        self._color: int = WHITE
        if named:
            self._named = int(named)

    def __getattr__(self, name: str) -> Any:
        # only reached for an unset slot: the steps of a listed move, on first use, or the
        # named die of a move that names none (the core makes moves without it)
        if name == "_named":
            return 0
        if name != "_steps":
            raise AttributeError(f"'Move' object has no attribute {name!r}")
        try:
            src, index = self._src, self._index
        except AttributeError:
            raise AttributeError("'Move' object has no attribute '_steps'") from None
        steps: tuple[Step, ...] = src.steps(index)
        self._steps = steps
        self._src = None  # the LegalMoves buffer is no longer needed
        return steps

    @property
    def steps(self) -> tuple[Step, ...]:
        return self._steps

    @property
    def named(self) -> int:
        """The die the move names (Acey-deucey: the double chosen after a 1-2); 0: none."""
        return self._named  # type: ignore[no-any-return]

    @property
    def variant(self) -> Variant | None:
        """The variant whose notation the move prints in (None: a context-free move)."""
        return getattr(self, "_variant", None)

    @property
    def color(self) -> int | None:
        """The colour that plays the move (None: a context-free move)."""
        return None if getattr(self, "_variant", None) is None else self._color

    def in_context(self, variant: Variant | type[Variant] | str, color: int) -> Move:
        """The same steps, printed as ``color`` plays them in ``variant``."""
        if color not in (WHITE, BLACK):
            raise InvalidNotationError(f"color must be 0 (white) or 1 (black), got {color!r}")
        m = object.__new__(Move)
        m._steps = self._steps
        m._variant = as_variant(variant)
        m._color = color
        named = self._named
        if named:
            m._named = named
        return m

    def __len__(self) -> int:
        return len(self._steps)

    def __bool__(self) -> bool:
        return bool(self._steps)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Move) and other._steps == self._steps
                and other._named == self._named)

    def __hash__(self) -> int:
        # moves differing only in their named die share a hash (rare; equality tells them apart)
        return hash(self._steps)

    def __reduce__(self) -> tuple[Any, ...]:
        v = getattr(self, "_variant", None)
        if v is None:
            return (Move, (self._steps, self._named))
        return (_move_in_context, (self._steps, v, self._color, self._named))

    def __repr__(self) -> str:
        v = getattr(self, "_variant", None)
        where = "" if v is None else f" ({v.name}, {'white' if self._color == WHITE else 'black'})"
        return f"<Move {self.notation()}{where}>"

    def __str__(self) -> str:
        return self.notation()

    def notation(self, variant: Variant | type[Variant] | str | None = None,
                 color: int | None = None) -> str:
        """Standard notation (``13/8 24/23``, ``bar/22*``, ``6/off``, ``8/5(2)``; a named
        double after the roll's steps: ``24/23 24/22 (5-5) 13/8(2) 6/1(2)``).

        Point names come from ``variant`` and ``color`` when given, else from the move's own
        context, else the context-free form (the mover's point numbers). A checker that moves
        on keeps one chain (``24/18*/13``); intermediate points are shown only where it hit.
        The empty move is ``pass``.
        """
        if color is not None:
            color = _validate.color(color)
        own = getattr(self, "_variant", None)
        if variant is None:
            if own is None:
                return format_move(self, _CONTEXT_FREE, WHITE)
            return format_move(self, own, self._color if color is None else color)
        if color is None:
            color = self._color if own is not None else WHITE
        return format_move(self, as_variant(variant), color)

    @classmethod
    def from_notation(cls, text: str, variant: Variant | type[Variant] | str | None = None,
                      color: int = WHITE) -> Move:
        """Parses notation whose every segment is one die (``24/18 18/13``, ``bar/22*``, a
        named double ``(5-5)`` after the roll's steps): in ``variant``'s names for ``color``
        (then the move prints in that context), or without a variant in the context-free form.

        Chains that skip points (``24/13``) need the position and dice to be split into single
        steps: use :meth:`Position.parse_move`.
        """
        color = _validate.color(color)
        if variant is None:
            return cls(*parse_named_steps(text, _CONTEXT_FREE, WHITE))
        v = as_variant(variant)
        return cls(*parse_named_steps(text, v, color)).in_context(v, color)


def _move_in_context(steps: tuple[Step, ...], variant: Variant, color: int,
                     named: int = 0) -> Move:
    return Move(steps, named).in_context(variant, color)


class _ContextFree:
    """Point names of a move without a position: the mover's coordinates (``bar``, ``off``)."""

    @staticmethod
    def point_name(index: int, color: int) -> str:
        return "bar" if index == BAR else "off" if index == OFF else str(index + 1)

    @staticmethod
    def point_index(name: str, color: int) -> int:
        name = name.strip().lower()
        if name == "bar":
            return BAR
        if name == "off":
            return OFF
        if not (name.isascii() and name.isdigit()) or not 1 <= int(name) <= 24:
            raise ValueError(f"not a point of the mover's coordinates (1..24, bar, off): {name!r}")
        return int(name) - 1


_CONTEXT_FREE: Any = _ContextFree()


PASS = Move(())


# The core builds context-free Move objects for its raw engine calls (shared Step values, no
# __init__ call); LegalMoves builds its own, with their context (registered at the end).
_core._set_move_types(Move, Step)


class Position:
    """An immutable position: variant, checkers of both sides, colour on roll."""

    __slots__ = ("_variant", "_key", "_turn")

    def __init__(self, variant: Variant | type[Variant] | str | None = None) -> None:
        v = as_variant(variant)
        side = v.initial_side()
        self._variant = v
        self._key: Key = _core.encode(side, side, v.core_variant)
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
        us = _side(mover, "mover", v.checkers)
        them = _side(opponent, "opponent", v.checkers)
        turn = _validate.color(turn, "turn", error=InvalidPositionError)
        err = _core.validate(v.core_variant, us, them)
        if err:
            raise InvalidPositionError(err)
        return cls._raw(v, _core.encode(us, them, v.core_variant), turn)

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

    # -- strings in, strings out ---------------------------------------------------------
    @classmethod
    def from_text(cls, text: str) -> Position:
        """The position of a nardy text line (``backgammon W:24x2,... B:... w``, every variant;
        see ``docs/formats.md``). A line that also carries game state (``dice=``, ``cube=``,
        ...) is refused: read it with :func:`nardy.from_text`."""
        from nardy.formats.text import from_text

        state = from_text(text)
        if text.count(" ") > 3:
            raise InvalidIdError(f"nardy text: {text!r} carries game state after the colour on "
                                 f"roll; read it with nardy.from_text")
        return state.position

    def to_text(self) -> str:
        """The canonical nardy text line of the position (:meth:`from_text` reads it)."""
        from nardy.formats.text import to_text

        return to_text(self)

    @classmethod
    def from_position_id(cls, pid: str, variant: Variant | type[Variant] | str | None = None,
                         turn: int = WHITE) -> Position:
        """A position from a gnubg Position ID (``4HPwATDgc/ABMA``), which holds the checkers
        of the player on roll and the other, not their colours: ``turn`` says who is on roll.
        For variants with gnubg's board (backgammon and its rule options)."""
        from nardy.formats.gnubg_id import _b64_check

        v = _gnubg_variant(variant, "a gnubg Position ID")
        t = _turn(turn)
        if not isinstance(pid, str) or len(pid) != 14 or not pid.isascii():
            _b64_check(pid, 14, "Position ID")
        return cls._raw(v, _core.position_id_key(v.engine, pid), t)

    def to_position_id(self) -> str:
        """The gnubg Position ID of the checkers (the colour on roll is not in it)."""
        _gnubg_variant(self._variant, "a gnubg Position ID")
        return _core.key_position_id(self._key)  # type: ignore[no-any-return]

    @classmethod
    def from_xgid(cls, xgid: str, variant: Variant | type[Variant] | str | None = None) -> Position:
        """The position of an XGID (``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``):
        the bottom player (X) is white, the top player (O) black. The cube, dice and score are
        game state: :func:`nardy.formats.decode_xgid` reads them."""
        v = _gnubg_variant(variant, "an XGID")
        _validate.text(xgid, "an XGID", _validate.MAX_ID_CHARS, error=InvalidIdError)
        key, turn = _core.xgid_key(v.engine, xgid)
        return cls._raw(v, key, WHITE if turn == 1 else BLACK)

    def to_xgid(self) -> str:
        """The XGID of the position, white the bottom player (X), cube centred at 1, money
        play, no dice rolled."""
        _gnubg_variant(self._variant, "an XGID")
        return _core.key_xgid(self._key, 1 if self._turn == WHITE else -1)  # type: ignore[no-any-return]

    @classmethod
    def from_fibs(cls, line: str, variant: Variant | type[Variant] | str | None = None) -> Position:
        """The position of a FIBS ``board:`` line: the line's player (its first name) is white,
        the opponent black. Match and cube fields are game state:
        :func:`nardy.formats.parse_fibs_board` reads them."""
        from nardy.formats.fibs import parse_fibs_board

        v = _gnubg_variant(variant, "a FIBS board")
        board = parse_fibs_board(line)
        mover, opponent = board.sides()
        turn = WHITE if board.player_on_roll else BLACK
        return cls.from_sides(v, mover, opponent, turn)

    def to_fibs(self) -> str:
        """The FIBS ``board:`` line of the position, white as the line's player."""
        from nardy.formats.fibs import FibsBoard, format_fibs_board

        _gnubg_variant(self._variant, "a FIBS board")
        white, black = self.side(WHITE), self.side(BLACK)
        return format_fibs_board(FibsBoard.from_sides(
            white, black, player_on_roll=self._turn == WHITE))

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
        us, them = _core.decode(self._key, self._variant.core_variant)
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
        raise NotImplementedError  # the core's method replaces this one at import (below)

    def turn_moves(self, dice: Sequence[int], turn_number: int, *,
                   first_roller: bool = True) -> LegalMoves | TurnMoves:
        """The legal moves of the whole turn that the roll gives on the mover's
        ``turn_number``-th turn (1: his first). In a variant whose turn can be several rolls
        (``variant.sequence_turns``: Gul bara's cascade) a :class:`TurnMoves`; in the others
        the turn number changes nothing and this is :meth:`legal_moves`. ``first_roller``:
        whether the mover rolled first in the game, which matters only where the rules count
        turns over the game's rolls (Gul bara's ``cascade_count="game-rolls"``)."""
        dice = _check_dice(dice)
        n = _validate.integer(turn_number, "turn_number", 1, _validate.C_INT_MAX)
        first = _validate.boolean(first_roller, "first_roller")
        if not self._variant.sequence_turns:
            return self.legal_moves(dice)
        return TurnMoves._make(self, dice, self._variant.engine.turn_at(n, 0 if first else 1))

    def carried_moves(self, die: int, left: int) -> TurnMoves:
        """The legal moves of the dice the opponent's stopped cascade left the player on roll:
        ``left`` (1..4) dice of ``die``, then each higher double in full, as a cascade goes on
        (as many dice as possible over the whole sequence; a double not played in full ends
        it). They are played before his own roll, and the position after one of them
        (:meth:`TurnMoves.key`, not swapped) has the same player on roll. Only where the
        variant passes such dice on (:attr:`Variant.carries_dice`: Gul bara with
        ``stopped_cascade="to-opponent"``; see :meth:`Variant.carry`)."""
        d = _validate.integer(die, "die", 1, 6, error=InvalidDiceError)
        n = _validate.integer(left, "left", 1, 4, error=InvalidDiceError)
        if not self._variant.carries_dice:
            raise InvalidArgumentError(f"{self._variant!r} passes no dice to the opponent "
                                       "(Gul bara does with stopped_cascade='to-opponent')")
        return TurnMoves._make(self, (d, d), -n)

    def _moves_for(self, dice: tuple[int, int], turn_number: int | None,
                   first_roller: bool) -> Any:
        return self.legal_moves(dice) if turn_number is None else self.turn_moves(
            dice, turn_number, first_roller=first_roller)

    def play(self, move: Move | str, dice: Sequence[int], *,
             turn_number: int | None = None, first_roller: bool = True) -> Position:
        """The position after a validated move (a :class:`Move` or notation) for the roll,
        with the opponent on roll. Raises :class:`IllegalMoveError` if it is not legal.
        ``turn_number`` and ``first_roller``: the mover's turn, for a whole turn of
        :meth:`turn_moves`."""
        dice = _validate.dice(dice)
        moves = self._moves_for(dice, turn_number, first_roller)
        if isinstance(move, str):
            move = self.parse_move(move, dice, turn_number=turn_number, first_roller=first_roller)
        elif not isinstance(move, Move):
            raise InvalidNotationError(
                f"a move must be a Move or notation text, not {type(move).__name__}")
        if not moves and not move:
            return self.pass_turn()
        if isinstance(moves, TurnMoves):
            # found by its result, without listing the turn (a cascade has millions)
            found = moves._resolve(move)
            key = None if found is None else found[0]
        else:
            idx = moves.index_of(move)
            key = None if idx < 0 else moves.key(idx)
        if key is None:
            raise IllegalMoveError(f"{move.notation(self._variant, self._turn)} is not legal "
                                   f"for {dice[0]}-{dice[1]} in {self!r}")
        return self._raw(self._variant, _core.swap(key), 1 - self._turn)

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

    def parse_move(self, text: str, dice: Sequence[int], *,
                   turn_number: int | None = None, first_roller: bool = True) -> Move:
        """The legal move that ``text`` denotes for the roll (chains like ``24/13`` allowed;
        with ``turn_number`` and ``first_roller``, a move of the whole turn of
        :meth:`turn_moves`). Raises :class:`InvalidNotationError` or :class:`IllegalMoveError`."""
        dice = _check_dice(dice)
        moves = self._moves_for(dice, turn_number, first_roller)
        move = _denoted_move(self, text, moves, dice)
        if move is None:
            if moves:
                raise IllegalMoveError(f"cannot pass with {dice[0]}-{dice[1]}: a move is possible")
            return PASS
        return move

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
        return f"Position.from_text({self.to_text()!r})"

    def _repr_svg_(self) -> str:
        from nardy.svg import board

        return board(self, size=400)

    def __str__(self) -> str:
        """The text board (:func:`nardy.textboard.board`)."""
        from nardy.textboard import board

        return board(self)


def _denoted_move(pos: Position, text: str, moves: Any, dice: tuple[int, int]) -> Move | None:
    """The move of ``moves`` (``pos``'s legal moves for ``dice``) that ``text`` denotes, None
    for ``pass``; a whole turn's is found without listing it. Raises
    :class:`IllegalMoveError` when the text is no legal move."""
    if isinstance(moves, TurnMoves) and not pos.variant.names_dice:
        finder = moves._finder()
        if _find_notation(pos, text, finder) is None:
            return None
        if finder.found is None:
            raise IllegalMoveError(f"{text!r} is not a legal move for {dice[0]}-{dice[1]}")
        return finder.found[1]
    idx = _find_notation(pos, text, moves)
    if idx is None:
        return None
    if idx < 0:
        raise IllegalMoveError(f"{text!r} is not a legal move for {dice[0]}-{dice[1]}")
    return moves[idx]  # type: ignore[no-any-return]


def _find_notation(pos: Position, text: str, moves: Any) -> int | None:
    """Index in ``moves`` (``pos``'s legal moves) of the move ``text`` denotes; -1: none;
    None: the text is ``pass``. A move that names a double is found by where it leads and
    the double; one written without its double, when only one legal move leads there."""
    plain, named = split_named(text)
    chains = parse_chains(plain, pos.variant, pos.turn)
    v = pos.variant
    if named and not v.names_dice:
        raise InvalidNotationError(f"{text!r}: {v.name} has no named doubles")
    if not chains:
        if named:
            raise InvalidNotationError(f"{text!r}: a named double follows the roll's steps")
        return None
    if v.names_dice:
        if not isinstance(moves, TurnMoves):
            if named:
                raise InvalidNotationError(f"{text!r}: a named double is part of a move of the "
                                           f"whole turn (give the turn number)")
        else:
            moves = _Naming(moves, named, text)
    idx: int = v.find_move(pos, chains, moves, text)
    return idx


class _Naming:
    """``moves.find`` for :meth:`Variant.find_move` in a turn whose moves name dice: the move
    leading to a key that names ``named``; with no named die written, the one move leading
    there (two or more: the text must name the double)."""

    __slots__ = ("_moves", "_named", "_text")

    def __init__(self, moves: TurnMoves, named: int, text: str) -> None:
        self._moves, self._named, self._text = moves, named, text

    def find(self, key: bytes) -> int:
        if self._named:
            return self._moves.find(key, self._named)
        found = [(n, i) for n in range(7) if (i := self._moves.find(key, n)) >= 0]
        if len(found) > 1:
            names = ", ".join(f"({n}-{n})" for n, _ in found)
            raise InvalidNotationError(f"{self._text!r} is {len(found)} legal moves, naming "
                                       f"{names}: write the named double after the roll's steps")
        return found[0][1] if found else -1


def _turn(turn: Any) -> int:
    if type(turn) is not int or turn not in (WHITE, BLACK):
        raise InvalidPositionError(f"turn must be 0 (white) or 1 (black), got {turn!r}")
    return turn


def _gnubg_variant(variant: Variant | type[Variant] | str | None, what: str) -> Variant:
    """The variant, if gnubg's board formats describe it (its class says so)."""
    v = as_variant(variant)
    if not v.gnubg_ids:
        raise InvalidIdError(f"{what} describes a backgammon board, not a {v.name} position")
    return v


def parse_position(text: str, variant: Variant | type[Variant] | str | None = None) -> Position:
    """A position from any text form nardy reads, recognised by its shape: the nardy text
    line (every variant), an XGID (``XGID=...``), a FIBS ``board:`` line, or a gnubg Position
    ID (alone, or as ``PositionID:MatchID``). ``variant`` applies to the gnubg formats, which
    do not name one (default backgammon). Raises :class:`InvalidIdError` naming the format
    it tried, or the formats it knows when none fits."""
    if not isinstance(text, str):
        raise InvalidIdError(f"a position text must be a string, not {type(text).__name__}")
    s = text.strip()
    if s.upper().startswith("XGID="):
        return Position.from_xgid(s, variant)
    if s.startswith("board:"):
        return Position.from_fibs(s, variant)
    if " W:" in s:
        if variant is not None:
            raise InvalidIdError("the nardy text names its variant: give no variant")
        return Position.from_text(s)
    pid = s.split(":", 1)[0] if ":" in s else s
    if len(pid) == 14 and all(c.isalnum() or c in "+/" for c in pid):
        return Position.from_position_id(pid, variant)
    raise InvalidIdError(
        f"not a position text nardy knows: {text[:60]!r}; expected the nardy text form "
        f"('backgammon W:... B:... w'), an XGID ('XGID=...'), a FIBS 'board:' line or a "
        f"gnubg Position ID ('4HPwATDgc/ABMA')")


def _side(values: Sequence[int], who: str, checkers: int) -> tuple[int, ...]:
    """A side array of plain ints; 25 entries (gnubg's layout, no off count) get the off count
    the variant's ``checkers`` leave. The variant's core checks the counts."""
    try:
        raw = tuple(values)
    except TypeError:
        raise InvalidPositionError(f"{who} side must be a sequence of 26 integers") from None
    if all(type(x) is int for x in raw):  # the common case, without the ABC checks below
        side = raw
    else:
        # any integer type (numpy's included), never bool or float
        if not all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in raw):
            raise InvalidPositionError(f"{who} side must hold integers, got {raw!r}")
        side = tuple(int(x) for x in raw)
    if len(side) == 25:  # gnubg's layout without the off count
        side = side + (checkers - sum(abs(n) for n in side),)
    if len(side) != 26:
        raise InvalidPositionError(f"{who} side must be 26 integers (24 points, bar, off)")
    # -1: a marked checker; -n in slot 25: n checkers still to enter (the core validates)
    if min(side) < -checkers or max(side) > checkers:
        raise InvalidPositionError(f"{who} side has a count outside 0..{checkers}: {side}")
    return side


class _MoveList:
    """Reading shared by :class:`LegalMoves` and :class:`TurnMoves`: both are lazy read-only
    sequences of :class:`Move` over the core's result buffer (``position``, ``keys()``)."""

    __slots__ = ()

    position: Position

    if TYPE_CHECKING:  # each subclass has them (LegalMoves from the core's base)
        def __len__(self) -> int: ...
        def __getitem__(self, i: Any) -> Any: ...
        def __iter__(self) -> Iterator[Move]: ...
        def keys(self) -> list[bytes]: ...
        def _same_listing(self, other: Any) -> bool: ...

    def count(self, value: Any = None) -> int:
        """Number of legal moves (python-chess style); with an argument, how many equal it."""
        if value is None:
            return len(self)
        return sum(1 for m in self if m == value)

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """As ``list.index``: the first move equal to ``value`` (same steps, same named die)."""
        for i in range(*slice(start, stop).indices(len(self))):
            if self[i] == value:
                return i
        raise ValueError(f"{value!r} is not in the legal moves")

    def results(self) -> list[Position]:
        """The resulting positions, opponent on roll, in move order."""
        p = self.position
        v, turn, swap, raw = p.variant, 1 - p.turn, _core.swap, Position._raw
        return [raw(v, swap(k), turn) for k in self.keys()]

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return self._same_listing(other)
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class LegalMoves(_MoveList, _core.LegalMovesBase):  # type: ignore[misc]
    """The legal moves of one position and roll, one per resulting position (empty when the
    player cannot move and the turn passes): a lazy, read-only sequence of :class:`Move`.

    The moves stay in the core's result buffer: ``len``, ``in``, :meth:`keys` and
    :meth:`results` never build Move objects, indexing and iteration build only the ones asked
    for. ``move in legal_moves`` tests legality by where the move leads, so any step order of
    a legal move is found. Moves print in the position's notation (variant and colour).
    """

    __slots__ = ()

    position: Position
    dice: tuple[int, int]

    def __new__(cls, *args: Any, **kwargs: Any) -> LegalMoves:
        raise TypeError("LegalMoves are made by Position.legal_moves(dice)")

    @property
    def _set(self) -> LegalMoves:
        return self

    @property
    def _position(self) -> Position:
        return self.position

    @property
    def _dice(self) -> tuple[int, int]:
        return self.dice

    def _same_listing(self, other: Any) -> bool:
        return bool(other.position == self.position and tuple(other.dice) == tuple(self.dice))

    def __repr__(self) -> str:
        shown = ", ".join(str(m) for m in self[:8])
        more = ", ..." if len(self) > 8 else ""
        d = self.dice
        return f"<LegalMoves {d[0]}-{d[1]}: {len(self)} ({shown}{more})>"

    def _repr_html_(self) -> str:
        """Up to twelve moves: a small board per move, the move drawn as arrows on the
        result; more: the list of moves."""
        from html import escape

        from nardy.svg import board, board_html

        p, dice = self.position, self.dice  # the public attributes: no layout assumed
        head = f"<p>{len(self)} legal move(s) for {dice[0]}-{dice[1]}</p>"
        if len(self) > 12:
            return head + "<pre>" + escape(
                "\n".join(m.notation(p.variant, p.turn) for m in self)) + "</pre>"
        shown = [(m.notation(p.variant, p.turn),
                  board(r, size=180, coordinates=False, pips=False, last_move=m,
                        last_move_color=p.turn))
                 for m, r in zip(self, self.results())]
        return head + board_html(shown)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_legal_moves, (self.position, self.dice))


Sequence.register(LegalMoves)


def _rebuild_legal_moves(position: Position, dice: tuple[int, int]) -> LegalMoves:
    return position.legal_moves(dice)


class TurnMoves(_MoveList):
    """The legal moves of a whole turn that can be several rolls (Gul bara's cascade: a double
    followed by every higher double), one per resulting position: a lazy, read-only sequence
    of :class:`Move` like :class:`LegalMoves`, made by :meth:`Position.turn_moves`.

    The moves stay in the core and are listed only when first read by index or counted:
    :attr:`played`, ``bool`` and ``move in moves`` search the turn towards the move's result
    instead, so a game plays a cascade of millions of moves (a 1-1 from the third turn of an
    opening: about 3.2 million, some 400 MB listed) in milliseconds. ``len``, :meth:`key`
    and :meth:`index_of` list the moves but make no Python object per move; :meth:`keys`,
    :meth:`results` and iterating over all of them are for small turns. ``played``: the dice
    the moves play (a cascade stops at a double that cannot be played in full).

    Where the player names dice (Acey-deucey's 1-2), a move is told apart by where it leads
    and the die it names (:attr:`Move.named`); :meth:`again` says whether the same player
    rolls again after it."""

    __slots__ = ("_core_set", "position", "dice", "turn_number")

    _core_set: Any
    position: Position
    dice: tuple[int, int]
    turn_number: int

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("TurnMoves are made by Position.turn_moves(dice, turn_number)")

    @classmethod
    def _make(cls, position: Position, dice: tuple[int, int], turn_number: int,
              core_set: Any = None) -> TurnMoves:
        self = object.__new__(cls)
        if core_set is None:
            core_set = position.variant.engine.turn_legal(position.key, dice[0], dice[1],
                                                          turn_number)
        self._core_set = core_set
        self.position = position
        self.dice = dice
        self.turn_number = turn_number
        return self

    @property
    def played(self) -> int:
        """How many dice each move plays (0: the turn passes)."""
        return int(self._core_set.played)

    def __len__(self) -> int:
        return len(self._core_set)

    def __bool__(self) -> bool:
        return self._core_set.played > 0  # type: ignore[no-any-return]

    def _move(self, i: int) -> Move:
        p = self.position
        s = self._core_set
        return Move(s.steps(i), s.named(i)).in_context(p.variant, p.turn)

    def _resolve(self, move: Any) -> tuple[bytes, Move, bool] | None:
        """The legal move leading where ``move`` leads (its steps applied in order) and
        naming its named die, as (result key, that move's steps, same player rolls again),
        or None; found without listing the moves."""
        if not isinstance(move, Move) or not move.steps:
            return None
        key = self.position.variant.engine.apply(
            self.position.key, [(s.from_, s.to, s.hit) for s in move.steps])
        return None if key is None else self._resolve_key(key, move.named)

    def _resolve_key(self, key: bytes, named: int = -1) -> tuple[bytes, Move, bool] | None:
        found = self._core_set.resolve(key, named)
        if found is None:
            return None
        steps, named_die, again = found
        p = self.position
        return key, Move(steps, named_die).in_context(p.variant, p.turn), bool(again)

    def __getitem__(self, i: Any) -> Any:
        n = len(self._core_set)
        if isinstance(i, slice):
            return [self._move(k) for k in range(*i.indices(n))]
        if not _validate.is_int(i) or _validate.is_bool(i):
            raise TypeError(f"TurnMoves indices must be integers or slices, not "
                            f"{type(i).__name__}")
        k = int(i)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError("TurnMoves index out of range")
        return self._move(k)

    def __iter__(self) -> Any:
        return (self._move(k) for k in range(len(self._core_set)))

    def key(self, i: int) -> bytes:
        """The resulting position's key (mover's perspective, not swapped) of move ``i``."""
        return self._core_set.key(i)  # type: ignore[no-any-return]

    def steps(self, i: int) -> tuple[tuple[int, int, bool], ...]:
        return self._core_set.steps(i)  # type: ignore[no-any-return]

    def keys(self) -> list[bytes]:
        return self._core_set.keys()  # type: ignore[no-any-return]

    def find(self, key: bytes, named: int = -1) -> int:
        """Index of the move leading to ``key`` (naming ``named``; -1: any), or -1."""
        return self._core_set.find(key, named)  # type: ignore[no-any-return]

    def named(self, i: int) -> int:
        """The die move ``i`` names (0: none)."""
        return self._core_set.named(i)  # type: ignore[no-any-return]

    def again(self, i: int) -> bool:
        """Whether the same player rolls again after move ``i`` (Acey-deucey: a 1-2 and its
        named double played in full)."""
        return self._core_set.again(i)  # type: ignore[no-any-return]

    def index_of(self, move: Any) -> int:
        """Index of the legal move leading where ``move`` leads (its steps applied in order)
        and naming its named die, or -1."""
        if not isinstance(move, Move) or not move.steps:
            return -1
        key = self.position.variant.engine.apply(
            self.position.key, [(s.from_, s.to, s.hit) for s in move.steps])
        return -1 if key is None else self.find(key, move.named)

    def __contains__(self, move: object) -> bool:
        return self._resolve(move) is not None

    def _finder(self) -> _TurnFinder:
        return _TurnFinder(self)

    def _same_listing(self, other: Any) -> bool:
        return bool(other.position == self.position and other.dice == self.dice
                    and other.turn_number == self.turn_number)

    def __repr__(self) -> str:
        shown = ", ".join(str(m) for m in self[:4])
        more = ", ..." if len(self) > 4 else ""
        d = self.dice
        return (f"<TurnMoves {d[0]}-{d[1]} turn {self.turn_number}: {len(self)} "
                f"({shown}{more})>")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_turn_moves, (self.position, self.dice, self.turn_number))


Sequence.register(TurnMoves)


class _TurnFinder:
    """``moves.find`` for :meth:`Variant.find_move` over a whole turn without listing it:
    0 when a legal move leads to the key (kept in :attr:`found`), else -1."""

    __slots__ = ("_moves", "found")

    def __init__(self, moves: TurnMoves) -> None:
        self._moves = moves
        self.found: tuple[bytes, Move, bool] | None = None

    def find(self, key: bytes, named: int = -1) -> int:
        self.found = self._moves._resolve_key(key, named)
        return -1 if self.found is None else 0


def _rebuild_turn_moves(position: Position, dice: tuple[int, int], turn_number: int) -> Any:
    if turn_number < 0:  # dice a stopped cascade left
        return position.carried_moves(dice[0], -turn_number)
    return position.turn_moves(dice, turn_number)


# Position.legal_moves is the core's method: one C call from the position to the lazy result.
Position.legal_moves = _core._register_moves(  # type: ignore[method-assign]
    LegalMoves, Move, Step, Position, Variant, _check_dice)


__all__ = ["BAR", "OFF", "PASS", "LegalMoves", "Move", "Position", "Step", "TurnMoves",
           "parse_position"]

