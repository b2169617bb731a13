"""The C++ core against another build of it, in interleaved rounds (``nardy-core bench``).

Speed changes of the core are stated as ratios to the build before them, measured in the same
run: absolute rates on a shared machine move with its load. Build the other tree's
``nardy-core`` and point ``NARDY_BASELINE_CORE`` at it; this then alternates the two binaries,
round after round, over

- the shared backgammon set (2,000 positions x 21 rolls): listing every move;
- a pass on every roll (a checker on the bar against a closed board): the fixed cost of a call;
- a forced single move on every roll (one checker left to bear off);

and reports the median rate of each and the ratio new / baseline. Without the variable it is
skipped. Rates are reported, never asserted.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nardy

ROUNDS = 15
#: passes over the file per run: each run takes well under a second per binary
REPEATS = {"listing": 1, "pass": 400, "forced": 200}


def _row(us: list[int], them: list[int]) -> str:
    return " ".join(map(str, us)) + " | " + " ".join(map(str, them))


def _side(counts: dict[int, int]) -> list[int]:
    side = [0] * 26
    for slot, n in counts.items():
        side[slot] = n
    return side


def _current_core() -> Path:
    tool = Path(nardy.__file__).resolve().parent / "bin" / "nardy-core"
    if not tool.exists():
        pytest.skip(f"nardy-core not built beside the package ({tool})")
    return tool


def _rate(tool: Path, path: Path, repeat: int) -> float:
    out = subprocess.run([str(tool), "bench", "backgammon", str(path), str(repeat)],
                         check=True, capture_output=True, text=True).stdout
    m = re.search(r"([0-9.]+) enumerations/s", out)
    assert m, out
    return float(m.group(1))


@pytest.fixture(scope="module")
def workloads(tmp_path_factory: pytest.TempPathFactory,
              backgammon_array: np.ndarray) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("against-build")
    files = {}
    listing = d / "listing.txt"
    listing.write_text("".join(_row(list(r[0]), list(r[1])) + "\n" for r in backgammon_array))
    files["listing"] = listing
    # 1 on the bar, the opponent's home board closed: every roll passes
    bar = _row(_side({24: 1, 12: 14}), _side({0: 2, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 10: 3}))
    # one checker left, on the 1-point: every roll bears it off, one move
    last = _row(_side({0: 1, 25: 14}), _side({5: 15}))
    for name, row in (("pass", bar), ("forced", last)):
        files[name] = d / f"{name}.txt"
        files[name].write_text((row + "\n") * 200)
    return files


def test_core_against_baseline_build(benchmark: Any, workloads: dict[str, Path],
                                     enabled: bool) -> None:
    base = os.environ.get("NARDY_BASELINE_CORE")
    if not base:
        pytest.skip("NARDY_BASELINE_CORE (another build's nardy-core) not set")
    new = _current_core()
    rounds = ROUNDS if enabled else 1
    rates: dict[tuple[str, str], list[float]] = {}

    def body() -> None:
        for _ in range(rounds):
            for name, path in workloads.items():
                for label, tool in (("baseline", Path(base)), ("new", new)):
                    rates.setdefault((name, label), []).append(
                        _rate(tool, path, REPEATS[name]))

    benchmark.pedantic(body, rounds=1, iterations=1)
    print("\ncore against the baseline build (median enumerations/s over "
          f"{rounds} interleaved rounds):")
    for name in workloads:
        b = statistics.median(rates[(name, "baseline")])
        n = statistics.median(rates[(name, "new")])
        ratios = [x / y for x, y in zip(rates[(name, "new")], rates[(name, "baseline")])]
        print(f"  {name:8s} baseline {b:12,.0f}  new {n:12,.0f}  ratio of medians {n / b:.2f}"
              f"  median of round ratios {statistics.median(ratios):.2f}")
