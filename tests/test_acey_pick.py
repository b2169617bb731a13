"""The random rollout policy's move of an Acey-deucey roll (Engine.turn_pick, as nardy.rollout
plays it), against its definition (src/nardy/enumerator.hpp, pick_choice and pick_groups;
docs/rollouts.md):

* a roll other than 1-2 is the listed move at the drawn index, uniform over the distinct
  results;
* a 1-2 names a double uniformly at random (1-1 to 6-6), then is chosen group by group: of the
  distinct positions the 1-2 played in full leaves, those from which the named double can be
  played furthest, one uniformly; then the double's play uniformly over its distinct results
  from there (the 1-2 alone, uniformly, when it cannot be played in full). The exact
  probabilities of (result, rolls again) under that definition are computed from the
  independent pure-Python reference (tests/reference/acey_deucey_ref.py), and the core's picks
  over many random words are compared with them by a chi-square test;
* the same samples reject uniformity over the turn's moves (the test can see a wrong
  distribution), and every pick is one of the reference's legal moves.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from scipy.stats import chisquare

import nardy
from nardy import _core
from tests.reference import acey_deucey_ref as ref
from tests.support import pooled

V = _core.Variant.ACEY_DEUCEY
ENGINE = _core.Engine(V)
SAMPLES = 6000
Outcome = tuple[ref.Pos, bool]  # (result, the same player rolls again)


def key_of(pos: ref.Pos) -> bytes:
    return _core.encode(ref.to_core(pos[0]), ref.to_core(pos[1]), V)


def pos_of(key: bytes) -> ref.Pos:
    us, them = _core.decode(key, V)
    return ref.from_core(us), ref.from_core(them)


def definition(pos: ref.Pos) -> dict[Outcome, Fraction]:
    """The probability of each (result, again) of a 1-2 under the documented pick."""
    played, results = ref.roll_plays(pos, 1, 2)
    out: dict[Outcome, Fraction] = {}
    if played < 2:  # no double without the whole 1-2: its plays, uniformly
        return {(r, False): Fraction(1, len(results)) for r in results} if played else {}
    for named in range(1, 7):
        by_start = {r: ref.roll_plays(r, named, named) for r in results}
        best = max(n for n, _ in by_start.values())
        ok = [ends for n, ends in by_start.values() if n == best]
        for ends in ok:
            for e in ends:
                o = (e, best == 4)
                out[o] = out.get(o, Fraction(0)) + Fraction(1, 6 * len(ok) * len(ends))
    assert sum(out.values()) == 1
    return out


def legal(pos: ref.Pos) -> set[Outcome]:
    return {(r, again) for r, _, again in ref.turn_moves(pos, 1, 2)[1]}


def side(points: dict[int, int], bar: int = 0, off: int = 0, res: int = 0) -> ref.Side:
    s = [0] * 27
    for i, n in points.items():
        s[i] = n
    s[ref.BAR], s[ref.OFF], s[ref.RES] = bar, off, res
    assert sum(s[:24]) + bar + off + res == 15
    return tuple(s)


#: small positions where some plays of the 1-2 cannot go on to play the named double as far
#: as others (closed points, a checker on the bar, bearing off), and some results are reached
#: through several plays of the 1-2
CASES = [
    # bearing off: some 1-2 plays leave a checker that cannot bear off with a large double
    (side({0: 2, 2: 1, 3: 1, 6: 1}, off=10), side({0: 2, 18: 2}, off=11)),
    # a blot facing closed points: the 1-2 decides how far a 5-5 or 6-6 can go
    (side({3: 2, 8: 1, 9: 1, 23: 1}, off=10), side({16: 2, 17: 2, 11: 2, 22: 1}, off=8)),
    # checkers to enter into a nearly closed board
    (side({5: 2, 10: 1}, res=12), side({0: 2, 1: 2, 2: 2, 3: 2, 5: 1}, res=6)),
    # a checker on the bar
    (side({4: 2, 10: 1}, bar=1, off=11), side({23: 2, 22: 2, 20: 2, 1: 1}, off=8)),
]


def samples(pos: ref.Pos, n: int, seed: int) -> dict[Outcome, int]:
    rng = random.Random(seed)
    key = key_of(pos)
    counts: dict[Outcome, int] = {}
    for _ in range(n):
        got = ENGINE.turn_pick(key, 1, 2, 1, rng.getrandbits(64))
        assert got is not None
        o = (pos_of(got[0]), got[1])
        counts[o] = counts.get(o, 0) + 1
    return counts


@pytest.mark.parametrize("case", range(len(CASES)))
def test_cases_are_what_they_claim(case):
    # some play of the 1-2 cannot go on as far as another with some named double
    pos = CASES[case]
    played, results = ref.roll_plays(pos, 1, 2)
    assert played == 2
    assert any(len({ref.roll_plays(r, d, d)[0] for r in results}) > 1 for d in range(1, 7))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_1_2_pick_has_the_documented_distribution(case):
    pos = CASES[case]
    probs = definition(pos)
    assert set(probs) == legal(pos)
    counts = samples(pos, SAMPLES, seed=case)
    assert set(counts) <= set(probs)  # every pick is a legal move of the turn
    obs, exp = pooled(counts, probs, SAMPLES)
    assert chisquare(obs, exp).pvalue > 1e-4, (obs, exp)


def test_the_check_sees_a_pick_uniform_over_moves_as_wrong():
    # uniform over the turn's moves (result, named, again), as the listing and drawing did
    pos = CASES[1]
    moves = ref.turn_moves(pos, 1, 2)[1]
    uniform: dict[Outcome, Fraction] = {}
    for r, _, again in moves:
        uniform[(r, again)] = uniform.get((r, again), Fraction(0)) + Fraction(1, len(moves))
    counts = samples(pos, SAMPLES, seed=11)
    obs, exp = pooled(counts, uniform, SAMPLES)
    assert chisquare(obs, exp).pvalue < 1e-6


def test_a_1_2_that_cannot_be_played_in_full_is_its_plays_uniformly():
    # the bar checker must enter first and its 2 is closed (the opponent holds the mover's
    # 23-point); after it enters with the 1, every 2 lands on a closed point: nothing names
    # a double and nobody rolls again
    pos = (side({5: 2}, bar=1, off=12), side({1: 2, 2: 2, 20: 2}, off=9))
    played, results = ref.roll_plays(pos, 1, 2)
    assert played == 1
    counts = samples(pos, 600, seed=3)
    assert set(counts) == {(r, False) for r in results}


def test_other_rolls_are_the_listed_move_at_the_drawn_index():
    rng = random.Random(5)
    key = key_of(ref.start())
    checked = 0
    for _ in range(150):
        pos = pos_of(key)
        if ref.finished(pos):
            break
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if {d1, d2} == {1, 2}:
            d1, d2 = 3, 3
        moves = ENGINE.legal(key, d1, d2)
        word = rng.getrandbits(64)
        got = ENGINE.turn_pick(key, d1, d2, 1, word)
        if len(moves) == 0:
            assert got is None
            key = _core.swap(key)
            continue
        index = ((word >> 32) * len(moves)) >> 32
        assert got == (moves.key(index), False)
        checked += 1
        key = _core.swap(moves.key(rng.randrange(len(moves))))
    assert checked > 50


def test_rollouts_are_reproducible_and_finish():
    start = nardy.Position(nardy.AceyDeucey())
    r = nardy.rollout(start, 300, "random", seed=3, threads=2)
    assert r.games == 300 and r.unfinished == 0
    assert r == nardy.rollout(start, 300, "random", seed=3, threads=1)
    assert r != nardy.rollout(start, 300, "random", seed=4, threads=1)


def test_counted_moves_are_the_reference_moves():
    # a one-roll pick counts the moves without making them (Enumerator::pick); every index
    # must give a different legal result: a checker still to enter may wait while another
    # moves, so entering with the smaller die after the larger die's step from the entry
    # point meets entering with the larger die and going on
    rng = random.Random(8)
    key = key_of(ref.start())
    checked = 0
    for _ in range(40):
        pos = pos_of(key)
        if ref.finished(pos):
            break
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                if (d1, d2) == (1, 2):
                    continue
                played, results = ref.roll_plays(pos, d1, d2)
                n = ENGINE.count(key, d1, d2)
                picked = {ENGINE.pick(key, d1, d2, i)[1] for i in range(n)}
                assert n == len(picked) and {pos_of(k) for k in picked} == (
                    results if played else set()), (pos, d1, d2)
                checked += 1
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        moves = ENGINE.turn_moves(key, d1, d2, 1, again=True)[1]
        if not moves:
            key = _core.swap(key)
            continue
        k, _, _, again = rng.choice(moves)
        key = k if again else _core.swap(k)
    assert checked > 500
