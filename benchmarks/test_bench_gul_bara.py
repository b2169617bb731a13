"""Gul bara's random rollouts, whose doubles cascade (up to 24 steps a turn, millions of
distinct results early in a game) is chosen group by group without listing the turn
(src/nardy/enumerator.hpp, pick_groups). Figures reported, never asserted:

* rollouts from the start on one thread, interleaved call by call with long nardy's (its
  closest relative: the same board and steps), the ratio of the medians in the label;
* one cascade turn chosen alone (Engine.turn_pick) against the whole turn listed and a move
  taken at the drawn index (Engine.turn_legal, what the random policy did before), on the same
  midgame cascade turns in the same run; the listing is measured only where it stays small
  (the early cascades it cannot list in a benchmark's time are left out, which favours it);
* three early cascades listed whole by this build and by another (NARDY_BENCH_AGAINST, the
  ``python`` directory of another built tree; skipped without it), each call in a fresh
  process in turn: CPU seconds and peak memory.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import nardy
from benchmarks.conftest import Figure, Figures
from nardy import _core

#: games per timed call (benchmarks enabled / smoke)
GAMES = (2000, 50)
LATE = 1 << 20
MAX_LISTED = 20000
HERE = Path(__file__).resolve().parents[1] / "python"
OTHER = os.environ.get("NARDY_BENCH_AGAINST", "")


def test_gul_bara_random_rollouts_against_long_nardy(benchmark: Any, figures: Figures,
                                                      enabled: bool) -> None:
    games = GAMES[0 if enabled else 1]
    rounds = 5 if enabled else 1
    starts = {name: nardy.Position(nardy.find_variant(name)()) for name in ("gul-bara", "long-nardy")}
    wall: dict[str, list[float]] = {k: [] for k in starts}
    plies: dict[str, float] = {}

    def one_round() -> None:
        for name, pos in starts.items():
            t0 = time.perf_counter()
            res = nardy.rollout(pos, games, "random", seed=len(wall[name]), threads=1)
            wall[name].append(time.perf_counter() - t0)
            assert res.games == games and res.unfinished == 0
            plies[name] = res.mean_plies

    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=1 if enabled else 0, iterations=1)
    secs = {k: statistics.median(v) for k, v in wall.items()}
    ratio = secs["long-nardy"] / secs["gul-bara"]
    figures.add(Figure("rollout-gul-bara",
                       f"random policy, threads=1, interleaved with long nardy (positions/s = "
                       f"games/s; {plies['gul-bara']:.0f} plies/game, x{ratio:.2f} long nardy's "
                       f"games/s)", f"{games} games from the start", None, games,
                       secs["gul-bara"]), benchmark)


def _cascade_turns(n_positions: int) -> list[tuple[bytes, int]]:
    """(position, die) of midgame cascade turns whose listing stays below MAX_LISTED."""
    engine = nardy.GulBara().engine
    rng = random.Random(8)
    out: list[tuple[bytes, int]] = []
    while len(out) < 6 * n_positions:
        key = _core.encode(*nardy.Position(nardy.GulBara()).sides())
        for ply in range(rng.randrange(40, 80)):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            got = engine.turn_pick(key, d1, d2, 1 + ply // 2, rng.getrandbits(64))
            key = _core.swap(got[0] if got else key)
        us, them = _core.decode(key)
        if us[25] or them[25]:
            continue
        for d in range(1, 7):
            if len(engine.turn_legal(key, d, d, LATE)) <= MAX_LISTED:
                out.append((key, d))
    return out


def test_cascade_pick_against_listing(benchmark: Any, figures: Figures, enabled: bool) -> None:
    engine = nardy.GulBara().engine
    turns = _cascade_turns(20 if enabled else 2)
    rounds = 5 if enabled else 1
    rng = random.Random(1)
    words = [rng.getrandbits(64) for _ in turns]
    wall: dict[str, list[float]] = {"pick": [], "list": []}
    results = sum(len(engine.turn_legal(k, d, d, LATE)) for k, d in turns)

    def one_round() -> None:
        t0 = time.perf_counter()
        for (key, d), w in zip(turns, words):
            engine.turn_pick(key, d, d, LATE, w)
        wall["pick"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for (key, d), w in zip(turns, words):
            moves = engine.turn_legal(key, d, d, LATE)
            if len(moves):
                moves.key(((w >> 32) * len(moves)) >> 32)
        wall["list"].append(time.perf_counter() - t0)

    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=1 if enabled else 0, iterations=1)
    secs = {k: statistics.median(v) for k, v in wall.items()}
    figures.add(Figure("gul-bara",
                       f"a cascade turn's random move made alone (turn_pick), x{secs['list'] / secs['pick']:.1f} "
                       f"listing the turn and taking the drawn index (interleaved; "
                       f"{results / len(turns):,.0f} results a turn listed)",
                       f"{len(turns)} midgame cascade turns of <= {MAX_LISTED} results",
                       len(turns), len(turns), secs["pick"]), benchmark)


#: early cascade turns (turn 3, after two turns each of random play): 58,678, 115,385 and
#: 1,553,007 distinct results
BIG = [("0000000000000010012000b0000000000000000000000000000011b200000000", 3),
       ("0000000000000000010012a1000000000000000000000001000100d000000000", 4),
       ("0000000000000000000210b1000000000000000000000010001001c000000000", 2)]

LISTING_CHILD = """
import resource, sys, time, nardy
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
e = nardy.GulBara().engine
key, d = bytes.fromhex(sys.argv[1]), int(sys.argv[2])
c0 = cpu()
n = len(e.turn_legal(key, d, d, 3))
print(cpu() - c0, n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


@pytest.mark.skipif(not OTHER, reason="NARDY_BENCH_AGAINST (another build's python/) not set")
@pytest.mark.parametrize("case", range(len(BIG)))
def test_cascade_listing_against_other_build(benchmark: Any, figures: Figures, enabled: bool,
                                            case: int) -> None:
    """One early cascade listed whole (Engine.turn_legal) by this build and by another, each
    in a fresh process in turn: CPU seconds of the call and the process's peak memory."""
    key, d = BIG[case]
    rounds = 3 if enabled else 1
    trees = {"this": HERE, "other": Path(OTHER).resolve()}
    cpu: dict[str, list[float]] = {k: [] for k in trees}
    rss: dict[str, int] = {}
    count: dict[str, int] = {}

    def one_round() -> None:
        for name, tree in trees.items():
            env = dict(os.environ, PYTHONPATH=str(tree))
            out = subprocess.run([sys.executable, "-c", LISTING_CHILD, key, str(d)], env=env,
                                 capture_output=True, text=True, check=True).stdout.split()
            cpu[name].append(float(out[0]))
            count[name] = int(out[1])
            rss[name] = int(out[2])

    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=0, iterations=1)
    assert count["this"] == count["other"]
    med = {k: statistics.median(v) for k, v in cpu.items()}
    figures.add(Figure("gul-bara",
                       f"an early cascade listed, this build x{med['other'] / med['this']:.2f} "
                       f"the other's speed (CPU s, {rounds} rounds in turn); peak memory "
                       f"{rss['this'] // 1024} MB against {rss['other'] // 1024} MB",
                       f"turn 3, {count['this']:,} results", 1, count["this"], med["this"]),
                benchmark)
