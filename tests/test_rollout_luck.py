"""Luck adjustment in rollouts (``variance_reduction=True``): each roll's luck, the evaluator's
0-ply equity after the best move for the roll thrown minus its mean over the 21 rolls, is
subtracted from the trial's points.

* unbiased: on short races whose value under the rollout's own policy is computed exactly by
  enumerating every roll (a Python recursion over Position.legal_moves / play, written from
  the rules), the adjusted mean lies within a few of its standard errors of the exact value,
  and the spread of the adjusted means over seeds matches the reported standard error;
* variance: the adjusted variance is clearly below the plain one on the same games;
* a luck that is not centred (the 21 rolls weighed equally) is caught by the same check;
* reproducibility: the games played are those of the plain run, and widths, trial ranges
  merged and parallel shards give the same integers bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import nardy
from nardy import evaluators, parallel, search
from tests.support import race

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
RACE = evaluators.as_evaluator("race", "backgammon")


def won_points(loser):
    """Points of a backgammon win over ``loser`` (own coordinates), from the rules."""
    if loser[25] > 0:
        return 1
    return 3 if loser[24] > 0 or any(loser[18:24]) else 2


def equity_of_probs(p):
    w, wg, wbg, lg, lbg = (float(x) for x in p)
    return 2 * w - 1 + wg - lg + wbg - lbg


def exact_value(pos, memo):
    """Expected points for the player on roll when both sides play the race evaluator's 0-ply
    best move (the first best in legal_moves order), by enumerating every roll."""
    us, them = pos.sides()
    key = (tuple(us), tuple(them))
    if key in memo:
        return memo[key]
    if them[25] == 15:
        memo[key] = -won_points(us)
        return memo[key]
    total = 0.0
    for roll in ROLLS:
        children = [pos.play(m, roll) for m in pos.legal_moves(roll)] or [pos.pass_turn()]
        best, best_v = None, -math.inf
        for c in children:
            cu, ct = c.sides()  # cu: the opponent, now on roll
            if ct[25] == 15:
                v = float(won_points(cu))
            else:
                v = -equity_of_probs(RACE(np.array([[cu, ct]], dtype=np.int8))[0])
            if v > best_v:
                best, best_v = c, v
        total += (1 / 36 if roll[0] == roll[1] else 2 / 36) * -exact_value(best, memo)
    memo[key] = total
    return total


# small races: exact values by enumeration stay cheap
RACES = [race({0: 1, 2: 1, 4: 1}, {1: 1, 3: 1, 5: 1}),
         race({1: 2, 5: 1}, {0: 1, 2: 1, 3: 1, 4: 1}),
         race({3: 1, 5: 2}, {2: 2, 4: 1})]


@pytest.mark.parametrize("case", range(len(RACES)))
def test_adjusted_mean_is_unbiased_and_less_noisy(case):
    pos = RACES[case]
    exact = exact_value(pos, {})
    r = nardy.rollout(pos, 3000, "race", seed=11 + case, variance_reduction=True)
    plain = nardy.rollout(pos, 3000, "race", seed=11 + case)
    assert r.variance_reduction and not plain.variance_reduction
    # the same games: the option only adds the luck
    assert r.counts()[:12] == plain.counts()[:12]
    assert r.raw_mean == plain.mean and r.raw_stderr == plain.stderr
    # unbiased: 4.5 standard errors (a bias this check misses is below 0.01 points)
    assert abs(r.mean - exact) < 4.5 * r.stderr, (r.mean, exact, r.stderr)
    assert abs(plain.mean - exact) < 4.5 * plain.stderr
    # variance clearly lower (measured 0.1 to 0.3 of the plain one on these races)
    assert r.stderr**2 < 0.5 * plain.stderr**2, (r.stderr, plain.stderr)


def test_spread_over_seeds_matches_the_standard_error():
    pos = RACES[0]
    exact = exact_value(pos, {})
    runs = [nardy.rollout(pos, 300, "race", seed=s, variance_reduction=True) for s in range(30)]
    means = np.array([r.mean for r in runs])
    reported = np.mean([r.stderr for r in runs])
    # 29 degrees of freedom: the sample spread is within a factor 1.6 of the truth with
    # probability above 99.5 %
    assert 1 / 1.6 < means.std(ddof=1) / reported < 1.6
    assert abs(means.mean() - exact) < 4.5 * means.std(ddof=1) / math.sqrt(len(means))


def test_uncentred_luck_is_caught(monkeypatch):
    # the 21 rolls weighed equally: the "luck" no longer has mean zero and the mean drifts
    pos = RACES[0]
    exact = exact_value(pos, {})
    monkeypatch.setattr(search, "ROLL_WEIGHTS", np.full(21, 1 / 21))
    r = nardy.rollout(pos, 3000, "race", seed=11, variance_reduction=True)
    assert abs(r.mean - exact) > 4.5 * r.stderr, (r.mean, exact, r.stderr)


def test_reproducible_across_widths_ranges_and_shards():
    pos = race({0: 2, 2: 2, 4: 1, 5: 2}, {1: 2, 3: 2, 5: 2})
    whole = nardy.rollout(pos, 120, "race", seed=5, variance_reduction=True)
    assert nardy.rollout(pos, 120, "race", seed=5, width=7,
                         variance_reduction=True).counts() == whole.counts()
    a = nardy.rollout(pos, 50, "race", seed=5, width=9, variance_reduction=True)
    b = nardy.rollout(pos, 70, "race", seed=5, first_trial=50, width=3,
                      variance_reduction=True)
    assert a.merge(b).counts() == whole.counts() and a.merge(b).mean == whole.mean
    sharded = parallel.rollout(pos, 120, "race", seed=5, shards=5, variance_reduction=True)
    assert sharded.counts() == whole.counts() and sharded.stderr == whole.stderr
    budget = nardy.rollout(pos, 120, "race", seed=5, width=16, progress=lambda d, t: None,
                           variance_reduction=True)
    assert budget.counts() == whole.counts()
    other = nardy.rollout(pos, 120, "race", seed=6, variance_reduction=True)
    assert other.counts() != whole.counts()
    with pytest.raises(nardy.Error, match="merge"):
        whole.merge(nardy.rollout(pos, 10, "race", seed=5, first_trial=120))


def test_with_quasi_random_dice_and_deeper_or_paired_policies():
    pos = race({0: 2, 2: 1, 4: 1}, {1: 2, 3: 1, 5: 1})
    exact = exact_value(pos, {})
    q = nardy.rollout(pos, 36 * 40, "race", seed=2, quasi_random=1, variance_reduction=True)
    assert abs(q.mean - exact) < 4.5 * q.stderr
    # a 1-ply policy and a pair play the games of their plain runs
    for policy, plies in (("race", 1), (("race", "pubeval"), (0, 1))):
        plain = nardy.rollout(pos, 40, policy, seed=3, plies=plies)
        red = nardy.rollout(pos, 40, policy, seed=3, plies=plies, variance_reduction=True)
        assert red.counts()[:12] == plain.counts()[:12]
        assert red.luck != 0


def test_bad_arguments():
    pos = RACES[0]
    for policy in ("random", "greedy", lambda c, o: np.zeros(len(c))):
        with pytest.raises(nardy.Error, match="variance_reduction"):
            nardy.rollout(pos, 10, policy, variance_reduction=True)
    for bad in (1, "yes", None, np.array([True])):
        with pytest.raises(nardy.Error, match="variance_reduction"):
            nardy.rollout(pos, 10, "race", variance_reduction=bad)
