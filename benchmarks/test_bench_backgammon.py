"""Backgammon move-generation benchmarks on the shared set of 2,000 gnubg positions x 21 rolls.

(a) the C++ core alone (``Engine.enumerate_loop``, timed inside C++ and by pytest-benchmark);
(b) through the Python API, one ``legal_moves`` call per (position, roll): ``list(...)`` of it
    (every Move object materialised) and ``len(...)`` only (which skips building the Moves
    when LegalMoves creates them lazily; an eager LegalMoves builds them either way);
(c) the peer, PyPI gnubg's ``findbestmoves`` (note: it also scores every move with gnubg's
    0-ply neural net, so it does more than generate moves);
(d) the numpy batch ``nardy.batch.afterstates``: in test_bench_rollout.py, beside long nardy;
(e) perft(3) from the opening, timed once.

Timings are reported in the summary table, never asserted.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import nardy
from benchmarks.conftest import (
    MISMATCH,
    ROLLS,
    Figure,
    Figures,
    measure_python_legal_moves,
    run_timed,
    workload,
)

GROUP = "backgammon"
#: enumerate_loop passes over the set per timed call
CORE_REPEAT = 5


@pytest.fixture(scope="module")
def engine() -> Any:
    return nardy.Backgammon().engine


@pytest.fixture(scope="module")
def sample_results(engine: Any, backgammon_array: np.ndarray, sample: slice) -> int:
    """Resulting positions of the sampled (position, roll) pairs, by the core (not timed)."""
    return int(engine.enumerate_loop(backgammon_array[sample], 1)[1])


# -- (a) the C++ core ---------------------------------------------------------------------
def test_core_enumerate_loop(benchmark: Any, figures: Figures, engine: Any,
                             backgammon_array: np.ndarray, enabled: bool) -> None:
    arr = np.ascontiguousarray(backgammon_array)
    repeat = CORE_REPEAT if enabled else 1
    inner: list[tuple[int, int, float]] = []

    def body() -> tuple[int, int, float]:
        out = engine.enumerate_loop(arr, repeat)
        inner.append(out)
        return out

    (enums, results, _), wall = run_timed(benchmark, body, group=GROUP, rounds=5,
                                          warmup_rounds=1)
    assert enums == len(arr) * len(ROLLS) * repeat
    measured = inner[1:] if len(inner) > 1 else inner  # drop the warm-up call
    cxx = sorted(s for _, _, s in measured)[len(measured) // 2]
    work = workload(len(arr))
    figures.add(Figure(GROUP, "C++ core enumerate_loop (C++ timer)", work,
                       enums, results, cxx, role="core"), benchmark)
    figures.add(Figure(GROUP, "C++ core enumerate_loop (pytest-benchmark wall)", work,
                       enums, results, wall))  # its time is in the benchmark stats


# -- (b) through Python -------------------------------------------------------------------
def test_python_legal_moves_materialised(benchmark: Any, figures: Figures,
                                         backgammon_positions: list[nardy.Position],
                                         sample: slice, sample_results: int) -> None:
    measure_python_legal_moves(benchmark, figures, GROUP, backgammon_positions[sample],
                               sample_results, materialise=True)


def test_python_legal_moves_len(benchmark: Any, figures: Figures,
                                backgammon_positions: list[nardy.Position],
                                sample: slice, sample_results: int) -> None:
    measure_python_legal_moves(benchmark, figures, GROUP, backgammon_positions[sample],
                               sample_results, materialise=False)


def test_core_on_sample(benchmark: Any, figures: Figures, engine: Any,
                        backgammon_array: np.ndarray, sample: slice, enabled: bool) -> None:
    """The core on exactly the pairs the slow paths use (the reference of their ratios).
    With benchmarks enabled the sample is the whole set and this repeats (a)."""
    if enabled and sample == slice(None):
        pytest.skip("sample is the whole set: the core figure of test_core_enumerate_loop applies")
    arr = np.ascontiguousarray(backgammon_array[sample])
    inner: list[float] = []

    def body() -> tuple[int, int, float]:
        out = engine.enumerate_loop(arr, 1)
        inner.append(out[2])
        return out

    (enums, results, _), _wall = run_timed(benchmark, body, group=GROUP, rounds=5,
                                           warmup_rounds=1)
    measured = sorted(inner[1:] if len(inner) > 1 else inner)
    figures.add(Figure(GROUP, "C++ core enumerate_loop (C++ timer)", workload(len(arr)),
                       enums, results, measured[len(measured) // 2], role="core"), benchmark)


# -- (c) the peer: gnubg ------------------------------------------------------------------
def test_gnubg_findbestmoves(benchmark: Any, figures: Figures, backgammon_array: np.ndarray,
                             backgammon_ids: list[str], sample: slice,
                             sample_results: int) -> None:
    gnubg = pytest.importorskip("gnubg", reason="PyPI gnubg (the peer) is not installed")
    arr = backgammon_array[sample]
    # gnubg's board: (side not on roll, side on roll), 25 entries each (index 24 = bar)
    boards = [(tuple(o[:25]), tuple(m[:25])) for m, o in arr.tolist()]
    assert boards[0] == gnubg.positionfromid(backgammon_ids[sample][0])
    cube = gnubg.cubeinfo()
    ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    find = gnubg.findbestmoves

    def body() -> int:
        n = 0
        for b in boards:
            for d in ROLLS:
                n += len(find(b, cube, ctx, d))
        return n

    total, secs = run_timed(benchmark, body, group=GROUP, rounds=3, warmup_rounds=1)
    # gnubg lists one move per distinct resulting position, none for a pass: same work as ours
    figures.add(Figure(GROUP, "gnubg findbestmoves (0-ply eval incl.)", workload(len(boards)),
                       len(boards) * len(ROLLS), total, secs, role="peer",
                       note="" if total == sample_results else "COUNT MISMATCH"), benchmark)
    assert total == sample_results, MISMATCH


# -- (d) numpy batch: benchmarks/test_bench_rollout.py (nardy.batch.afterstates) -------------


# -- (e) perft ----------------------------------------------------------------------------
def test_perft3_opening(benchmark: Any, figures: Figures, enabled: bool) -> None:
    if not enabled:
        pytest.skip("perft(3) is counted by tests/perft/backgammon.perft; timed with --benchmark-enable")
    leaves, secs = run_timed(benchmark, lambda: nardy.perft(nardy.Position(), 3),
                               group=GROUP, rounds=1)
    figures.add(Figure(GROUP, f"perft(3) from the opening = {leaves:,} leaves, once",
                       "perft", None, leaves, secs), benchmark)
