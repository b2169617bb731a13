"""Tavla's rule against hit-and-run in the home board (``nardy.Tavla(no_hit_and_run=True)``,
docs/rules/tavla.md): a checker that hits an opponent's blot on a point of its own home board
moves no further in that turn (not on to another point, not off the board); other checkers,
the ones covering it included, move as usual. Off by default.

The reference (tests/reference/checker_rules.py) follows individual checkers through the
turn, written from the rule and sharing nothing with the core; it also plays backgammon's
house rule ``no_hit_and_hide``, so the two options are checked alone and together.
NARDY_SLOW=1 checks 5,000 positions per combination instead of 600.
"""

from __future__ import annotations

import os
import random

import pytest

import nardy

try:
    from tests.reference import backgammon_ref as bg
    from tests.reference import checker_rules as ref
except ImportError:
    from reference import backgammon_ref as bg  # type: ignore[no-redef]
    from reference import checker_rules as ref  # type: ignore[no-redef]

SLOW = os.environ.get("NARDY_SLOW") == "1"
N_POSITIONS = 5000 if SLOW else 600


def reference(mover, opponent, dice, run_rule=True, hide_rule=False):
    return ref.legal_results(mover, opponent, dice, run_rule=run_rule, hide_rule=hide_rule)


def core(variant, mover, opponent, dice):
    pos = nardy.Position.from_sides(variant, mover, opponent)
    moves = pos.legal_moves(dice)
    if not moves:
        return {(tuple(mover), tuple(opponent))}
    return {(c.sides()[1], c.sides()[0]) for c in moves.results()}


def _side(points):
    s = [0] * 26
    for i, n in points.items():
        s[i] = n
    return s


def _tavla(**rules):
    return nardy.Tavla(no_hit_and_run=True, **rules)


# mover: a checker on the 8-point, 13 on the 6-point, one on the 1-point; an opponent blot
# on the mover's 5-point (opponent index 19), the rest on the opponent's 6-point.
MOVER = _side({7: 1, 5: 13, 0: 1})
OPP = _side({23 - 4: 1, 5: 14})


def test_hitter_in_the_home_board_may_not_move_on():
    plain = nardy.Position.from_sides(nardy.Tavla(), MOVER, OPP)
    rule = nardy.Position.from_sides(_tavla(), MOVER, OPP)
    run = plain.parse_move("8/5*/3", (3, 2))
    assert run in plain.legal_moves((3, 2))  # the default plays backgammon's hits
    assert run not in rule.legal_moves((3, 2))
    with pytest.raises(nardy.IllegalMoveError):
        rule.parse_move("8/5*/3", (3, 2))
    # hitting and then moving another checker stays legal, and so does covering the hitter
    assert rule.parse_move("8/5* 6/4", (3, 2)) in rule.legal_moves((3, 2))
    cover = nardy.Position.from_sides(_tavla(), _side({7: 2, 5: 12, 0: 1}), OPP)
    assert nardy.Move([(7, 4), (7, 4), (5, 2), (5, 2)]) in cover.legal_moves((3, 3))
    assert len(plain.legal_moves((3, 2))) == len(rule.legal_moves((3, 2))) + 1


def test_a_double_stops_the_hitter_but_not_the_checkers_that_cover_it():
    covered = nardy.Position.from_sides(_tavla(), _side({7: 2, 5: 12, 0: 1}), OPP)
    # both checkers of the 8-point go to the 5-point (the first hits, the second covers it),
    # then one of them goes on to the 2-point: the cover, which did not hit
    assert nardy.Move([(7, 4), (7, 4), (4, 1), (5, 2)]) in covered.legal_moves((3, 3))
    # the only checker of the 5-point after its hit there may not go on
    alone = nardy.Position.from_sides(_tavla(), MOVER, OPP)
    assert nardy.Move([(7, 4), (4, 1), (5, 2), (5, 2)]) not in alone.legal_moves((3, 3))
    assert nardy.Move([(7, 4), (4, 1), (5, 2), (5, 2)]) in nardy.Position.from_sides(
        nardy.Tavla(), MOVER, OPP).legal_moves((3, 3))


def test_a_hit_outside_the_home_board_or_on_entering_does_not_stop():
    # an opponent blot on the mover's 9-point (index 8): 11/9*/8 hits outside and goes on
    mover = _side({10: 1, 5: 13, 0: 1})
    opp = _side({23 - 8: 1, 5: 14})
    pos = nardy.Position.from_sides(_tavla(), mover, opp)
    assert nardy.Move([(10, 8), (8, 7)]) in pos.legal_moves((2, 1))
    # a checker that hits on entering (in the opponent's home board) goes on
    bar = nardy.Position.from_sides(_tavla(), _side({24: 1, 5: 13, 0: 1}), _side({4: 1, 5: 14}))
    assert nardy.Move([(24, 19), (19, 16)]) in bar.legal_moves((5, 3))


def test_the_hitter_may_not_bear_off():
    # all home but one checker on the 6-point; an opponent blot (entered from the bar) on
    # the mover's 3-point
    mover = _side({5: 1, 1: 14})
    opp = _side({23 - 2: 1, 5: 14})
    run = nardy.Move([(5, 2), (2, -1)])  # 6/3* then 3/off with the 4
    assert run in nardy.Position.from_sides(nardy.Tavla(), mover, opp).legal_moves((3, 4))
    rule = nardy.Position.from_sides(_tavla(), mover, opp).legal_moves((3, 4))
    assert run not in rule
    assert nardy.Move([(5, 1), (1, -1)]) in rule  # 6/2 3/off: no hit, the same checker on


def test_fewer_dice_when_only_hit_and_run_plays_both():
    # one checker outside on the 8-point, fourteen on the 1-point (no bear-off yet); an
    # opponent blot on the mover's 5-point and the 6-point closed: 8/5*/3 is the only play of
    # both dice, so under the rule only the 3 is played
    mover = _side({7: 1, 0: 14})
    opp = _side({23 - 4: 1, 23 - 5: 2, 5: 12})
    plain = nardy.Position.from_sides(nardy.Tavla(), mover, opp).legal_moves((3, 2))
    rule = nardy.Position.from_sides(_tavla(), mover, opp).legal_moves((3, 2))
    assert list(plain) == [nardy.Move([(7, 4, True), (4, 2)])]
    assert list(rule) == [nardy.Move([(7, 4, True)])]
    assert core(_tavla(), mover, opp, (3, 2)) == reference(mover, opp, (3, 2))


@pytest.mark.parametrize("hide", [False, True])
def test_against_checker_tracking_reference(hide):
    variant = _tavla(no_hit_and_hide=hide)
    rng = random.Random(22 + hide)
    positions = bg.random_positions(N_POSITIONS, seed=2212 + hide)
    changed = 0
    for mover, opponent in positions:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        want = reference(mover, opponent, dice, run_rule=True, hide_rule=hide)
        got = core(variant, mover, opponent, dice)
        assert got == want, (mover, opponent, dice, sorted(got ^ want))
        plain = reference(mover, opponent, dice, run_rule=False, hide_rule=hide)
        changed += plain != want
    assert changed >= 10, "the sample must contain positions where the rule matters"


def test_reference_without_the_rules_is_backgammon():
    """The test's own reference, both rules off, against the backgammon reference."""
    rng = random.Random(5)
    for mover, opponent in bg.random_positions(300, seed=78):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        want = {(tuple(a), tuple(b)) for a, b in bg.legal_results(mover, opponent, dice)}
        assert reference(mover, opponent, dice, run_rule=False) == want


def test_every_listed_move_is_recognised_and_plays():
    """Legality by steps follows the checker that hit: applying a listed move's steps finds
    the bookkeeping under which every step is allowed."""
    rng = random.Random(6)
    v = _tavla()
    checked = 0
    for mover, opponent in bg.random_positions(300, seed=62):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        pos = nardy.Position.from_sides(v, mover, opponent)
        moves = pos.legal_moves(dice)
        for move, child in zip(moves, moves.results()):
            assert pos.play(move, dice) == child
            checked += 1
    assert checked > 500


def test_option_is_tavlas_named_rule():
    assert nardy.Tavla().rules["no_hit_and_run"] is False
    v = _tavla()
    assert v.rules["no_hit_and_run"] is True and v != nardy.Tavla()
    assert "no_hit_and_run=True" in repr(v)
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Tavla(no_hit_and_run=1)
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Backgammon(no_hit_and_run=True)
    pos = nardy.Position.from_sides(v, MOVER, OPP)
    assert nardy.Position.from_text(pos.to_text()) == pos
