"""nardy.search: expectimax against a brute-force Python search written from the rules, exact
endgame values worked out by hand, and gnubg's own n-ply evaluations.

The reference below walks the tree one position at a time with Position.legal_moves /
Position.play (no batch call, no filtering) and scores finished games from the rule texts
(single / gammon / backgammon, oin / mars), not from nardy's Scoring classes.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import nardy
from nardy import evaluators, search
from nardy.search import EXHAUSTIVE

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def weight(roll):
    return 1 / 36 if roll[0] == roll[1] else 2 / 36


def side(off=0, bar=0, **points):
    s = [0] * 26
    for k, n in points.items():
        s[int(k[1:])] = n
    s[24], s[25] = bar, off
    return s


# -- the reference ---------------------------------------------------------------------------
def won_points(variant, loser):
    """Points of a win over ``loser`` (own coordinates), from the rule texts."""
    if loser[25] > 0:
        return 1
    if variant == "backgammon":  # «кокс»: on the bar or in the winner's home
        return 3 if loser[24] > 0 or any(loser[18:24]) else 2
    return 2  # long nardy: mars


def won_vector(variant, loser):
    pts = won_points(variant, loser)
    if variant == "backgammon":
        return np.array([1.0, pts >= 2, pts >= 3, 0.0, 0.0])
    return np.array([1.0, pts >= 2, 0.0])


def flip(v):
    n = (len(v) + 1) // 2
    return np.concatenate(([1 - v[0]], v[n:], v[1:n]))


def ref_equity_of(v):
    if len(v) == 5:  # gnubg's formula
        w, wg, wbg, lg, lbg = v
        return 2 * w - 1 + wg - lg + wbg - lbg
    w, wm, lm = v
    return 2 * w - 1 + wm - lm


def reference(pos, plies, static, probs):
    """Value of ``pos`` for the player on roll: equity, or probability vector if ``probs``."""
    us, them = pos.sides()
    vname = "backgammon" if pos.variant.name == "backgammon" else "long"
    if them[25] == 15:
        v = won_vector(vname, us)
        return flip(v) if probs else -won_points(vname, us)
    if plies == 0:
        return static(us, them)
    total = 0.0
    for roll in ROLLS:
        moves = pos.legal_moves(roll)
        children = [pos.play(m, roll) for m in moves] or [pos.pass_turn()]
        vals = [reference(c, plies - 1, static, probs) for c in children]
        if probs:
            vals = [flip(x) for x in vals]
            best = max(vals, key=ref_equity_of)
        else:
            best = max(-x for x in vals)
        total = total + weight(roll) * best
    return total


def toy_equity(boards):
    b = boards.astype(np.float64)
    pips = b[:, :, :25] @ np.arange(1, 26)
    return np.tanh((pips[:, 1] - pips[:, 0]) / 17.0 + 0.05 * b[:, 0, 0] - 0.03 * b[:, 1, 2])


TOY = evaluators.from_function(toy_equity, "equity", name="toy")


def toy_static(us, them):
    return float(toy_equity(np.array([[us, them]], dtype=np.int8))[0])


def race_static(variant):
    ev = evaluators.as_evaluator("race", variant)

    def f(us, them):
        return np.asarray(ev(np.array([[us, them]], dtype=np.int8))[0], dtype=np.float64)

    return f


ENDGAMES = [
    # (variant, mover, opponent)
    ("backgammon", side(off=12, p0=1, p2=1, p4=1), side(off=12, p1=2, p3=1)),
    ("backgammon", side(off=13, p5=1, p1=1), side(off=11, p0=2, p2=1, p5=1)),
    ("backgammon", side(off=0, p0=5, p1=5, p2=5), side(off=13, p0=1, p1=1)),   # gammonish
    ("backgammon", side(off=11, p0=2, p20=1, p3=1), side(off=13, p1=1, p4=1)),  # contact, hits
    ("long-nardy", side(off=12, p0=1, p2=1, p5=1), side(off=12, p1=1, p3=2)),
    ("long-nardy", side(off=0, p0=8, p1=7), side(off=13, p0=2)),
]


@pytest.mark.parametrize("case", range(len(ENDGAMES)))
@pytest.mark.parametrize("plies", [1, 2])
def test_expectimax_equals_brute_force_equity(case, plies):
    vname, us, them = ENDGAMES[case]
    pos = nardy.Position.from_sides(vname, us, them)
    want = reference(pos, plies, toy_static, probs=False)
    got = search.evaluate(pos, TOY, plies, inner=EXHAUSTIVE)
    assert got.equity == pytest.approx(want, abs=1e-9)
    assert got.probabilities is None


@pytest.mark.parametrize("case", range(len(ENDGAMES)))
def test_expectimax_equals_brute_force_probabilities(case):
    vname, us, them = ENDGAMES[case]
    pos = nardy.Position.from_sides(vname, us, them)
    want = reference(pos, 2, race_static(pos.variant), probs=True)
    got = search.evaluate(pos, "race", 2, inner=EXHAUSTIVE)
    assert np.allclose(got.probabilities, want, atol=1e-6)
    assert got.equity == pytest.approx(ref_equity_of(want), abs=1e-6)


@pytest.mark.parametrize("case", [0, 3, 4])
def test_rank_moves_equals_brute_force(case):
    vname, us, them = ENDGAMES[case]
    pos = nardy.Position.from_sides(vname, us, them)
    for roll in [(2, 1), (4, 4), (6, 3)]:
        moves = pos.legal_moves(roll)
        want = sorted(((-reference(pos.play(m, roll), 1, toy_static, False), k)
                       for k, m in enumerate(moves)), key=lambda t: (-t[0], t[1]))
        got = search.rank_moves(pos, roll, TOY, 1, filter=EXHAUSTIVE, inner=EXHAUSTIVE)
        assert [c.move for c in got] == [moves[k] for _, k in want]
        assert [c.equity for c in got] == pytest.approx([e for e, _ in want], abs=1e-9)
        assert {c.plies for c in got} == {1}


def test_hand_computed_last_roll():
    # One checker 6 pips away against one on the 1-point: the roller must bear it off now.
    # It gets off with any 6 (11 rolls), 5-1..5-4, 4-2, 4-3 either way (12) and 2-2, 3-3,
    # 4-4, 5-5 (4): 27/36. Otherwise the opponent bears off at once; nobody is gammoned.
    pos = nardy.Position.from_sides("backgammon", side(off=14, p5=1), side(off=14, p0=1))
    for ev in ("race", "pubeval", TOY):
        assert search.evaluate(pos, ev, 2).equity == pytest.approx(27 / 36 - 9 / 36, abs=1e-12)
    r = search.evaluate(pos, "race", 2)
    assert r.probabilities == pytest.approx((27 / 36, 0, 0, 0, 0), abs=1e-12)
    # at 1 ply the five missing rolls (1-1, 2-1, 3-1, 4-1, 3-2) each leave one position
    # that the evaluator scores
    assert search.evaluate(pos, TOY, 1).evaluated == 5


def test_finished_game_is_scored_not_evaluated():
    # the opponent has borne off all: a gammon against the player on roll (none off)
    pos = nardy.Position.from_sides("backgammon", side(p5=15), side(off=15))
    for plies in (0, 1, 2):
        r = search.evaluate(pos, "race", plies)
        assert r.equity == -2 and r.evaluated == 0
        assert r.probabilities == (0, 0, 0, 1, 0)


def test_moves_that_win_are_exact_and_ranked_first():
    pos = nardy.Position.from_sides("backgammon", side(off=13, p0=1, p1=1), side(p20=15))
    ranked = search.rank_moves(pos, (2, 1), "race", 2)
    assert ranked[0].equity == 3  # a backgammon: all the loser's checkers in our home
    assert str(ranked[0].move) in ("2/off 1/off", "1/off 2/off")


def test_gnubg_n_ply_equals_gnubg():
    gnubg = pytest.importorskip("gnubg")
    # gnubg holding a 5-point match with a doubled cube must not change a money evaluation
    gnubg.setgnubgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:31:0:0:0:5:10")
    rng = random.Random(5)
    positions = [nardy.Position("backgammon")]
    pos = positions[0]
    while len(positions) < 4:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        moves = pos.legal_moves(roll)
        pos = pos.play(moves[rng.randrange(len(moves))], roll) if moves else pos.pass_turn()
        if rng.random() < 0.3 and not pos.is_game_over():
            positions.append(pos)
    cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)  # money, whatever match gnubg holds
    try:
        for p in positions:
            us, them = p.sides()
            board = (tuple(them[:25]), tuple(us[:25]))
            for plies in (1, 2):
                theirs = gnubg.evaluate(board, cube, gnubg.evalcontext(0, plies, 1, 0, 0.0))
                ours = search.evaluate(p, "gnubg", plies)
                assert ours.probabilities == pytest.approx(theirs[:5], abs=2e-5), (p, plies)
                assert ours.equity == pytest.approx(theirs[5], abs=5e-5)
    finally:
        # back to gnubg's money-play Match ID of start-up, which other tests compare with
        gnubg.setgnubgid("4HPwATDgc/ABMA:MAAAAAAAAAAA")


def test_filters_limit_the_search():
    pos = nardy.Position("backgammon")
    wide = search.rank_moves(pos, (3, 1), "race", 1, filter=EXHAUSTIVE)
    assert {c.plies for c in wide} == {1}
    narrow = search.rank_moves(pos, (3, 1), "race", 1, filter=search.MoveFilter(2, 10.0))
    assert [c.plies for c in narrow].count(1) == 2 and len(narrow) == 16
    deep = [c for c in narrow if c.plies == 1]
    # the two that go deeper are the two best at 0 plies, with the 1-ply values of the
    # exhaustive search
    flat = search.rank_moves(pos, (3, 1), "race", 0)
    assert {c.move for c in deep} == {c.move for c in flat[:2]}
    one_ply = {c.move: c.equity for c in wide}
    assert [c.equity for c in deep] == pytest.approx([one_ply[c.move] for c in deep])
    # inner=keep all costs more evaluations than gnubg's 0-ply reply choice
    assert search.evaluate(pos, "race", 2, inner=EXHAUSTIVE).evaluated > \
        search.evaluate(pos, "race", 2).evaluated


def test_pass_and_best_move():
    # closed board against a checker on the bar: every roll passes
    us = side(bar=1, p5=14)
    them = side(p0=2, p1=2, p2=2, p3=2, p4=2, p5=2, p6=3)
    pos = nardy.Position.from_sides("backgammon", us, them)
    assert search.rank_moves(pos, (3, 4), "race") == []
    assert search.best_move(pos, (3, 4), "race", 1) == nardy.PASS
    assert str(search.best_move(nardy.Position(), (3, 1), "pubeval")) == "8/5 6/5"


def test_best_move_is_the_first_of_the_ranking():
    # best_move finds the first move of rank_moves (checked against brute force above)
    # without building the ranking: the race evaluator ties often, and the narrow filter
    # leaves moves of two depths
    rng = random.Random(11)
    narrow = search.MoveFilter(2, 0.05)
    for name in ("backgammon", "long_nardy"):
        evaluator = "race"
        pos = nardy.Position(name)
        for _ in range(60):
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            moves = pos.legal_moves(roll)
            for plies, flt in ((0, search.ROOT_FILTER), (1, narrow)):
                if plies and rng.random() < 0.8:
                    continue  # 1-ply on a sample: it costs a search of 21 rolls a move
                ranked = search.rank_moves(pos, roll, evaluator, plies, filter=flt)
                want = ranked[0].move if ranked else nardy.PASS
                assert search.best_move(pos, roll, evaluator, plies, filter=flt) == want
            pos = pos.play(rng.choice(list(moves)), roll) if len(moves) else pos.pass_turn()
            if pos.pip_count(0) < 30 or pos.pip_count(1) < 30:
                pos = nardy.Position(name)


@pytest.mark.parametrize("kwargs,match", [
    ({"plies": 4}, "plies"), ({"plies": -1}, "plies"), ({"plies": True}, "plies"),
    ({"chunk": 0}, "chunk"), ({"threads": -1}, "threads"), ({"filter": (8, 0.1)}, "filter"),
    ({"evaluator": "nope"}, "unknown evaluator"), ({"evaluator": 3}, "evaluator"),
    ({"scoring": "oin_mars"}, "scoring"),
])
def test_bad_arguments_raise_nardy_error(kwargs, match):
    args = {"evaluator": "race", "plies": 1}
    args.update(kwargs)
    with pytest.raises(nardy.Error, match=match):
        search.rank_moves(nardy.Position(), (3, 1), **args)


def test_bad_inputs_raise_nardy_error():
    with pytest.raises(nardy.Error, match="Position"):
        search.evaluate("backgammon", "race")
    with pytest.raises(nardy.InvalidDiceError):
        search.rank_moves(nardy.Position(), (7, 1), "race")
    with pytest.raises(nardy.Error, match="pubeval"):
        search.evaluate(nardy.Position("long-nardy"), "pubeval")
    with pytest.raises(nardy.Error, match="bearing off"):
        search.evaluate(nardy.Position("shlem"), "race")
    with pytest.raises(nardy.Error, match="race"):
        nardy.evaluators.as_evaluator("race", "shlem")
    with pytest.raises(nardy.Error, match="MoveFilter"):
        search.MoveFilter(0, 0.1)
    with pytest.raises(nardy.Error, match="MoveFilter"):
        search.MoveFilter(2, -1)
    bad = evaluators.from_function(lambda b: np.zeros((len(b), 3)))
    with pytest.raises(nardy.Error, match="shape"):
        search.evaluate(nardy.Position(), bad)
