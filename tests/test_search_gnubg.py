"""nardy's search with gnubg's evaluator chooses gnubg's moves.

On 500 (position, roll) pairs from random backgammon games, nardy's 0-ply best move with the
``gnubg`` evaluator is gnubg's own ``findbestmoves`` first choice at 0 plies. Where the two
differ, the moves must tie: both lead to positions gnubg values the same (e.g. two bear-offs
that the bear-off database scores as sure wins), and the test says how many ties it saw.

gnubg's scores inside ``findbestmoves`` and its ``evaluate`` of the same position can differ in
the fourth decimal (on this sample 8 of 500 rolls have a move off by 4e-5 to 7e-4; gnubg
scores a list of moves with its neural net's incremental path), so values are compared
within 1e-3. A different first choice must be an exact tie: nardy's choice has gnubg's best
score and gnubg itself lists more than one move with that score. On this sample there are
11, all between positions gnubg values as certain (a gammon or backgammon lost or won
whatever is played, or equal bear-off database values): its order among them is its own.

gnubg's move tuples stop at the first checker borne off (6-5 from the 5-point twice is
``(5,)``), so a bear-off choice is identified by its score: the nardy moves whose equity is
gnubg's first score.
"""

from __future__ import annotations

import random

import pytest

import nardy
from nardy import search

gnubg = pytest.importorskip("gnubg", reason="the PyPI gnubg package is not installed")


def sample(n, seed):
    rng = random.Random(seed)
    out = []
    pos = nardy.Position("backgammon")
    while len(out) < n:
        if pos.is_game_over():
            pos = nardy.Position("backgammon")
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        moves = pos.legal_moves(roll)
        if len(moves) >= 2:
            out.append((pos, roll))
        pos = pos.play(moves[rng.randrange(len(moves))], roll) if moves else pos.pass_turn()
    return out


def test_zero_ply_best_move_is_gnubgs_first_choice():
    cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)  # money, centred cube, given in full
    ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    ties = 0
    for pos, roll in sample(500, seed=17):
        us, them = pos.sides()
        board = (tuple(them[:25]), tuple(us[:25]))
        theirs = gnubg.findbestmoves(board, cube, ctx, roll)
        ranked = search.rank_moves(pos, roll, "gnubg", 0)
        assert len(ranked) == len(theirs)
        # every move's cubeless equity is gnubg's score for it
        assert [c.equity for c in ranked] == pytest.approx(
            [t["score"] for t in theirs], abs=1e-3)
        best = theirs[0]["score"]
        try:
            firsts = [pos.parse_move(gnubg.movetupletostring(theirs[0]["move"], board), roll)]
        except nardy.IllegalMoveError:  # a cut bear-off tuple
            firsts = [c.move for c in ranked if abs(c.equity - best) <= 1e-6]
        if ranked[0].move not in firsts:
            ties += 1
            assert abs(ranked[0].equity - best) <= 1e-6, (pos, roll)
            assert abs(theirs[1]["score"] - best) <= 1e-6, (pos, roll)
    assert ties <= 25, f"{ties} ties of 500"
