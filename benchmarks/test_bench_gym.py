"""The Gymnasium and PettingZoo environments of nardy.envs: complete turns per second with
random legal actions, beside a plain nardy.Game loop doing the same (the loop an agent would
write itself) and nardy.vector.VectorEnv, reported, never asserted.

Backgammon, uniformly random legal choices, one game at a time (VectorEnv: 256 at once). A
game-step is one player's complete turn. Every contender runs once per round, rounds
interleaved in one process; medians are reported, with the ratio to the Game loop and the
time per turn the environment adds to it.

* ``Game loop``: ``Game.roll()``, ``legal_moves()``, ``play(random move)`` (passes passed);
* ``NardyEnv afterstate``: the agent picks a random index of the mask, the random opponent
  plays inside ``step`` (both turns counted), observations the TD-Gammon features of the
  position and of every afterstate;
* ``NardyEnv step``: one checker step per ``step`` call with the exact mask;
* ``NardyAECEnv afterstate``: both players through the AEC loop.
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

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from nardy.envs import NardyAECEnv, NardyEnv  # noqa: E402
from nardy.game import Game  # noqa: E402
from nardy.phases import Phase  # noqa: E402
from nardy.vector import VectorEnv  # noqa: E402

GROUP = "backgammon-gym"


def _game_loop(turns: int) -> Callable[[], int]:
    rng = random.Random(0)
    state = {"game": Game("backgammon", seed=0, cube=False)}

    def body() -> int:
        done = 0
        while done < turns:
            g = state["game"]
            if g.is_game_over():
                state["game"] = g = Game("backgammon", seed=rng.getrandbits(62), cube=False)
            if g.phase is not Phase.MOVE:
                g.roll()
                continue
            moves = g.legal_moves()
            if len(moves):
                g.play(moves[rng.randrange(len(moves))])
            else:
                g.pass_turn()
            done += 1
        return done

    return body


def _gym(turns: int, mode: str) -> Callable[[], int]:
    env = NardyEnv("backgammon", mode=mode)
    rng = np.random.default_rng(0)
    state = {"obs": env.reset(seed=0)[0]}

    def body() -> int:
        start = env.table.plies
        done = 0
        while done < turns:
            obs = state["obs"]
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, term, trunc, _ = env.step(action)
            if term or trunc:
                done += env.table.plies - start
                obs, _ = env.reset()
                start = env.table.plies
            state["obs"] = obs
            if done + env.table.plies - start >= turns:
                break
        return done + env.table.plies - start

    return body


def _aec(turns: int) -> Callable[[], int]:
    env = NardyAECEnv("backgammon")
    env.reset(seed=0)
    rng = np.random.default_rng(0)

    def body() -> int:
        done = 0
        while done < turns:
            if env.table.to_act is None:
                env.reset()
            obs = env.observe(env.agent_selection)
            before = env.table.plies
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += env.table.plies - before
        return done

    return body


def _vector(n: int, steps: int) -> Callable[[], int]:
    env = VectorEnv("backgammon", n, observation="tdgammon")
    env.reset(0)
    rng = np.random.default_rng(0)

    def body() -> int:
        offsets = env.offsets
        for _ in range(steps):
            counts = offsets[1:] - offsets[:-1]
            env.step((rng.random(n) * counts).astype(np.int64))
            env.observe()
        return n * steps

    return body


def test_gym_env_overhead(benchmark: Any, figures: Figures, enabled: bool) -> None:
    turns = 2000 if enabled else 30
    rounds = 5 if enabled else 1
    contenders: dict[str, Callable[[], int]] = {
        "Game loop (random moves)": _game_loop(turns),
        "NardyEnv afterstate (TD-Gammon features)": _gym(turns, "afterstate"),
        "NardyEnv step (masks)": _gym(turns // 2, "step"),
        "NardyAECEnv afterstate": _aec(turns),
        "VectorEnv 256 games, TD-Gammon features": _vector(256, 40 if enabled else 2),
    }
    times: dict[str, list[float]] = {k: [] for k in contenders}
    work: dict[str, list[int]] = {k: [] for k in contenders}

    def one_round() -> None:
        for name, fn in contenders.items():
            t0 = time.perf_counter()
            work[name].append(fn())
            times[name].append(time.perf_counter() - t0)

    benchmark.group = GROUP
    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=1 if enabled else 0,
                       iterations=1)
    rate = {k: statistics.median(w / t for w, t in zip(work[k], times[k])) for k in contenders}
    base = rate["Game loop (random moves)"]
    for name in contenders:
        extra = 1e6 / rate[name] - 1e6 / base
        note = f"x Game loop {rate[name] / base:,.2f}; {extra:+,.0f} us a turn"
        figures.add(Figure(GROUP, name, "random turns", None, work[name][-1],
                           work[name][-1] / rate[name], note=note))
    assert all(w[-1] > 0 for w in work.values())
