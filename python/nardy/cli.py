"""The ``nardy`` command line."""

from __future__ import annotations

import argparse
import sys
import time

from nardy.errors import Error, InvalidDiceError
from nardy.perft import divide, perft
from nardy.position import Position
from nardy.variants import Backgammon, as_variant


def _position(variant_name: str, text: str | None) -> Position:
    variant = as_variant(variant_name)
    if text is None:
        return Position(variant)
    if isinstance(variant, Backgammon):
        from nardy.formats import decode_position_id

        mover, opponent = decode_position_id(text)
        return Position.from_sides(variant, mover, opponent)
    raise Error(f"--position takes a gnubg Position ID, which only exists for backgammon")


def _cmd_perft(args: argparse.Namespace) -> int:
    pos = _position(args.variant, args.position)
    t0 = time.perf_counter()
    if args.divide:
        rows = divide(pos, args.depth, args.rolls)
        total = 0
        for (d1, d2), n in rows:
            print(f"{d1}-{d2}: {n}")
            total += n
    else:
        total = perft(pos, args.depth, args.rolls)
    secs = time.perf_counter() - t0
    print(f"perft {args.depth} ({args.rolls} rolls, {pos.variant.name}): {total}")
    print(f"time {secs:.3f} s, {total / secs if secs > 0 else float('inf'):,.0f} nodes/s")
    return 0


def _cmd_moves(args: argparse.Namespace) -> int:
    pos = _position(args.variant, args.position)
    digits = args.dice.replace("-", "")
    if len(digits) != 2 or not digits.isdigit():
        raise InvalidDiceError(f"dice must be two digits 1-6 such as 31 or 3-1, got {args.dice!r}")
    moves = pos.legal_moves((int(digits[0]), int(digits[1])))
    for m in moves:
        print(m.notation(pos.variant, pos.turn))
    print(f"{len(moves)} moves")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nardy", description="nardy move generator tools")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="count the game tree from a position")
    p.add_argument("variant", help="backgammon, long-nardy, long-nardy-classic, ...")
    p.add_argument("depth", type=int)
    p.add_argument("--divide", action="store_true", help="one line per first roll")
    p.add_argument("--rolls", type=int, choices=(21, 36), default=21)
    p.add_argument("--position", help="gnubg Position ID (backgammon)")
    p.set_defaults(func=_cmd_perft)
    m = sub.add_parser("moves", help="list the legal moves for a roll")
    m.add_argument("variant")
    m.add_argument("dice", help="e.g. 31 or 3-1")
    m.add_argument("--position", help="gnubg Position ID (backgammon)")
    m.set_defaults(func=_cmd_moves)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except Error as e:
        print(f"nardy: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
