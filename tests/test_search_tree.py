"""The search tree expanded in C++ (``nardy._core.search_children``) against the numpy
expansion it replaced, written out again here from nardy.batch.afterstates: the same values,
bit for bit, on random positions of several variants at 1 and 2 plies, with every filter, and
for any number of threads."""

from __future__ import annotations

import random

import numpy as np
import pytest

import nardy
from nardy import _core, batch, evaluators, search
from nardy.evaluators import invert
from nardy.search import INNER_FILTER, ROLLS, MoveFilter


class NumpyTree(search._Search):
    """The level-by-level expansion in numpy over batch.afterstates, ranked by lexsort."""

    def value(self, boards, plies, inner=INNER_FILTER):
        if plies == 0 or len(boards) == 0:
            return self.static(boards)
        n = len(boards)
        over = (boards[:, 0, 25] == self.checkers) | (boards[:, 1, 25] == self.checkers)
        out = self._empty(n)
        if over.any():
            out[over] = self.static(boards[over])
        live = np.flatnonzero(~over)
        if len(live) == 0:
            return out
        rows = np.repeat(boards[live], len(ROLLS), axis=0)
        dice = np.tile(np.array(ROLLS, dtype=np.int8), (len(live), 1))
        res, off = batch.afterstates(rows, dice, self.variant)[:2]
        after, group = [], []
        for g in range(len(rows)):
            part = res[off[g]:off[g + 1]] if off[g + 1] > off[g] else rows[g:g + 1]
            after.append(part)
            group += [g] * len(part)
        after = np.concatenate(after)
        group = np.array(group)
        v = invert(self.static(np.ascontiguousarray(after[:, ::-1])), self.output)
        if plies > 1:
            keep = search.select(self.equities(v), group, len(rows), inner)
            deep = np.flatnonzero(keep & (after[:, 0, 25] != self.checkers))
            if len(deep):
                v[deep] = invert(self.value(np.ascontiguousarray(after[deep, ::-1]), plies - 1),
                                 self.output)
            chosen = search.best_of_groups(np.where(keep, self.equities(v), -np.inf), group,
                                           len(rows))
        else:
            chosen = search.best_of_groups(self.equities(v), group, len(rows))
        per_roll = v[chosen].reshape((len(live), len(ROLLS)) + v.shape[1:])
        out[live] = np.tensordot(search.ROLL_WEIGHTS, per_roll, axes=([0], [1]))
        return out


def toy_equity(boards):
    b = boards.astype(np.float64)
    pips = b[:, :, :25] @ np.arange(1, 26)
    # coarse, so that ties between moves happen and the first in move order must win
    return np.round(np.tanh((pips[:, 1] - pips[:, 0]) / 17.0 + 0.05 * b[:, 0, 0]), 2)


TOY = evaluators.from_function(toy_equity, "equity", name="toy")


def positions(variant, n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        p = nardy.Position(variant)
        for _ in range(rng.randint(2, 70)):
            d = (rng.randint(1, 6), rng.randint(1, 6))
            ms = p.legal_moves(d)
            p = p.play(ms[rng.randrange(len(ms))], d) if len(ms) else p.pass_turn()
            us, them = p.sides()
            if p.variant.checkers in (us[25], them[25]):
                break
        out.append(p)
    return out


CASES = [("backgammon", TOY), ("backgammon", "race"), ("backgammon", "pubeval"),
         ("long-nardy", "long_nardy"), ("nackgammon", TOY), ("plakoto", TOY)]


@pytest.mark.parametrize("variant,ev", CASES)
def test_same_values_as_the_numpy_tree(variant, ev):
    ps = positions(variant, 12, seed=len(variant))
    boards = batch.to_array(ps)
    v = ps[0].variant
    for plies, inner in ((1, INNER_FILTER), (2, INNER_FILTER), (2, MoveFilter(3, 0.3))):
        boards_k = boards if plies == 1 or variant == "backgammon" else boards[:4]
        new = search._Search(v, ev, None, 1 << 16, 1)
        old = NumpyTree(v, ev, None, 1 << 16, 1)
        a = new.value(boards_k, plies, inner)
        b = old.value(boards_k, plies, inner)
        assert np.array_equal(a, b), (plies, inner)
        assert new.evaluated == old.evaluated
        two = search._Search(v, ev, None, 1 << 16, 2).value(boards_k, plies, inner)
        assert np.array_equal(a, two)


def test_best_moves_agree_with_the_numpy_tree():
    ps = positions("backgammon", 10, seed=5)
    rng = random.Random(1)
    for p in ps:
        d = (rng.randint(1, 6), rng.randint(1, 6))
        for plies in (1, 2):
            ranked = search.rank_moves(p, d, TOY, plies)
            s = NumpyTree(p.variant, TOY, None, 1 << 16, 1)
            moves = p.legal_moves(d)
            if not len(moves):
                assert ranked == []
                continue
            after = batch.afterstates(batch.to_array([p]), np.array([moves.dice]), p.variant)[0]
            v = s.after_static(after)
            keep = search.select(s.equities(v), np.zeros(len(v), dtype=np.int64), 1,
                                 search.ROOT_FILTER)
            deep = np.flatnonzero(keep & (after[:, 0, 25] != s.checkers))
            if len(deep):
                v[deep] = s.after_value(after[deep], plies)
            eq = s.equities(v)
            by_move = {str(c.move): c.equity for c in ranked}
            for i in range(len(moves)):
                assert by_move[str(moves[i])] == float(eq[i])


def test_search_children_layout():
    ps = positions("backgammon", 30, seed=9) + positions("long-nardy", 10, seed=9)
    for variant in ("backgammon", "long-nardy"):
        sub = [p for p in ps if p.variant.name == nardy.Position(variant).variant.name]
        boards = batch.to_array(sub)
        engine = sub[0].variant.engine
        nxt, off = _core.search_children(engine, boards, 1)
        assert off.shape == (21 * len(sub) + 1,) and off[0] == 0 and off[-1] == len(nxt)
        assert (np.diff(off) >= 1).all()
        for i, p in enumerate(sub):
            for r, roll in enumerate(ROLLS):
                g = 21 * i + r
                got = nxt[off[g]:off[g + 1]]
                moves = p.legal_moves(roll)
                want = [list(zip(*p.play(m, roll).sides())) for m in moves] or \
                    [list(zip(*p.pass_turn().sides()))]
                assert [list(zip(row[0], row[1])) for row in got] == want
        for t in (2, 3, 0):
            n2, o2 = _core.search_children(engine, boards, t)
            assert np.array_equal(n2, nxt) and np.array_equal(o2, off)


def test_search_children_bad_input():
    engine = nardy.Position("backgammon").variant.engine
    with pytest.raises(nardy.Error):
        _core.search_children(engine, np.zeros((2, 2, 25), dtype=np.int8), 1)
    with pytest.raises(nardy.Error):
        _core.search_children(engine, np.zeros((2, 2, 26), dtype=np.int8), 1)


def test_nan_from_an_evaluator_is_an_error():
    bad = evaluators.from_function(lambda b: np.full(len(b), np.nan), "equity", name="nan")
    with pytest.raises(nardy.Error, match="NaN"):
        search.evaluate(nardy.Position("backgammon"), bad, 1)
