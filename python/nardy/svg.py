"""Board pictures as SVG, for every variant (no dependency beyond the standard library).

>>> import nardy, nardy.svg
>>> svg = nardy.svg.board(nardy.Position("backgammon"), dice=(3, 1))
>>> svg.startswith("<svg")
True

The layout comes from the variant (its rows of points, its bar, trays and point names), so
backgammon, long nardy and Shlem share one renderer. Jupyter shows a board for a
:class:`~nardy.Position`, :class:`~nardy.Game` or :class:`~nardy.Match` through their
``_repr_svg_``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from xml.sax.saxutils import escape

from nardy._geometry import (
    BoardOptionError,
    Geometry,
    check_color,
    check_cube,
    check_dice,
    color_name,
    game_defaults,
    pip_counts,
    stacks,
    step_list,
)
from nardy.variants import BLACK, WHITE

__all__ = ["THEMES", "BoardOptionError", "board", "board_html"]

#: Colour themes: name -> colour role -> CSS colour.
THEMES: dict[str, dict[str, str]] = {
    "classic": {
        "frame": "#5a3a1e", "board": "#2e6b3f", "bar": "#5a3a1e", "tray": "#6e4a26",
        "point_light": "#d9c08c", "point_dark": "#9c3d2e",
        "white": "#f5f2e8", "white_edge": "#6b6b6b", "black": "#202020", "black_edge": "#000000",
        "text": "#e0c060", "label": "#202020", "margin": "#ffffff",
        "highlight": "#ffe14d", "arrow": "#1f6fd1", "hit": "#e3262b",
        "die": "#ffffff", "die_pip": "#202020", "cube": "#ffffff", "cube_text": "#202020",
    },
    "dark": {
        "frame": "#1c1c1c", "board": "#34404f", "bar": "#1c1c1c", "tray": "#141414",
        "point_light": "#8fa3b8", "point_dark": "#b5614a",
        "white": "#f0f0f0", "white_edge": "#9a9a9a", "black": "#c0392b", "black_edge": "#5a140d",
        "text": "#e0e0e0", "label": "#e0e0e0", "margin": "#101010",
        "highlight": "#ffe14d", "arrow": "#4fa3ff", "hit": "#ff5a5f",
        "die": "#f0f0f0", "die_pip": "#101010", "cube": "#f0f0f0", "cube_text": "#101010",
    },
}

# Layout in viewBox units.
_P = 40          # point width
_R = 18          # checker radius
_F = 12          # frame
_B = 40          # bar width
_T = 52          # tray width
_H = 200         # half height (a row of points)
_G = 64          # gap between the rows (dice, cube)
_LB = 22         # band for point labels (when coordinates are on)
_IB = 26         # band for the text line under the board
_SHOWN = 5       # checkers drawn on a point before the count is written instead


class _Layout:
    def __init__(self, geo: Geometry, coordinates: bool) -> None:
        self.geo = geo
        self.lb = _LB if coordinates else 4
        self.y_top = self.lb + _F
        self.y_gap = self.y_top + _H
        self.y_low = self.y_gap + _G
        self.y_bot = self.y_low + _H
        self.height = self.y_bot + _F + self.lb + _IB
        self.width = _F + 12 * _P + _B + _F + _T + _F
        if geo.mirror:
            self.x_tray = _F
            self.x_left = _F + _T + _F
        else:
            self.x_left = _F
            self.x_tray = _F + 12 * _P + _B + _F
        self.x_bar = self.x_left + 6 * _P

    def col_x(self, col: int) -> float:
        return self.x_left + col * _P + (_B if col >= 6 else 0)

    def checker(self, row: int, col: int, k: int) -> tuple[float, float]:
        """Centre of the k-th checker (0 = at the edge) of a point."""
        x = self.col_x(col) + _P / 2
        if row == 0:
            return x, self.y_top + _R + 1 + 2 * _R * k
        return x, self.y_bot - _R - 1 - 2 * _R * k

    def bar_checker(self, row: int, k: int) -> tuple[float, float]:
        x = self.x_bar + _B / 2
        if row == 0:
            return x, self.y_gap - _R - 1 - 2 * _R * k
        return x, self.y_low + _R + 1 + 2 * _R * k

    def tray(self, row: int, index: int) -> tuple[float, float, float, int]:
        """(outer edge y, inner edge y, pitch, direction) of a side slot's compartment in a
        row's tray; direction +1 stacks downwards."""
        places = self.geo.places("tray")
        weights = [self.geo.capacity(i) + 1 for i in places]
        k = places.index(index)
        before = sum(weights[:k]) / sum(weights) * _H
        share = weights[k] / sum(weights) * _H
        pitch = min(12.0, (share - 16) / self.geo.capacity(index))
        if row == 0:
            return self.y_top + before, self.y_top + before + share, pitch, 1
        return self.y_bot - before, self.y_bot - before - share, pitch, -1

    def tray_checker(self, row: int, index: int, k: int) -> tuple[float, float]:
        outer, _, pitch, d = self.tray(row, index)
        return self.x_tray + _T / 2, outer + d * (2 + pitch * (k + 0.5))


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _attr(value: Any) -> str:
    return escape(_f(value) if isinstance(value, float) else str(value), {'"': "&quot;"})


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attrs: Any) -> None:
        # keyword names map to attribute names: font_family -> font-family, class_ -> class
        a = "".join(f' {k.rstrip("_").replace("_", "-")}="{_attr(v)}"'
                    for k, v in attrs.items() if v is not None)
        if text is None:
            self.parts.append(f"<{tag}{a}/>")
        else:
            self.parts.append(f"<{tag}{a}>{escape(text)}</{tag}>")

    def open(self, tag: str, **attrs: Any) -> None:
        self.add(tag, **attrs)
        self.parts[-1] = self.parts[-1][:-2] + ">"

    def close(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")


def _theme(theme: str | Mapping[str, str], colors: Mapping[str, str] | None) -> dict[str, str]:
    if isinstance(theme, str):
        if theme not in THEMES:
            raise BoardOptionError(f"unknown theme {theme!r}; known: {', '.join(THEMES)}")
        pal = dict(THEMES[theme])
    elif isinstance(theme, Mapping):
        pal = dict(THEMES["classic"])
        pal.update(theme)
    else:
        raise BoardOptionError(f"theme must be a name or a mapping, not {type(theme).__name__}")
    for k, v in (colors or {}).items():
        if k not in THEMES["classic"]:
            raise BoardOptionError(f"unknown colour role {k!r}; known: "
                                   + ", ".join(THEMES["classic"]))
        if not isinstance(v, str) or not v or any(ch in v for ch in "<>\"'&"):
            raise BoardOptionError(f"colour {k}={v!r} is not a CSS colour")
        pal[k] = v
    return pal


def board(
    position: Any,
    *,
    size: int | None = 480,
    flip: bool = False,
    mirror: bool = False,
    coordinates: bool = True,
    numbering: int | str | None = None,
    theme: str | Mapping[str, str] = "classic",
    colors: Mapping[str, str] | None = None,
    last_move: Any = None,
    last_move_color: int | str | None = None,
    dice: Any = None,
    cube: Any = None,
    pips: bool = True,
    highlight: Iterable[Any] = (),
    notes: Iterable[str] = (),
) -> str:
    """An SVG picture of a position (or of a :class:`~nardy.Game` or :class:`~nardy.Match`:
    their dice, cube, last move and score are drawn unless given here).

    ``size``        width in pixels (None: no width/height attributes, only the viewBox)
    ``flip``        seen from black's side (black's points where white's are by default)
    ``mirror``      home on the left instead of the right
    ``coordinates`` point names above and below the board
    ``numbering``   whose notation names the points (default: the side at the bottom)
    ``theme``       a name from :data:`THEMES` or a mapping of colour roles; ``colors``
                    overrides single roles
    ``last_move``   a :class:`~nardy.Move` drawn as arrows, hits ringed; its steps are in the
                    coordinates of ``last_move_color`` (default: the side not on roll, who
                    has just moved)
    ``dice``        a roll (d1, d2), drawn in the mover's colour
    ``cube``        the cube: its value (centred) or (value, owner colour)
    ``pips``        pip counts in the line under the board, where the variant has them
    ``highlight``   points to tint, by name in the ``numbering`` side's notation
    ``notes``       extra text for the line under the board

    Bad options raise :class:`BoardOptionError` (a :class:`nardy.Error`).
    """
    position, defaults = game_defaults(position)
    if dice is None:
        dice = defaults.get("dice")
    if cube is None:
        cube = defaults.get("cube")
    if last_move is None and "last_move" in defaults:
        last_move = defaults["last_move"]
        last_move_color = defaults["last_move_color"]
    notes = tuple(defaults.get("notes", ())) + tuple(notes)
    if size is not None and (not isinstance(size, int) or isinstance(size, bool)
                             or not 16 <= size <= 10000):
        raise BoardOptionError(f"size must be a number of pixels 16..10000 or None, got {size!r}")
    pal = _theme(theme, colors)
    geo = Geometry(position.variant, flip, mirror)
    lay = _Layout(geo, coordinates)
    viewer = BLACK if flip else WHITE
    numbering = viewer if numbering is None else check_color(numbering, "numbering")
    dice = check_dice(dice)
    cube = check_cube(cube)
    lit = {geo.parse_point(p, numbering) for p in highlight}
    steps = None
    if last_move is not None:
        mover = 1 - position.turn if last_move_color is None else check_color(
            last_move_color, "last_move_color")
        steps = (mover, step_list(last_move))

    out = _Svg()
    height = lay.height
    out.open("svg", xmlns="http://www.w3.org/2000/svg", version="1.1",
             viewBox=f"0 0 {lay.width} {height}",
             width=size, height=None if size is None else round(size * height / lay.width))
    try:
        from nardy.formats.text import to_text

        out.add("title", to_text(position))
    except Exception:  # pragma: no cover - a title is a nicety, never a reason to fail
        pass
    out.open("defs")
    out.open("marker", id="nardy-arrowhead", viewBox="0 0 10 10", refX="8", refY="5",
             markerWidth="4", markerHeight="4", orient="auto")
    out.add("path", d="M0,0 L10,5 L0,10 z", fill=pal["arrow"])
    out.close("marker")
    out.close("defs")
    out.add("rect", x=0, y=0, width=lay.width, height=height, fill=pal["margin"])
    top_y = lay.y_top - _F
    out.add("rect", x=0, y=top_y, width=lay.width, height=2 * _H + _G + 2 * _F,
            fill=pal["frame"])
    out.add("rect", x=lay.x_left, y=lay.y_top, width=12 * _P + _B, height=2 * _H + _G,
            fill=pal["board"])
    out.add("rect", x=lay.x_bar, y=lay.y_top, width=_B, height=2 * _H + _G, fill=pal["bar"])
    out.add("rect", x=lay.x_tray, y=lay.y_top, width=_T, height=2 * _H + _G, fill=pal["tray"])

    # points
    for s in range(24):
        row, col = geo.cell(s)
        x = lay.col_x(col)
        fill = pal["point_light"] if (col + row) % 2 == 0 else pal["point_dark"]
        base, tip = (lay.y_top, lay.y_top + _H - 12) if row == 0 else (lay.y_bot,
                                                                       lay.y_bot - _H + 12)
        pts = f"{_f(x)},{base} {_f(x + _P)},{base} {_f(x + _P / 2)},{tip}"
        out.add("polygon", points=pts, fill=fill)
        if s in lit:
            out.add("polygon", points=pts, fill=pal["highlight"], fill_opacity="0.6",
                    stroke=pal["highlight"], stroke_width="3")
        if coordinates:
            y = lay.lb - 6 if row == 0 else lay.y_bot + _F + lay.lb - 6
            out.add("text", geo.label(s, numbering), x=x + _P / 2, y=y, fill=pal["label"],
                    font_family="sans-serif", font_size="14", text_anchor="middle")

    def checker(cx: float, cy: float, color: int, count: int | None = None,
                r: float = _R) -> None:
        key = "white" if color == WHITE else "black"
        out.add("circle", cx=cx, cy=cy, r=r - 1, fill=pal[key], stroke=pal[key + "_edge"],
                stroke_width="2")
        if count is not None:
            other = "black" if color == WHITE else "white"
            out.add("text", str(count), x=cx, y=cy + 5, fill=pal[other],
                    font_family="sans-serif", font_size="15", font_weight="bold",
                    text_anchor="middle")

    # checkers on the points
    for s, stack in sorted(stacks(position).items()):
        row, col = geo.cell(s)
        order = stack.colors()
        for k, c in enumerate(order[:_SHOWN]):
            cx, cy = lay.checker(row, col, k)
            label = None
            if k == _SHOWN - 1 and len(order) > _SHOWN:
                label = sum(n for cc, n in stack.runs if cc == c)
            checker(cx, cy, c, label)

    # side slots: the bar and the trays
    sides = {c: position.variant.picture_side(position.side(c)) for c in (WHITE, BLACK)}
    for index in geo.places("bar"):
        for c in (WHITE, BLACK):
            n = sides[c][index]
            row = geo.entry_row(c)
            for k in range(min(n, _SHOWN)):
                cx, cy = lay.bar_checker(row, k)
                checker(cx, cy, c, n if (k == _SHOWN - 1 and n > _SHOWN) else None)
    for index in geo.places("tray"):
        for c in (WHITE, BLACK):
            n = sides[c][index]
            row = geo.home_row(c)
            outer, inner, pitch, d = lay.tray(row, index)
            key = "white" if c == WHITE else "black"
            for k in range(n):
                cx, cy = lay.tray_checker(row, index, k)
                out.add("rect", x=lay.x_tray + 6, y=cy - pitch / 2 + 1.25, width=_T - 12,
                        height=max(pitch - 2.5, 1.0), rx="2", fill=pal[key])
            ty = inner - 4 if d > 0 else inner + 12
            out.add("text", f"{geo.place_label(index)} {n}", x=lay.x_tray + _T / 2, y=ty,
                    fill=pal["text"], font_family="sans-serif", font_size="10",
                    text_anchor="middle")

    # dice and cube in the gap between the rows
    gap_mid = lay.y_gap + _G / 2
    if dice is not None:
        key = "white" if position.turn == WHITE else "black"
        x0 = lay.col_x(6) + 3 * _P - 40
        for k, d in enumerate(dice):
            _die(out, x0 + 44 * k, gap_mid - 18, 36, d, pal[key], pal[key + "_edge"],
                 pal["black" if key == "white" else "white"])
    if cube is not None:
        value, owner = cube
        cy = gap_mid
        if owner is not None:
            cy = lay.y_gap + 17 if geo.home_row(owner) == 0 else lay.y_low - 17
        out.open("g")
        out.add("title", f"cube {value}" + ("" if owner is None else
                                            f", owned by {color_name(owner)}"))
        out.add("rect", x=lay.x_tray + _T / 2 - 15, y=cy - 15, width=30, height=30, rx="4",
                fill=pal["cube"], stroke=pal["cube_text"], stroke_width="1.5")
        out.add("text", str(value), x=lay.x_tray + _T / 2, y=cy + 6, fill=pal["cube_text"],
                font_family="sans-serif", font_size="16" if value < 100 else "11",
                font_weight="bold", text_anchor="middle")
        out.close("g")

    # the last move
    if steps is not None:
        _arrows(out, lay, geo, position, steps[0], steps[1], pal)

    # the line under the board
    info = [f"{color_name(position.turn)} to move"]
    pc = pip_counts(position) if pips else None
    if pc is not None:
        info.append(f"pips white {pc[WHITE]}, black {pc[BLACK]}")
    info.extend(position.variant.board_notes(position))
    info.extend(notes)
    out.add("text", " · ".join(info), x=lay.width / 2, y=height - 8, fill=pal["label"],
            font_family="sans-serif", font_size="14", text_anchor="middle")
    out.close("svg")
    return "".join(out.parts)


_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
         5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _die(out: _Svg, x: float, y: float, w: float, value: int, fill: str, edge: str,
         pip: str) -> None:
    out.open("g")
    out.add("title", f"die {value}")
    out.add("rect", x=x, y=y, width=w, height=w, rx="6", fill=fill, stroke=edge,
            stroke_width="2")
    for dx, dy in _PIPS[value]:
        out.add("circle", cx=x + w / 2 + dx * w / 4, cy=y + w / 2 + dy * w / 4, r=w / 11,
                fill=pip)
    out.close("g")


def _anchor(lay: _Layout, geo: Geometry, color: int, index: int,
            k: int = 0) -> tuple[float, float]:
    """Where an arrow starts or ends for ``color``'s index (24: its entry slot, -1: off);
    on a point, at the height of its ``k``-th checker."""
    if 0 <= index <= 23:
        row, col = geo.cell(geo.slot(color, index))
        return lay.checker(row, col, max(0, min(k, _SHOWN - 1)))
    place = 25 if index < 0 else index
    if place in geo.places("bar"):
        return lay.bar_checker(geo.entry_row(color), 0)
    if place in geo.places("tray"):
        row = geo.home_row(color)
        outer, inner, _, _ = lay.tray(row, place)
        return lay.x_tray + _T / 2, (outer + inner) / 2
    raise BoardOptionError(f"last_move: {geo.variant.name} has no side slot {index}")


def _arrows(out: _Svg, lay: _Layout, geo: Geometry, position: Any, mover: int,
            steps: Iterable[tuple[int, int, bool]], pal: dict[str, str]) -> None:
    out.open("g", class_="last-move")
    # The drawing shows the position after the move: an arrow leaves from just above the
    # checkers left on its start point and ends on the top checker of its end point.
    side = [abs(n) for n in position.side(mover)]
    for f, t, hit in steps:
        x1, y1 = _anchor(lay, geo, mover, f, side[f] if 0 <= f <= 23 else 0)
        x2, y2 = _anchor(lay, geo, mover, t, side[t] - 1 if 0 <= t <= 23 else 0)
        out.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=pal["arrow"], stroke_width="5",
                stroke_opacity="0.85", stroke_linecap="round",
                marker_end="url(#nardy-arrowhead)")
        if hit:
            out.add("circle", cx=x2, cy=y2, r=_R + 3, fill="none", stroke=pal["hit"],
                    stroke_width="4")
    out.close("g")


def board_html(boards: Iterable[tuple[str, str]], columns: int = 4) -> str:
    """A grid of (caption, svg) pairs as an HTML fragment."""
    cells = "".join(
        f'<figure style="margin:4px;display:inline-block;text-align:center">{svg}'
        f'<figcaption style="font-family:monospace">{escape(caption)}</figcaption></figure>'
        for caption, svg in boards)
    return f'<div style="display:flex;flex-wrap:wrap">{cells}</div>'
