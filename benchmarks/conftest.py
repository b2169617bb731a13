"""Shared fixtures for the nardy benchmarks.

Run the real benchmarks with::

    pytest benchmarks/ --benchmark-enable

The project's pytest configuration passes ``--benchmark-disable``, so a plain
``pytest benchmarks/`` runs every benchmark body once as a quick smoke test. In smoke mode
the through-Python and gnubg measurements use a small subsample, and perft(3) of backgammon
is skipped.

Figures are only *reported* (in a table printed at the end of the run), never asserted. The
assertions in the benchmarks check that the two sides of a comparison did the same work
(same number of resulting positions), not how fast they were.

The position sets live in ``../shared/bench`` beside the repository root (as in CI); the
benchmarks that need them are skipped with a message when they are absent.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nardy

BENCH_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench"
BACKGAMMON_FILE = BENCH_DIR / "backgammon-positions.txt"
LONG_NARDY_FILE = BENCH_DIR / "long-nardy-positions.txt"

#: the 21 distinct rolls, d1 >= d2
ROLLS: tuple[tuple[int, int], ...] = tuple(
    (d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1))

#: smoke mode (benchmarks disabled): every SMOKE_STRIDE-th position for the slow Python paths
SMOKE_STRIDE = 50


def benchmarks_enabled(config: pytest.Config) -> bool:
    """pytest-benchmark's own rule: ``--benchmark-disable`` (set in the project's addopts) stays
    True even when ``--benchmark-enable`` is given; the latter overrides it."""
    if not config.pluginmanager.hasplugin("benchmark"):
        return False
    return not config.getoption("benchmark_disable") or bool(config.getoption("benchmark_enable"))


def _data_lines(path: Path) -> list[str]:
    if not path.is_file():
        pytest.skip(f"benchmark position set not found: {path} (expected ../shared/bench "
                    f"beside the repository root)")
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


# -- position sets ------------------------------------------------------------------------
@pytest.fixture(scope="session")
def backgammon_ids() -> list[str]:
    """The 2,000 gnubg Position IDs."""
    return _data_lines(BACKGAMMON_FILE)


@pytest.fixture(scope="session")
def backgammon_array(backgammon_ids: list[str]) -> np.ndarray:
    """(N, 2, 26) int8: [mover side, opponent side], own coordinates (docs/coordinates.md)."""
    try:
        from nardy.formats import decode_position_id
    except ImportError as exc:  # pragma: no cover - the codec is written separately
        pytest.skip(f"nardy.formats.decode_position_id unavailable: {exc}")
    return np.array([decode_position_id(pid) for pid in backgammon_ids], dtype=np.int8)


@pytest.fixture(scope="session")
def backgammon_positions(backgammon_array: np.ndarray) -> list[nardy.Position]:
    return _positions("backgammon", backgammon_array)


def parse_long_nardy_line(line: str) -> list[list[int]]:
    """One line of the long-nardy set -> [mover26, opponent26].

    Each half is 24 counts along that side's own path from its head (path index a); our
    distance index is 23 - a, no bar, borne off = 15 - sum."""
    halves = line.split("|")
    if len(halves) != 2:
        raise ValueError(f"expected 'mover | opponent', got {line!r}")
    sides = []
    for half in halves:
        counts = [int(x) for x in half.split()]
        if len(counts) != 24:
            raise ValueError(f"expected 24 counts per side, got {len(counts)} in {line!r}")
        side = [0] * 26
        for a, n in enumerate(counts):
            side[23 - a] = n
        side[25] = 15 - sum(counts)
        sides.append(side)
    return sides


@pytest.fixture(scope="session")
def long_nardy_array() -> np.ndarray:
    return np.array([parse_long_nardy_line(x) for x in _data_lines(LONG_NARDY_FILE)],
                    dtype=np.int8)


@pytest.fixture(scope="session")
def long_nardy_positions(long_nardy_array: np.ndarray) -> list[nardy.Position]:
    return _positions("long-nardy", long_nardy_array)


def _positions(variant: str, arr: np.ndarray) -> list[nardy.Position]:
    v = nardy.find_variant(variant)()  # one variant object -> one shared engine
    return [nardy.Position.from_sides(v, m, o) for m, o in arr.tolist()]


@pytest.fixture(scope="session")
def enabled(pytestconfig: pytest.Config) -> bool:
    return benchmarks_enabled(pytestconfig)


@pytest.fixture(scope="session")
def sample(enabled: bool) -> slice:
    """Which positions the slow (per-call Python, gnubg) paths use: all of them when benchmarks
    are enabled, a subsample in smoke mode. Every side of a ratio uses the same slice."""
    return slice(None) if enabled else slice(None, None, SMOKE_STRIDE)


# -- collecting figures -------------------------------------------------------------------
@dataclass
class Figure:
    group: str              # "backgammon" / "long-nardy"
    label: str
    workload: str           # rows are only compared when their workloads are equal
    enumerations: int | None  # (position, roll) enumerations per timed call
    results: int            # resulting positions (or perft leaves) per timed call
    seconds: float          # per timed call (median)
    role: str = ""          # "core" (C++ timer) or "peer" (gnubg): the ratio references
    note: str = ""

    @property
    def enum_rate(self) -> float | None:
        return None if self.enumerations is None else self.enumerations / self.seconds

    @property
    def result_rate(self) -> float:
        return self.results / self.seconds


@dataclass
class Figures:
    enabled: bool
    rows: list[Figure] = field(default_factory=list)

    def add(self, fig: Figure, benchmark: Any = None) -> None:
        """Records a figure (and, given the benchmark fixture, puts it in its extra_info so
        that ``--benchmark-json`` / ``--benchmark-autosave`` keep it too)."""
        self.rows.append(fig)
        if benchmark is not None:
            benchmark.extra_info.update({
                "label": fig.label, "workload": fig.workload,
                "enumerations_per_call": fig.enumerations, "results_per_call": fig.results,
                "seconds_per_call": fig.seconds, "enumerations_per_s": fig.enum_rate,
                "positions_per_s": fig.result_rate,
            })

    def _ref(self, fig: Figure, role: str) -> Figure | None:
        for r in self.rows:
            if r.group == fig.group and r.role == role and r.workload == fig.workload:
                return r
        return None

    def table(self) -> list[str]:
        head = ("variant", "measurement", "workload", "enum/s", "positions/s", "x gnubg", "x core")
        body = []
        for f in self.rows:
            peer, core = self._ref(f, "peer"), self._ref(f, "core")

            def ratio(ref: Figure | None, f: Figure = f) -> str:
                if ref is None or f.enum_rate is None or ref.enum_rate is None:
                    return "-"
                return f"{f.enum_rate / ref.enum_rate:,.2f}"

            body.append((
                f.group,
                f.label + (f" [{f.note}]" if f.note else ""),
                f.workload,
                "-" if f.enum_rate is None else f"{f.enum_rate:,.0f}",
                f"{f.result_rate:,.0f}",
                ratio(peer),
                ratio(core),
            ))
        widths = [max(len(str(r[i])) for r in [head, *body]) for i in range(len(head))]
        right = {3, 4, 5, 6}

        def fmt(row: tuple[str, ...]) -> str:
            return "  ".join(str(c).rjust(w) if i in right else str(c).ljust(w)
                             for i, (c, w) in enumerate(zip(row, widths)))

        return [fmt(head), "  ".join("-" * w for w in widths), *(fmt(r) for r in body)]


_FIGURES = pytest.StashKey[Figures]()


@pytest.fixture(scope="session")
def figures(pytestconfig: pytest.Config, enabled: bool) -> Figures:
    figs = pytestconfig.stash.get(_FIGURES, None)
    if figs is None:
        figs = pytestconfig.stash[_FIGURES] = Figures(enabled)
    return figs


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    figs = config.stash.get(_FIGURES, None)
    if figs is None or not figs.rows:
        return
    tr = terminalreporter
    title = "nardy benchmark figures" if figs.enabled else \
        "nardy benchmark smoke run (single calls on a subsample: figures NOT meaningful)"
    tr.write_sep("=", title)
    for line in figs.table():
        tr.write_line(line)
    tr.write_line("enum/s = (position, roll) enumerations per second; positions/s = resulting "
                  "positions (perft: leaves) per second;")
    tr.write_line("x gnubg / x core = enum/s divided by that of gnubg findbestmoves / the C++ "
                  "core (C++ timer) on the same workload.")


# -- timing helper ------------------------------------------------------------------------
class Timed:
    """Wraps a function, recording the wall time of every call (warm-up rounds included)."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn
        self.times: list[float] = []
        self.last: Any = None

    def __call__(self) -> Any:
        t0 = time.perf_counter()
        out = self.fn()
        self.times.append(time.perf_counter() - t0)
        self.last = out
        return out


def run_timed(benchmark: Any, fn: Callable[[], Any], *, group: str, rounds: int,
              warmup_rounds: int = 0) -> tuple[Any, float]:
    """Runs ``fn`` under pytest-benchmark (pedantic, one iteration per round) and returns
    (last result, median seconds per call). The median is pytest-benchmark's when it measured,
    otherwise (benchmarks disabled: one call) our own wall time of that call."""
    benchmark.group = group
    timed = Timed(fn)
    benchmark.pedantic(timed, rounds=rounds, warmup_rounds=warmup_rounds, iterations=1)
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        secs = float(stats.stats.median)
    else:
        secs = statistics.median(timed.times[warmup_rounds:] or timed.times)
    return timed.last, secs


MISMATCH = ("this path and Engine.enumerate_loop disagree on the number of resulting "
            "positions: a move-generator inconsistency, not a timing")


def workload(n: int) -> str:
    return f"{n} pos x {len(ROLLS)} rolls"


def measure_python_legal_moves(benchmark: Any, figures: Figures, group: str,
                               positions: list, expected_results: int, *,
                               materialise: bool) -> None:
    """One Python call per (position, roll), as a bot written in Python makes them; with
    ``materialise`` the Move objects are copied out into a plain list as well."""

    def body() -> int:
        n = 0
        for p in positions:
            for d in ROLLS:
                n += len(list(p.legal_moves(d))) if materialise else len(p.legal_moves(d))
        return n

    total, secs = run_timed(benchmark, body, group=group, rounds=3 if materialise else 5,
                            warmup_rounds=1)
    label = "Python list(pos.legal_moves(d))" if materialise else "Python len(pos.legal_moves(d))"
    figures.add(Figure(group, label, workload(len(positions)), len(positions) * len(ROLLS),
                       total, secs, note="" if total == expected_results else "COUNT MISMATCH"),
                benchmark)
    assert total == expected_results, MISMATCH
