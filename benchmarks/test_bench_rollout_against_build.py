"""Random rollouts of this build against another build of nardy, interleaved in one run.

Set NARDY_BENCH_AGAINST to the ``python`` directory of another built tree (for example the
previous commit, checked out and built beside this one); the test is skipped without it. Each
round plays the same rollout (same variant, seed and games, one thread) once in a fresh
process of each build, in turn, and each process reports the CPU seconds of the rollout call
alone, so that import time and the load of a shared machine fall on both alike. The label
gives the ratio of the medians (this build's games/s over the other's). Figures reported,
never asserted.

    NARDY_BENCH_AGAINST=../base/python pytest benchmarks/test_bench_rollout_against_build.py \\
        --benchmark-enable -k long-nardy
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

#: games per call (benchmarks enabled / smoke)
GAMES = (20000, 200)

CHILD = """
import resource, sys, nardy
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
pos = nardy.Position(nardy.find_variant(sys.argv[1])())
nardy.rollout(pos, 50, "random", seed=99, threads=1)  # warm-up
c0 = cpu()
res = nardy.rollout(pos, int(sys.argv[2]), "random", seed=int(sys.argv[3]), threads=1)
print(cpu() - c0, res.games, res.mean_plies, sum(res.wins[0]))
"""


def _run(tree: Path, variant: str, games: int, seed: int) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", CHILD, variant, str(games), str(seed)],
                         env=env, capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), " ".join(out[1:])


@pytest.mark.skipif(not OTHER, reason="NARDY_BENCH_AGAINST (another build's python/) not set")
@pytest.mark.parametrize("variant", ["long-nardy", "fevga", "backgammon", "acey-deucey", "gul-bara"])
def test_random_rollouts_against_other_build(benchmark: Any, figures: Figures, enabled: bool,
                                             variant: str) -> None:
    games = GAMES[0 if enabled else 1]
    rounds = 7 if enabled else 1
    trees = {"this": HERE, "other": Path(OTHER).resolve()}
    cpu: dict[str, list[float]] = {k: [] for k in trees}
    summary: dict[str, str] = {}

    def one_round() -> None:
        for name, tree in trees.items():
            secs, summary[name] = _run(tree, variant, games, seed=len(cpu[name]))
            cpu[name].append(secs)

    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=0, iterations=1)
    ratios = [o / t for t, o in zip(cpu["this"], cpu["other"])]
    med = {k: statistics.median(v) for k, v in cpu.items()}
    figures.add(Figure(f"rollout-{variant}",
                       f"random policy, threads=1, this build x{med['other'] / med['this']:.2f} "
                       f"the other's games/cpu-s (per-round ratios "
                       f"{min(ratios):.2f}-{max(ratios):.2f}, {rounds} rounds; positions/s = "
                       f"games/cpu-s)",
                       f"{games} games from the start", None, games, med["this"]), benchmark)
    # the same seeds in both builds: the same games unless the random stream changed
    benchmark.extra_info["same_games"] = summary["this"] == summary["other"]
