"""A Gymnasium environment: one agent against a pluggable opponent (docs/envs.md)."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from nardy.envs._table import RENDER_MODES, Table, check_opponent, check_render_mode
from nardy.errors import InvalidArgumentError


def observation_space(table: Table) -> spaces.Dict:
    inf = np.float32(np.inf)
    parts: dict[str, spaces.Space[Any]] = {
        "observation": spaces.Box(-inf, inf, (table.width,), np.float32)}
    if table.mode == "afterstate":
        parts["afterstates"] = spaces.Box(-inf, inf, (table.max_afterstates, table.width),
                                          np.float32)
    else:
        parts["dice"] = spaces.Box(0, 6, (2,), np.int64)
        parts["played"] = spaces.Box(0, 64, (1,), np.int64)
    parts["action_mask"] = spaces.Box(0, 1, (table.n_actions,), np.int8)
    return spaces.Dict(parts)


class NardyEnv(gymnasium.Env):  # type: ignore[misc]
    """A game of any nardy variant for one agent against an opponent.

    ``variant`` (a name, class or object) with ``rules`` (its rule options); ``scoring``: the
    scoring preset (default the variant's); ``observation``: a :data:`nardy.batch.ENCODINGS`
    name (default the variant's); ``mode``: ``"afterstate"`` (the action indexes the roll's
    afterstates, at most ``max_afterstates`` of them offered) or ``"step"`` (one checker step
    at a time over the fixed action space of :class:`nardy._core.StepTurn`); ``opponent``:
    ``"random"``, ``"greedy"`` or ``f(position, legal_moves) -> index or Move``; ``agent``: the
    agent's colour (0 white, 1 black). The reward is 0 until the game ends, then the game's
    value in the scoring preset from the agent's side. An action the mask does not allow
    ends the episode as a loss of ``illegal_reward`` (``illegal="lose"``, as pgx does) or
    raises :class:`nardy.IllegalMoveError` (``illegal="raise"``)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, variant: Any = "backgammon", *, rules: dict[str, Any] | None = None,
                 scoring: str | None = None, observation: str | None = None,
                 mode: str = "afterstate", opponent: Any = "random", agent: int = 0,
                 max_afterstates: int = 256, max_plies: int = 5000,
                 illegal: str = "lose", illegal_reward: float = -1.0,
                 render_mode: str | None = None) -> None:
        if illegal not in ("lose", "raise"):
            raise InvalidArgumentError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self._dead = False
        self.table = Table(variant, rules, scoring=scoring, observation=observation, mode=mode,
                           max_afterstates=max_afterstates, max_plies=max_plies)
        self.opponent = check_opponent(opponent)
        if agent not in (0, 1) or isinstance(agent, bool):
            raise InvalidArgumentError(f"agent must be 0 (white) or 1 (black), not {agent!r}")
        self.agent = agent
        self.render_mode = check_render_mode(render_mode)
        self.observation_space = observation_space(self.table)
        self.action_space = spaces.Discrete(self.table.n_actions)
        self._rng = random.Random(0)

    def _play_opponent(self) -> None:
        t = self.table
        while t.to_act is not None and t.to_act != self.agent:
            t.opponent_move(self.opponent, self._rng)

    def _info(self) -> dict[str, Any]:
        t = self.table
        return {"action_mask": self._obs["action_mask"], "plies": t.plies,
                "result": t.game.result() if t.over else None}  # type: ignore[union-attr]

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self._dead = False
        self._rng = random.Random(int(self.np_random.integers(1 << 62)))
        # a game over before the agent's first decision (an opponent's fast win) starts anew
        while True:
            self.table.reset(int(self.np_random.integers(1 << 62)))
            self._play_opponent()
            if self.table.to_act == self.agent:
                break
        self._obs = self.table.observe(self.agent)
        return self._obs, self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        t = self.table
        if t.to_act != self.agent or self._dead:
            raise InvalidArgumentError("the episode is over: call reset()")
        if not t.act(action):
            if self.illegal == "raise":
                from nardy.errors import IllegalMoveError
                raise IllegalMoveError(f"action {action!r} is not legal now (see the action mask)")
            self._dead = True
            info = self._info()
            info["illegal_action"] = True
            self._obs = {k: v.copy() for k, v in self._obs.items()}
            info["action_mask"] = self._obs["action_mask"]
            return self._obs, self.illegal_reward, True, False, info
        self._play_opponent()
        self._obs = t.observe(self.agent)
        return self._obs, t.reward(self.agent), t.over, t.truncated, self._info()

    def render(self) -> Any:
        return self.table.render(self.render_mode)

    def action_masks(self) -> np.ndarray:
        """The legal actions (for libraries that ask the env, e.g. sb3-contrib's MaskablePPO)."""
        return self._obs["action_mask"].astype(bool)
