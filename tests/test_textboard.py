"""The text board: checkers, bar, trays, pips, dice and cube where the rules put them, in a
fixed width within 80 columns; read back from the text against the layout of
tests/reference/board_layout.py (written from the rules, not from nardy.textboard)."""

from __future__ import annotations

import pytest

import nardy
from nardy import BLACK, WHITE, Position
from nardy.textboard import board
from tests.reference.board_layout import (
    all_positions,
    cell,
    expected_stacks,
    shlem_with_prisoners_and_hits,
    white_slot,
)

MARKS = {True: {WHITE: "O", BLACK: "X"}, False: {WHITE: "○", BLACK: "●"}}
PRISONER = {True: {WHITE: "o", BLACK: "x"}, False: {WHITE: "◌", BLACK: "◍"}}


def column(col: int) -> int:
    """Character index of a point's checkers on a board line: ' |' + six 3-wide cells, '|',
    the 3-wide bar, '|', six more cells."""
    return 2 + 3 * col + 1 + (5 if col >= 6 else 0)


def line_of(row: int, k: int) -> int:
    """Line number of checker k (0 = at the edge) of a row: the top row on lines 2..6 from
    the edge, the middle on 7, the bottom row on lines 12..8 from the edge."""
    return 2 + k if row == 0 else 12 - k


def reference_pips(side: tuple[int, ...]) -> int:
    return sum((i + 1) * n for i, n in enumerate(side[:24])) + 25 * side[24]


def check_text(text: str, position: Position, ascii: bool, flip: bool = False) -> None:
    lines = text.split("\n")
    assert len(lines) == 14
    assert max(len(x) for x in lines) <= 80
    board_lines = lines[1:14]
    # fixed width: the board is 44 characters on every line, notes start after two spaces
    assert all(x[1] in "+|" and x[43] in "+|" and x[44:46] in ("", "  ") for x in board_lines)
    assert all(x[20] in "+|-" and x[24] in "+|-" for x in board_lines)
    if ascii:
        assert text.isascii()
    marks, prisoner = MARKS[ascii], PRISONER[ascii]
    exp = expected_stacks(position, flip)
    for row in (0, 1):
        for col in range(12):
            stack = exp.get((row, col), [])
            for k in range(5):
                got = lines[line_of(row, k)][column(col) - 1:column(col) + 2]
                if len(stack) > 5 and k == 4:
                    top = stack[-1]
                    want = str(sum(1 for c in stack if c == top))
                    assert got.strip() == want, (nardy.to_text(position), row, col)
                    continue
                if k >= len(stack):
                    want = " "
                else:
                    held = k == 0 and len(set(stack)) == 2
                    want = (prisoner if held else marks)[stack[k]]
                assert got == f" {want} ", (nardy.to_text(position), flip, row, col, k, got)
    sides = {c: position.side(c) for c in (WHITE, BLACK)}
    if position.variant.has_bar:
        for c in (WHITE, BLACK):
            entry_row = cell(position, white_slot(position, c, 23), flip)[0]
            n = sides[c][24]
            shown = [lines[line_of(entry_row, 4 - k)][22] for k in range(5)]  # from the middle
            for k in range(5):
                if n > 5 and k == 4:
                    continue
                assert shown[k] == (marks[c] if k < n else " "), (nardy.to_text(position), c)
    for c in (WHITE, BLACK):
        home_row = cell(position, white_slot(position, c, 0), flip)[0]
        half = lines[2:7] if home_row == 0 else lines[8:13]
        notes = [x[44:].strip() for x in half]
        name = "white" if c == WHITE else "black"
        assert any(n.startswith(f"{marks[c]} {name}") for n in notes), notes
        places = {25: "off"} if position.variant.name != "shlem" else {24: "reserve", 25: "hit out"}
        for index, label in places.items():
            assert f"{label} {sides[c][index]}" in notes, (notes, label)
        if position.variant.name != "shlem":
            assert f"pips {reference_pips(sides[c])}" in notes
        on_roll = [n for n in notes if n.startswith(f"{marks[c]} {name}")][0]
        assert on_roll.endswith(", on roll") == (c == position.turn)
    assert lines[0].startswith(f" {position.variant.name}: ")


@pytest.mark.parametrize("ascii", [True, False])
@pytest.mark.parametrize("flip", [False, True])
def test_text_board_shows_the_position(ascii: bool, flip: bool) -> None:
    for p in all_positions() + shlem_with_prisoners_and_hits():
        check_text(board(p, ascii=ascii, flip=flip), p, ascii, flip)


def test_a_different_position_fails_the_check() -> None:
    a, b = Position("backgammon"), Position("backgammon").play("8/5 6/5", (3, 1))
    with pytest.raises(AssertionError):
        check_text(board(a, ascii=True), b, True)
    with pytest.raises(AssertionError):
        check_text(board(a, ascii=True), a, True, flip=True)


def test_point_names_dice_cube_and_turn() -> None:
    p = Position("backgammon")
    text = board(p, ascii=True, dice=(6, 5), cube=(4, BLACK))
    lines = text.split("\n")
    assert lines[1] == " +13-14-15-16-17-18------19-20-21-22-23-24-+"
    assert lines[13] == " +12-11-10--9--8--7-------6--5--4--3--2--1-+"
    assert "BAR" in lines[7] and "dice 6-5" in lines[7]
    assert "cube 4" in "\n".join(lines[2:7])  # black's half
    assert "cube 2" in board(p, cube=2).split("\n")[7]
    sh = board(Position("shlem"), ascii=True).split("\n")
    assert sh[1] == " +41-42-43-44-45-46------31-32-33-34-35-36-+"
    assert sh[13] == " +11-12-13-14-15-16------21-22-23-24-25-26-+"
    assert "BAR" not in sh[7] and "stage 1" in sh[0]
    ln = board(Position("long-nardy"), ascii=True, flip=True).split("\n")
    assert ln[1] == " +-1--2--3--4--5--6-------7--8--9-10-11-12-+"


def test_str_is_the_text_board_and_games_show_their_state() -> None:
    p = Position("long-nardy")
    assert str(p) == board(p)
    g = nardy.Game("backgammon", seed=2)
    g.roll()
    text = board(g, ascii=True)
    assert f"dice {g.dice[0]}-{g.dice[1]}" in text
    m = nardy.Match(5, "backgammon", seed=1)
    assert "match to 5" in board(m).split("\n")[0]
    with pytest.raises(nardy.Error):
        board(p, dice=(7, 1))
    with pytest.raises(nardy.Error):
        board(p, cube=-1)
    with pytest.raises(nardy.Error):
        board(42)
