"""Board pictures: the SVG is well-formed and uses only SVG elements, and once rasterised
(cairosvg; headless Chromium for one page) the checkers are where the rules put them.

The expected places come from tests/reference/board_layout.py (written from the rules, not
taken from nardy.svg). Geometry in pixels at size=608 (one viewBox unit a pixel):
points 40 wide from x=12 with a 40-wide bar after the sixth column; rows of 200 from y=34 and
y=298; checkers of radius 18 stacked 36 apart from the edge; the tray from x=544, 52 wide.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

import nardy
from nardy import BLACK, WHITE, Position
from nardy.svg import BoardOptionError, board
from tests.reference.board_layout import (
    all_positions,
    base_cell,
    cell,
    expected_stacks,
    random_positions,
    shlem_with_prisoners_and_hits,
    special_positions,
    white_slot,
)

cairosvg = pytest.importorskip("cairosvg",
                               reason="cairosvg is not installed (pip install cairosvg)")
Image = pytest.importorskip("PIL.Image")

SVG_NS = "{http://www.w3.org/2000/svg}"
# SVG 1.1 element names (W3C SVG 1.1, appendix A "Element Index").
SVG11_ELEMENTS = set("""a altGlyph altGlyphDef altGlyphItem animate animateColor animateMotion
animateTransform circle clipPath color-profile cursor defs desc ellipse feBlend feColorMatrix
feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap
feDistantLight feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur feImage feMerge
feMergeNode feMorphology feOffset fePointLight feSpecularLighting feSpotLight feTile
feTurbulence filter font font-face font-face-format font-face-name font-face-src font-face-uri
foreignObject g glyph glyphRef hkern image line linearGradient marker mask metadata
missing-glyph mpath path pattern polygon polyline radialGradient rect script set stop style
svg switch symbol text textPath title tref tspan use view vkern""".split())

# Attributes each element may carry (SVG 1.1: the element's own attributes, the core
# attributes id/class, and the presentation attributes of appendix M).
PRESENTATION = {"fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity",
                "stroke-linecap", "font-family", "font-size", "font-weight", "text-anchor",
                "marker-end", "opacity"}
CORE = {"id", "class"}
OWN_ATTRIBUTES = {
    "svg": {"width", "height", "viewBox", "version"},
    "marker": {"viewBox", "refX", "refY", "markerWidth", "markerHeight", "orient"},
    "path": {"d"}, "rect": {"x", "y", "width", "height", "rx"},
    "polygon": {"points"}, "circle": {"cx", "cy", "r"}, "line": {"x1", "y1", "x2", "y2"},
    "text": {"x", "y"}, "g": set(), "defs": set(), "title": set(),
}

WIDTH = 608
WHITE_FILL = (0xF5, 0xF2, 0xE8)
BLACK_FILL = (0x20, 0x20, 0x20)


def checker_xy(row: int, col: int, k: int) -> tuple[int, int]:
    x = 12 + 40 * col + (40 if col >= 6 else 0) + 20
    y = 34 + 19 + 36 * k if row == 0 else 498 - 19 - 36 * k
    return x, y - 11  # above the centre, clear of a count written on the checker


def classify(rgb: tuple[int, ...]) -> str:
    def dist(a: tuple[int, ...], b: tuple[int, ...]) -> float:
        return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5
    if dist(rgb, WHITE_FILL) < 45:
        return "W"
    if dist(rgb, BLACK_FILL) < 45:
        return "B"
    return "-"


def rasterise(svg: str) -> Image.Image:
    png = cairosvg.svg2png(bytestring=svg.encode())
    return Image.open(io.BytesIO(png)).convert("RGB")


def runs(img: Image.Image, x: int, y0: int, y1: int) -> dict[str, int]:
    """Runs of checker colour along a column (tray bars)."""
    count = {"W": 0, "B": 0}
    prev = "-"
    step = 1 if y1 > y0 else -1
    for y in range(y0, y1, step):
        c = classify(img.getpixel((x, y)))
        if c != "-" and c != prev:
            count[c] += 1
        prev = c
    return count


def check_picture(img: Image.Image, position: Position, flip: bool = False,
                  dx: int = 0, dy: int = 0) -> None:
    exp = expected_stacks(position, flip)
    letter = {WHITE: "W", BLACK: "B"}
    for row in (0, 1):
        for col in range(12):
            stack = exp.get((row, col), [])
            for k in range(5):
                x, y = checker_xy(row, col, k)
                got = classify(img.getpixel((x + dx, y + dy)))
                want = letter[stack[k]] if k < len(stack) else "-"
                assert got == want, (f"{nardy.to_text(position)} flip={flip}: row {row} "
                                     f"column {col} checker {k}: {got} != {want}")
    # The bar (backgammon): each colour waits in the half where it enters.
    sides = {c: position.side(c) for c in (WHITE, BLACK)}
    if position.variant.has_bar:
        for color in (WHITE, BLACK):
            entry_row = cell(position, white_slot(position, color, 23), flip)[0]
            n = sides[color][24]
            for k in range(5):
                y = 234 - 19 - 36 * k if entry_row == 0 else 298 + 19 + 36 * k
                got = classify(img.getpixel((272 + dx, y - 11 + dy)))
                want = letter[color] if k < n else "-"
                assert got == want, f"{nardy.to_text(position)}: bar of {color}, {k}"
    # The trays, on each colour's home row: off (and Shlem's reserves in the outer 40).
    for color in (WHITE, BLACK):
        home_row = cell(position, white_slot(position, color, 0), flip)[0]
        outer, inner = (34, 234) if home_row == 0 else (497, 298)
        sign = 1 if home_row == 0 else -1
        if position.variant.name == "shlem":
            parts = [(24, outer, outer + sign * 40), (25, outer + sign * 40, inner)]
        else:
            parts = [(25, outer, inner)]
        for index, a, b in parts:
            got = runs(img, 570 + dx, a + dy, b + dy)
            assert got[letter[color]] == sides[color][index], (
                f"{nardy.to_text(position)}: tray {index} of {color}: {got}")
            assert got[letter[1 - color]] == 0


# --- tests --------------------------------------------------------------------------------

def test_svg_is_xml_with_svg_elements_only() -> None:
    pos = Position("backgammon")
    m = pos.parse_move("8/5 6/5", (3, 1))
    after = pos.play(m, (3, 1))
    samples = [board(p) for p in all_positions()]
    samples.append(board(after, last_move=m, dice=(6, 6), cube=(4, WHITE), highlight=["5"],
                         flip=True, mirror=True, theme="dark"))
    samples.append(board(after, coordinates=False, pips=False, size=None))
    for svg in samples:
        root = ET.fromstring(svg)
        assert root.tag == SVG_NS + "svg"
        for el in root.iter():
            assert el.tag.startswith(SVG_NS), el.tag
            name = el.tag[len(SVG_NS):]
            assert name in SVG11_ELEMENTS, el.tag
            allowed = OWN_ATTRIBUTES[name] | CORE | (PRESENTATION if name != "title" else set())
            assert set(el.attrib) <= allowed, (name, set(el.attrib) - allowed)
            for key in ("x", "y", "width", "height", "cx", "cy", "r", "x1", "y1", "x2", "y2"):
                if key in el.attrib:
                    float(el.attrib[key])  # a number, never "None" or "nan"


@pytest.mark.parametrize("flip", [False, True])
def test_checkers_where_the_rules_put_them(flip: bool) -> None:
    for p in all_positions():
        check_picture(rasterise(board(p, size=WIDTH, flip=flip)), p, flip)


def test_shlem_prisoners_and_hit_out_checkers() -> None:
    found = shlem_with_prisoners_and_hits()
    assert found, "random Shlem games gave no position with prisoners and hit-out checkers"
    for p in found:
        check_picture(rasterise(board(p, size=WIDTH)), p)


def test_the_reference_layout_is_not_trivially_satisfied() -> None:
    # A picture of a different position must fail the check.
    a, b = Position("backgammon"), Position("backgammon").play("8/5 6/5", (3, 1))
    with pytest.raises(AssertionError):
        check_picture(rasterise(board(a, size=WIDTH)), b)
    with pytest.raises(AssertionError):  # drawn unflipped, checked as flipped
        check_picture(rasterise(board(a, size=WIDTH)), a, flip=True)


def texts(svg: str) -> list[str]:
    return [el.text or "" for el in ET.fromstring(svg).iter(SVG_NS + "text")]


def test_tall_stacks_carry_their_count() -> None:
    p = special_positions()[0]  # 15 white checkers on one point, 6 black on another
    t = texts(board(p))
    assert "15" in t and "6" in t
    t = texts(board(Position("backgammon")))
    assert "5" not in [x for x in t if x.isdigit() and x not in {str(n) for n in range(1, 25)}]


def label_row(svg: str, top: bool) -> list[str]:
    """The point names along the top (or bottom) edge, left to right."""
    root = ET.fromstring(svg)
    return [t for _, t in sorted(
        (float(el.get("x")), el.text) for el in root.iter(SVG_NS + "text")
        if el.text and el.get("font-size") == "14" and el.text.isdigit()
        and (float(el.get("y")) < 40) == top)]


def test_point_numbers_from_either_side() -> None:
    bg = Position("backgammon")
    assert label_row(board(bg), True) == [str(n) for n in range(13, 25)]
    assert label_row(board(bg), False) == [str(n) for n in range(12, 0, -1)]
    # black's view in black's numbering looks the same; in white's numbering it does not
    assert label_row(board(bg, flip=True), True) == [str(n) for n in range(13, 25)]
    assert label_row(board(bg, flip=True, numbering=WHITE), True) == \
        [str(n) for n in range(12, 0, -1)]
    assert label_row(board(bg, mirror=True), False) == [str(n) for n in range(1, 13)]


def test_long_nardy_and_shlem_names() -> None:
    ln = Position("long-nardy")
    assert label_row(board(ln), True) == [str(n) for n in range(13, 25)]  # white's head top right
    # the absolute numbering of the rule text: black's view shows 1..12 along the top
    assert label_row(board(ln, flip=True), True) == [str(n) for n in range(1, 13)]
    sh = board(Position("shlem"))
    assert label_row(sh, True) == ["41", "42", "43", "44", "45", "46",
                                   "31", "32", "33", "34", "35", "36"]
    assert label_row(sh, False) == ["11", "12", "13", "14", "15", "16",
                                    "21", "22", "23", "24", "25", "26"]
    assert "stage 1" in texts(sh)[-1]


def test_last_move_arrows_and_hits() -> None:
    pos = Position("backgammon").play("24/23 13/10", (3, 1))  # black to play
    moves = pos.legal_moves((6, 2))
    hitting = [m for m in moves if any(s.hit for s in m.steps)]
    assert hitting
    m = hitting[0]
    after = pos.play(m, (6, 2))
    root = ET.fromstring(board(after, last_move=m))
    group = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "last-move"]
    assert len(group) == 1
    assert len(group[0].findall(SVG_NS + "line")) == len(m.steps)
    assert len(group[0].findall(SVG_NS + "circle")) == sum(s.hit for s in m.steps)
    # each arrow ends over the point its step went to: black's index t is white's 23 - t
    ends = [(float(ln.get("x2")), float(ln.get("y2"))) for ln in group[0].findall(SVG_NS + "line")]
    for (x2, y2), s in zip(ends, m.steps):
        row, col = base_cell("backgammon", 23 - s.to)
        assert x2 == checker_xy(row, col, 0)[0]
        assert (y2 < 234) == (row == 0)


def test_dice_cube_highlight_and_errors() -> None:
    p = Position("backgammon")
    root = ET.fromstring(board(p, dice=(5, 2), cube=(8, BLACK)))
    titles = [el.text for el in root.iter(SVG_NS + "title")]
    assert "die 5" in titles and "die 2" in titles and "cube 8, owned by black" in titles
    assert "cube 2" in [el.text for el in ET.fromstring(board(p, cube=2)).iter(SVG_NS + "title")]
    img = rasterise(board(p, size=WIDTH, highlight=[3]))  # white's 3-point: bottom, column 9
    x, y = checker_xy(1, 9, 2)
    r, g, b = img.getpixel((x, y))
    assert r > 200 and g > 180 and b < 140  # the highlight's yellow
    plain = rasterise(board(p, size=WIDTH)).getpixel((x, y))
    assert plain != (r, g, b)
    for bad in (dict(dice=(0, 3)), dict(dice="31"), dict(cube=0), dict(cube=(2, 5)),
                dict(highlight=["99"]), dict(theme="neon"), dict(colors={"fog": "#fff"}),
                dict(colors={"white": "red\"/><script"}), dict(size=0), dict(numbering=3),
                dict(last_move="8/5")):
        with pytest.raises(BoardOptionError):
            board(p, **bad)
    assert issubclass(BoardOptionError, nardy.Error)
    with pytest.raises(nardy.Error):
        board("backgammon")


def test_colours_and_size() -> None:
    p = Position("backgammon")
    svg = board(p, size=300, colors={"white": "#00ff00"})
    root = ET.fromstring(svg)
    assert root.get("width") == "300"
    img = rasterise(board(p, size=WIDTH, colors={"white": "#00ff00"}))
    x, y = checker_xy(1, 6, 0)  # white's 6-point: bottom row, column 6
    assert img.getpixel((x, y)) == (0, 255, 0)


def test_repr_svg_and_legal_moves_html() -> None:
    p = Position("long-nardy")
    assert ET.fromstring(p._repr_svg_()).tag == SVG_NS + "svg"
    g = nardy.Game("backgammon", seed=5)
    g.roll()
    g.play(0)
    g.roll()
    root = ET.fromstring(g._repr_svg_())
    assert [x for x in root.iter(SVG_NS + "g") if x.get("class") == "last-move"]
    titles = [el.text for el in root.iter(SVG_NS + "title")]
    assert sum(1 for t in titles if t and t.startswith("die ")) == 2
    m = nardy.Match(3, "backgammon", seed=1)
    assert "match to 3" in "".join(texts(m._repr_svg_()))
    short = Position("backgammon").legal_moves((6, 6))
    html = short._repr_html_()
    assert html.count("<svg") == len(short)
    long = Position("backgammon").legal_moves((2, 1))
    assert len(long) > 12 and "<svg" not in long._repr_html_()


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def test_headless_chromium_draws_the_same_checkers(tmp_path: os.PathLike[str]) -> None:
    exe = _chromium()
    if exe is None:
        pytest.skip("headless Chromium not found (Debian: apt-get install chromium)")
    positions = [special_positions()[0], special_positions()[2],
                 random_positions("long-nardy", 3, 1)[0]]
    page = "".join(f'<div style="height:600px">{board(p, size=WIDTH)}</div>' for p in positions)
    html = os.path.join(tmp_path, "boards.html")
    shot = os.path.join(tmp_path, "shot.png")
    with open(html, "w") as f:
        f.write(f'<!DOCTYPE html><html><body style="margin:0">{page}</body></html>')
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--force-device-scale-factor=1", f"--window-size={WIDTH},{600 * len(positions)}",
           f"--screenshot={shot}", "file://" + html]
    try:
        subprocess.run(cmd, capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        pytest.skip(f"headless Chromium could not start: {e}")
    if not os.path.exists(shot):
        pytest.skip("headless Chromium could not start: it wrote no screenshot")
    img = Image.open(shot).convert("RGB")
    for k, p in enumerate(positions):
        check_picture(img, p, dy=600 * k)
