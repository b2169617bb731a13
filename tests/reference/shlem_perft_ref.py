"""Shlem perft built only on the pure-Python reference generator (``shlem_ref``).

No ``nardy`` import: the figures this computes are the expected values of
``tests/perft/shlem.perft``, which tests the core, so they must not come from the core.

Counting (as in the suite's header and ``shlem_ref.perft``): 21 distinct rolls per ply; the
children of a roll are the distinct resulting positions (``shlem_ref.legal_results``); a roll
with no legal move has one child, the pass (the same board, the other player on roll); a
finished game (``shlem_ref.status`` by the position alone, no pass history) has no children;
depth 0 is one leaf.

It differs from ``shlem_ref.perft`` only by a transposition table keyed by
(position, player on roll, depth): positions reached by several move sequences are counted
once and their count reused, which makes depth 3 from small midgame positions feasible.

    python tests/reference/shlem_perft_ref.py "sides <26 ints> / <26 ints>" [--depth 3]
        [--stage either|per-player] [--end move|claim] [--divide]

prints perft 1..depth (the mover of the side arrays is white, as in the suite) with timings.
"""
from __future__ import annotations

import argparse
import sys
import time

try:
    from tests.reference import shlem_ref as R
except ImportError:  # run as a script or from tests/
    try:
        from reference import shlem_ref as R  # type: ignore[no-redef]
    except ImportError:
        import os

        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import shlem_ref as R  # type: ignore[no-redef]


def _key(state, c, depth):
    """A compact hashable key: the 24 cells flattened, reserves, hit out, mover, depth."""
    cells, res, hit = state
    flat = []
    for w, b, pr in cells:
        flat.append(w)
        flat.append(b)
        flat.append(pr + 1)
    return bytes(flat) + bytes((res[0], res[1], hit[0], hit[1], c, depth))


class Perft:
    """perft with a transposition table shared across calls (same rule options)."""

    def __init__(self, stage_rule=R.STAGE_EITHER, end_rule=R.END_MOVE):
        self.stage_rule = stage_rule
        self.end_rule = end_rule
        self.table: dict[bytes, int] = {}
        self.generated = 0  # legal_results calls

    def _children(self, state, c, roll):
        self.generated += 1
        return R.legal_results(state, c, roll, self.stage_rule)

    def perft(self, state, c, depth):
        if depth == 0:
            return 1
        key = _key(state, c, depth)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        if R.status(state, c, self.end_rule)[0]:
            total = 0
        else:
            total = sum(self._roll(state, c, roll, depth) for roll in R.ALL_ROLLS)
        self.table[key] = total
        return total

    def _roll(self, state, c, roll, depth):
        """Leaves below one roll of ``c`` (the divide entry of that roll)."""
        res = self._children(state, c, roll)
        if not res:  # the pass: one child, same board, the other player on roll
            return self.perft(state, 1 - c, depth - 1)
        if depth == 1:
            return len(res)
        return sum(self.perft(s, 1 - c, depth - 1) for s in res)

    def divide(self, state, c, depth):
        """{roll: leaves} over the 21 rolls of ``c`` (empty for a finished game)."""
        if depth == 0 or R.status(state, c, self.end_rule)[0]:
            return {}
        return {roll: self._roll(state, c, roll, depth) for roll in R.ALL_ROLLS}


def perft(state, c, depth, stage_rule=R.STAGE_EITHER, end_rule=R.END_MOVE):
    return Perft(stage_rule, end_rule).perft(state, c, depth)


def parse_sides(text):
    """'sides <26> / <26>' (or just '<26> / <26>') -> (mover, opponent) lists."""
    text = text.strip()
    if text.lower().startswith("sides"):
        text = text[5:]
    text = text.replace(",", " ")
    if "/" not in text:
        raise ValueError("expected '<26 ints> / <26 ints>'")
    mover, opponent = ([int(x) for x in half.split()] for half in text.split("/", 1))
    if len(mover) != 26 or len(opponent) != 26:
        raise ValueError("each side needs 26 numbers")
    return mover, opponent


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("position", help="'sides <26 ints> / <26 ints>' (mover = white) or 'start'")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--stage", default=R.STAGE_EITHER, choices=[R.STAGE_EITHER, R.STAGE_PER_PLAYER])
    ap.add_argument("--end", default=R.END_MOVE, choices=[R.END_MOVE, R.END_CLAIM])
    ap.add_argument("--divide", action="store_true", help="also print the per-roll split")
    args = ap.parse_args(argv)
    if args.position.strip().lower() == "start":
        state = R.initial()
    else:
        state = R.from_sides(*parse_sides(args.position), R.WHITE)
    if not R.is_valid(state):
        ap.error("invalid position")
    over = R.status(state, R.WHITE, args.end)
    if over[0]:
        print(f"note: the game is already over ({over[3]})")
    p = Perft(args.stage, args.end)
    t0 = time.time()
    for d in range(1, args.depth + 1):
        t = time.time()
        n = p.perft(state, R.WHITE, d)
        print(f"perft {d} {n}   ({time.time() - t:.1f} s, {time.time() - t0:.1f} s total, "
              f"{len(p.table)} table entries, {p.generated} generator calls)", flush=True)
    if args.divide:
        for (a, b), n in p.divide(state, R.WHITE, args.depth).items():
            print(f"  {a}-{b}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
