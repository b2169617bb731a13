"""The text board: a fixed-width picture of a position in the style of gnubg's, for every
variant, within 80 columns.

::

     backgammon: white to move
     +13-14-15-16-17-18------19-20-21-22-23-24-+
     | O           X    |   | X              O |  X black
     | O           X    |   | X              O |    off 0
     | O           X    |   | X                |    pips 167
     | O                |   | X                |
     | O                |   | X                |
     |                  |BAR|                  |  dice 3-1  cube 1
     | X                |   | O                |
     | X                |   | O                |
     | X           O    |   | O                |    pips 167
     | X           O    |   | O              X |    off 0
     | X           O    |   | O              X |  O white, on roll
     +12-11-10--9--8--7-------6--5--4--3--2--1-+

Stacks of more than five show their count on the fifth line; a Shlem prisoner is the lower-case
(or hollow) mark under its captors. The layout comes from the variant (see
:mod:`nardy._geometry`), the same as the SVG pictures'.
"""

from __future__ import annotations

from typing import Any

from nardy._geometry import (
    Geometry,
    check_color,
    check_cube,
    check_dice,
    color_name,
    game_defaults,
    pip_counts,
    stacks,
)
from nardy.variants import BLACK, WHITE

__all__ = ["board"]

_ROWS = 5
_WIDTH = 80
_GLYPHS = {
    True: {WHITE: ("O", "o"), BLACK: ("X", "x")},       # ASCII: checker, prisoner
    False: {WHITE: ("○", "◌"), BLACK: ("●", "◍")},
}


def board(position: Any, *, ascii: bool = False, flip: bool = False, mirror: bool = False,
          numbering: int | str | None = None, dice: Any = None, cube: Any = None,
          pips: bool = True, notes: tuple[str, ...] = ()) -> str:
    """The text board of a :class:`~nardy.Position` (or of a Game or Match: their dice, cube
    and score unless given here). ``ascii``: O and X for white and black (default: ○ and ●).
    ``flip``, ``mirror`` and ``numbering`` as for :func:`nardy.svg.board`; ``dice`` a roll,
    ``cube`` a value or (value, owner); ``notes`` extra text for the first line. Every line
    fits in 80 columns."""
    position, defaults = game_defaults(position)
    dice = check_dice(defaults.get("dice") if dice is None else dice)
    cube = check_cube(defaults.get("cube") if cube is None else cube)
    geo = Geometry(position.variant, flip, mirror)
    viewer = BLACK if flip else WHITE
    numbering = viewer if numbering is None else check_color(numbering, "numbering")
    glyph = _GLYPHS[bool(ascii)]

    # grid[row][col] = list of cell strings, k = 0 at the edge
    grid = [[["   "] * _ROWS for _ in range(12)] for _ in range(2)]
    for s, stack in stacks(position).items():
        row, col = geo.cell(s)
        order = stack.colors()
        prisoner = len(stack.runs) > 1  # the bottom checker is held under the others
        for k, c in enumerate(order[:_ROWS]):
            mark = glyph[c][1] if (prisoner and k == 0) else glyph[c][0]
            grid[row][col][k] = f" {mark} "
        if len(order) > _ROWS:
            top = order[-1]
            grid[row][col][_ROWS - 1] = f"{sum(n for c, n in stack.runs if c == top):>2} "
    bar = [["   "] * _ROWS for _ in range(2)]  # k = 0 next to the middle line
    sides = {c: position.variant.picture_side(position.side(c)) for c in (WHITE, BLACK)}
    for index in geo.places("bar"):
        for c in (WHITE, BLACK):
            n = sides[c][index]
            row = geo.entry_row(c)
            for k in range(min(n, _ROWS)):
                bar[row][k] = f" {glyph[c][0]} "
            if n > _ROWS:
                bar[row][_ROWS - 1] = f"{n:>2} "

    def border(row: int) -> str:
        cells = []
        for col in range(12):
            if col == 6:
                cells.append("-----")
            cells.append(f"{geo.label(geo.slot_at(row, col), numbering):->2}-")
        return " +" + "".join(cells)[:-1] + "-+"

    def line(row: int, k: int) -> str:
        """Line k of a row (k = 0 at the board's edge)."""
        cells = [grid[row][col][k] for col in range(12)]
        b = bar[row][_ROWS - 1 - k]
        return " |" + "".join(cells[:6]) + "|" + b + "|" + "".join(cells[6:]) + "|"

    # notes beside each half: the colour whose home (tray) is on that row
    side_notes: dict[int, list[str]] = {0: [], 1: []}
    pc = pip_counts(position) if pips else None
    for c in (WHITE, BLACK):
        row = geo.home_row(c)
        on_roll = ", on roll" if c == position.turn else ""
        half_notes = [f"{glyph[c][0]} {color_name(c)}{on_roll}"]
        for index in geo.places("tray"):
            half_notes.append(f"  {geo.place_label(index)} {sides[c][index]}")
        if pc is not None:
            half_notes.append(f"  pips {pc[c]}")
        if cube is not None and cube[1] == c:
            half_notes.append(f"  cube {cube[0]}")
        half_notes = half_notes[:_ROWS]
        side_notes[row] = half_notes if row == 0 else half_notes[::-1]
    middle = []
    if dice is not None:
        middle.append(f"dice {dice[0]}-{dice[1]}")
    if cube is not None and cube[1] is None:
        middle.append(f"cube {cube[0]}")

    head = f" {position.variant.name}: {color_name(position.turn)} to move"
    extra = (list(position.variant.board_notes(position)) + list(defaults.get("notes", ()))
             + [str(n) for n in notes])
    if extra:
        head += "; " + "; ".join(extra)
    out = [head[:_WIDTH], border(0)]
    top_notes = side_notes[0] + [""] * _ROWS
    for k in range(_ROWS):
        out.append(_beside(line(0, k), top_notes[k]))
    label = "BAR" if geo.places("bar") else "   "
    out.append(_beside(" |" + " " * 18 + "|" + label + "|" + " " * 18 + "|", "  ".join(middle)))
    bottom_notes = [""] * _ROWS + side_notes[1]
    bottom_notes = bottom_notes[-_ROWS:]
    for k in range(_ROWS - 1, -1, -1):
        out.append(_beside(line(1, k), bottom_notes[_ROWS - 1 - k]))
    out.append(border(1))
    return "\n".join(out)


def _beside(board_line: str, note: str) -> str:
    if not note:
        return board_line
    return (board_line + "  " + note)[:_WIDTH]
