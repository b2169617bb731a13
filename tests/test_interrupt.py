"""Long calls stop on Ctrl-C: a child process starts one that would run for days, gets SIGINT
and must raise KeyboardInterrupt within a second; a CancelToken stops calls from another
thread. Nothing of a stopped call is returned."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import nardy
from nardy import _core, batch

CHILD = r"""
import signal, sys, time
# Python installs its Ctrl-C handler only where SIGINT is not ignored, and a shell's background
# job starts with it ignored: install it, as an interactive session has it
signal.signal(signal.SIGINT, signal.default_int_handler)
import numpy as np
import nardy
from nardy import batch, parallel
ONE = [0] * 5 + [1] + [0] * 19 + [14]
RACE = nardy.Position.from_sides("backgammon", ONE, ONE)
call = {
    "perft": lambda: nardy.perft(nardy.Position("backgammon"), 12),
    "divide": lambda: nardy.divide(nardy.Position("long-nardy"), 12),
    "shlem-perft": lambda: nardy.perft(nardy.Position("shlem"), 12),
    "perft-threads": lambda: parallel.perft_threads(nardy.Position("backgammon"), 12, threads=2),
    "rollout": lambda: nardy.rollout(nardy.Position("backgammon"), 10**12, threads=2),
    "rollout-greedy": lambda: nardy.rollout(nardy.Position("shlem"), 10**12, "greedy", threads=1),
    "parallel-rollout": lambda: parallel.rollout(nardy.Position("backgammon"), 10**12, shards=4),
    "parallel-perft": lambda: parallel.perft(nardy.Position("backgammon"), 12, shards=4),
    # one checker each, past each other: no roll offers a choice, so the policy is never
    # called and every trial is played inside the C++ advance step
    "callable-rollout": lambda: nardy.rollout(RACE, 10**12, lambda c, o: np.zeros(len(c))),
    "enumerate-loop": lambda: nardy.Position("backgammon").variant.engine.enumerate_loop(
        batch.to_array([nardy.Position("backgammon")] * 64), 2**31 - 1),
}[sys.argv[1]]
print("ready", flush=True)
try:
    call()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
sys.exit(3)
"""

ROOT = Path(__file__).resolve().parents[1]


def _line_within(child: subprocess.Popen, seconds: float) -> str:
    """The child's next output line, or a failure (not a hang) when none comes in time."""
    import selectors

    with selectors.DefaultSelector() as sel:
        sel.register(child.stdout, selectors.EVENT_READ)
        if not sel.select(timeout=seconds):
            child.kill()
            pytest.fail(f"no output from the child within {seconds} s")
    return child.stdout.readline().strip()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
@pytest.mark.parametrize("call", [
    "perft", "divide", "shlem-perft", "perft-threads", "rollout", "rollout-greedy",
    "parallel-rollout", "parallel-perft", "callable-rollout", "enumerate-loop"])
def test_sigint_stops_a_long_call_within_a_second(call):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(nardy.__file__).resolve().parents[1]), env.get("PYTHONPATH", "")])
    child = subprocess.Popen([sys.executable, "-c", CHILD, call], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert _line_within(child, 120) == "ready"
        time.sleep(0.5)  # well inside the C++ call by now
        assert child.poll() is None, child.stderr.read()
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = _line_within(child, 30)
        elapsed = time.monotonic() - sent
        assert line == "interrupted", child.stderr.read()
        assert elapsed < 1.0, f"KeyboardInterrupt came {elapsed:.2f} s after SIGINT"
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_a_cancel_token_stops_a_rollout_on_another_thread():
    token = _core.CancelToken()
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(nardy.rollout(nardy.Position("backgammon"), 10**12, threads=1,
                                         cancel=token))
        except KeyboardInterrupt as e:
            outcome.append(e)

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.2)
    assert not token.cancelled
    token.cancel()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert token.cancelled and len(outcome) == 1 and isinstance(outcome[0], KeyboardInterrupt)


def test_a_cancel_token_stops_a_callable_policy_rollout_inside_cpp():
    one = [0] * 5 + [1] + [0] * 19 + [14]
    race = nardy.Position.from_sides("backgammon", one, one)
    calls: list[int] = []

    def policy(cand, offsets):  # never called: no roll of this race offers a choice
        calls.append(len(offsets))
        return np.zeros(len(cand))

    # the race really has no choice: a short run finishes without calling the policy
    done = nardy.rollout(race, 500, policy, seed=3)
    assert done.games == 500 and calls == []
    token = _core.CancelToken()
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(nardy.rollout(race, 10**12, policy, cancel=token))
        except KeyboardInterrupt as e:
            outcome.append(e)

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.3)
    token.cancel()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], KeyboardInterrupt) and calls == []


def test_rollout_refuses_a_cancel_that_is_not_a_token():
    with pytest.raises(nardy.InvalidArgumentError):
        nardy.rollout(nardy.Position(), 10, cancel=True)


def test_a_cancelled_token_stops_every_long_call():
    token = _core.CancelToken()
    token.cancel()
    p = nardy.Position("backgammon")
    engine = p.variant.engine
    rows = np.repeat(batch.to_array([p]), 200, axis=0)
    dice = np.tile(np.array([[3, 1]], dtype=np.int8), (200, 1))
    calls = [
        lambda: engine.perft(p.key, 3, False, token),
        lambda: engine.divide(p.key, 3, False, token),
        lambda: _core.perft_threads(engine, p.key, 4, False, 2, token),
        lambda: _core.perft_tasks(engine, [p.key], [1], 3, False, 2, token),
        lambda: _core.rollout(engine, p.key, 100, "random", 0, 0, 2, 10000, token),
        lambda: _core.batch_afterstates(engine, rows, dice, False, 1, token),
        lambda: _core.batch_afterstates(engine, rows, dice, False, 2, token),
        lambda: _core.batch_afterstate_features(engine, rows, dice, "tdgammon", False, 1, token),
        lambda: _core.LockstepRollout(engine, p.key, 100).advance(token),
    ]
    for call in calls:
        with pytest.raises(KeyboardInterrupt):
            call()
    # a fresh call without the token is not affected
    assert nardy.perft(p, 2) == 202_782
    assert len(batch.afterstates(rows, dice, threads=2)[0]) == 200 * 16

