"""perft with and without a transposition table, one thread, interleaved in the same run
(table, plain, table, plain, ...) so that both see the same machine. Leaves per second of
CPU time (the process's, so other work on a shared machine counts less); "x core" is the
table's rate over the plain count's. Timings are reported, never asserted.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import nardy
from benchmarks.conftest import Figure, Figures

GROUP = "perft"

CASES = [
    # (variant, rule options, depth, depth in smoke mode)
    ("backgammon", {}, 3, 2),
    ("long-nardy", {"head_rule": "classic"}, 5, 3),
]


def _cpu(fn: Any) -> tuple[Any, float]:
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


@pytest.mark.parametrize("name,options,depth,smoke_depth", CASES,
                         ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_perft_table_vs_plain(benchmark: Any, figures: Figures, enabled: bool, name: str,
                              options: dict, depth: int, smoke_depth: int) -> None:
    pos = nardy.Position(nardy.find_variant(name)(**options))
    d = depth if enabled else smoke_depth
    rounds = 3 if enabled else 1
    plain_t: list[float] = []
    table_t: list[float] = []
    leaves = None

    def body() -> None:
        nonlocal leaves
        for _ in range(rounds):
            a, ta = _cpu(lambda: nardy.perft(pos, d, table_mb=256))
            b, tb = _cpu(lambda: nardy.perft(pos, d))
            assert a == b
            leaves = a
            table_t.append(ta)
            plain_t.append(tb)

    benchmark.pedantic(body, rounds=1, iterations=1)
    assert leaves is not None
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    work = f"{name} perft {d} from the start, 1 thread, CPU s"
    figures.add(Figure(GROUP, "perft, no table", work, leaves, leaves, med(plain_t),
                       role="core"), benchmark)
    figures.add(Figure(GROUP, "perft, 256 MB table", work, leaves, leaves, med(table_t)),
                benchmark)
