"""Random rollouts of Tavla, Portes and Plakoto against backgammon's, interleaved in one run:
figures reported, never asserted.

Each timed round plays ``GAMES`` random games from the start on one thread for backgammon,
Tavla, Portes and Plakoto in turn, so the four share the machine's load; the label gives the
games per CPU-second of the process (the per-core rate) and its ratio to backgammon's in the
same rounds (medians over the rounds). The summary table is printed by
benchmarks/conftest.py.
"""

from __future__ import annotations

import resource
import statistics
from typing import Any

import nardy
from benchmarks.conftest import Figure, Figures, run_timed

VARIANTS = ("backgammon", "tavla", "portes", "plakoto")
#: games per variant and round (benchmarks enabled / smoke)
GAMES = (4000, 100)


def _cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def test_rollouts_interleaved_with_backgammon(benchmark: Any, figures: Figures,
                                              enabled: bool) -> None:
    games = GAMES[0 if enabled else 1]
    starts = {name: nardy.Position(name) for name in VARIANTS}
    cpu: dict[str, list[float]] = {name: [] for name in VARIANTS}
    plies: dict[str, float] = {}

    def body() -> int:
        played = 0
        for name in VARIANTS:
            c0 = _cpu_seconds()
            out = nardy.rollout(starts[name], games, "random", seed=7, threads=1)
            cpu[name].append(_cpu_seconds() - c0)
            plies[name] = out.mean_plies
            assert out.games == games and out.unfinished == 0
            played += out.games
        return played

    _, secs = run_timed(benchmark, body, group="rollout-tavli", rounds=5 if enabled else 1)
    rate = {name: games / statistics.median(cpu[name]) if min(cpu[name]) > 0 else float("nan")
            for name in VARIANTS}
    for name in VARIANTS:
        figures.add(Figure("rollout-tavli",
                           f"{name} random rollouts, 1 thread: {rate[name]:,.0f} games/cpu-s, "
                           f"x{rate[name] / rate['backgammon']:.2f} backgammon's; "
                           f"{plies[name]:.0f} plies/game",
                           f"{games} games a round, 4 variants interleaved", None, games,
                           statistics.median(cpu[name])))
