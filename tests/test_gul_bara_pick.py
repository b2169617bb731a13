"""The random rollout policy's move of a Gul bara turn (Engine.turn_pick, as nardy.rollout
plays it), against its definition (src/nardy/enumerator.hpp, pick_groups; docs/rollouts.md):

* a turn of one group (a non-double, a double before the cascade turn) is the listed move at
  the drawn index, uniform over the distinct results;
* a cascade is chosen group by group: of the distinct positions a group played in full
  leaves, those from which the rest of the turn can still play the most dice the turn allows,
  one uniformly, then the next group; the group where the turn ends uniformly over its
  results. The exact probabilities of that definition are computed from the independent
  pure-Python reference (tests/reference/gul_bara_ref.py), and the core's picks over many
  random words are compared with them by a chi-square test on constructed small cascades;
* the same samples reject uniformity over the turn's results (the test has the power to see a
  wrong distribution);
* behind a prime, where the lookahead stops at a bound on the dice the checkers have room to
  play, and near the bear-off, where it stops at a bound on the steps of each die the
  checkers can chain, every pick is a move of the turn listed without that lookahead.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from scipy.stats import chisquare

import nardy
from nardy import _core
from tests.reference import gul_bara_ref as ref
from tests.support import pooled

ENGINE = nardy.GulBara().engine
LATE = 1 << 20
SAMPLES = 6000


def definition(pos: ref.Pos, groups: list[tuple[int, int]]) -> dict[ref.Pos, Fraction]:
    """The probability of each result of the turn under the documented group-by-group pick."""
    most, finals = ref.turn_moves(pos, groups)
    out: dict[ref.Pos, Fraction] = {}

    def walk(p: ref.Pos, k: int, left: int, prob: Fraction) -> None:
        d1, d2 = groups[k]
        played, results = ref.group_plays(p, d1, d2)
        if played == left:  # the turn ends with this group
            for r in results:
                out[r] = out.get(r, Fraction(0)) + prob / len(results)
            return
        need = left - played
        ok = [c for c in results if ref.turn_moves(c, groups[k + 1:])[0] == need]
        for c in ok:
            walk(c, k + 1, need, prob / len(ok))

    if most:
        walk(pos, 0, most, Fraction(1))
    assert set(out) == finals and sum(out.values()) == 1
    return out


#: (mover, opponent, die): small late cascades where some results of the first group cannot
#: go on to play the most dice, and some results are reached through several intermediate
#: positions (found by a seeded search over random positions)
CASES = [
    ((0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 10),
     (0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 3, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 4), 2),
    ((0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 10),
     (1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 12), 4),
    ((0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10),
     (1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 8), 3),
    ((0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 10),
     (0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12), 3),
]


def samples(key: bytes, d: int, n: int, seed: int) -> dict[ref.Pos, int]:
    rng = random.Random(seed)
    counts: dict[ref.Pos, int] = {}
    for _ in range(n):
        got = ENGINE.turn_pick(key, d, d, LATE, rng.getrandbits(64))
        assert got is not None and got[1] is False
        pos = tuple(tuple(s) for s in _core.decode(got[0]))
        counts[pos] = counts.get(pos, 0) + 1
    return counts


@pytest.mark.parametrize("case", range(len(CASES)))
def test_cascade_pick_has_the_documented_distribution(case):
    us, them, d = CASES[case]
    pos = (us, them)
    groups = ref.cascade(d, d, LATE)
    probs = definition(pos, groups)
    counts = samples(_core.encode(us, them), d, SAMPLES, seed=case)
    # every pick is a legal move of the whole turn
    assert set(counts) <= set(probs)
    obs, exp = pooled(counts, probs, SAMPLES)
    assert chisquare(obs, exp).pvalue > 1e-4, (obs, exp)


def test_the_check_sees_a_pick_uniform_over_results_as_wrong():
    # case 1: the definition gives its results 1/24 to 1/3, far from uniform
    us, them, d = CASES[1]
    pos = (us, them)
    probs = definition(pos, ref.cascade(d, d, LATE))
    assert max(probs.values()) >= 4 * min(probs.values())
    counts = samples(_core.encode(us, them), d, SAMPLES, seed=1)
    uniform = {r: Fraction(1, len(probs)) for r in probs}
    obs, exp = pooled(counts, uniform, SAMPLES)
    assert chisquare(obs, exp).pvalue < 1e-6


def test_a_turn_of_one_group_is_the_listed_move_at_the_drawn_index():
    rng = random.Random(5)
    start = _core.encode(*ref.start())
    key = start
    checked = 0
    for ply in range(60):
        us, them = _core.decode(key)
        if us[25] == 15 or them[25] == 15:
            break
        d1, d2 = rng.randint(1, 6), rng.randint(2, 6)
        if d1 == d2:
            d2 = d1 % 6 + 1  # a non-double: one group on any turn
        turn = 1 + ply // 2
        for roll, t in (((d1, d2), LATE), ((d1, d1), 1), ((d2, d2), 2)):
            moves = ENGINE.turn_legal(key, roll[0], roll[1], t)
            word = rng.getrandbits(64)
            got = ENGINE.turn_pick(key, roll[0], roll[1], t, word)
            if len(moves) == 0:
                assert got is None
                continue
            index = ((word >> 32) * len(moves)) >> 32
            assert got == (moves.key(index), False)
            checked += 1
        moves = ENGINE.turn_legal(key, d1, d2, turn)
        key = _core.swap(moves.key(rng.randrange(len(moves))) if len(moves) else key)
    assert checked > 50


def behind_a_prime(rng: random.Random) -> bytes:
    """A position where the opponent holds six points in a row (a..a+5 in the mover's
    coordinates) and most of the mover's checkers stand behind them: no checker can be borne
    off in a turn, and many cascades stop where the checkers run out of room."""
    a = rng.randrange(6, 18)
    wall = [0] * 24
    for x in range(a, a + 6):
        wall[x] = 1
    for _ in range(9):
        wall[rng.randrange(a, a + 6)] += 1
    free = [x for x in range(24) if wall[x] == 0]
    us = [0] * 26
    behind = rng.randrange(6, 14)
    for _ in range(behind):
        us[rng.choice([x for x in free if x > a])] += 1
    for _ in range(15 - behind):
        us[rng.choice([x for x in free if x < a])] += 1
    them = [0] * 26
    for x in range(24):
        them[(x + 12) % 24] = wall[x]  # the opponent's point j is the mover's (j + 12) % 24
    return _core.encode(us, them)


def picks_are_listed_moves(cases: list[tuple[bytes, int]], rng: random.Random) -> int:
    """Three picks of each cascade (key, double) are moves of the turn listed without the
    lookahead; returns how many of the cascades stop before their last double."""
    stopped = 0
    for key, d in cases:
        played, moves = ENGINE.turn_moves(key, d, d, LATE)
        results = {m[0] for m in moves}
        stopped += 0 < played < 4 * (7 - d)
        for _ in range(3):
            got = ENGINE.turn_pick(key, d, d, LATE, rng.getrandbits(64))
            if not moves:
                assert got is None
                continue
            assert got is not None and got[0] in results, (key.hex(), d)
    return stopped


def test_a_cascade_stopped_behind_a_prime_plays_the_most_dice():
    # The pick's lookahead stops its search at a bound on the dice the checkers can still
    # travel; a bound below the truth would make the pick play fewer dice than the turn's
    # moves (listed without the lookahead) and leave them.
    rng = random.Random(7)
    # (a 1-1 behind a prime met in a random game: 22 of its 24 dice can be played, the
    # checkers' room for 77 pips; a 1-1 elsewhere can take seconds to list)
    us = {1: 1, 7: 1, 8: 3, 9: 1, 17: 3, 23: 6}
    wall = {5: 1, 11: 6, 12: 1, 13: 1, 14: 1, 15: 1, 16: 4}
    met = _core.encode([us.get(x, 0) for x in range(26)],
                       [wall.get((j + 12) % 24, 0) for j in range(24)] + [0, 0])
    primes = [behind_a_prime(rng) for _ in range(30)]
    cases = [(met, 1)] + [(key, d) for key in primes for d in range(2, 7)]
    assert picks_are_listed_moves(cases, rng) > 60  # the sample meets the stopped cascades
    assert ENGINE.turn_moves(met, 1, 1, LATE)[0] == 22


def near_the_bear_off(rng: random.Random) -> bytes:
    """A position where a cascade may bear checkers off: the mover's checkers home or a few
    points short of it, some already off, and the opponent's checkers on points among them,
    so that chains of one die stop at his points or at the edge of the board."""
    us = [0] * 26
    us[25] = rng.randrange(0, 12)
    outside = rng.random() < 0.5  # else every checker is home already
    for _ in range(15 - us[25]):
        home = not outside or rng.random() < 0.75
        us[rng.randrange(0, 6) if home else rng.randrange(6, 12)] += 1
    them = [0] * 26
    free = [x for x in range(18) if us[x] == 0]
    for _ in range(15):
        them[(rng.choice(free) + 12) % 24] += 1  # the mover's point x is the opponent's x + 12
    return _core.encode(us, them)


def test_a_cascade_that_may_bear_off_plays_the_most_dice():
    # Where a checker may be borne off, the lookahead's bound counts, for each die of the
    # cascade, the steps of that die the checkers can chain from where the earlier dice could
    # take them, a chain ending at an opponent's point or with a bear-off; a bound below the
    # truth would make the pick play fewer dice than the moves listed without the lookahead.
    rng = random.Random(11)
    cases = [(near_the_bear_off(rng), rng.randrange(1, 7)) for _ in range(120)]
    assert picks_are_listed_moves(cases, rng) > 40  # most of them stop before 6-6


def test_turn_pick_errors():
    start = _core.encode(*ref.start())
    with pytest.raises(ValueError, match="dice"):
        ENGINE.turn_pick(start, 0, 3, 1, 0)
    with pytest.raises(nardy.Error, match="turn"):
        ENGINE.turn_pick(start, 3, 3, 0, 0)


def test_rollouts_from_the_start_play_cascades_to_the_end():
    # early cascades list millions of moves; the rollout makes its move alone
    r = nardy.rollout(nardy.Position(nardy.GulBara()), 300, "random", seed=3, threads=2)
    assert r.games == 300 and r.unfinished == 0
    assert r == nardy.rollout(nardy.Position(nardy.GulBara()), 300, "random", seed=3, threads=1)
