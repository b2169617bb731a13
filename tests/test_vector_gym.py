"""nardy.vector.GymVectorEnv: Gymnasium's VectorEnv contract over the C++ VectorEnv."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import nardy  # noqa: E402
from nardy import batch  # noqa: E402
from nardy.errors import Error, GameStateError  # noqa: E402
from nardy.vector import GymVectorEnv, VectorEnv  # noqa: E402


def test_spaces_reset_and_step() -> None:
    env = GymVectorEnv("backgammon", 5, max_actions=2048)
    assert isinstance(env, gym.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=3)
    assert obs.shape == (5, 198) and obs.dtype == np.float32
    assert obs in env.observation_space
    ref = VectorEnv("backgammon", 5, observation="tdgammon")
    ref.reset(3)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        mask = info["action_mask"]
        counts = np.diff(info["offsets"])
        assert mask.shape == (5, 2048) and (mask.sum(axis=1) == counts).all()
        # the observation is the position on roll, encoded with its mover on roll
        np.testing.assert_array_equal(obs, batch.encode(ref.boards, "tdgammon", on_roll=0))
        np.testing.assert_array_equal(info["afterstates"], ref.observe().features)
        a = (rng.random(5) * counts).astype(np.int64)
        assert a in env.action_space
        chosen = ref.observe().afterstates[ref.offsets[:-1] + a]
        obs, r, te, tr, info = env.step(a)
        r2, te2, tr2 = ref.step(a)
        np.testing.assert_array_equal(r, r2)
        np.testing.assert_array_equal(te, te2)
        np.testing.assert_array_equal(tr, tr2)
        for i in np.flatnonzero(te):
            ended += 1
            assert info["_final_obs"][i]
            want = batch.encode(np.ascontiguousarray(chosen[i:i + 1, ::-1]), "tdgammon",
                                on_roll=0)[0]
            np.testing.assert_array_equal(info["final_obs"][i], want)
        if not te.any():
            assert "final_obs" not in info
    assert ended >= 1


def test_bad_actions_and_limits() -> None:
    env = GymVectorEnv("long nardy", 2)
    assert env.single_observation_space.shape == (198,)
    _, info = env.reset(seed=0)
    with pytest.raises(Error):
        env.step([0])
    with pytest.raises(Error):
        env.step(np.array([4096, 0]))
    small = GymVectorEnv("backgammon", 4, max_actions=1)
    with pytest.raises(GameStateError):
        small.reset(seed=0)
    with pytest.raises(Error):
        GymVectorEnv("backgammon", 2, max_actions=0)


def test_step_mode() -> None:
    env = GymVectorEnv("backgammon", 4, mode="steps")
    ref = VectorEnv("backgammon", 4, mode="steps", observation="tdgammon")
    obs, info = env.reset(seed=2)
    ref.reset(2)
    assert env.single_action_space.n == ref.num_actions
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(1500):
        np.testing.assert_array_equal(info["action_mask"], ref.observe().mask)
        np.testing.assert_array_equal(obs, ref.observe().features)
        a = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, r, te, tr, info = env.step(a)
        r2, te2, _ = ref.step(a)
        np.testing.assert_array_equal(r, r2)
        np.testing.assert_array_equal(te, te2)
        for i in np.flatnonzero(te):
            ended += 1
            # the ended position: the winner (who just moved) has borne off everything
            final = info["final_obs"][i]
            assert final[98 + 97] == 1.0 and final[197] == 0.0 and final[196] == 1.0
    assert ended >= 1


def test_step_mode_acey_deucey_lists_and_named_doubles() -> None:
    """Acey-deucey through the Gymnasium wrapper in step mode: the legal-action lists in info
    are the masks' set entries, actions naming a double are offered and played, and the
    observation is the VectorEnv's."""
    env = GymVectorEnv("acey-deucey", 4, mode="steps")
    ref = VectorEnv("acey-deucey", 4, mode="steps", observation="tdgammon")
    obs, info = env.reset(seed=5)
    ref.reset(5)
    first_name = 25 * 25 + 1
    assert env.single_action_space.n == ref.num_actions == first_name + 6
    rng = np.random.default_rng(4)
    named = 0
    for _ in range(300):
        acts, offs = info["legal_actions"], info["legal_offsets"]
        lists = [acts[offs[i]:offs[i + 1]] for i in range(4)]
        for i in range(4):
            assert lists[i].tolist() == np.flatnonzero(info["action_mask"][i]).tolist()
        np.testing.assert_array_equal(obs, ref.observe().features)
        a = np.array([int(rng.choice(x)) for x in lists])
        named += int((a >= first_name).sum())
        obs, r, te, tr, info = env.step(a)
        r2, te2, _ = ref.step(a)
        np.testing.assert_array_equal(r, r2)
        np.testing.assert_array_equal(te, te2)
    assert named >= 3
