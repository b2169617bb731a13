"""The seed-002 house rule "нельзя убить шашку противника и запрятаться" (Backgammon option
``no_hit_and_hide``): a checker that hits may not, in the same turn, go on to a point holding
another of its own checkers; it may be covered, go on to an empty point, hit again or bear off.

The reference below follows individual checkers (the rule is about one checker's journey),
written straight from the rules and sharing nothing with the core.
"""

from __future__ import annotations

import itertools
import random

import pytest

import nardy

try:
    from tests.reference import backgammon_ref as bg
except ImportError:
    from reference import backgammon_ref as bg  # type: ignore[no-redef]

BAR, OFF = 24, -1


def _step(checkers, hit_flags, opp, k, d):
    """Checker k moves d pips: new (checkers, hit_flags, opp) or None if illegal."""
    src = checkers[k]
    if BAR in checkers and src != BAR:
        return None  # everything on the bar enters first
    if src == OFF:
        return None
    dst = (24 - d) if src == BAR else src - d
    if dst < 0:
        if any(c == BAR or c > 5 for c in checkers if c != OFF):
            return None
        if dst < -1 and any(c > src for c in checkers if c not in (OFF, BAR)):
            return None
        dst = OFF
    opp = list(opp)
    hit = False
    if dst != OFF:
        j = 23 - dst
        if opp[j] >= 2:
            return None
        if opp[j] == 1:
            hit = True
            opp[j] = 0
            opp[24] += 1
        if hit_flags[k] and any(c == dst for i, c in enumerate(checkers) if i != k):
            return None  # the house rule: a hitter may not join its own checkers
    checkers = list(checkers)
    checkers[k] = dst
    flags = list(hit_flags)
    flags[k] = flags[k] or hit
    return tuple(checkers), tuple(flags), tuple(opp)


def reference(mover, opponent, dice):
    checkers = []
    for i in range(25):
        checkers += [i] * mover[i]
    checkers += [OFF] * mover[25]
    start = (tuple(checkers), (False,) * 15, tuple(opponent))
    orders = [tuple([dice[0]] * 4)] if dice[0] == dice[1] else [dice, dice[::-1]]
    best: dict = {}
    for order in orders:
        frontier = {start}
        for depth, d in enumerate(order, start=1):
            nxt = set()
            for ch, fl, op in frontier:
                for k in range(15):
                    r = _step(ch, fl, op, k, d)
                    if r is not None:
                        nxt.add(r)
            if not nxt:
                break
            for ch, _, op in nxt:
                best.setdefault((depth, sum(order[:depth])), set()).add((ch, op))
            frontier = nxt
    if not best:
        return {(tuple(mover), tuple(opponent))}
    top = max(best)
    out = set()
    for ch, op in best[top]:
        side = [0] * 26
        for c in ch:
            side[25 if c == OFF else c] += 1
        out.add((tuple(side), tuple(op)))
    return out


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
