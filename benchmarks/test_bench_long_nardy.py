"""Long-nardy move-generation benchmarks on the shared set of 2,000 positions x 21 rolls.

The C++ core alone (``Engine.enumerate_loop``), the Python API (one ``legal_moves`` call per
(position, roll), ``list(...)`` and ``len(...)`` of it) and perft(4) from the start. There is no
installed peer generator for long nardy, so ratios are against the C++ core.

Timings are reported in the summary table, never asserted.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import nardy
from benchmarks.conftest import (
    ROLLS,
    Figure,
    Figures,
    measure_python_legal_moves,
    run_timed,
    workload,
)

GROUP = "long-nardy"
CORE_REPEAT = 5


@pytest.fixture(scope="module")
def engine() -> Any:
    return nardy.LongNardy().engine


@pytest.fixture(scope="module")
def sample_results(engine: Any, long_nardy_array: np.ndarray, sample: slice) -> int:
    return int(engine.enumerate_loop(long_nardy_array[sample], 1)[1])


def _core_figures(benchmark: Any, figures: Figures, engine: Any, arr: np.ndarray,
                  repeat: int, wall_row: bool) -> None:
    arr = np.ascontiguousarray(arr)
    inner: list[tuple[int, int, float]] = []

    def body() -> tuple[int, int, float]:
        out = engine.enumerate_loop(arr, repeat)
        inner.append(out)
        return out

    (enums, results, _), wall = run_timed(benchmark, body, group=GROUP, rounds=5,
                                          warmup_rounds=1)
    assert enums == len(arr) * len(ROLLS) * repeat
    measured = sorted(s for _, _, s in (inner[1:] if len(inner) > 1 else inner))
    work = workload(len(arr))
    figures.add(Figure(GROUP, "C++ core enumerate_loop (C++ timer)", work, enums, results,
                       measured[len(measured) // 2], role="core"), benchmark)
    if wall_row:
        figures.add(Figure(GROUP, "C++ core enumerate_loop (pytest-benchmark wall)", work,
                           enums, results, wall))  # its time is in the benchmark stats


def test_core_enumerate_loop(benchmark: Any, figures: Figures, engine: Any,
                             long_nardy_array: np.ndarray, enabled: bool) -> None:
    _core_figures(benchmark, figures, engine, long_nardy_array,
                  CORE_REPEAT if enabled else 1, wall_row=True)


def test_core_on_sample(benchmark: Any, figures: Figures, engine: Any,
                        long_nardy_array: np.ndarray, sample: slice, enabled: bool) -> None:
    if enabled and sample == slice(None):
        pytest.skip("sample is the whole set: the core figure of test_core_enumerate_loop applies")
    _core_figures(benchmark, figures, engine, long_nardy_array[sample], 1, wall_row=False)


def test_python_legal_moves_materialised(benchmark: Any, figures: Figures,
                                         long_nardy_positions: list[nardy.Position],
                                         sample: slice, sample_results: int) -> None:
    measure_python_legal_moves(benchmark, figures, GROUP, long_nardy_positions[sample],
                               sample_results, materialise=True)


def test_python_legal_moves_len(benchmark: Any, figures: Figures,
                                long_nardy_positions: list[nardy.Position],
                                sample: slice, sample_results: int) -> None:
    measure_python_legal_moves(benchmark, figures, GROUP, long_nardy_positions[sample],
                               sample_results, materialise=False)


def test_perft4_start(benchmark: Any, figures: Figures, enabled: bool) -> None:
    # about 0.2 s: cheap enough to run in smoke mode too (depth 3 there, to stay quick)
    depth = 4 if enabled else 3
    start = nardy.Position("long-nardy")
    leaves, secs = run_timed(benchmark, lambda: nardy.perft(start, depth),
                               group=GROUP, rounds=1)
    figures.add(Figure(GROUP, f"perft({depth}) from the start = {leaves:,} leaves, once",
                       "perft", None, leaves, secs), benchmark)
