"""Shlem move-generation benchmarks: full-move enumerations/s on positions from seeded random
play (there is no shared Shlem position set), C++ core alone and through Python, and perft(1)
from the start. Timings are reported in the summary table, never asserted.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nardy
from benchmarks.conftest import ROLLS, Figure, Figures, run_timed

GROUP = "shlem"
N_POSITIONS = 500


@pytest.fixture(scope="module")
def engine() -> Any:
    return nardy.Shlem().engine


@pytest.fixture(scope="module")
def shlem_positions() -> list[nardy.Position]:
    """N_POSITIONS positions from random games (seed 2026), every ply of each game kept."""
    v = nardy.Shlem()
    e = v.engine
    rng = random.Random(2026)
    out: list[nardy.Position] = []
    while len(out) < N_POSITIONS:
        key, turn = nardy.Position(v).key, nardy.WHITE
        for _ in range(rng.randint(10, 120)):
            if e.status(key)["over"] or len(out) == N_POSITIONS:
                break
            out.append(nardy.Position._raw(v, key, turn))
            ms = e.legal(key, rng.randint(1, 6), rng.randint(1, 6))
            if len(ms):
                key = ms.key(rng.randrange(len(ms)))
            key, turn = nardy._core.swap(key), 1 - turn
    return out


@pytest.fixture(scope="module")
def shlem_array(shlem_positions: list[nardy.Position]) -> np.ndarray:
    return np.array([p.sides() for p in shlem_positions], dtype=np.int8)


def test_core_enumerate_loop(benchmark: Any, figures: Figures, engine: Any,
                             shlem_array: np.ndarray) -> None:
    arr = np.ascontiguousarray(shlem_array)
    inner: list[tuple[int, int, float]] = []

    def body() -> tuple[int, int, float]:
        out = engine.enumerate_loop(arr, 1)
        inner.append(out)
        return out

    (enums, results, _), _wall = run_timed(benchmark, body, group=GROUP, rounds=3,
                                           warmup_rounds=1)
    assert enums == len(arr) * len(ROLLS)
    secs = sorted(s for _, _, s in inner)[len(inner) // 2]
    figures.add(Figure(GROUP, "C++ core enumerate_loop (C++ timer)",
                       f"{len(arr)} random-play pos x {len(ROLLS)} rolls", enums, results, secs,
                       role="core"), benchmark)


def test_python_legal_moves_len(benchmark: Any, figures: Figures,
                                shlem_positions: list[nardy.Position], engine: Any,
                                shlem_array: np.ndarray) -> None:
    positions = shlem_positions[:100]
    expected = int(engine.enumerate_loop(np.ascontiguousarray(shlem_array[:100]), 1)[1])

    def body() -> int:
        return sum(len(p.legal_moves(d)) for p in positions for d in ROLLS)

    total, secs = run_timed(benchmark, body, group=GROUP, rounds=1, warmup_rounds=0)
    figures.add(Figure(GROUP, "Python len(pos.legal_moves(d))",
                       f"{len(positions)} random-play pos x {len(ROLLS)} rolls",
                       len(positions) * len(ROLLS), total, secs), benchmark)
    assert total == expected


def test_perft1_start(benchmark: Any, figures: Figures) -> None:
    start = nardy.Position("shlem")
    leaves, secs = run_timed(benchmark, lambda: nardy.perft(start, 1), group=GROUP, rounds=3)
    assert leaves == 39729
    figures.add(Figure(GROUP, f"perft(1) from the start = {leaves:,} leaves",
                       "perft", None, leaves, secs), benchmark)


def _core_rate(tool: Path, args: list[str], pattern: str) -> float:
    out = subprocess.run([str(tool), *args], check=True, capture_output=True, text=True).stdout
    m = re.search(pattern, out)
    assert m, out
    return float(m.group(1))


@pytest.mark.skipif(not os.environ.get("NARDY_BASELINE_CORE"),
                    reason="NARDY_BASELINE_CORE (another build's nardy-core) not set")
def test_core_against_baseline_build(benchmark: Any, figures: Figures, enabled: bool,
                                     shlem_array: np.ndarray, tmp_path: Path) -> None:
    """The random-play positions listed (every roll), and random rollouts from the start, by
    this build's nardy-core and by the baseline's, alternating round after round; the ratio
    of the medians and the range of the per-round ratios (new / baseline)."""
    new = Path(nardy.__file__).resolve().parent / "bin" / "nardy-core"
    if not new.exists():
        pytest.skip(f"nardy-core not built beside the package ({new})")
    base = Path(os.environ["NARDY_BASELINE_CORE"])
    listing = tmp_path / "shlem-positions.txt"
    listing.write_text("".join(" ".join(map(str, r[0])) + " | " + " ".join(map(str, r[1])) + "\n"
                               for r in shlem_array))
    rounds, games = (7, "300") if enabled else (1, "10")
    work = {
        "listing": (["bench", "shlem", str(listing), "1"], r"([0-9.]+) enumerations/s"),
        "rollout": (["rollout", "shlem", games, "random", "1", "1"], r"([0-9.]+) games/s"),
    }
    rates: dict[tuple[str, str], list[float]] = {}

    def body() -> None:
        for _ in range(rounds):
            for name, (args, pattern) in work.items():
                for label, tool in (("baseline", base), ("new", new)):
                    rates.setdefault((name, label), []).append(_core_rate(tool, args, pattern))

    benchmark.pedantic(body, rounds=1, iterations=1)
    for name in work:
        b, n = rates[(name, "baseline")], rates[(name, "new")]
        ratios = [x / y for x, y in zip(n, b)]
        ratio = statistics.median(n) / statistics.median(b)
        figures.add(Figure(GROUP, f"{name}: this build x{ratio:.2f} the baseline's (per-round "
                           f"{min(ratios):.2f}-{max(ratios):.2f}, {rounds} rounds)",
                           f"nardy-core {name}", None, 1, 1 / statistics.median(n)), benchmark)
        benchmark.extra_info[f"{name}_ratio"] = ratio
