"""Batch APIs and rollouts: figures reported, never asserted.

(a) ``nardy.batch.afterstates`` through numpy on the shared backgammon set (2,000 positions x
    21 rolls as N = 42,000 rows) against the core's own enumeration rate (``x core``; with the
    whole benchmarks directory in one run the gnubg row of test_bench_backgammon gives
    ``x gnubg`` too), with threads = 1 and 2; the same for long nardy; two threads against one
    per CPU-second, interleaved; ``batch.afterstate_keys`` against the core, interleaved;
(b) feature encoding of those afterstates: ``batch.encode`` on the (M, 2, 26) array and the
    fused ``batch.afterstate_features``; rows/s in the positions/s column;
(c) rollouts from the opening with the random and greedy policies, threads = 1 and 2, for
    backgammon, long nardy and Shlem; games/s in the positions/s column, the scaling
    (threads = 2 over threads = 1) and the games per CPU-second of the process (the per-core
    rate, meaningful even when other work shares the cores) in the label.

The summary table is printed by benchmarks/conftest.py.
"""

from __future__ import annotations

import resource
import statistics
import time
from typing import Any

import numpy as np
import pytest

import nardy
from benchmarks.conftest import ROLLS, Figure, Figures, run_timed
from nardy import batch

#: games per timed rollout call (benchmarks enabled / smoke)
GAMES = {"backgammon": (20000, 400), "long-nardy": (10000, 200), "shlem": (300, 10)}


def _workload(n: int) -> str:
    return f"{n} pos x {len(ROLLS)} rolls"


def _rows_and_dice(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = len(arr)
    boards = np.ascontiguousarray(np.repeat(arr, len(ROLLS), axis=0))
    dice = np.ascontiguousarray(np.tile(np.array(ROLLS, dtype=np.int8), (n, 1)))
    return boards, dice


def _core_reference(benchmark: Any, figures: Figures, group: str, engine: Any,
                    arr: np.ndarray) -> None:
    """The core's own rate on the workload (role "core", the reference of "x core"), unless
    test_bench_backgammon / test_bench_long_nardy measured it earlier in the run."""
    work = _workload(len(arr))
    if any(r.group == group and r.role == "core" and r.workload == work for r in figures.rows):
        return
    inner: list[float] = []

    def body() -> tuple[int, int, float]:
        out = engine.enumerate_loop(np.ascontiguousarray(arr), 1)
        inner.append(out[2])
        return out

    # pytest-benchmark's fixture times one body per test: this reference runs beside it
    (enums, results, _), _wall = run_timed(_NoBenchmark(), body, group=f"{group}-batch",
                                           rounds=5, warmup_rounds=1)
    measured = sorted(inner[1:] if len(inner) > 1 else inner)
    figures.add(Figure(group, "C++ core enumerate_loop (C++ timer)", work, enums, results,
                       measured[len(measured) // 2], role="core"))


# -- (a) afterstates through numpy --------------------------------------------------------
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("group", ["backgammon", "long-nardy"])
def test_afterstates_numpy(benchmark: Any, figures: Figures, group: str, threads: int,
                           request: pytest.FixtureRequest) -> None:
    arr = request.getfixturevalue("backgammon_array" if group == "backgammon"
                                  else "long_nardy_array")
    variant = nardy.find_variant(group)()
    if threads == 1:
        _core_reference(benchmark, figures, group, variant.engine, arr)
    boards, dice = _rows_and_dice(arr)

    def body() -> int:
        rows, offsets = batch.afterstates(boards, dice, variant, threads=threads)
        return len(rows)

    m, secs = run_timed(benchmark, body, group=f"{group}-batch", rounds=5, warmup_rounds=1)
    expected = int(variant.engine.enumerate_loop(arr, 1)[1])
    figures.add(Figure(group, f"nardy.batch.afterstates numpy, threads={threads}",
                       _workload(len(arr)), len(boards), m, secs,
                       note="" if m == expected else "COUNT MISMATCH"), benchmark)
    assert m == expected, "batch.afterstates and enumerate_loop disagree on the results"


# -- (a'') two threads against one, per CPU-second -----------------------------------------
@pytest.mark.parametrize("group,output", [("backgammon", "rows"), ("backgammon", "keys"),
                                          ("long-nardy", "rows")])
def test_afterstates_two_threads_per_cpu_second(benchmark: Any, enabled: bool, group: str,
                                                output: str,
                                                request: pytest.FixtureRequest) -> None:
    """The same batch call on one thread and on two, alternating round after round; each
    round's ratio is the one-thread call's CPU time (the process's, all threads) over the
    two-thread call's: the two-thread rate per CPU-second as a share of one thread's, a figure
    that other work on the machine moves less than wall-clock time."""
    arr = np.ascontiguousarray(request.getfixturevalue(
        "backgammon_array" if group == "backgammon" else "long_nardy_array"))
    variant = nardy.find_variant(group)()
    boards, dice = _rows_and_dice(arr)
    call = batch.afterstates if output == "rows" else batch.afterstate_keys
    rounds, calls = (9, 5) if enabled else (1, 1)
    ratios: list[float] = []
    lengths: dict[int, int] = {}

    def body() -> None:
        for _ in range(rounds):
            cpu = {}
            for threads in (1, 2):
                c0 = _cpu_seconds()
                for _ in range(calls):
                    lengths[threads] = len(call(boards, dice, variant, threads=threads)[0])
                cpu[threads] = _cpu_seconds() - c0
            ratios.append(cpu[1] / cpu[2])

    benchmark.pedantic(body, rounds=1, iterations=1)
    assert lengths[1] == lengths[2] == int(variant.engine.enumerate_loop(arr, 1)[1])
    r = statistics.median(ratios)
    print(f"\n{group} {output}: two threads x{r:.2f} one thread's rate per CPU-second "
          f"(median of {rounds} interleaved rounds, {min(ratios):.2f}-{max(ratios):.2f})")
    benchmark.extra_info["per_cpu_second_ratio"] = r
    benchmark.extra_info["round_ratios"] = ratios


# -- (a') results only, interleaved with the core ------------------------------------------
def test_afterstate_keys_against_core(benchmark: Any, figures: Figures,
                                      backgammon_array: np.ndarray, enabled: bool) -> None:
    """batch.afterstate_keys (32-byte results, no rows or steps) and batch.afterstates, each
    timed in rounds alternating with the core's enumerate_loop on the same workload: the median
    of the per-round ratios (the machine's load moves all three together)."""
    variant = nardy.Backgammon()
    arr = np.ascontiguousarray(backgammon_array)
    boards, dice = _rows_and_dice(arr)
    rounds = 9 if enabled else 1
    ratios: dict[str, list[float]] = {"keys": [], "rows": [], "keys-cpu": [], "rows-cpu": []}
    m = 0

    def body() -> None:
        nonlocal m
        for _ in range(rounds):
            c0 = _cpu_seconds()
            core = variant.engine.enumerate_loop(arr, 1)[2]
            core_cpu = _cpu_seconds() - c0
            t0, c0 = time.perf_counter(), _cpu_seconds()
            keys, _ = batch.afterstate_keys(boards, dice, variant)
            t_keys, c_keys = time.perf_counter() - t0, _cpu_seconds() - c0
            t0, c0 = time.perf_counter(), _cpu_seconds()
            rows, _ = batch.afterstates(boards, dice, variant)
            t_rows, c_rows = time.perf_counter() - t0, _cpu_seconds() - c0
            assert len(keys) == len(rows)
            m = len(keys)
            ratios["keys"].append(core / t_keys)
            ratios["rows"].append(core / t_rows)
            ratios["keys-cpu"].append(core_cpu / c_keys)
            ratios["rows-cpu"].append(core_cpu / c_rows)

    benchmark.pedantic(body, rounds=1, iterations=1)
    for name, label in (("keys", "batch.afterstate_keys"), ("rows", "batch.afterstates")):
        r = statistics.median(ratios[name])
        c = statistics.median(ratios[f"{name}-cpu"])
        print(f"\n{label}: {r:.2f} x the core's rate (median of {rounds} interleaved rounds); "
              f"by the process's CPU time (the core's call timed the same way) {c:.2f}")
        benchmark.extra_info[f"{name}_ratio"] = r
        benchmark.extra_info[f"{name}_cpu_ratio"] = c
    assert m == int(variant.engine.enumerate_loop(arr, 1)[1])


# -- (b) feature encoding -----------------------------------------------------------------
@pytest.mark.parametrize("kind", ["tdgammon", "gnubg"])
def test_encode_afterstates(benchmark: Any, figures: Figures, backgammon_array: np.ndarray,
                            kind: str) -> None:
    boards, dice = _rows_and_dice(backgammon_array)
    rows, _ = batch.afterstates(boards, dice)
    out = np.empty((len(rows), batch.encoding_width(kind)), np.float32)

    def body() -> int:
        return len(batch.encode(rows, kind, on_roll=1, out=out))

    m, secs = run_timed(benchmark, body, group="encode", rounds=5, warmup_rounds=1)
    figures.add(Figure("encode", f"batch.encode {kind} of afterstates (rows/s)",
                       f"{m} afterstate rows", None, m, secs), benchmark)


@pytest.mark.parametrize("group,kind", [("backgammon", "tdgammon"), ("long-nardy", "long")])
def test_afterstate_features_fused(benchmark: Any, figures: Figures, group: str, kind: str,
                                   request: pytest.FixtureRequest) -> None:
    arr = request.getfixturevalue("backgammon_array" if group == "backgammon"
                                  else "long_nardy_array")
    boards, dice = _rows_and_dice(arr)
    variant = nardy.find_variant(group)()

    def body() -> int:
        feats, offsets = batch.afterstate_features(boards, dice, kind, variant)
        return len(feats)

    m, secs = run_timed(benchmark, body, group="encode", rounds=3, warmup_rounds=1)
    figures.add(Figure(group, f"batch.afterstate_features {kind} (enumerate + encode; "
                              f"positions/s = rows/s)", _workload(len(arr)), len(boards), m,
                       secs), benchmark)


# -- (c) rollouts -------------------------------------------------------------------------
@pytest.mark.parametrize("variant,policy", [("backgammon", "random"), ("backgammon", "greedy"),
                                            ("long-nardy", "random"),
                                            ("long-nardy", "greedy"), ("shlem", "random")])
def test_rollout_games_per_second(benchmark: Any, figures: Figures, enabled: bool,
                                  variant: str, policy: str) -> None:
    games = GAMES[variant][0 if enabled else 1]
    pos = nardy.Position(variant)
    rates = {}
    for threads in (1, 2):
        cpu: list[float] = []

        def body(threads: int = threads) -> nardy.RolloutResult:
            c0 = _cpu_seconds()
            out = nardy.rollout(pos, games, policy, seed=1, threads=threads)
            cpu.append(_cpu_seconds() - c0)
            return out

        result, secs = run_timed(benchmark if threads == 1 else _NoBenchmark(), body,
                                 group=f"rollout-{variant}", rounds=3 if enabled else 1)
        rates[threads] = games / secs
        scale = "" if threads == 1 else f", x{rates[2] / rates[1]:.2f} vs 1 thread"
        # games per CPU-second of this process: the per-core rate even on a shared machine
        per_cpu = games / sorted(cpu)[len(cpu) // 2] if cpu and min(cpu) > 0 else float("nan")
        figures.add(Figure(f"rollout-{variant}",
                           f"{policy} policy, threads={threads} (positions/s = games/s; "
                           f"{per_cpu:,.0f} games/cpu-s; {result.mean_plies:.0f} plies/game"
                           f"{scale})",
                           f"{games} games from the start", None, games, secs),
                    benchmark if threads == 1 else None)
        assert result.games == games


def _cpu_seconds() -> float:
    """CPU time of this process, all threads (user + system)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class _NoBenchmark:
    """run_timed's interface without pytest-benchmark (one benchmark per test item)."""

    def __init__(self) -> None:
        self.group = ""
        self.extra_info: dict[str, Any] = {}

    def pedantic(self, fn: Any, rounds: int, warmup_rounds: int, iterations: int) -> None:
        for _ in range(warmup_rounds + rounds):
            fn()
