"""The ``nardy`` command line."""

from __future__ import annotations

import argparse
import sys
import time

from nardy.errors import Error, InvalidDiceError
from nardy.perft import divide, perft
from nardy.position import Position
from nardy.variants import as_variant


def _position(variant_name: str, text: str | None) -> Position:
    variant = as_variant(variant_name)
    if text is None:
        return Position(variant)
    if ":" in text:  # the nardy text form, any variant
        from nardy.formats.text import from_text

        position = from_text(text).position
        if position.variant.name != variant.name:
            raise Error(f"--position is a {position.variant.name} position, not {variant.name}")
        return position
    if variant.gnubg_ids:
        from nardy.formats import decode_position_id

        mover, opponent = decode_position_id(text)
        return Position.from_sides(variant, mover, opponent)
    raise Error("--position takes the nardy text form, or a gnubg Position ID for backgammon")


def _cmd_perft(args: argparse.Namespace) -> int:
    pos = _position(args.variant, args.position)
    t0 = time.perf_counter()
    if args.divide:
        rows = divide(pos, args.depth, args.rolls)
        total = 0
        for (d1, d2), n in rows:
            print(f"{d1}-{d2}: {n}")
            total += n
    elif getattr(args, "threads", 1) != 1:
        from nardy.parallel import perft_threads

        bar = _progress_bar("perft", args.progress) if args.depth >= 3 else None
        total = perft_threads(pos, args.depth, args.rolls, args.threads, progress=bar)
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


def _progress_bar(label: str, enabled: bool | None, unit: str = "chunks"):  # type: ignore[no-untyped-def]
    """A callback progress(done, total) drawing a one-line bar on stderr, or None."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return None
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        frac = done / total if total else 1.0
        filled = int(30 * frac)
        secs = time.perf_counter() - t0
        rate = f", {done / secs:,.0f} {unit}/s" if secs > 0 else ""
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (30 - filled)}] {100 * frac:5.1f}% "
                         f"{done:,}/{total:,} {unit}{rate}  ")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return progress


def _cmd_rollout(args: argparse.Namespace) -> int:
    from nardy.rollout import rollout

    pos = _position(args.variant, args.position)
    if args.games < 1:
        raise Error("games must be >= 1")
    bar = _progress_bar("rollout", args.progress, "games")
    # Chunks of trials, merged exactly: the same counts as one call, with a progress bar.
    chunk = max(1000, args.games // 50) if bar else args.games
    result = None
    t0 = time.perf_counter()
    for first in range(0, args.games, chunk):
        n = min(chunk, args.games - first)
        part = rollout(pos, n, args.policy, seed=args.seed, threads=args.threads,
                       first_trial=first)
        result = part if result is None else result.merge(part)
        if bar:
            bar(first + n, args.games)
    assert result is not None
    from dataclasses import replace

    result = replace(result, seconds=time.perf_counter() - t0)
    print(result.summary())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nardy", description="nardy move generator tools")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="count the game tree from a position")
    p.add_argument("variant", help="backgammon, long-nardy, long-nardy-classic, ...")
    p.add_argument("depth", type=int)
    p.add_argument("--divide", action="store_true", help="one line per first roll")
    p.add_argument("--rolls", type=int, choices=(21, 36), default=21)
    p.add_argument("--position", help="nardy text form (any variant) or gnubg Position ID (backgammon)")
    p.add_argument("--threads", type=int, default=1,
                   help="C++ threads (0: all cores), root moves split across them")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    p.set_defaults(func=_cmd_perft)
    m = sub.add_parser("moves", help="list the legal moves for a roll")
    m.add_argument("variant")
    m.add_argument("dice", help="e.g. 31 or 3-1")
    m.add_argument("--position", help="nardy text form (any variant) or gnubg Position ID (backgammon)")
    m.set_defaults(func=_cmd_moves)
    r = sub.add_parser("rollout", help="play games to the end from a position (C++ rollouts)")
    r.add_argument("variant")
    r.add_argument("games", type=int)
    r.add_argument("--policy", choices=("random", "greedy"), default="random")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--threads", type=int, default=0, help="C++ threads (0: all cores)")
    r.add_argument("--position", help="nardy text form (any variant) or gnubg Position ID (backgammon)")
    r.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    r.set_defaults(func=_cmd_rollout)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except Error as e:
        print(f"nardy: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
