"""nardy.parallel: shards on any concurrent.futures.Executor, merged exactly.

* a sharded rollout (thread pool, process pool, Dask LocalCluster) equals the serial run over
  the same trials bit for bit, whatever the number of shards;
* sharded and threaded perft equal the serial perft (backgammon, long nardy, Shlem).
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

import nardy
from nardy import parallel


def test_split_trials():
    assert parallel.split_trials(10, 7, 3) == [(10, 2), (12, 2), (14, 3)]
    assert parallel.split_trials(0, 2, 5) == [(0, 1), (1, 1)]
    assert parallel.split_trials(0, 0, 4) == []
    ranges = parallel.split_trials(5, 1000, 7)
    assert sum(n for _, n in ranges) == 1000 and ranges[0][0] == 5
    assert all(a + n == b for (a, n), (b, _) in zip(ranges, ranges[1:]))


@pytest.mark.parametrize("shards", [1, 3, 8])
def test_thread_pool_rollout_equals_serial(shards):
    p = nardy.Position("backgammon")
    serial = nardy.rollout(p, 1200, seed=8, threads=1)
    seen = []
    with ThreadPoolExecutor(max_workers=3) as ex:
        sharded = parallel.rollout(p, 1200, seed=8, executor=ex, shards=shards,
                                   progress=lambda done, total: seen.append((done, total)))
    assert sharded == serial and sharded.counts() == serial.counts()
    assert sharded.shards == shards and seen[-1] == (shards, shards)


def test_process_pool_rollout_and_perft_equal_serial():
    p = nardy.Position("long-nardy")
    serial = nardy.rollout(p, 800, "greedy", seed=2, threads=2)
    with ProcessPoolExecutor(max_workers=2) as ex:
        sharded = parallel.rollout(p, 800, "greedy", seed=2, executor=ex, shards=5)
        assert sharded.counts() == serial.counts()
        bg = nardy.Position("backgammon")
        assert parallel.perft(bg, 2, executor=ex) == nardy.perft(bg, 2) == 202782
        assert parallel.perft(bg, 2, rolls=36, executor=ex, shards=3) == 419783


def test_default_executor_is_a_local_thread_pool(monkeypatch):
    made = []
    real = parallel.ThreadPoolExecutor

    class Spy(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs):
            made.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(parallel, "ThreadPoolExecutor", Spy)
    p = nardy.Position("backgammon")
    assert parallel.rollout(p, 300, seed=1, shards=2) == nardy.rollout(p, 300, seed=1)
    assert len(made) == 1
    assert parallel.perft(p, 2) == 202782 and len(made) == 2


def test_local_process_pool_is_one_argument_away():
    p = nardy.Position("backgammon")
    assert parallel.rollout(p, 300, seed=1, shards=2, executor="processes") == \
        nardy.rollout(p, 300, seed=1)
    assert parallel.rollout(p, 200, seed=3, executor="Threads") == nardy.rollout(p, 200, seed=3)


@pytest.mark.parametrize("bad", ["dask", 3, object()])
def test_bad_executor_raises_nardy_error(bad):
    with pytest.raises(nardy.Error, match="executor"):
        parallel.rollout(nardy.Position("backgammon"), 10, executor=bad)


# A script with no ``if __name__ == "__main__"`` guard, as users write them: under the spawn
# start method a process pool re-imports it in every worker and the pool breaks.
_SPAWN_SCRIPT = """
import multiprocessing
multiprocessing.set_start_method("spawn", force=True)
import nardy
from nardy import parallel
p = nardy.Position("backgammon")
r = parallel.rollout(p, 400, seed=5, shards=3)
assert r.counts() == nardy.rollout(p, 400, seed=5).counts(), r
assert parallel.perft(p, 2, executor=None) == 202782
print("ok", r.games)
"""


def test_default_executor_works_at_top_level_under_spawn(tmp_path):
    script = tmp_path / "user_script.py"
    script.write_text(_SPAWN_SCRIPT)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(nardy.__file__).resolve().parents[1])] + sys.path)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env=env, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["ok", "400"]


@pytest.mark.parametrize("variant,depth", [("backgammon", 2), ("long-nardy", 3), ("shlem", 1)])
def test_perft_threads_and_shards(variant, depth):
    p = nardy.Position(variant)
    want = nardy.perft(p, depth)
    assert parallel.perft_threads(p, depth, threads=2) == want
    steps = []
    assert parallel.perft_threads(p, depth, threads=2, chunks=5,
                                  progress=lambda d, t: steps.append(d)) == want
    assert steps == list(range(1, len(steps) + 1)) and len(steps) <= 5
    with ThreadPoolExecutor(max_workers=2) as ex:
        assert parallel.perft(p, depth, executor=ex, shards=7) == want
    keys, weights, remaining = parallel.perft_tasks(p, depth)
    assert remaining in (depth - 1, depth - 2)
    assert sum(weights) == nardy.perft(p, depth - remaining)  # children merged, weights kept
    assert nardy._core.perft_tasks(p.variant.engine, keys, weights, remaining) == want


def test_perft_edge_cases():
    p = nardy.Position("backgammon")
    assert parallel.perft(p, 0) == 1
    assert parallel.perft_threads(p, 0, threads=2) == 1
    assert parallel.perft_threads(p, 1, threads=2) == nardy.perft(p, 1) == 447
    done = nardy.Position.from_sides("backgammon", [0] * 5 + [15] + [0] * 20,
                                     [0] * 25 + [15])
    with ThreadPoolExecutor(max_workers=2) as ex:
        assert parallel.perft(done, 2, executor=ex) == nardy.perft(done, 2) == 0
    with pytest.raises(nardy.Error):
        parallel.perft(p, -1)
    with pytest.raises(nardy.Error):
        parallel.perft(p, 2, rolls=30)


def test_cli_perft_threads(capsys):
    from nardy.cli import main

    assert main(["perft", "backgammon", "3", "--threads", "2", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "116154993" in out and "100.0%" in err


def test_dask_local_cluster_matches_serial():
    distributed = pytest.importorskip("distributed", reason="dask[distributed] not installed "
                                                            "(pip install 'nardy[dask]')")
    p = nardy.Position("backgammon")
    serial = nardy.rollout(p, 600, seed=17, threads=1)
    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        ex = client.get_executor()
        sharded = parallel.rollout(p, 600, seed=17, executor=ex, shards=6)
        assert sharded.counts() == serial.counts()
        assert parallel.perft(p, 2, executor=ex, shards=4) == 202782
