"""Acey-deucey perft 3 of the start, the reference against the core: the reference's depth-2 tree
(every distinct position two plies deep and the number of paths to it), the same tree's leaf
count by the core on request (each position's perft 1, weighted by its paths: the perft 3 line
of tests/perft/acey-deucey.perft), and the reference's own perft 1 of the depth-2 positions in a
random order (a seeded shuffle, so any prefix is a uniform sample), each against the core's.

    PYTHONPATH=python python .ci/acey_perft3_check.py [--whole] [LIMIT] [SEED]

LIMIT caps the positions the reference counts (default: all); --whole also has the core count
the leaves under the whole depth-2 tree (several CPU minutes). Prints a line every 100
positions and a summary; exits 1 on any difference.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nardy import _core  # noqa: E402
from tests.reference import acey_deucey_ref as ref  # noqa: E402

V = _core.Variant.ACEY_DEUCEY
ENGINE = _core.Engine(V)
PERFT_3 = 5_980_358_205


def key_of(p: ref.Packed) -> bytes:
    pos = ref.unpack(p)
    return _core.encode(ref.to_core(pos[0]), ref.to_core(pos[1]), V)


def children(p: ref.Packed) -> Counter:
    """The next ply's positions (the side on roll first) and how many moves lead to each."""
    out: Counter = Counter()
    if ref.finished_packed(p):
        return out
    for d1, d2 in ref.ROLLS:
        _, moves = ref.turn(p, d1, d2)
        if not moves:
            out[ref.swap_packed(p)] += 1
        for r, _, again in moves:
            out[r if again else ref.swap_packed(r)] += 1
    return out


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--whole"]
    whole = "--whole" in sys.argv  # also the core's leaf count of the whole tree (minutes)
    limit = int(args[0]) if args else None
    seed = int(args[1]) if len(args) > 1 else 1
    t0 = time.process_time()
    depth2: Counter = Counter()
    for p, n in children(ref.pack(ref.start())).items():
        for q, m in children(p).items():
            depth2[q] += n * m
    paths = sum(depth2.values())
    core_paths = ENGINE.perft_turn(key_of(ref.pack(ref.start())), 2)
    print(f"reference depth-2 tree: {len(depth2):,} positions, {paths:,} paths "
          f"(core perft 2: {core_paths:,}); {time.process_time() - t0:.0f} s CPU", flush=True)
    bad = int(paths != core_paths)
    if whole:
        core_total = sum(depth2[p] * ENGINE.perft_turn(key_of(p), 1) for p in depth2)
        print(f"core leaves under the reference's tree: {core_total:,} (perft 3 line: "
              f"{PERFT_3:,}); {time.process_time() - t0:.0f} s CPU", flush=True)
        bad += int(core_total != PERFT_3)

    order = sorted(depth2)
    random.Random(seed).shuffle(order)
    if limit is not None:
        order = order[:limit]
    done = done_paths = done_leaves = 0
    for p in order:
        want = ref.perft_packed(p, 1)
        got = ENGINE.perft_turn(key_of(p), 1)
        if want != got:
            bad += 1
            print(f"DIFFERENT {ref.unpack(p)}: reference {want}, core {got}", flush=True)
        done += 1
        done_paths += depth2[p]
        done_leaves += depth2[p] * want
        if done % 100 == 0 or done == len(order):
            print(f"{done:,} positions ({done_paths:,} paths, {done_leaves:,} leaves) counted "
                  f"by the reference, {bad} differences; {time.process_time() - t0:.0f} s CPU",
                  flush=True)
    print(f"summary: {done:,} of {len(depth2):,} depth-2 positions, {done_paths:,} of {paths:,} "
          f"paths, {done_leaves:,} of {PERFT_3:,} leaves; {bad} differences", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
