"""nardy.search: move choices per second at 0, 1 and 2 plies, beside gnubg's findbestmoves at
0 and 1 ply, interleaved in one run (figures reported, never asserted).

Workload: positions of the shared backgammon set, one roll each (drawn with a fixed seed), a
fresh block of them in every round: gnubg keeps an evaluation cache, and positions it has
seen in an earlier round would be answered from it. Every row picks a move for each (position, roll): ``enum/s`` is move choices per second
and ``x gnubg`` compares it with gnubg's ``findbestmoves`` at 0 plies; ``positions/s`` is the
positions the evaluator was asked about per second for nardy's rows, and the move choices
again for gnubg's (gnubg does not report what it evaluates).

The numpy evaluator is a small neural net of the size people train first: TD-Gammon's 198
inputs (``nardy.batch.encode``), 64 hidden ReLU units, 5 sigmoid outputs, random weights.
nardy's rows use gnubg's filters (8 moves within 0.16 at the root, the 0-ply best reply
inside); the gnubg-evaluator rows call ``gnubg.evaluate`` once per position, so they measure
the search's overhead around a per-position evaluator.

A second numpy evaluator, ``cheap`` (an equity from the pip counts: one small matrix product),
costs next to nothing, so its rows measure the search's own overhead (the C++ expansion and the
numpy reductions around the evaluator call).

The rows are timed round-robin (each round runs every row once) and the median round of each
is reported, so load from other work on the machine falls on all rows alike.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import numpy as np
import pytest

from benchmarks.conftest import Figure, Figures
from nardy import evaluators, search

GROUP = "search"


class TinyNet:
    """198 -> 64 ReLU -> 5 sigmoid on TD-Gammon features."""

    output = "probabilities"
    name = "tiny-net"

    def __init__(self, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = (rng.normal(size=(198, 64)) * 0.1).astype(np.float32)
        self.w2 = (rng.normal(size=(64, 5)) * 0.1).astype(np.float32)
        self.rows = 0

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        from nardy import batch

        self.rows += len(boards)
        x = batch.encode(boards, "tdgammon")
        h = np.maximum(x @ self.w1, 0.0)
        p = 1.0 / (1.0 + np.exp(-(h @ self.w2)))
        # keep the cumulative layout consistent: gammons within wins
        p[:, 1] *= p[:, 0]
        p[:, 2] *= p[:, 1]
        p[:, 3] *= 1.0 - p[:, 0]
        p[:, 4] *= p[:, 3]
        return p


class Cheap:
    """tanh of the pip difference: an evaluator that costs next to nothing."""

    output = "equity"
    name = "cheap"

    def __init__(self) -> None:
        self.rows = 0
        self.weights = np.arange(1, 26, dtype=np.float32)

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        self.rows += len(boards)
        pips = boards[:, :, :25].astype(np.float32) @ self.weights
        return np.tanh((pips[:, 1] - pips[:, 0]) / 20.0)


class Counting:
    """Counts the rows an evaluator is asked about."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.output = inner.output
        self.name = getattr(inner, "name", "counted")
        self.rows = 0

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        self.rows += len(boards)
        return np.asarray(self.inner(boards))


def test_search_rates(benchmark: Any, figures: Figures, enabled: bool,
                      backgammon_positions: list) -> None:
    gnubg = pytest.importorskip("gnubg", reason="PyPI gnubg (the peer) is not installed")
    n = 20 if enabled else 2
    rounds = 3 if enabled else 1
    rng = random.Random(3)
    blocks = []
    for r in range(rounds + 1):  # the extra block is for pytest-benchmark's own timing
        work = [(p, (rng.randint(1, 6), rng.randint(1, 6)))
                for p in backgammon_positions[r * n:(r + 1) * n]]
        blocks.append(([(p, d) for p, d in work if len(p.legal_moves(d)) >= 1]))
    cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)  # money, centred cube, given in full
    contexts = {k: gnubg.evalcontext(0, k, 1, 0, 0.0) for k in (0, 1)}
    net = TinyNet()
    cheap = Cheap()
    gnubg_ev = Counting(evaluators.as_evaluator("gnubg"))

    def gnubg_row(plies: int) -> Any:
        def body(work: list) -> tuple[int, int]:
            for p, d in work:
                us, them = p.sides()
                gnubg.findbestmoves((tuple(them[:25]), tuple(us[:25])), cube, contexts[plies], d)
            return len(work), len(work)
        return body

    def nardy_row(ev: Any, plies: int, threads: int = 1) -> Any:
        def body(work: list) -> tuple[int, int]:
            before = ev.rows
            for p, d in work:
                search.best_move(p, d, ev, plies, threads=threads)
            return len(work), ev.rows - before
        return body

    rows = [
        ("gnubg findbestmoves 0-ply", gnubg_row(0), "peer"),
        ("gnubg findbestmoves 1-ply", gnubg_row(1), ""),
        ("nardy.search 0-ply, numpy net", nardy_row(net, 0), ""),
        ("nardy.search 1-ply, numpy net", nardy_row(net, 1), ""),
        ("nardy.search 2-ply, numpy net", nardy_row(net, 2), ""),
        ("nardy.search 0-ply, cheap numpy evaluator", nardy_row(cheap, 0), ""),
        ("nardy.search 1-ply, cheap numpy evaluator", nardy_row(cheap, 1), ""),
        ("nardy.search 2-ply, cheap numpy evaluator", nardy_row(cheap, 2), ""),
        ("nardy.search 2-ply, cheap numpy evaluator, 2 threads", nardy_row(cheap, 2, 2), ""),
        ("nardy.search 0-ply, gnubg evaluator", nardy_row(gnubg_ev, 0), ""),
        ("nardy.search 1-ply, gnubg evaluator", nardy_row(gnubg_ev, 1), ""),
    ]
    times: dict[str, list[float]] = {label: [] for label, _, _ in rows}
    evaluated: dict[str, list[float]] = {label: [] for label, _, _ in rows}
    for r in range(rounds):
        for label, body, _ in rows:
            t0 = time.perf_counter()
            decisions, seen = body(blocks[r])
            secs = time.perf_counter() - t0
            # per-round rates, so that blocks of different sizes compare
            times[label].append(secs / decisions)
            evaluated[label].append(seen / decisions)
    # pytest-benchmark records one of the rows (the 1-ply numpy search) in its own table
    benchmark.group = GROUP
    benchmark.pedantic(lambda: rows[3][1](blocks[rounds]), rounds=1, iterations=1)
    workload = f"{n} pos x 1 roll, {rounds} rounds"
    for label, _, role in rows:
        # figures for one decision: seconds per choice, positions evaluated per choice
        figures.add(Figure(GROUP, label, workload, 1,
                           statistics.median(evaluated[label]),
                           statistics.median(times[label]), role=role))
