"""The greedy policy's Gul bara cascade, chosen group by group without listing the turn
(docs/rollouts.md), against a reading of that definition on the independent reference
(tests/reference/gul_bara_ref.py): the core's move must be one the definition allows, with
the core's own greedy_score as the scores."""

from __future__ import annotations

import random
import time

import pytest

import nardy
from nardy import _core
from tests.reference import gul_bara_ref as ref

VARIANT = nardy.GulBara()
ENGINE = VARIANT.engine
LATE = 1 << 20


def _key(pos: ref.Pos) -> bytes:
    return _core.encode(pos[0], pos[1])


def _score(pos: ref.Pos) -> int:
    return int(ENGINE.greedy_score(_key(pos)))


def _most(pos: ref.Pos, dice: list[int]) -> int:
    """The most of ``dice`` (played in order, one checker step each, as the reference plays
    a cascade) a play from ``pos`` takes: a depth-first search that stops at a full play."""
    best, seen = 0, set()

    def go(p: ref.Pos, i: int) -> bool:
        nonlocal best
        best = max(best, i)
        if i == len(dice):
            return True
        if (p[0], i) in seen:
            return False
        seen.add((p[0], i))
        return any(go(c, i + 1) for c in ref.steps(p, dice[i]))

    go(pos, 0)
    return best


def _allowed(pos: ref.Pos, groups: list[tuple[int, int]]) -> set[ref.Pos]:
    """Every result the definition allows (ties kept): group by group, the best-scoring of
    the group's results from which the rest of the turn still plays the most dice; in the
    group where the turn ends, its best-scoring results."""
    dice = [a for a, _ in groups for _ in range(4)]
    most = _most(pos, dice)
    if most == 0:
        return set()
    level, left = {pos}, most
    for k, group in enumerate(groups):
        nxt: set[ref.Pos] = set()
        for p in level:
            _, results = ref.group_plays(p, *group)
            if left > 4:
                results = {c for c in results if _most(c, dice[4 * (k + 1):]) == left - 4}
            best = max(_score(c) for c in results)
            nxt |= {c for c in results if _score(c) == best}
        level = nxt
        if left <= 4:
            return level
        left -= 4
    raise AssertionError("the turn's dice ran out before its most dice were played")


def _positions(n: int, seed: int) -> list[ref.Pos]:
    """Positions of random games (the core's random pick, turn numbers past the opening)."""
    rng = random.Random(seed)
    out: list[ref.Pos] = []
    while len(out) < n:
        key = _core.encode(*ref.start())
        for ply in range(rng.randrange(20, 120)):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            picked = ENGINE.turn_pick(key, d1, d2, LATE, rng.getrandbits(64))
            key = _core.swap(key if picked is None else picked[0])
            if ENGINE.game_end(key) is not None:
                break
        else:
            us, them = _core.decode(key)
            out.append((tuple(us), tuple(them)))
    return out


def test_cascades_are_chosen_as_the_definition_says():
    checked = cascades = 0
    for pos in _positions(40, seed=4):
        for d in range(2, 7):  # (1-1: 24 dice, minutes for the reference's search)
            groups = ref.cascade(d, d, LATE)
            allowed = _allowed(pos, groups)
            got = ENGINE.turn_greedy(_key(pos), d, d, LATE)
            if not allowed:
                assert got is None
                continue
            assert got is not None and got[1] is False
            result = tuple(tuple(s) for s in _core.decode(got[0]))
            assert result in allowed, (pos, d)
            checked += 1
            cascades += len(groups) > 1
    assert checked >= 150 and cascades >= 120


def test_a_roll_of_one_group_is_the_first_best_move():
    for pos in _positions(40, seed=7):
        key = _key(pos)
        for d1, d2 in ((1, 2), (6, 5), (3, 3)):
            moves = VARIANT.engine.turn_legal(key, d1, d2, 1)
            got = ENGINE.turn_greedy(key, d1, d2, 1)
            if not len(moves):
                assert got is None
                continue
            scores = [ENGINE.greedy_score(k) for k in moves.keys()]
            assert got == (moves.key(scores.index(max(scores))), False)
            assert _core.greedy_index(ENGINE, key, d1, d2, 1) == scores.index(max(scores))


def test_greedy_rollouts_and_opponents_play_cascades_without_listing_them():
    # from the start, the whole-turn choice listed cascades of millions of moves (minutes and
    # gigabytes for a few games)
    t0 = time.process_time()
    r = nardy.rollout(nardy.Position.start(VARIANT), 200, "greedy", seed=1)
    assert r.games == 200 and r.unfinished == 0
    assert time.process_time() - t0 < 60


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_env_opponents_play_gul_bara_games_to_the_end(opponent: str):
    # the agent steps its turns (step mode lists no cascade either); the opponent's cascades
    # are chosen without listing them
    pytest.importorskip("gymnasium")
    from nardy.envs import NardyEnv

    env = NardyEnv("gul-bara", opponent=opponent, mode="step")
    rng = random.Random(2)
    t0 = time.process_time()
    finished = 0
    for episode in range(3):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            legal = [i for i, ok in enumerate(info["action_mask"]) if ok]
            _, _, terminated, truncated, info = env.step(rng.choice(legal))
            done = terminated or truncated
        finished += terminated
    assert finished == 3
    assert time.process_time() - t0 < 60
