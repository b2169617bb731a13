"""Rollouts and perft split into shards for any :class:`concurrent.futures.Executor`.

The default executor is a local :class:`~concurrent.futures.ThreadPoolExecutor` (one worker
per core): the C++ calls release the GIL, so threads use every core, and unlike a process pool
they need no ``if __name__ == "__main__":`` guard under the ``spawn`` start method (macOS,
Windows, Python 3.14). ``executor="processes"`` asks for a local process pool instead (for
callable policies that hold the GIL); anything with ``submit(fn, *args) -> Future`` works: a
Dask cluster via ``distributed.Client(...).get_executor()`` (install the ``nardy[dask]``
extra), or Ray through a thin adapter::

    from concurrent.futures import Executor
    import ray

    class RayExecutor(Executor):
        def submit(self, fn, *args, **kwargs):
            return ray.remote(fn).remote(*args, **kwargs).future()

Merging is exact. A sharded rollout plays exactly the trial indices of the serial run (shard
``k`` takes a contiguous range of them) and every count is an integer, so the merged result
equals ``nardy.rollout(...)`` over the same trials bit for bit, whatever the number of shards,
workers or threads. A sharded perft splits the tree below the root (children merged by
position, with multiplicities) and sums integers.

Shard functions are module-level, and their arguments (Positions, variants, keys) pickle, so
workers only need ``nardy`` installed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import (
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    as_completed,
)
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Union

from nardy import _core, _validate
from nardy.errors import Error
from nardy.position import Position
from nardy.rollout import MAX_GAMES, PolicyLike, RolloutResult, _check_int, _start
from nardy.rollout import rollout as _rollout
from nardy.variants import Variant

Progress = Callable[[int, int], None]
ExecutorLike = Union[Executor, str, None]

#: names accepted for ``executor``: a local pool made (and shut down) by the call
LOCAL_EXECUTORS = ("threads", "processes")


@contextmanager
def _executor(executor: ExecutorLike) -> Iterator[Executor]:
    if executor is not None and not isinstance(executor, str):
        if not callable(getattr(executor, "submit", None)):
            raise Error(f"executor must be a concurrent.futures.Executor (anything with "
                        f"submit()), 'threads', 'processes' or None, not {executor!r}")
        yield executor
        return
    kind = "threads" if executor is None else executor.strip().lower()
    workers = os.cpu_count() or 1
    pool: Executor
    if kind == "threads":
        pool = ThreadPoolExecutor(max_workers=workers)
    elif kind == "processes":
        pool = ProcessPoolExecutor(max_workers=workers)
    else:
        raise Error(f"unknown executor {executor!r}; local pools: {', '.join(LOCAL_EXECUTORS)}, "
                    f"or pass a concurrent.futures.Executor")
    try:
        yield pool
    except BaseException:
        if isinstance(pool, ProcessPoolExecutor):  # Ctrl-C: running shards are not waited for
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


#: The most shards one call splits into.
MAX_SHARDS = 1_000_000


def _workers(executor: Executor) -> int:
    n = getattr(executor, "_max_workers", None)
    return int(n) if isinstance(n, int) and n > 0 else (os.cpu_count() or 1)


def split_trials(first_trial: int, games: int, shards: int) -> list[tuple[int, int]]:
    """``shards`` contiguous (first_trial, games) ranges covering the trials (empty ones
    dropped)."""
    shards = max(1, min(shards, games)) if games else 1
    out = []
    for k in range(shards):
        lo = first_trial + games * k // shards
        hi = first_trial + games * (k + 1) // shards
        if hi > lo:
            out.append((lo, hi - lo))
    return out


def _rollout_shard(position: Position, first_trial: int, games: int, policy: PolicyLike,
                   seed: int, threads: int, max_plies: int,
                   features: str | None, cancel: Any = None, plies: Any = 0,
                   quasi_random: int = 0, variance_reduction: bool = False) -> RolloutResult:
    return _rollout(position, games, policy, seed=seed, threads=threads, first_trial=first_trial,
                    max_plies=max_plies, features=features, cancel=cancel, plies=plies,
                    quasi_random=quasi_random, variance_reduction=variance_reduction)


def _token(executor: Executor) -> Any:
    """A CancelToken for shards that run in this process (threads), else None: the C++ work
    of every shard stops at its next poll when the caller is interrupted."""
    return _core.CancelToken() if isinstance(executor, ThreadPoolExecutor) else None


def _gather(futures: list[Future[Any]], progress: Progress | None,
            token: Any = None) -> list[Any]:
    results: list[Any] = [None] * len(futures)
    index = {id(f): i for i, f in enumerate(futures)}
    done = 0
    try:
        for f in as_completed(futures):
            results[index[id(f)]] = f.result()
            done += 1
            if progress is not None:
                progress(done, len(futures))
    except BaseException:
        if token is not None:
            token.cancel()
        for f in futures:
            f.cancel()
        raise
    return results


def rollout(position: Position | Any, games: int, policy: PolicyLike = "random", *,
            seed: int = 0, executor: ExecutorLike = None, shards: int | None = None,
            threads: int = 1, first_trial: int = 0, max_plies: int = 10000,
            features: str | None = None, progress: Progress | None = None,
            plies: Any = 0, quasi_random: int = 0,
            variance_reduction: bool = False) -> RolloutResult:
    """:func:`nardy.rollout` split into ``shards`` contiguous trial ranges run on ``executor``
    (default ``None`` = ``"threads"``: a local thread pool, one worker per core, created and
    shut down here; ``"processes"``: a local process pool; or any Executor). ``threads``: C++
    threads per shard; ``plies`` for evaluator policies; ``quasi_random`` and
    ``variance_reduction`` as there. ``progress(done_shards,
    total_shards)`` is called as shards finish. The result equals the serial run's counts
    exactly; its ``seconds`` is the wall time of the whole run.
    """
    pos = _start(position)
    games = _check_int("games", games, 0, MAX_GAMES)
    first_trial = _check_int("first_trial", first_trial, 0, _validate.U64_MAX - games)
    if shards is not None:
        shards = _check_int("shards", shards, 1, MAX_SHARDS)
    t0 = time.perf_counter()
    if games == 0:
        return _rollout(pos, 0, policy, seed=seed, first_trial=first_trial, max_plies=max_plies,
                        features=features, plies=plies, quasi_random=quasi_random,
                        variance_reduction=variance_reduction)
    with _executor(executor) as ex:
        ranges = split_trials(first_trial, games, shards or 4 * _workers(ex))
        token = _token(ex)
        futures = [ex.submit(_rollout_shard, pos, lo, n, policy, seed, threads, max_plies,
                             features, token, plies, quasi_random, variance_reduction)
                   for lo, n in ranges]
        parts = _gather(futures, progress, token)
    total = parts[0]
    for part in parts[1:]:
        total = total.merge(part)
    return replace(total, seconds=time.perf_counter() - t0, threads=threads, shards=len(parts))


def _perft_shard(variant: Variant, keys: list[bytes], weights: list[int], depth: int,
                 ordered: bool, threads: int, cancel: Any = None) -> int:
    return int(_core.perft_tasks(variant.engine, keys, weights, depth, ordered, threads,
                                 cancel))


def _perft_check(depth: int, rolls: int) -> int:
    from nardy.perft import _check

    return _check(depth, rolls)


def perft_tasks(position: Position, depth: int, rolls: int = 21,
                min_tasks: int = 64) -> tuple[list[bytes], list[int], int]:
    """The split a parallel perft uses: ``(keys, weights, remaining_depth)`` with
    ``perft(position, depth) == sum(w * perft(k, remaining_depth))``. Children are merged by
    position (transpositions across rolls), so there may be fewer tasks than children."""
    depth = _perft_check(depth, rolls)
    if depth == 0:
        return [position.key], [1], 0
    keys, weights, remaining = _core.perft_split(position.variant.engine, position.key, depth,
                                                 rolls == 36, min_tasks)
    return list(keys), [int(w) for w in weights], int(remaining)


def _turns_perft(position: Position, depth: int, rolls: int, threads: int,
                 progress: Progress | None) -> int:
    """:func:`nardy.perft` for the variants whose moves depend on the turn number (Gul bara,
    Acey-deucey), on ``threads`` C++ threads in this process: the root's whole turns are
    split by the core, each child counted on its ply (the split into tasks of the other
    variants lists one roll's moves and cannot say whose turn a task is)."""
    from nardy.perft import first_turn_of

    n = position.variant.engine.perft_turn(position.key, depth, rolls == 36,
                                           first_turn_of(position), None, threads=threads)
    if progress is not None:
        progress(1, 1)
    return int(n)


def perft(position: Position, depth: int, rolls: int = 21, *,
          executor: ExecutorLike = None, shards: int | None = None, threads: int = 1,
          progress: Progress | None = None) -> int:
    """:func:`nardy.perft` split into shards run on ``executor`` (default: a local thread
    pool; ``"processes"`` or any Executor as for :func:`rollout`). ``threads``: C++ threads per shard. Equal to the serial count.
    Variants whose moves depend on the turn number (``sequence_turns``: Gul bara,
    Acey-deucey) are counted in this process on ``threads`` C++ threads instead."""
    depth = _perft_check(depth, rolls)
    if depth == 0:
        return 1
    if position.variant.sequence_turns:
        return _turns_perft(position, depth, rolls, _check_int("threads", threads), progress)
    with _executor(executor) as ex:
        n_shards = shards or 4 * _workers(ex)
        keys, weights, remaining = perft_tasks(position, depth, rolls, 4 * n_shards)
        if not keys:
            return 0
        # Round-robin so that every shard gets a similar mix of heavy and light subtrees.
        n_shards = min(n_shards, len(keys))
        token = _token(ex)
        futures = [ex.submit(_perft_shard, position.variant, keys[k::n_shards],
                             weights[k::n_shards], remaining, rolls == 36, threads, token)
                   for k in range(n_shards)]
        return sum(_gather(futures, progress, token))


def perft_threads(position: Position, depth: int, rolls: int = 21, threads: int = 0, *,
                  chunks: int = 32, progress: Progress | None = None,
                  table_mb: int = 0) -> int:
    """perft in this process on ``threads`` C++ threads (0: all cores), the GIL released. With
    ``progress``, the work is cut into ``chunks`` calls and ``progress(done, chunks)`` is
    called after each (the CLI's progress bar). ``table_mb``: one transposition table of
    that many MB shared by the threads and the chunks (:func:`nardy.perft`)."""
    from nardy.perft import table as perft_table

    depth = _perft_check(depth, rolls)
    threads = _check_int("threads", threads)
    if position.variant.sequence_turns:
        return _turns_perft(position, depth, rolls, threads, progress)
    table = perft_table(table_mb)
    engine = position.variant.engine
    if progress is None:
        return int(_core.perft_threads(engine, position.key, depth, rolls == 36, threads, None,
                                       table))
    if depth == 0:
        progress(1, 1)
        return 1
    width = threads or _core.hardware_threads()
    keys, weights, remaining = perft_tasks(position, depth, rolls, max(chunks * width, 64))
    chunks = max(1, min(chunks, len(keys)))
    total = 0
    for c in range(chunks):
        lo, hi = len(keys) * c // chunks, len(keys) * (c + 1) // chunks
        total += int(_core.perft_tasks(engine, keys[lo:hi], weights[lo:hi], remaining,
                                       rolls == 36, threads, None, table))
        progress(c + 1, chunks)
    return total


__all__ = ["LOCAL_EXECUTORS", "perft", "perft_tasks", "perft_threads", "rollout", "split_trials"]
