"""Step mode (the fixed step action space with masks) of this build against another build of
nardy, interleaved in one run.

Set NARDY_BENCH_AGAINST to the ``python`` directory of another built tree (for example the
commit before, checked out and built beside this one); the test is skipped without it. Each
round runs the same work once in a fresh process of each build, in turn, and each process
reports the CPU seconds of its timed loop alone, so that import time and the load of a shared
machine fall on both alike:

* ``vector``: ``VectorEnv(variant, 256, mode="steps")``, one random legal step per game and
  call (drawn in numpy among the mask's ones), turns completed per CPU second;
* ``python``: one ``nardy._core.StepTurn`` driven from Python as a single-game env drives it
  (``begin``, then ``mask`` into a buffer and ``play`` of a random legal step until the turn is
  done) over positions of random games collected beforehand, steps per CPU second.

The label gives the ratio of the medians (this build's rate over the other's). Figures
reported, never asserted.

    NARDY_BENCH_AGAINST=../base/python pytest benchmarks/test_bench_steps_against_build.py \\
        --benchmark-enable
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.conftest import Figure, Figures

HERE = Path(__file__).resolve().parents[1] / "python"
OTHER = os.environ.get("NARDY_BENCH_AGAINST", "")

#: work per process (benchmarks enabled / smoke): vector calls, Python turns
WORK = {"vector": (600, 5), "python": (4000, 20)}

CHILD = r"""
import random, resource, sys
import numpy as np
import nardy
from nardy import _core
from nardy.vector import VectorEnv

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime

kind, variant, work = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = np.random.default_rng(7)
if kind == "vector":
    n = 256
    env = VectorEnv(variant, n, mode="steps")
    obs = env.reset(7)
    width = env.num_actions
    rows = np.arange(n) * width

    def call():
        legal = np.flatnonzero(obs.mask)
        counts = np.bincount(legal // width, minlength=n)
        starts = np.cumsum(counts) - counts
        env.step(legal[starts + (rng.random(n) * counts).astype(np.int64)] - rows)

    for _ in range(20):
        call()
    before = int(env.plies.sum()) + int(env.episodes.sum())
    c0 = cpu()
    for _ in range(work):
        call()
    secs = cpu() - c0
    # plies also count passes; an auto-reset starts a new count (a small error on both sides)
    done = int(env.plies.sum()) + int(env.episodes.sum()) - before
    print(secs, done)
else:
    v = nardy.find_variant(variant)()
    prng = random.Random(7)
    positions, pos = [], nardy.Position.start(v)
    while len(positions) < 2000:
        if pos.is_game_over():
            pos = nardy.Position.start(v)
        dice = (prng.randint(1, 6), prng.randint(1, 6))
        moves = list(pos.legal_moves(dice))
        if moves:
            positions.append((pos.key, dice))
            pos = pos.play(prng.choice(moves), dice)
        else:
            pos = pos.pass_turn()
    turn = _core.StepTurn(v.engine)
    buf = np.zeros(turn.size, dtype=np.uint8)
    c0 = cpu()
    steps = 0
    for k in range(work):
        key, dice = positions[k % len(positions)]
        turn.begin(key, *dice)
        while not turn.done:
            turn.mask(buf)
            legal = np.flatnonzero(buf)
            turn.play(int(legal[prng.randrange(len(legal))]))
            steps += 1
    print(cpu() - c0, steps)
"""


def _run(tree: Path, kind: str, variant: str, work: int) -> tuple[float, int]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", CHILD, kind, variant, str(work)], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1])


#: (kind, variant): one StepTurn from Python plays one roll's moves; a whole turn of several
#: rolls (Acey-deucey's 1-2 and its named double) goes through VectorEnv. (Gul bara is not
#: here: builds that listed a cascade to make its masks run out of memory within a few calls.)
CASES = [(kind, variant) for variant in ("backgammon", "long-nardy")
         for kind in ("vector", "python")] + [("vector", "acey-deucey")]


@pytest.mark.skipif(not OTHER, reason="NARDY_BENCH_AGAINST (another build's python/) not set")
@pytest.mark.parametrize("kind,variant", CASES)
def test_step_mode_against_other_build(benchmark: Any, figures: Figures, enabled: bool,
                                       kind: str, variant: str) -> None:
    work = WORK[kind][0 if enabled else 1]
    rounds = 5 if enabled else 1
    trees = {"this": HERE, "other": Path(OTHER).resolve()}
    rate: dict[str, list[float]] = {k: [] for k in trees}

    def one_round() -> None:
        for name, tree in trees.items():
            secs, done = _run(tree, kind, variant, work)
            rate[name].append(done / secs)

    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=0, iterations=1)
    ratios = [t / o for t, o in zip(rate["this"], rate["other"])]
    med = {k: statistics.median(v) for k, v in rate.items()}
    unit = "turns" if kind == "vector" else "steps"
    what = ("VectorEnv 256 games, mode='steps'" if kind == "vector"
            else "StepTurn from Python, begin/mask/play")
    figures.add(Figure(f"steps-{variant}",
                       f"{what}: this build x{med['this'] / med['other']:.2f} the other's "
                       f"{unit}/cpu-s (per-round ratios {min(ratios):.2f}-{max(ratios):.2f}, "
                       f"{rounds} rounds; positions/s = {unit}/cpu-s, other "
                       f"{med['other']:,.0f})",
                       "random legal steps", None, 1, 1 / med["this"]), benchmark)
