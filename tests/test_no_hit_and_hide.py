"""The seed-002 house rule "нельзя убить шашку противника и запрятаться" (Backgammon option
``no_hit_and_hide``): a checker that hits may not, in the same turn, go on to a point holding
another of its own checkers; it may be covered, go on to an empty point, hit again or bear off.

The reference (tests/reference/checker_rules.py) follows individual checkers (the rule is
about one checker's journey), written straight from the rules and sharing nothing with the
core.
"""

from __future__ import annotations

import itertools
import random

import pytest

import nardy

try:
    from tests.reference import backgammon_ref as bg
    from tests.reference import checker_rules as ref
except ImportError:
    from reference import backgammon_ref as bg  # type: ignore[no-redef]
    from reference import checker_rules as ref  # type: ignore[no-redef]


def reference(mover, opponent, dice):
    return ref.legal_results(mover, opponent, dice, hide_rule=True)


def core(mover, opponent, dice):
    pos = nardy.Position.from_sides(nardy.Backgammon(no_hit_and_hide=True), mover, opponent)
    moves = pos.legal_moves(dice)
    if not moves:
        return {(tuple(mover), tuple(opponent))}
    return {(c.sides()[1], c.sides()[0]) for c in moves.results()}


def test_hitter_may_not_hide_on_own_point():
    m = [0] * 26
    m[10], m[6], m[5] = 1, 1, 13
    o = [0] * 26
    o[23 - 7], o[23] = 1, 14  # an opponent blot on the mover's 8-point
    plain = nardy.Position.from_sides(nardy.Backgammon(), m, o).legal_moves((3, 1))
    house = nardy.Position.from_sides(nardy.Backgammon(no_hit_and_hide=True), m, o)
    moves = house.legal_moves((3, 1))
    # 11/8*/7 hits and goes on to the 7-point, where another white checker stands
    hide = nardy.Move([(10, 7), (7, 6)])
    assert hide not in moves
    assert hide in plain
    with pytest.raises(nardy.IllegalMoveError):
        house.parse_move("11/8*/7", (3, 1))
    # hitting and staying, or hitting and then moving another checker, stay legal
    assert house.parse_move("11/8* 7/6", (3, 1)) in moves
    assert len(plain) == len(moves) + 1


def test_hitter_may_go_on_to_an_empty_point_or_be_covered():
    m = [0] * 26
    m[10], m[8], m[5] = 1, 1, 13
    o = [0] * 26
    o[23 - 7], o[23] = 1, 14  # blot on the mover's 8-point; 7-point empty, a white 9-point
    house = nardy.Position.from_sides(nardy.Backgammon(no_hit_and_hide=True), m, o)
    moves = house.legal_moves((3, 1))
    assert house.parse_move("11/8*/7", (3, 1)) in moves  # on to an empty point
    m2 = list(m)
    house2 = nardy.Position.from_sides(nardy.Backgammon(no_hit_and_hide=True), m2, o)
    assert house2.parse_move("11/8* 9/8", (3, 1)) in house2.legal_moves((3, 1))  # covered


@pytest.mark.parametrize("seed", [1, 2])
def test_against_checker_tracking_reference(seed):
    rng = random.Random(seed)
    positions = bg.random_positions(700, seed=seed + 40)
    checked = changed = 0
    for mover, opponent in positions:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        want = reference(mover, opponent, dice)
        got = core(mover, opponent, dice)
        assert got == want, (mover, opponent, dice, sorted(got ^ want))
        plain = {(tuple(a), tuple(b)) for a, b in bg.legal_results(mover, opponent, dice)}
        changed += plain != want
        checked += 1
    assert checked == 700
    assert changed >= 10, "the sample must contain positions where the house rule matters"


def test_reference_agrees_with_standard_rules_when_no_hit_is_possible():
    """Sanity check of the test's own reference: without hits it is plain backgammon."""
    rng = random.Random(3)
    for mover, opponent in itertools.islice(bg.random_positions(400, seed=77), 400):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plain = bg.legal_results(mover, opponent, dice)
        if all(r[1][24] == opponent[24] for r in plain):  # no result hits anything
            assert reference(mover, opponent, dice) == {(tuple(a), tuple(b)) for a, b in plain}


def test_every_listed_move_is_recognised_and_plays():
    """Legality by steps must follow the checker that hit through the turn: applying a listed
    move's steps has to find the bookkeeping under which every step is allowed."""
    rng = random.Random(4)
    v = nardy.Backgammon(no_hit_and_hide=True)
    checked = 0
    for mover, opponent in bg.random_positions(600, seed=61):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        pos = nardy.Position.from_sides(v, mover, opponent)
        moves = pos.legal_moves(dice)
        for move, child in zip(moves, moves.results()):
            assert move in moves, (mover, opponent, dice, move)
            assert pos.play(move, dice) == child
            checked += 1
    assert checked > 1000
