"""A PettingZoo AEC environment: two agents, each acting on its own turns (docs/envs.md)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from nardy.envs._table import RENDER_MODES, Table, check_render_mode
from nardy.envs.gym import observation_space


class NardyAECEnv(AECEnv):  # type: ignore[misc]
    """A game of any nardy variant between ``player_0`` (white) and ``player_1`` (black).

    The arguments are those of :class:`nardy.envs.NardyEnv` less the opponent. An agent is
    selected when it has a move to choose (rolls and passes happen inside); at the end both
    agents get the game's value in the scoring preset, + for the winner and - for the loser."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "nardy_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, variant: Any = "backgammon", *, rules: dict[str, Any] | None = None,
                 scoring: str | None = None, observation: str | None = None,
                 mode: str = "afterstate", max_afterstates: int = 256, max_plies: int = 5000,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.table = Table(variant, rules, scoring=scoring, observation=observation, mode=mode,
                           max_afterstates=max_afterstates, max_plies=max_plies)
        self.possible_agents = ["player_0", "player_1"]
        self.render_mode = check_render_mode(render_mode)
        self._obs_space = observation_space(self.table)
        self._act_space = spaces.Discrete(self.table.n_actions)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self._seed_rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.table.reset(int(self._seed_rng.integers(1 << 62)))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        t = self.table
        if t.to_act is None:  # over or cut off: both are done
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = t.reward(i)
                self.terminations[a] = t.over
                self.truncations[a] = t.truncated
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
            return
        self.agent_selection = self.possible_agents[t.to_act]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.observe(self.possible_agents.index(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if not self.table.act(action):
            from nardy.errors import IllegalMoveError
            raise IllegalMoveError(f"action {action!r} is not legal now (see the action mask)")
        for a in self.agents:
            self.rewards[a] = 0.0
        self._select()
        self._accumulate_rewards()

    def render(self) -> Any:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        pass
