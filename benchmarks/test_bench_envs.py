"""Environments for learning agents: game-steps per second with random actions, reported,
never asserted.

A game-step is one player's complete turn (the roll and every decision of it). All contenders
play backgammon with uniformly random legal choices at the same batch size, measured in
interleaved rounds in one process (each round times every contender once; the medians of the
rounds are reported), so the machine's load falls on all of them alike:

* ``nardy.vector.VectorEnv`` in afterstate mode, the afterstates as int8 boards (the
  observation a TD-Gammon style agent reads), the random action drawn with numpy;
* the same with TD-Gammon features (198 float32 per afterstate) as well;
* ``VectorEnv`` in step mode: one checker step per call with the mask of legal steps, the
  random step drawn among the mask's ones with numpy (a game-step is counted when a turn
  completes);
* ``nardy.vector.GymVectorEnv`` (Gymnasium's VectorEnv interface over the same env, TD-Gammon
  features of the position and of the afterstates, the action mask in ``info``), if
  gymnasium is importable: its overhead over the plain env;
* OpenSpiel's backgammon through its Python API, one game after the other (the usual loop:
  chance outcomes sampled, then random legal actions until the next roll), if ``pyspiel`` is
  importable;
* pgx's backgammon on CPU, ``jit(vmap(step))`` with auto-reset and random legal actions from
  its mask, if ``pgx`` and ``jax`` are importable (only with ``--benchmark-enable``: its
  compilation takes tens of seconds). pgx counts a turn when the player to move changes.

The summary table is printed by benchmarks/conftest.py.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from benchmarks.conftest import Figure, Figures
from nardy.vector import VectorEnv

GROUP = "backgammon-envs"


def _nardy(n: int, steps: int, observation: str) -> Callable[[], int]:
    env = VectorEnv("backgammon", n, observation=observation)
    env.reset(0)
    rng = np.random.default_rng(0)

    def body() -> int:
        offsets = env.offsets
        for _ in range(steps):
            counts = offsets[1:] - offsets[:-1]
            actions = (rng.random(n) * counts).astype(np.int64)
            env.step(actions)
            env.observe()
        return n * steps

    return body


def _nardy_steps(n: int, calls: int) -> Callable[[], int]:
    env = VectorEnv("backgammon", n, mode="steps")
    obs = env.reset(0)
    rng = np.random.default_rng(0)
    width = env.num_actions

    def body() -> int:
        turns = 0
        for _ in range(calls):
            legal = np.flatnonzero(obs.mask)
            counts = np.bincount(legal // width, minlength=n)
            starts = np.cumsum(counts) - counts
            pick = legal[starts + (rng.random(n) * counts).astype(np.int64)] - np.arange(n) * width
            before = env.plies.astype(np.int64) + env.episodes.astype(np.int64) * 2**32
            env.step(pick)
            after = env.plies.astype(np.int64) + env.episodes.astype(np.int64) * 2**32
            turns += int((after != before).sum())
        return turns

    return body


def _gym(n: int, steps: int) -> Callable[[], int] | None:
    try:
        from nardy.vector import GymVectorEnv
    except ImportError:
        return None
    env = GymVectorEnv("backgammon", n, encoding="tdgammon")
    box = {"info": env.reset(seed=0)[1]}
    rng = np.random.default_rng(0)

    def body() -> int:
        info = box["info"]
        for _ in range(steps):
            counts = np.diff(info["offsets"])
            _, _, _, _, info = env.step((rng.random(n) * counts).astype(np.int64))
        box["info"] = info
        return n * steps

    return body


def _open_spiel(n: int, turns: int) -> Callable[[], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(0)
    states = [game.new_initial_state() for _ in range(n)]

    def body() -> int:
        done = 0
        while done < turns:
            for k in range(n):
                s = states[k]
                if s.is_terminal():
                    s = states[k] = game.new_initial_state()
                while s.is_chance_node():
                    outcomes, probs = zip(*s.chance_outcomes())
                    s.apply_action(rng.choices(outcomes, probs)[0])
                while not s.is_chance_node() and not s.is_terminal():
                    s.apply_action(rng.choice(s.legal_actions()))
                done += 1
        return done

    return body


def _pgx(n: int, steps: int) -> Callable[[], int] | None:
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    env = pgx.make("backgammon")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def choose(key: Any, mask: Any) -> Any:
        return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf), axis=-1)

    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    box = {"state": init(jax.random.split(sub, n)), "key": key}

    def body() -> int:
        state, key = box["state"], box["key"]
        turns = jnp.zeros((), dtype=jnp.int32)
        for _ in range(steps):
            key, k1, k2 = jax.random.split(key, 3)
            new = step(state, choose(k1, state.legal_action_mask), jax.random.split(k2, n))
            turns = turns + ((new.current_player != state.current_player)
                             | new.terminated).sum()
            state = new
        box["state"], box["key"] = state, key
        return int(turns)

    body()  # compile
    return body


def test_random_play_game_steps(benchmark: Any, figures: Figures, enabled: bool) -> None:
    n = 256 if enabled else 16
    rounds = 5 if enabled else 1
    contenders: dict[str, Callable[[], int] | None] = {
        "nardy VectorEnv, afterstate boards (int8)": _nardy(n, 400 if enabled else 3, "boards"),
        "nardy VectorEnv, afterstate TD-Gammon features": _nardy(n, 100 if enabled else 3,
                                                                 "tdgammon"),
        "nardy VectorEnv, step mode with masks": _nardy_steps(n, 300 if enabled else 3),
        "nardy GymVectorEnv, TD-Gammon features": _gym(n, 100 if enabled else 3),
        "OpenSpiel Python loop": _open_spiel(n, 5000 if enabled else 40),
        "pgx jit(vmap(step)) on CPU": _pgx(n, 100) if enabled else None,
    }
    live = {k: f for k, f in contenders.items() if f is not None}
    times: dict[str, list[float]] = {k: [] for k in live}
    work: dict[str, int] = {}

    def one_round() -> None:
        for name, fn in live.items():
            t0 = time.perf_counter()
            work[name] = fn()
            times[name].append(time.perf_counter() - t0)

    benchmark.group = GROUP
    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=1 if enabled else 0,
                       iterations=1)
    warm = 1 if enabled else 0
    rate = {k: work[k] / statistics.median(times[k][warm:] or times[k]) for k in live}
    peers = [k for k in ("OpenSpiel Python loop", "pgx jit(vmap(step)) on CPU") if k in rate]
    for name in live:
        notes = [f"x {p.split()[0]} {rate[name] / rate[p]:,.1f}" for p in peers if p != name]
        secs = work[name] / rate[name]
        figures.add(Figure(GROUP, name, f"{n} games, random actions", work[name], work[name],
                           secs, note="; ".join(notes)))
    missing = [k for k, f in contenders.items() if f is None]
    if missing and enabled:
        figures.add(Figure(GROUP, "not measured: " + ", ".join(missing), "-", None, 0, 1.0,
                           note="package not importable"))
    assert all(work[k] > 0 for k in live)
