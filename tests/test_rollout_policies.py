"""Rollouts played by evaluators: per-side policies, 0- and 1-ply search, progress and budgets,
with the reproducibility of every other rollout (counts depend only on the position, the
policies, the seed and the trial range)."""

from __future__ import annotations

import numpy as np
import pytest

import nardy
from nardy import evaluators
from nardy.evaluators.baselines import PubevalEvaluator

START = nardy.Position("backgammon")


def worst(boards):
    # pubeval's opinion turned upside down: plays the move pubeval likes least
    return -PubevalEvaluator()(boards)


WORST = evaluators.from_function(worst, "equity", name="worst")


def test_evaluator_rollout_is_reproducible_and_merges():
    whole = nardy.rollout(START, 60, "pubeval", seed=4)
    assert whole.games == 60 and whole.policy == "pubeval@0"
    assert nardy.rollout(START, 60, "pubeval", seed=4, width=7).counts() == whole.counts()
    a = nardy.rollout(START, 25, "pubeval", seed=4)
    b = nardy.rollout(START, 35, "pubeval", seed=4, first_trial=25)
    assert a.merge(b).counts() == whole.counts()
    sharded = nardy.parallel.rollout(START, 60, "pubeval", seed=4, shards=3)
    assert sharded.counts() == whole.counts()
    other = nardy.rollout(START, 60, "pubeval", seed=5)
    assert other.counts() != whole.counts()


def test_policies_per_side():
    good_first = nardy.rollout(START, 40, (PubevalEvaluator(), WORST), seed=1)
    good_second = nardy.rollout(START, 40, (WORST, PubevalEvaluator()), seed=1)
    assert good_first.win_rate > 0.9 and good_second.win_rate < 0.1
    assert good_first.policy == "pubeval@0 vs worst@0"
    same = nardy.rollout(START, 30, ("pubeval", "pubeval"), seed=2)
    assert same.counts()[4:] == nardy.rollout(START, 30, "pubeval", seed=2).counts()[4:]


def test_a_callable_side_keeps_its_protocol():
    def first_candidate(cand, offsets):
        return np.zeros(len(offsets) - 1, dtype=np.int64)

    mixed = nardy.rollout(START, 20, ("pubeval", first_candidate), seed=3)
    assert mixed.games == 20 and mixed.policy == "pubeval@0 vs callable:first_candidate"


def test_one_ply_policy_in_an_endgame():
    side = [0] * 26
    side[0], side[2], side[4], side[25] = 2, 2, 1, 10
    pos = nardy.Position.from_sides("backgammon", side, side)
    r = nardy.rollout(pos, 12, "race", plies=1, seed=9, width=5)
    assert r.games == 12 and r.unfinished == 0 and r.policy == "race@1"
    assert nardy.rollout(pos, 12, "race", plies=(1, 1), seed=9).counts()[4:] == r.counts()[4:]


def test_progress_and_budgets_keep_trials_contiguous():
    seen = []
    r = nardy.rollout(START, 5000, "random", seed=1, progress=lambda d, t: seen.append((d, t)))
    assert r.counts() == nardy.rollout(START, 5000, "random", seed=1).counts()
    assert seen[-1] == (5000, 5000) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    timed = nardy.rollout(START, 2_000_000, "greedy", seed=1, max_seconds=0.05)
    assert 0 < timed.games < 2_000_000 and timed.games % 20_000 == 0
    assert timed.counts() == nardy.rollout(START, timed.games, "greedy", seed=1).counts()


@pytest.mark.parametrize("kwargs,match", [
    ({"policy": "pubeval", "plies": 2}, "plies"),
    ({"policy": "random", "plies": 1}, "plies"),
    ({"policy": ("pubeval", 3)}, "pair"),
    ({"policy": "random", "max_seconds": 0}, "max_seconds"),
    ({"policy": "random", "progress": 5}, "progress"),
    ({"policy": "pubeval", "features": "tdgammon"}, "features"),
])
def test_bad_policy_arguments(kwargs, match):
    with pytest.raises(nardy.Error, match=match):
        nardy.rollout(START, 10, **kwargs)


def test_callable_policies_refuse_turns_too_many_to_list():
    # a Gul bara cascade can have tens of millions of moves (tests/test_rollout_turns.py has
    # the whole turns of Acey-deucey)
    variant = nardy.find_variant("gul-bara")()
    with pytest.raises(nardy.Error, match="tens of millions"):
        nardy.rollout(variant, 4, lambda positions, moves: 0)
    assert nardy.rollout(variant, 4, "random").games == 4
