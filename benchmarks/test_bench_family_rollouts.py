"""The wider family's rollouts: random and greedy rollouts from the start on one thread, each
variant against its closest relative in the same run (Fevga against long nardy, Acey-deucey
against backgammon; the two interleaved call by call, so that the load of a shared machine
falls on both alike). Figures reported, never asserted: games/s in the positions/s column; the
label gives the ratio to the relative (medians of the interleaved calls) and the games per
CPU-second of the process (the per-core rate). With ``NARDY_BASELINE_CORE`` set to another
build's ``nardy-core``, Acey-deucey and Gul bara random rollouts of this build's tool against
that one, alternated round after round (games per CPU-second and their ratio; skipped without
it).

The summary table is printed by benchmarks/conftest.py.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time
from pathlib import Path
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


#: Random games per call of ``nardy-core rollout`` against another build (rounds of about a
#: second: shorter ones measure process start and the timer's granularity)
AGAINST_BUILD_GAMES = (20000, 100)


def _core_rollout(tool: str, variant: str, games: int, seed: int) -> tuple[float, str]:
    """CPU seconds of one ``nardy-core rollout VARIANT GAMES random SEED 1`` and its line
    without the rate (the games, plies a game and points, which both builds must share)."""
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([tool, "rollout", variant, str(games), "random", str(seed), "1"],
                         check=True, capture_output=True, text=True).stdout
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    return cpu, out.split(":")[0].strip()


@pytest.mark.parametrize("variant", ["acey-deucey", "gul-bara"])
def test_rollouts_against_baseline_build(benchmark: Any, enabled: bool, variant: str) -> None:
    """This build's ``nardy-core`` against ``NARDY_BASELINE_CORE`` (another build's), random
    rollouts from the start on one thread, the two binaries alternated round after round:
    games per CPU-second of each and the ratio new / baseline. Rounds use seeds 1-6 in turn
    (a Gul bara game's cost depends much on its cascades). Skipped without the variable;
    rates are reported, never asserted."""
    base = os.environ.get("NARDY_BASELINE_CORE")
    if not base:
        pytest.skip("NARDY_BASELINE_CORE (another build's nardy-core) not set")
    new = Path(nardy.__file__).resolve().parent / "bin" / "nardy-core"
    if not new.exists():
        pytest.skip(f"nardy-core not built beside the package ({new})")
    games = AGAINST_BUILD_GAMES[0 if enabled else 1]
    rounds = 6 if enabled else 1
    rates: dict[str, list[float]] = {"baseline": [], "new": []}
    lines: dict[str, set[str]] = {"baseline": set(), "new": set()}

    def body() -> None:
        for r in range(rounds):
            for label, tool in (("baseline", base), ("new", str(new))):
                cpu, line = _core_rollout(tool, variant, games, 1 + r % 6)
                rates[label].append(games / cpu if cpu > 0 else float("nan"))
                lines[label].add(line)

    benchmark.pedantic(body, rounds=1, iterations=1)
    b, n = statistics.median(rates["baseline"]), statistics.median(rates["new"])
    ratios = [x / y for x, y in zip(rates["new"], rates["baseline"])]
    same = "the same games" if lines["new"] == lines["baseline"] else "DIFFERENT games"
    print(f"\n{variant} random rollouts against the baseline build ({rounds} interleaved "
          f"rounds of {games} games, games per CPU-second): baseline {b:,.0f}  new {n:,.0f}  "
          f"ratio of medians {n / b:.2f}  median of round ratios "
          f"{statistics.median(ratios):.2f}; {same}")
