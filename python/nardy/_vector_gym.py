"""Gymnasium's VectorEnv interface over nardy.vector.VectorEnv (imported only when asked for:
gymnasium is the optional ``rl`` extra)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from nardy import _core, _validate
from nardy.batch import encode, encoding_width, from_array
from nardy.errors import GameStateError
from nardy.vector import VectorEnv


class GymVectorEnv(gym.vector.VectorEnv):  # type: ignore[misc]
    """``num_envs`` games of ``variant`` as a :class:`gymnasium.vector.VectorEnv` (afterstate
    mode, self-play: one agent acts for whichever player is on roll in each game).

    Observation of a game: the position on roll, encoded (``encoding``, default the variant's
    own) with the mover on roll, float32 ``(F,)``. Action: an index into the afterstates of the
    rolled dice, ``Discrete(max_actions)``; ``info["action_mask"]`` ((num_envs, max_actions)
    bool) allows the indices below each game's count, ``info["afterstates"]`` ((M, F) float32,
    each encoded with the next player on roll) and ``info["offsets"]`` ((num_envs + 1,) CSR)
    describe them, ``info["to_play"]`` says which player is on roll. A roll with more
    afterstates than ``max_actions`` raises :class:`~nardy.GameStateError` (random play in
    backgammon stays below 1,000).

    ``mode="steps"``: an action is one checker step of the variant's fixed step space,
    ``Discrete(VectorEnv.num_actions)``, ``info["action_mask"]`` the legal steps (and
    ``info["legal_actions"]`` / ``info["legal_offsets"]`` the same as CSR lists); the
    observation is the position after the steps played so far in the turn, the mover on roll.

    Rewards, terminations, truncations: those of :meth:`nardy.vector.VectorEnv.step` (the points
    of an ended game for the player who acted). Auto-reset in the same step
    (``metadata["autoreset_mode"]`` is ``SAME_STEP``): an ended game's next observation is its
    new episode's, and ``info["final_obs"]`` (with the mask ``info["_final_obs"]``) holds the
    position it ended in, encoded for the player who would have been on roll next.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, variant: Any = "backgammon", num_envs: int = 1, *,
                 encoding: str | None = None, max_actions: int = 4096, threads: int = 1,
                 max_plies: int = 10_000, mode: str = "afterstates") -> None:
        self.env = VectorEnv(variant, num_envs, observation=encoding or "features",
                             threads=threads, max_plies=max_plies, mode=mode)
        self.max_actions = _validate.integer(max_actions, "max_actions", 1, 2**20)
        self._steps = self.env.mode == "steps"
        if self._steps:
            self.max_actions = self.env.num_actions
        self.num_envs = self.env.n
        enc = self.env.encoding
        assert enc is not None
        self._encoding = enc
        width = encoding_width(enc)
        self.single_observation_space = gym.spaces.Box(-np.inf, np.inf, (width,), np.float32)
        self.single_action_space = gym.spaces.Discrete(self.max_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._columns = np.arange(self.max_actions)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        self.env.reset(seed)
        return self._obs(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        if self._steps:
            return self._step_steps(actions)
        before = self.env.observe()
        a = self.env._actions(actions)
        chosen = None
        if ((a >= 0) & (a < np.diff(before.offsets))).all():
            chosen = np.asarray(before.afterstates)[before.offsets[:-1] + a][:, ::-1].copy()
        rewards, terminated, truncated = self.env.step(a)
        info = self._info()
        ended = np.flatnonzero(terminated | truncated)
        if len(ended) and chosen is not None:
            final = encode(np.ascontiguousarray(chosen[ended]), self._encoding, on_roll=0)
            for k, i in enumerate(ended):
                info = self._add_info(info, {"final_obs": final[k], "final_info": {}}, int(i))
        return (self._obs(), rewards.astype(np.float64), terminated.copy(), truncated.copy(),
                info)

    def _step_steps(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                 np.ndarray, dict[str, Any]]:
        a = self.env._actions(actions)
        boards = np.array(self.env.boards)
        rewards, terminated, truncated = self.env.step(a)
        info = self._info()
        ended = np.flatnonzero(terminated | truncated)
        if len(ended):
            # the position the game ended in: the last step applied to the board before it
            v = self.env.variant
            h = (self.env.num_actions - 1) // (25 * 25)
            keys = []
            for i, p in zip(ended, from_array(boards[ended], v)):
                if a[i] >= 25 * 25 * h:  # naming a double (Acey-deucey) moves no checker
                    keys.append(_core.swap(p.key))
                    continue
                hit, rest = int(a[i]) % h, int(a[i]) // h
                to = rest % 25
                key = v.engine.apply(p.key, [(rest // 25, -1 if to == 24 else to, hit)])
                keys.append(_core.swap(key))
            final = encode(_core.batch_rows(keys), self._encoding, on_roll=0)
            for k, i in enumerate(ended):
                info = self._add_info(info, {"final_obs": final[k], "final_info": {}}, int(i))
        return (self._obs(), rewards.astype(np.float64), terminated.copy(), truncated.copy(),
                info)

    def _obs(self) -> np.ndarray:
        return encode(self.env.boards, self._encoding)  # side 0, the mover, on roll

    def _info(self) -> dict[str, Any]:
        obs = self.env.observe()
        if self._steps:
            legal = self.env.legal_actions
            return {"action_mask": np.array(obs.mask), "to_play": self.env.to_play,
                    "dice": self.env.dice, "steps_played": self.env.steps_played,
                    "legal_actions": legal.actions, "legal_offsets": legal.offsets}
        counts = np.diff(obs.offsets)
        if counts.max() > self.max_actions:
            raise GameStateError(
                f"a roll has {int(counts.max())} afterstates, more than max_actions = "
                f"{self.max_actions}: make the env with a larger max_actions")
        return {"action_mask": self._columns[None, :] < counts[:, None],
                "afterstates": obs.features, "offsets": obs.offsets,
                "again": self.env.again, "to_play": self.env.to_play, "dice": self.env.dice}

    def close_extras(self, **kwargs: Any) -> None:
        pass
