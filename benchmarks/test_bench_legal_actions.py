"""Drawing a random legal step for every game of a step-mode VectorEnv: from the mask with
``np.flatnonzero`` (what a caller without the lists does) against the legal-action lists the
env fills in C++ beside the mask (``VectorEnv.legal_actions``). Reported, never asserted.

Both draws read the same observation with the same uniform numbers and must pick the same
actions (the check that they did the same work); they are timed alternately on every
observation of a run of random play (backgammon and Acey-deucey, 256 games), and the ratio of
their total times is reported. The env's own step is not timed.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from benchmarks.conftest import Figure, Figures
from nardy.vector import VectorEnv

GROUP = "step-mode legal actions"


def _from_mask(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    n, a = mask.shape
    idx = np.flatnonzero(mask)
    counts = np.bincount(idx // a, minlength=n)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    return idx[starts + (u * counts).astype(np.int64)] % a


def _from_lists(actions: np.ndarray, offsets: np.ndarray, u: np.ndarray) -> np.ndarray:
    counts = offsets[1:] - offsets[:-1]
    return actions[offsets[:-1] + (u * counts).astype(np.int64)].astype(np.int64)


@pytest.mark.parametrize("variant", ["backgammon", "acey-deucey"])
def test_random_legal_step_from_mask_or_lists(benchmark: Any, figures: Figures, enabled: bool,
                                              variant: str) -> None:
    n = 256
    calls = 400 if enabled else 20
    env = VectorEnv(variant, n, mode="steps")
    obs = env.reset(1)
    rng = np.random.default_rng(1)
    spent = {"mask": 0.0, "lists": 0.0}

    def run() -> None:
        nonlocal obs
        for _ in range(calls):
            u = rng.random(n)
            legal = env.legal_actions
            t0 = time.perf_counter()
            a = _from_mask(obs.mask, u)
            t1 = time.perf_counter()
            b = _from_lists(legal.actions, legal.offsets, u)
            t2 = time.perf_counter()
            spent["mask"] += t1 - t0
            spent["lists"] += t2 - t1
            assert np.array_equal(a, b)
            env.step(b)
            obs = env.observe()

    benchmark.group = GROUP
    benchmark.pedantic(run, rounds=3 if enabled else 1, iterations=1)
    work = n * calls * (3 if enabled else 1)
    ratio = spent["mask"] / spent["lists"]
    figures.add(Figure(GROUP, f"{variant}: np.flatnonzero over the mask", f"{n} games",
                       None, work, spent["mask"]), benchmark)
    figures.add(Figure(GROUP, f"{variant}: VectorEnv.legal_actions lists", f"{n} games",
                       None, work, spent["lists"],
                       note=f"{ratio:.1f}x the draws/s of np.flatnonzero"), benchmark)
