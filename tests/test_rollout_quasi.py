"""Quasi-random dice in rollouts (``quasi_random=k``): the first k plies' rolls are stratified
over the trial numbers.

* exact: in positions whose outcome only the first one or two rolls decide, every aligned
  block of 36**k trials gives the exact probability (counted by hand from the rules), with
  the built-in policies and with the lockstep path of callable policies, while plain dice
  scatter around it;
* the standard error of the estimate, measured as the spread of the means of 100 runs with
  different seeds, drops against plain dice on the same seeds, and the mean agrees;
* the reproducibility guarantees hold: threads do not change a result, trial ranges merge
  bit for bit, a callable scoring like the greedy policy plays the same games.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import nardy
from nardy import parallel
from tests.support import race


# White (on roll) bears off four checkers from its 1-point with a double and wins; otherwise
# two, and black bears off its two at once: white wins exactly 6 of 36 first rolls.
ONE_ROLL = race({0: 4}, {0: 2})
# Both sides four on the 1-point: white wins with a double (6/36), else black with a double
# (30/36 * 6/36), else white's next roll takes its last two: 216 + 900 of 1296 roll pairs.
TWO_ROLLS = race({0: 4}, {0: 4})


def never_called(cand, offsets):  # these races offer no choice: the policy is never asked
    raise AssertionError("called")


@pytest.mark.parametrize("policy", ["random", "greedy", never_called])
def test_one_block_of_first_rolls_is_exact(policy):
    for seed in range(8):
        for first in (0, 36 * 5):
            r = nardy.rollout(ONE_ROLL, 36, policy, seed=seed, first_trial=first,
                              quasi_random=1)
            assert sum(r.wins[0]) == 6 and r.games == 36 and r.quasi_random == 1
        r = nardy.rollout(TWO_ROLLS, 1296, policy, seed=seed, quasi_random=2)
        assert sum(r.wins[0]) == 216 + 900
    # plain dice scatter: the check above can fail
    plain = [sum(nardy.rollout(ONE_ROLL, 36, "random", seed=s).wins[0]) for s in range(8)]
    assert len(set(plain)) > 1 and any(n != 6 for n in plain)
    plain2 = [sum(nardy.rollout(TWO_ROLLS, 1296, "random", seed=s).wins[0]) for s in range(8)]
    assert any(n != 1116 for n in plain2)


def test_standard_error_drops_against_plain_dice():
    # a race the first rolls decide much of, not all of (greedy play); 100 seeds each
    pos = race({0: 2, 2: 2}, {0: 2, 3: 2})
    seeds = range(100)
    plain = np.array([nardy.rollout(pos, 1296, "greedy", seed=s).mean for s in seeds])
    quasi = np.array([nardy.rollout(pos, 1296, "greedy", seed=s, quasi_random=2).mean
                      for s in seeds])
    ratio = quasi.var(ddof=1) / plain.var(ddof=1)
    # measured 0.38; with 99 degrees of freedom each, a ratio of 1 would land below 0.6 with
    # probability about 0.6 %
    assert ratio < 0.6, ratio
    # unbiased: the two estimates agree within their errors
    se = math.sqrt(plain.var(ddof=1) / len(plain) + quasi.var(ddof=1) / len(quasi))
    assert abs(quasi.mean() - plain.mean()) < 4 * se
    # the plain formula (stderr) describes plain dice and overestimates the quasi-random one
    r = nardy.rollout(pos, 1296, "greedy", seed=0, quasi_random=2)
    assert r.stderr == pytest.approx(plain.std(ddof=1), rel=0.25)
    assert r.stderr > quasi.std(ddof=1)


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_threads_and_trial_ranges_do_not_change_the_result(policy):
    p = nardy.Position("backgammon")
    one = nardy.rollout(p, 800, policy, seed=5, threads=1, quasi_random=2)
    two = nardy.rollout(p, 800, policy, seed=5, threads=2, quasi_random=2)
    assert one == two and one.counts() == two.counts()
    halves = nardy.rollout(p, 333, policy, seed=5, quasi_random=2).merge(
        nardy.rollout(p, 467, policy, seed=5, first_trial=333, quasi_random=2))
    assert halves == one
    sharded = parallel.rollout(p, 800, policy, seed=5, shards=3, quasi_random=2)
    assert sharded == one
    budgeted = nardy.rollout(p, 800, policy, seed=5, quasi_random=2, progress=lambda d, t: None)
    assert budgeted == one
    plain = nardy.rollout(p, 800, policy, seed=5)
    assert plain.counts() != one.counts()  # the first rolls did change
    with pytest.raises(nardy.Error):
        plain.merge(one)


def test_a_callable_scoring_like_greedy_plays_the_same_games():
    from test_rollout import greedy_long_nardy_scores

    p = nardy.Position("long-nardy")
    builtin = nardy.rollout(p, 150, "greedy", seed=2, threads=2, quasi_random=2)
    lock = nardy.rollout(p, 150, greedy_long_nardy_scores, seed=2, width=64, quasi_random=2)
    assert lock.counts()[2:] == builtin.counts()[2:]
    assert lock.counts()[2:] != nardy.rollout(p, 150, "greedy", seed=2).counts()[2:]


@pytest.mark.parametrize("bad", [-1, 9, True, 1.0, "2", None, np.array([1])])
def test_quasi_random_is_checked(bad):
    with pytest.raises(nardy.InvalidArgumentError):
        nardy.rollout(nardy.Position(), 10, quasi_random=bad)


def test_cli_quasi_random(capsys):
    import json

    from nardy.cli import main

    assert main(["rollout", "backgammon", "1296", "--quasi-random", "2", "--policy", "greedy",
                 "--seed", "4", "--progress", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    r = nardy.rollout(nardy.Position("backgammon"), 1296, "greedy", seed=4, quasi_random=2)
    assert got["quasi_random"] == 2 and got["wins"] == [list(w) for w in r.wins]
    assert main(["rollout", "backgammon", "10", "--quasi-random", "9"]) != 0
