"""Where each point, stack and side slot of a variant sits on a drawn board.

Shared by the SVG pictures (:mod:`nardy.svg`) and the text board (:mod:`nardy.textboard`).
Everything comes from the variant's own queries (``board_rows``, ``board_places``,
``to_mover``, ``point_name``), so a new variant draws without changes here.

A board has two rows of twelve columns (top row 0, bottom row 1; columns 0..11 left to right,
the bar between columns 5 and 6). A *slot* is a point in white's own coordinates (0..23).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from nardy.errors import Error
from nardy.variants import BLACK, WHITE, Variant


class BoardOptionError(Error):
    """A picture option that cannot be drawn (unknown colour name, point, theme...)."""


@dataclass(frozen=True)
class Stack:
    """The checkers on one point, bottom to top: (colour, count) runs; a prisoner comes
    first, under its captors."""

    runs: tuple[tuple[int, int], ...]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.runs)

    def colors(self) -> list[int]:
        """One colour per checker, bottom to top."""
        return [c for c, n in self.runs for _ in range(n)]


class Geometry:
    """The layout of one variant's board seen from one side.

    ``flip`` shows the board from black's side: black's index ``i`` is drawn where white's
    index ``i`` is drawn normally. ``mirror`` swaps left and right (home on the left).
    """

    def __init__(self, variant: Variant, flip: bool = False, mirror: bool = False) -> None:
        self.variant = variant
        self.flip = bool(flip)
        self.mirror = bool(mirror)
        top, bottom = variant.board_rows
        base: dict[int, tuple[int, int]] = {}
        for row, indices in enumerate((top, bottom)):
            for col, i in enumerate(indices):
                base[i] = (row, col)
        if sorted(base) != list(range(24)) or len(top) != 12 or len(bottom) != 12:
            raise BoardOptionError(f"{variant.name}: board_rows must place each of the 24 "
                                   "points once, twelve a row")
        self._cell: dict[int, tuple[int, int]] = {}
        for s in range(24):
            row, col = base[variant.to_mover(s)] if self.flip else base[s]
            self._cell[s] = (row, 11 - col if self.mirror else col)
        self._slot_at = {cell: s for s, cell in self._cell.items()}

    # -- points ---------------------------------------------------------------------------
    def slot(self, color: int, index: int) -> int:
        """The slot (white's index) of ``color``'s own point index."""
        return index if color == WHITE else self.variant.to_mover(index)

    def cell(self, slot: int) -> tuple[int, int]:
        """(row, column) of a slot."""
        return self._cell[slot]

    def slot_at(self, row: int, col: int) -> int:
        return self._slot_at[(row, col)]

    def index_of(self, slot: int, color: int) -> int:
        """``color``'s own index of a slot (to_mover is its own inverse in every variant)."""
        return slot if color == WHITE else self.variant.to_mover(slot)

    def label(self, slot: int, color: int) -> str:
        """The point's name in ``color``'s notation."""
        return self.variant.point_name(self.index_of(slot, color), color)

    def home_row(self, color: int) -> int:
        """The row holding ``color``'s index 0 (where its tray is drawn)."""
        return self.cell(self.slot(color, 0))[0]

    def entry_row(self, color: int) -> int:
        """The row holding ``color``'s index 23 (where its bar checkers wait)."""
        return self.cell(self.slot(color, 23))[0]

    def parse_point(self, name: Any, color: int) -> int:
        """The slot of a point named in ``color``'s notation (a string or a number)."""
        text = str(name)
        try:
            index = self.variant.point_index(text, color)
        except ValueError as e:
            raise BoardOptionError(f"not a point of {self.variant.name}: {text!r} ({e})") from None
        if not 0 <= index <= 23:
            raise BoardOptionError(f"not a point of {self.variant.name}: {text!r}")
        return self.slot(color, index)

    # -- side slots -----------------------------------------------------------------------
    def places(self, where: str) -> list[int]:
        """Side indices (24, 25) the variant shows at ``where`` ("bar" or "tray")."""
        return sorted(i for i, (_, w) in self.variant.board_places.items() if w == where)

    def place_label(self, index: int) -> str:
        return self.variant.board_places[index][0]

    def capacity(self, index: int) -> int:
        """Most checkers a side slot holds in play: the starting count (Shlem's three
        reserves) or all fifteen."""
        start = self.variant.picture_side(self.variant.initial_side())[index]
        return start if start > 0 else 15


def stacks(position: Any) -> dict[int, Stack]:
    """slot -> the checkers on it, for every occupied point."""
    v = position.variant
    found: dict[int, list[tuple[int, int, bool]]] = {}
    for color in (WHITE, BLACK):
        side = position.side(color)
        for i in range(24):
            n = side[i]
            if n:
                s = i if color == WHITE else v.to_mover(i)
                found.setdefault(s, []).append((color, abs(n), n < 0))
    out = {}
    for s, runs in found.items():
        runs.sort(key=lambda r: not r[2])  # the prisoner at the bottom
        out[s] = Stack(tuple((c, n) for c, n, _ in runs))
    return out


def pip_counts(position: Any) -> dict[int, int] | None:
    """Both colours' pip counts, or None where the variant has no such count."""
    try:
        return {c: int(position.pip_count(c)) for c in (WHITE, BLACK)}
    except (Error, NotImplementedError):
        return None


def color_name(color: int) -> str:
    return "white" if color == WHITE else "black"


def check_color(value: Any, what: str) -> int:
    if value in (WHITE, BLACK) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str) and value.lower() in ("white", "w", "black", "b"):
        return WHITE if value.lower() in ("white", "w") else BLACK
    raise BoardOptionError(f"{what} must be WHITE, BLACK, 'white' or 'black', got {value!r}")


def check_dice(dice: Any) -> tuple[int, int] | None:
    if dice is None:
        return None
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise BoardOptionError(f"dice must be two numbers 1..6, got {dice!r}") from None
    if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in (d1, d2)):
        raise BoardOptionError(f"dice must be two numbers 1..6, got {dice!r}")
    return d1, d2


def check_cube(cube: Any) -> tuple[int, int | None] | None:
    """``cube`` as (value, owner): a value (centred) or a (value, owner) pair."""
    if cube is None:
        return None
    owner: Any = None
    value = cube
    if isinstance(cube, tuple):
        if len(cube) != 2:
            raise BoardOptionError(f"cube must be a value or (value, owner), got {cube!r}")
        value, owner = cube
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise BoardOptionError(f"cube value must be a number >= 1, got {value!r}")
    return value, None if owner is None else check_color(owner, "cube owner")


def game_defaults(obj: Any) -> tuple[Any, dict[str, Any]]:
    """(position, picture options) of a Position, Game or Match: a game gives its dice, its
    cube and its last move; a match adds the score."""
    from nardy.position import Position

    if isinstance(obj, Position):
        return obj, {}
    game = getattr(obj, "game", None)
    extra: dict[str, Any] = {}
    if game is not None and hasattr(obj, "score"):  # a match: its current game
        length = obj.length
        sc = obj.score
        extra["notes"] = (f"{'money' if not length else f'match to {length}'}: "
                          f"white {sc[0]:g}, black {sc[1]:g}",)
        obj = game
    position = getattr(obj, "position", None)
    if not isinstance(position, Position):
        raise BoardOptionError(f"cannot draw a {type(obj).__name__}: expected a Position, "
                               "Game or Match")
    over = obj.is_game_over()
    if obj.dice is not None and not over:
        extra["dice"] = tuple(obj.dice)
    if obj.cube_in_play:
        extra["cube"] = (obj.cube_value, obj.cube_owner)
    for action in reversed(obj.history):
        if action.kind == "move":
            extra["last_move"] = action.move
            extra["last_move_color"] = action.player
            break
        if action.kind not in ("roll", "double", "take"):
            break
    return position, extra


def step_list(move: Any) -> Iterable[tuple[int, int, bool]]:
    from nardy.position import Move

    if not isinstance(move, Move):
        raise BoardOptionError(f"last_move must be a nardy.Move, not {type(move).__name__}")
    return [(s.from_, s.to, s.hit) for s in move.steps]
