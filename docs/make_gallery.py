"""Writes docs/gallery.md and the pictures in docs/gallery/: one board per variant and per
picture feature, drawn by nardy.svg (and the text board), from positions made here.

    PYTHONPATH=python python docs/make_gallery.py

Run it again after changing nardy.svg or nardy.textboard; tests/test_gallery.py checks that
the committed gallery is what this script writes.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import nardy
from nardy import BLACK, WHITE, Position
from nardy.svg import board
from nardy.textboard import board as text_board

HERE = Path(__file__).resolve().parent
OUT = HERE / "gallery"


def _played(name: str, seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    pos = Position(name)
    for _ in range(plies):
        moves = pos.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
        pos = pos.play_unchecked(rng.choice(moves)) if moves else pos.pass_turn()
    return pos


def _shlem_prisoners() -> Position:
    # After white 15/23/33 (docs/rules/shlem.md): a black checker held prisoner on 33.
    white = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0]
    black = [1, 1, 1, 1, 1, 1, 1, 1, -1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0]
    return Position.from_colors("shlem", white, black, BLACK)


def _shlem_stage_2() -> Position:
    for seed in range(200):
        rng = random.Random(seed)
        pos = Position("shlem")
        for _ in range(60):
            moves = pos.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
            pos = pos.play_unchecked(rng.choice(moves)) if moves else pos.pass_turn()
            sides = [pos.side(c) for c in (WHITE, BLACK)]
            if pos.is_game_over():
                break
            if any(s[25] for s in sides) and any(-1 in s[:24] for s in sides):
                return pos
    raise SystemExit("no Shlem position with prisoners and hit-out checkers found")


def _bar_and_off() -> Position:
    white = [0] * 26
    white[24], white[0], white[1], white[25] = 2, 3, 2, 8
    black = [0] * 26
    black[3], black[4], black[5], black[25] = 7, 2, 2, 4
    return Position.from_colors("backgammon", white, black, WHITE)


def _last_move() -> tuple[Position, nardy.Move]:
    before = Position("backgammon").play("24/23 13/10", (3, 1))
    move = next(m for m in before.legal_moves((6, 2)) if any(s.hit for s in m.steps))
    return before.play(move, (6, 2)), move


def pictures() -> list[tuple[str, str, str]]:
    """(file name, caption, svg)."""
    after, move = _last_move()
    bg = Position("backgammon")
    items = [
        ("backgammon.svg", "Backgammon, the starting position, white to move", board(bg)),
        ("backgammon-black.svg", "The same from black's side, numbered for black",
         board(bg, flip=True)),
        ("nackgammon.svg", "Nackgammon: four back checkers",
         board(Position("nackgammon"))),
        ("long-nardy.svg", "Long nardy: both heads, the absolute numbering of the rule text",
         board(Position("long-nardy"), dice=(6, 5))),
        ("long-nardy-game.svg", "Long nardy after 30 random plies: both sides move the same way",
         board(_played("long-nardy", 4, 30))),
        ("shlem.svg", "Shlem: two-digit point names, three reserves each, stage 1",
         board(Position("shlem"))),
        ("shlem-prisoner.svg", "Shlem after white 15/23/33: the black prisoner under its captor",
         board(_shlem_prisoners())),
        ("shlem-stage-2.svg", "Shlem in stage 2: prisoners, hit-out checkers, empty reserves",
         board(_shlem_stage_2())),
        ("last-move.svg", f"The last move as arrows, the hit ringed: black played "
                          f"{move.notation(after.variant, BLACK)}",
         board(after, last_move=move)),
        ("bar-off-cube.svg", "The bar, borne-off checkers, a stack of seven, dice and the cube "
                             "owned by black",
         board(_bar_and_off(), dice=(5, 5), cube=(4, BLACK))),
        ("highlight.svg", "Highlighted points, no coordinates, the dark theme",
         board(bg, highlight=[1, 7, 18], coordinates=False, theme="dark")),
        ("mirror.svg", "Home on the left (mirror), centred cube of 2",
         board(bg, mirror=True, cube=2)),
    ]
    return items


def write() -> dict[Path, str]:
    """Every file of the gallery, path -> text."""
    files: dict[Path, str] = {}
    lines = ["# Gallery", "",
             "Board pictures drawn by `nardy.svg.board` (SVG, no dependency) and the text board "
             "of `str(position)`. Written by `docs/make_gallery.py`; the code of each picture "
             "is there.", ""]
    for name, caption, svg in pictures():
        files[OUT / name] = svg + "\n"
        lines += [f"## {caption}", "", f"![{caption}](gallery/{name})", ""]
    lines += ["## The text board", "", "```text", text_board(_bar_and_off(), ascii=True,
                                                             dice=(5, 5), cube=(4, BLACK)),
              "```", "", "```text", text_board(_shlem_prisoners()), "```", ""]
    files[HERE / "gallery.md"] = "\n".join(lines)
    return files


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for path, text in write().items():
        path.write_text(text, encoding="utf-8")
        print(path.relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
