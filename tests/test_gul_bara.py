"""Gul bara's rules, each on a constructed position (docs/rules/gul-bara.md), and the dice
sequence of a cascading turn in the core."""

from __future__ import annotations

import pytest

import nardy
from nardy import _core

ENGINE = nardy.GulBara().engine


def side(points: dict[int, int]) -> tuple[int, ...]:
    s = [0] * 26
    for i, n in points.items():
        s[i] = n
    s[25] = 15 - sum(points.values())
    return tuple(s)


def key(us: dict[int, int], them: dict[int, int]) -> bytes:
    return _core.encode(side(us), side(them))


START = key({23: 15}, {23: 15})


def test_no_cascade_on_the_first_two_turns():
    for turn in (1, 2):
        played, moves = ENGINE.turn_moves(START, 5, 5, turn)
        assert played == 4 and moves and all(len(steps) == 4 for _, steps, _ in moves)


def test_a_double_cascades_up_to_six_six_from_the_third_turn():
    played, moves = ENGINE.turn_moves(START, 5, 5, 3)
    assert played == 8
    for _, steps, _ in moves:
        assert [st[0] - st[1] for st in steps] == [5] * 4 + [6] * 4


def test_the_cascade_stops_at_a_double_that_cannot_be_played_in_full():
    # a lone checker on 22 plays 3-3 to 10; the opponent's 18, 19, 20 are the mover's 6, 7, 8
    # (opponent index j is the mover's (j + 12) % 24), so no 4 can be played from 10
    played, moves = ENGINE.turn_moves(key({22: 1}, {18: 5, 19: 5, 20: 5}), 3, 3, 3)
    assert played == 4
    assert [m[1] for m in moves] == [((22, 19, False), (19, 16, False), (16, 13, False),
                                       (13, 10, False))]


def test_a_turn_with_no_playable_die_passes():
    played, moves = ENGINE.turn_moves(key({22: 1}, {7: 5, 8: 5, 9: 5}), 3, 3, 3)
    # the opponent's 7, 8, 9 are the mover's 19, 20, 21: 22 - 3 = 19 is held
    assert played == 0 and moves == []


def test_cascade_from_turn_is_a_rule_option():
    never = nardy.GulBara(cascade_from_turn=0).engine
    assert never.turn_moves(START, 5, 5, 9)[0] == 4
    always = nardy.GulBara(cascade_from_turn=1).engine
    assert always.turn_moves(START, 5, 5, 1)[0] == 8
    with pytest.raises(nardy.InvalidRuleError):
        nardy.GulBara(cascade_from_turn=10)


def test_a_six_point_prime_is_legal_anywhere():
    # G5: the mover's 12-17 are the opponent's 0-5, below which no opponent point lies (long
    # nardy's block rule could never see a checker past such a prime)
    from tests.reference import gul_bara_ref as ref

    us = side({12: 2, 13: 2, 14: 2, 15: 2, 16: 2, 18: 1, 23: 4})
    them = side({23: 15})
    moves = ENGINE.turn_legal(_core.encode(us, them), 1, 2, 1)
    got = {tuple(tuple(s) for s in _core.decode(moves.key(i))) for i in range(len(moves))}
    assert got == ref.group_plays((us, them), 1, 2)[1]
    primes = [p for p in got if all(p[0][i] for i in range(12, 18))]
    assert len(primes) == 5
