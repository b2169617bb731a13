"""The wider family's rollouts: random and greedy rollouts from the start on one thread, each
variant against its closest relative in the same run (Fevga against long nardy, Acey-deucey
against backgammon; the two interleaved call by call, so that the load of a shared machine
falls on both alike). Figures reported, never asserted: games/s in the positions/s column; the
label gives the ratio to the relative (medians of the interleaved calls) and the games per
CPU-second of the process (the per-core rate).

The summary table is printed by benchmarks/conftest.py.
"""

from __future__ import annotations

import resource
import statistics
import time
from typing import Any

import pytest

import nardy
from benchmarks.conftest import Figure, Figures

#: games per timed call (benchmarks enabled / smoke)
GAMES = (5000, 100)


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


#: (variant, the relative it is measured against)
PAIRS = [("fevga", "long-nardy"), ("acey-deucey", "backgammon")]


@pytest.mark.parametrize("variant,relative", PAIRS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_rollouts_against_relative(benchmark: Any, figures: Figures, enabled: bool,
                                   variant: str, relative: str, policy: str) -> None:
    games = GAMES[0 if enabled else 1]
    rounds = 5 if enabled else 1
    starts = {name: nardy.Position(nardy.find_variant(name)()) for name in (variant, relative)}
    wall: dict[str, list[float]] = {k: [] for k in starts}
    cpu: dict[str, list[float]] = {k: [] for k in starts}
    plies: dict[str, float] = {}

    def one_round() -> None:
        for name, pos in starts.items():
            t0, c0 = time.perf_counter(), _cpu()
            res = nardy.rollout(pos, games, policy, seed=len(wall[name]), threads=1)
            wall[name].append(time.perf_counter() - t0)
            cpu[name].append(_cpu() - c0)
            assert res.games == games and res.unfinished == 0
            plies[name] = res.mean_plies

    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=1 if enabled else 0,
                       iterations=1)
    secs = {k: statistics.median(v) for k, v in wall.items()}
    ratio = secs[relative] / secs[variant]
    for name in starts:
        per_cpu = games / statistics.median(cpu[name]) if min(cpu[name]) > 0 else float("nan")
        note = f", x{ratio:.2f} {relative}'s games/s" if name == variant else ""
        other = relative if name == variant else variant
        figures.add(Figure(f"rollout-{name}",
                           f"{policy} policy, threads=1, interleaved with {other} (positions/s = "
                           f"games/s; {per_cpu:,.0f} games/cpu-s; {plies[name]:.0f} plies/game"
                           f"{note})",
                           f"{games} games from the start", None, games, secs[name]),
                    benchmark if name == variant else None)
