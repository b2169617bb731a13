"""Environments for learning agents (docs/envs.md), for every variant and rule option:

- :class:`NardyEnv` (Gymnasium): one agent against a random, greedy or callable opponent;
- :class:`NardyAECEnv` (PettingZoo AEC): two agents.

Both act in one of two modes: ``"afterstate"`` (choose among the roll's resulting positions)
or ``"step"`` (one checker step at a time over a fixed action space with exact legal masks,
:class:`nardy._core.StepTurn`). They need the ``rl`` extra (``pip install nardy[rl]``):
gymnasium, and pettingzoo for the AEC env.
"""

from __future__ import annotations

from typing import Any

__all__ = ["NardyAECEnv", "NardyEnv", "env_variants"]


def env_variants() -> list[type]:
    """Every variant class the environments play: the whole variant registry, in its order."""
    from nardy.variants import VARIANTS
    return list(VARIANTS)


def __getattr__(name: str) -> Any:
    # gymnasium and pettingzoo are optional: imported on first use
    if name == "NardyEnv":
        from nardy.envs.gym import NardyEnv
        return NardyEnv
    if name == "NardyAECEnv":
        from nardy.envs.aec import NardyAECEnv
        return NardyAECEnv
    raise AttributeError(name)
