"""The board layout the docs describe, written from the rules for the picture tests (SVG and
text board), and positions that exercise every part of a board.

Backgammon (and nackgammon, on the same board) and long nardy number white's points 1..12
along the bottom row from the right and 13..24 along the top row from the left, as white sees
the board (docs/coordinates.md: white's
index i is point i + 1; black's index j lies on white's 23 - j in backgammon and on
(j + 12) % 24 in long nardy and in Fevga, which is played on long nardy's board). Shlem draws white's line 11..26 along the bottom and black's line
41..36 along the top, each point facing the one with the same position on the other line
(docs/rules/shlem.md). Seen from black's side, black's index i is where white's index i is.
"""

from __future__ import annotations

import random

import nardy
from nardy import BLACK, WHITE, Position

VARIANT_NAMES = ["backgammon", "nackgammon", "long-nardy", "long-nardy-classic", "shlem", "fevga",
                 "moultezim"]
#: Variants played on the backgammon board: the opponent's index j lies on 23 - j.
BACKGAMMON_BOARD = ("backgammon", "nackgammon")


def white_slot(position: Position, color: int, index: int) -> int:
    """White's index of ``color``'s own index ``index`` (docs/coordinates.md)."""
    if color == WHITE:
        return index
    if position.variant.name in BACKGAMMON_BOARD:
        return 23 - index
    return (index + 12) % 24


def base_cell(variant_name: str, i: int) -> tuple[int, int]:
    """(row, column) of white's index i, as white sees the board (row 0 = top)."""
    if variant_name == "shlem":
        return (1, i) if i < 12 else (0, i - 12)
    return (1, 11 - i) if i < 12 else (0, i - 12)


def cell(position: Position, slot: int, flip: bool = False) -> tuple[int, int]:
    if flip:  # seen from black: black's index i where white's index i is normally
        slot = white_slot(position, BLACK, slot)  # the map is its own inverse
    return base_cell(position.variant.name, slot)


def expected_stacks(position: Position, flip: bool = False) -> dict[tuple[int, int], list[int]]:
    """cell -> colours bottom to top (a Shlem prisoner, -1, under its captors)."""
    cells: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for color in (WHITE, BLACK):
        side = position.side(color)
        for i in range(24):
            if side[i]:
                c = cell(position, white_slot(position, color, i), flip)
                cells.setdefault(c, []).append((color, side[i]))
    out = {}
    for c, runs in cells.items():
        runs.sort(key=lambda r: r[1] != -1)
        out[c] = [color for color, n in runs for _ in range(abs(n))]
    return out


def random_positions(name: str, seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    pos = Position(name)
    out = []
    for ply in range(400):
        if pos.is_game_over():
            break
        moves = pos.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
        pos = pos.play_unchecked(rng.choice(moves)) if moves else pos.pass_turn()
        if ply % 7 == 3:
            out.append(pos)
    rng.shuffle(out)
    return out[:count]


def special_positions() -> list[Position]:
    bg = nardy.Backgammon()
    white = [0] * 26
    white[5] = 15
    black = [0] * 26
    black[17], black[24], black[25] = 6, 3, 6
    p1 = Position.from_colors(bg, white, black)
    white = [0] * 26
    white[24], white[0], white[25] = 5, 3, 7
    black = [0] * 26
    black[3], black[25] = 15, 0
    p2 = Position.from_colors(bg, white, black, BLACK)
    # Shlem after white 15/23/33 (docs/rules/shlem.md): a black prisoner on 33
    sh = nardy.Shlem()
    white = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0]
    black = [1, 1, 1, 1, 1, 1, 1, 1, -1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0]
    p3 = Position.from_colors(sh, white, black, BLACK)
    return [p1, p2, p3, Position("long-nardy"), Position("shlem")]


def shlem_with_prisoners_and_hits() -> list[Position]:
    found = []
    for seed in range(60):
        for p in random_positions("shlem", seed, 60):
            sides = [p.side(c) for c in (WHITE, BLACK)]
            if any(-1 in s[:24] for s in sides) and any(s[25] for s in sides):
                found.append(p)
        if len(found) >= 3:
            break
    return found


def all_positions() -> list[Position]:
    out = special_positions()
    for name in VARIANT_NAMES:
        for seed in range(2):
            out += random_positions(name, seed, 4)
    return out
