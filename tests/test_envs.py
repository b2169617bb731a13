"""nardy.envs: the Gymnasium and PettingZoo environments for every variant of the registry,
in both action modes: the libraries' own checkers, seeded resets, the rewards of finished
games against the rules, pictures, and bad arguments."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import nardy  # noqa: E402
from nardy.envs import NardyAECEnv, NardyEnv, env_variants  # noqa: E402

MODES = ("afterstate", "step")
CASES = [(cls, mode) for cls in env_variants() for mode in MODES]
IDS = [f"{cls.name}-{mode}" for cls, mode in CASES]


def rules_of(cls, cascade_from_turn=9):
    """The variant with its default rules, except that Gul bara's doubles cascade starts
    late (0: never): early cascades list millions of moves (docs/rules/gul-bara.md), which
    would make these checks take minutes."""
    if "cascade_from_turn" in cls.options:
        return cls(cascade_from_turn=cascade_from_turn)
    return cls()


def masked_choice(rng, obs):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


@pytest.mark.parametrize("cls,mode", CASES, ids=IDS)
def test_gymnasium_check_env(cls, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the unbounded feature boxes are warned about
        check_env(NardyEnv(rules_of(cls), mode=mode, max_afterstates=64, render_mode="ansi"))


@pytest.mark.parametrize("cls,mode", CASES, ids=IDS)
def test_pettingzoo_api_test(cls, mode):
    api_test(NardyAECEnv(rules_of(cls), mode=mode, max_afterstates=64), num_cycles=60)


def play(env, seed, rng_seed):
    """A whole episode with random legal actions: (observations, rewards, final info)."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    seen, rewards = [obs], []
    while True:
        obs, r, term, trunc, info = env.step(masked_choice(rng, obs))
        seen.append(obs)
        rewards.append(r)
        if term or trunc:
            return seen, rewards, info


@pytest.mark.parametrize("mode", MODES)
def test_seeded_reset_reproduces_the_episode(mode):
    a = NardyEnv("long nardy", mode=mode)
    b = NardyEnv("long nardy", mode=mode)
    oa, ra, _ = play(a, seed=5, rng_seed=1)
    ob, rb, _ = play(b, seed=5, rng_seed=1)
    assert ra == rb and len(oa) == len(ob)
    for x, y in zip(oa, ob):
        assert x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)
    oc, _, _ = play(a, seed=6, rng_seed=1)
    assert len(oc) != len(oa) or any(not np.array_equal(x["observation"], y["observation"])
                                     for x, y in zip(oa, oc))


def backgammon_value(position, winner):
    """Single 1, gammon 2, backgammon 3 (standard scoring), from the final checkers."""
    loser = 1 - winner
    side = position.side(loser)
    if side[25] > 0:
        return 1
    # the loser's checkers on the bar or in the winner's home (the loser's indices 18..23)
    return 3 if side[24] or any(side[18:24]) else 2


@pytest.mark.parametrize("mode", MODES)
def test_backgammon_rewards_follow_the_rules(mode):
    env = NardyEnv("backgammon", mode=mode, agent=1)
    values = set()
    for seed in range(6):
        _, rewards, info = play(env, seed=seed, rng_seed=seed)
        assert all(r == 0 for r in rewards[:-1])
        game = env.table.game
        winner = game.winner()
        expected = backgammon_value(game.position, winner)
        assert rewards[-1] == (expected if winner == 1 else -expected)
        assert info["result"].winner == winner
        values.add(abs(rewards[-1]))
    assert values & {2, 3}, "no gammon in the sample: the test checks too little"


@pytest.mark.parametrize("cls", env_variants(), ids=[c.name for c in env_variants()])
def test_every_variant_ends_with_its_scoring(cls):
    # a whole game against the greedy player (which lists every turn again): no cascade
    env = NardyEnv(rules_of(cls, 0), mode="afterstate", opponent="greedy")
    _, rewards, info = play(env, seed=3, rng_seed=3)
    result = info["result"]
    assert result is not None and env.table.game.is_game_over()
    if result.winner is None:
        assert rewards[-1] == 0
    else:
        assert rewards[-1] == (result.points if result.winner == env.agent else -result.points)
        assert result.points > 0


def test_aec_rewards_are_zero_sum_at_the_end():
    env = NardyAECEnv("backgammon", mode="step")
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else masked_choice(rng, obs))
    assert totals["player_0"] == -totals["player_1"] != 0
    winner = env.table.game.winner()
    assert totals[env.possible_agents[winner]] > 0


def test_step_mode_turns_end_on_legal_moves():
    """Masked steps at random: every completed turn is one of the roll's legal moves."""
    from nardy import _core
    env = NardyAECEnv("long nardy", mode="step")
    env.reset(seed=2)
    t = env.table
    rng = np.random.default_rng(2)
    turns = 0
    while t.to_act is not None and turns < 60:
        pos, dice = t.game.position, t.game.dice
        lm = pos.legal_moves(dice)
        keys = {lm.key(i) for i in range(len(lm))}
        while t.game.position == pos:
            obs = env.observe(env.agent_selection)
            assert obs["dice"].tolist() == list(dice)
            env.step(masked_choice(rng, obs))
        # the mover's result, seen from the mover (or the mover on roll again: the opponent
        # passed)
        now = t.game.position
        seen = now.key if now.turn == pos.turn else _core.swap(now.key)
        assert seen in keys
        turns += 1
    assert turns >= 30


def test_illegal_actions():
    env = NardyEnv("backgammon", mode="step")
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, r, term, trunc, info = env.step(bad)
    assert term and r == -1.0 and info["illegal_action"]
    with pytest.raises(nardy.Error):
        env.step(0)
    strict = NardyEnv("backgammon", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(nardy.IllegalMoveError):
        strict.step(strict.action_space.n - 1)
    with pytest.raises(nardy.Error):
        strict.step("3")


def test_opponents_and_arguments():
    chosen = []

    def last_move(position, moves):
        chosen.append(len(moves))
        return moves[len(moves) - 1]

    env = NardyEnv("shlem", opponent=last_move, agent=1)
    obs, _ = env.reset(seed=4)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert chosen
    for bad in [dict(mode="steps"), dict(opponent="best"), dict(agent=2), dict(observation="x"),
                dict(max_afterstates=0), dict(scoring="nope"), dict(rules={"head_rule": "x"}),
                dict(render_mode="human"), dict(illegal="skip")]:
        with pytest.raises(nardy.Error):
            NardyEnv("long nardy", **bad)
    assert NardyEnv("long nardy", rules={"head_rule": "classic"}).table.variant.rules[
        "head_rule"] == "classic"


def test_render():
    env = NardyEnv("backgammon", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and len(text.splitlines()) > 5
    env = NardyEnv("long nardy", mode="step", render_mode="svg")
    env.reset(seed=1)
    assert env.render().lstrip().startswith("<svg")
    pytest.importorskip("cairosvg")
    env = NardyEnv("shlem", render_mode="rgb_array")
    env.reset(seed=1)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[0] > 100 and len(np.unique(img.reshape(-1, 3), axis=0)) > 3


#: Gul bara seeds (default rules: the cascade from the third turn) whose first decisions hold
#: doubles cascades of moderate size (a few thousand moves at most): early low doubles cascade
#: into millions of moves, which no seed here meets in its first DECISIONS agent turns.
GUL_BARA_SEEDS = (10, 31)
DECISIONS = 14


@pytest.mark.parametrize("mode", MODES)
def test_gul_bara_cascades_in_the_env(mode):
    """Every agent decision of Gul bara games with doubles cascades, against the core's whole
    turn (Position.turn_moves on the game's turn number): in afterstate mode the mask offers
    exactly the turn's moves and the move played is the one chosen; in step mode every path
    of masked steps takes as many steps as the turn plays dice and ends on one of the turn's
    moves, which the game then records."""
    v = nardy.GulBara()
    assert v.rules["cascade_from_turn"] == 3
    cascades = 0
    for seed in GUL_BARA_SEEDS:
        env = NardyEnv(v, mode=mode, opponent="random")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(DECISIONS):
            g = env.table.game
            assert g.turn == env.agent
            want = g.position.turn_moves(g.dice, g.turn_number)
            keys = want.keys()
            assert len(keys) > 0
            cascades += want.played > 4
            before = len(g.history)
            if mode == "afterstate":
                n = min(len(keys), env.table.max_afterstates)
                assert obs["action_mask"].tolist() == [1] * n + [0] * (len(obs["action_mask"]) - n)
                choice = int(rng.integers(n))
                obs, _, term, trunc, _ = env.step(choice)
                expected = keys[choice]
            else:
                for k in range(want.played):
                    assert env.table.turn.played == k
                    obs, _, term, trunc, _ = env.step(masked_choice(rng, obs))
                    if k + 1 < want.played:
                        assert len(g.history) == before  # the turn goes on
                expected = None
            played = [a.move for a in g.history[before:]
                      if a.kind == "move" and a.player == env.agent]
            assert played, "the agent's move was not recorded"
            got = want.index_of(played[0])
            assert got >= 0
            if expected is not None:
                assert keys[got] == expected
            if term or trunc:
                break
    assert cascades >= 2


def name_actions(turn):
    return [turn.name_action(d) for d in range(1, 7)] if turn.names_dice else []


@pytest.mark.parametrize("mode", MODES)
def test_acey_deucey_rolls_again_in_the_aec_env(mode):
    """Acey-deucey's 1-2: in afterstate mode the mask offers exactly the whole turn's moves
    (Position.turn_moves, the named doubles apart) and each afterstate is encoded as the
    position the next roller sees (the same player after a move that rolls again, as a Game
    played to it shows); in step mode a 1-2 takes its two steps, one action naming a double
    (offered only then), then the double's steps. Either way the move the game records is the
    one chosen, and after a move that rolls again the same agent is selected."""
    v = nardy.AceyDeucey()
    env = NardyAECEnv(v, mode=mode, max_afterstates=512)
    env.reset(seed=3)
    t = env.table
    rng = np.random.default_rng(3)
    agains = named = 0
    for _ in range(400):
        if t.to_act is None:
            env.reset(seed=int(rng.integers(1 << 30)))
            continue
        g = t.game
        agent, colour, dice = env.agent_selection, g.turn, g.dice
        assert env.possible_agents.index(agent) == colour
        want = g.position.turn_moves(dice, g.turn_number)
        before = len(g.history)
        if mode == "afterstate":
            obs = env.observe(agent)
            n = min(len(want), 512)  # (a 1-2 can list thousands)
            assert obs["action_mask"].tolist() == [1] * n + [0] * (512 - n)
            for i in rng.choice(n, size=min(n, 3), replace=False):
                other = nardy.Game(v, seed=0, position=g.position, cube=False)
                other.roll(dice)
                other.play(int(i))
                # afterstates are rows from the mover's side, encoded with the next roller on
                # roll (side 1 as batch.afterstate_features does; side 0 for a roll again)
                again_here = other.turn == colour
                rows = nardy.batch.to_array([other.position])
                rows = rows if again_here else rows.swapped()
                assert rows.on_roll == (0 if again_here else 1)
                expected = nardy.batch.encode(rows, t.kind)
                np.testing.assert_array_equal(obs["afterstates"][i], expected[0])
            # prefer a move that rolls again where there is one
            again = [i for i in range(n) if want.again(i)]
            choice = again[0] if again and rng.random() < 0.7 else int(rng.integers(n))
            env.step(choice)
            chosen = choice
        else:
            names = name_actions(t.turn)
            while len(g.history) == before:
                obs = env.observe(agent)
                legal = np.flatnonzero(obs["action_mask"])
                offered = [a for a in legal if a in names]
                assert not offered or (t.turn.played == 2 and set(dice) == {1, 2}
                                       and list(legal) == offered)
                a = int(rng.choice(legal))
                env.step(a)
                if offered:
                    named += 1
            chosen = None
        moved = [a for a in g.history[before:] if a.kind == "move"]
        assert moved and moved[0].player == colour
        idx = want.index_of(moved[0].move)
        assert idx >= 0 and (chosen is None or idx == chosen)
        after = g.history[before + 1:]  # the rolls (and passes) since
        if want.again(idx) and not g.is_game_over():
            agains += 1
            assert after and all(a.player == colour for a in after) and g.turn == colour
            assert env.agent_selection == agent
        elif not g.is_game_over():
            assert after and after[0].player != colour
    assert agains >= 3
    if mode == "step":
        assert named >= 3


def test_acey_deucey_gymnasium_env_gives_the_agent_its_extra_roll():
    """NardyEnv: after the agent's move that rolls again, the next observation is the agent's
    own new roll (no opponent move in between)."""
    v = nardy.AceyDeucey()
    env = NardyEnv(v, mode="afterstate", max_afterstates=512)
    obs, _ = env.reset(seed=8)
    rng = np.random.default_rng(8)
    agains = 0
    for _ in range(300):
        g = env.table.game
        want = g.position.turn_moves(g.dice, g.turn_number)
        again = [i for i in range(len(want)) if want.again(i)]
        choice = again[0] if again else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        before = len(g.history)
        obs, _, term, trunc, _ = env.step(choice)
        if term or trunc:
            obs, _ = env.reset(seed=int(rng.integers(1 << 30)))
            continue
        if again:
            agains += 1
            assert all(a.player == env.agent for a in g.history[before:])
            assert g.turn == env.agent
    assert agains >= 3
