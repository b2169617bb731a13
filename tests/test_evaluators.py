"""nardy.evaluators: the probability layout and equity, the adapters, and the baselines.

pubeval is checked against a literal Python transcription of Tesauro's setx()/pubeval() loops
on his 28-entry board, with the weights of a second, independent copy of his file (the one
GNU Backgammon ships as pub_eval.c), typed in below.
"""

from __future__ import annotations

import random
import sys
import types

import numpy as np
import pytest

import nardy
from nardy import batch, evaluators, search
from nardy.evaluators import baselines

# GNU Backgammon's pub_eval.c, the race weights ``wr`` then the contact weights ``wc``.
GNUBG_WR = """
.00000 -.17160 .27010 .29906 -.08471 .00000 -1.40375 -1.05121 .07217 -.01351 .00000 -1.29506
-2.16183 .13246 -1.03508 .00000 -2.29847 -2.34631 .17253 .08302 .00000 -1.27266 -2.87401
-.07456 -.34240 .00000 -1.34640 -2.46556 -.13022 -.01591 .00000 .27448 .60015 .48302 .25236
.00000 .39521 .68178 .05281 .09266 .00000 .24855 -.06844 -.37646 .05685 .00000 .17405 .00430
.74427 .00576 .00000 .12392 .31202 -.91035 -.16270 .00000 .01418 -.10839 -.02781 -.88035
.00000 1.07274 2.00366 1.16242 .22520 .00000 .85631 1.06349 1.49549 .18966 .00000 .37183
-.50352 -.14818 .12039 .00000 .13681 .13978 1.11245 -.12707 .00000 -.22082 .20178 -.06285
-.52728 .00000 -.13597 -.19412 -.09308 -1.26062 .00000 3.05454 5.16874 1.50680 5.35000 .00000
2.19605 3.85390 .88296 2.30052 .00000 .92321 1.08744 -.11696 -.78560 .00000 -.09795 -.83050
-1.09167 -4.94251 .00000 -1.00316 -3.66465 -2.56906 -9.67677 .00000 -2.77982 -7.26713
-3.40177 -12.32252 .00000 3.42040
"""
GNUBG_WC = """
.25696 -.66937 -1.66135 -2.02487 -2.53398 -.16092 -1.11725 -1.06654 -.92830 -1.99558 -1.10388
-.80802 .09856 -.62086 -1.27999 -.59220 -.73667 .89032 -.38933 -1.59847 -1.50197 -.60966
1.56166 -.47389 -1.80390 -.83425 -.97741 -1.41371 .24500 .10970 -1.36476 -1.05572 1.15420
.11069 -.38319 -.74816 -.59244 .81116 -.39511 .11424 -.73169 -.56074 1.09792 .15977 .13786
-1.18435 -.43363 1.06169 -.21329 .04798 -.94373 -.22982 1.22737 -.13099 -.06295 -.75882
-.13658 1.78389 .30416 .36797 -.69851 .13003 1.23070 .40868 -.21081 -.64073 .31061 1.59554
.65718 .25429 -.80789 .08240 1.78964 .54304 .41174 -1.06161 .07851 2.01451 .49786 .91936
-.90750 .05941 1.83120 .58722 1.28777 -.83711 -.33248 2.64983 .52698 .82132 -.58897 -1.18223
3.35809 .62017 .57353 -.07276 -.36214 4.37655 .45481 .21746 .10504 -.61977 3.54001 .04612
-.18108 .63211 -.87046 2.47673 -.48016 -1.27157 .86505 -1.11342 1.24612 -.82385 -2.77082
1.23606 -1.59529 .10438 -1.30206 -4.11520 5.62596 -2.75800
"""
WR = [float(x) for x in GNUBG_WR.split()]
WC = [float(x) for x in GNUBG_WC.split()]


def tesauro_pubeval(race, pos):
    """Tesauro's pubeval(race, pos[28]), transcribed loop for loop."""
    if pos[26] == 15:
        return 99999999.0
    x = [0.0] * 122
    for j in range(1, 25):
        jm1 = j - 1
        n = pos[25 - j]
        if n != 0:
            if n == -1:
                x[5 * jm1 + 0] = 1.0
            if n == 1:
                x[5 * jm1 + 1] = 1.0
            if n >= 2:
                x[5 * jm1 + 2] = 1.0
            if n == 3:
                x[5 * jm1 + 3] = 1.0
            if n >= 4:
                x[5 * jm1 + 4] = (n - 3) / 2.0
    x[120] = -pos[0] / 2.0
    x[121] = pos[26] / 15.0
    w = WR if race else WC
    return sum(a * b for a, b in zip(w, x))


def tesauro_board(mover, opponent):
    """pos[28] from the mover's view: his men positive on locations 1..24 (= his index + 1),
    the opponent's negative (his index k is location 24 - k), bars at 25 / 0, off at 26 / 27."""
    pos = [0] * 28
    for i in range(24):
        pos[i + 1] += mover[i]
        pos[24 - i] -= opponent[i]
    pos[25], pos[0] = mover[24], -opponent[24]
    pos[26], pos[27] = mover[25], -opponent[25]
    return pos


def contact(mover, opponent):
    """Whether some checker still has to pass an opposing one (the bar counts)."""
    if mover[24] or opponent[24]:
        return True
    mine = [i for i in range(24) if mover[i]]
    theirs = [23 - k for k in range(24) if opponent[k]]  # in the mover's indices
    return bool(mine and theirs and max(mine) > min(theirs))


def random_positions(variant, n, seed):
    rng = random.Random(seed)
    out = []
    pos = nardy.Position(variant)
    while len(out) < n:
        if pos.is_game_over():
            pos = nardy.Position(variant)
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        moves = pos.legal_moves(roll)
        pos = pos.play(moves[rng.randrange(len(moves))], roll) if moves else pos.pass_turn()
        if not pos.is_game_over():
            out.append(pos)
    return out


# -- layout and equity -------------------------------------------------------------------
def test_layouts_follow_the_scorings():
    assert evaluators.outcome_names("standard") == (
        "win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
    assert evaluators.outcome_names("oin_mars") == ("win", "win_mars", "lose_mars")
    assert evaluators.outcome_width("four_kind") == 7
    assert evaluators.outcome_width("encyclopedia") == 7


def test_equity_from_probabilities():
    rng = np.random.default_rng(3)
    p = rng.random((50, 5))
    w, wg, wbg, lg, lbg = p.T
    assert np.allclose(evaluators.equity(p, "standard"), 2 * w - 1 + wg - lg + wbg - lbg)
    # four_kind (1, 2, 3, 4 points): the sum over exclusive outcomes of value x probability
    q = np.sort(rng.random((50, 4)), axis=1)[:, ::-1]  # win >= win_mars >= ...
    lose = np.sort(rng.random((50, 3)), axis=1)[:, ::-1] * (1 - q[:, :1])
    full = np.concatenate([q, lose], axis=1)
    exclusive_win = [q[:, 0] - q[:, 1], q[:, 1] - q[:, 2], q[:, 2] - q[:, 3], q[:, 3]]
    lose_all = 1 - q[:, 0]
    exclusive_lose = [lose_all - lose[:, 0], lose[:, 0] - lose[:, 1], lose[:, 1] - lose[:, 2],
                      lose[:, 2]]
    want = sum((k + 1) * (a - b) for k, (a, b) in enumerate(zip(exclusive_win, exclusive_lose)))
    assert np.allclose(evaluators.equity(full, "four_kind"), want)
    inv = evaluators.invert(full, "probabilities")
    assert np.allclose(evaluators.equity(inv, "four_kind"), -want)
    assert np.allclose(evaluators.invert(inv, "probabilities"), full)
    with pytest.raises(nardy.Error, match="columns"):
        evaluators.equity(p, "oin_mars")


# -- pubeval -------------------------------------------------------------------------------
def test_pubeval_weights_match_a_second_transcription():
    from nardy.evaluators import _pubeval_weights as W

    assert len(W.RACE) == len(W.CONTACT) == 122
    assert list(W.RACE) == WR and list(W.CONTACT) == WC


def test_pubeval_scores_equal_tesauros_code():
    positions = random_positions("backgammon", 400, seed=11)
    arr = batch.to_array(positions)
    # positions as the player who just moved sees them: side 1 of each row moved last
    mover, opponent = arr[:, 1], arr[:, 0]
    ours = baselines.pubeval_scores(mover, opponent)
    races = baselines.is_race(np.stack([mover, opponent], axis=1))
    n_race = 0
    for i in range(len(arr)):
        m, o = mover[i].tolist(), opponent[i].tolist()
        race = not contact(m, o)
        n_race += race
        assert bool(races[i]) == race
        assert ours[i] == pytest.approx(tesauro_pubeval(race, tesauro_board(m, o)), abs=1e-4)
    assert 10 < n_race < 390  # both weight sets were exercised
    ev = evaluators.as_evaluator("pubeval")
    assert np.allclose(ev(arr), -ours, atol=1e-4)


def test_pubeval_opening_choices():
    # pubeval's opening 3-1 and 6-1 are the standard point-making moves
    p = nardy.Position()
    assert str(search.best_move(p, (3, 1), "pubeval")) == "8/5 6/5"
    assert str(search.best_move(p, (6, 1), "pubeval")) == "13/7 8/7"


# -- race ----------------------------------------------------------------------------------
def test_race_probability_properties():
    a = np.arange(20, 160, 7)
    p = baselines.race_probability(a, a)
    assert (p > 0.5).all() and (p < 0.8).all()   # the roller is favoured in an even race
    assert (np.diff(baselines.race_probability(a, np.full_like(a, 90))) < 0).all()
    assert baselines.race_probability(np.array([0]), np.array([50]))[0] == 1.0
    assert baselines.race_probability(np.array([50]), np.array([0]))[0] == 0.0
    assert baselines.MEAN_PIPS == pytest.approx(49 / 6)


@pytest.mark.parametrize("variant", ["backgammon", "long-nardy", "long-nardy-classic"])
def test_race_evaluator_layout_and_order(variant):
    ev = evaluators.as_evaluator("race", variant)
    arr = batch.to_array(random_positions(variant, 300, seed=2))
    p = ev(arr)
    width = evaluators.outcome_width(evaluators.scoring_for(variant))
    assert p.shape == (300, width) and p.dtype == np.float32
    n = (width + 1) // 2
    assert ((p >= 0) & (p <= 1)).all()
    assert (p[:, 1] <= p[:, 0] + 1e-6).all() and (p[:, n] <= 1 - p[:, 0] + 1e-6).all()
    pips = baselines.pip_counts(arr)
    assert np.array_equal(pips[:, 0], [q.pip_count() for q in random_positions(variant, 300, 2)])


# -- long nardy ----------------------------------------------------------------------------
def test_long_nardy_evaluator_corrections():
    ev = evaluators.as_evaluator("long_nardy", "long-nardy")
    race = evaluators.as_evaluator("race", "long-nardy")

    def side(**points):
        s = [0] * 26
        for k, v in points.items():
            s[int(k[1:])] = v
        return s

    # no contact, one head checker at most: the race model itself
    far = np.array([[side(p0=5, p3=5, p5=5), side(p1=7, p2=8)]], dtype=np.int8)
    assert np.allclose(ev(far), race(far))
    # a block of four in front of all of the opponent's checkers helps its builder...
    them = side(p23=5, p12=10)  # behind our points 14..17 (their 2..5)
    blocked = nardy.Position.from_sides("long-nardy", side(p14=3, p15=3, p16=3, p17=3, p23=3),
                                        them)
    spread = nardy.Position.from_sides("long-nardy", side(p14=3, p16=3, p18=3, p20=3, p23=3),
                                       them)
    b = ev(batch.to_array([blocked]))[0, 0] - race(batch.to_array([blocked]))[0, 0]
    s = ev(batch.to_array([spread]))[0, 0] - race(batch.to_array([spread]))[0, 0]
    assert b > s + 0.05  # the correction of the block, on top of the race model's
    # ... and a crowded head costs: 15 there lose against 1 there and 14 just below
    head = np.array([[side(p23=15), side(p23=15)]], dtype=np.int8)
    off_head = np.array([[side(p23=1, p22=14), side(p23=15)]], dtype=np.int8)
    assert ev(head)[0, 0] < ev(off_head)[0, 0]
    with pytest.raises(nardy.Error, match="long nardy"):
        evaluators.as_evaluator("long_nardy", "backgammon")


# -- adapters ------------------------------------------------------------------------------
def test_function_evaluator_with_features():
    seen = {}

    def f(x):
        seen["shape"] = x.shape
        return x[:, :5] * 0.1

    ev = evaluators.from_function(f, encoding="tdgammon")
    arr = batch.to_array([nardy.Position()])
    assert np.allclose(ev(arr), batch.encode(arr, "tdgammon")[:, :5] * 0.1)
    assert seen["shape"] == (1, 198)
    with pytest.raises(nardy.Error, match="output"):
        evaluators.from_function(f, "points")
    with pytest.raises(nardy.Error, match="encoding"):
        evaluators.from_function(f, encoding="nope")


def test_onnx_evaluator_equals_numpy():
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(1)
    w = rng.normal(size=(198, 5)).astype(np.float32) * 0.05
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["z"]), helper.make_node("Sigmoid", ["z"], ["y"])],
        "linear", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 198])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 5])],
        [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    ev = evaluators.OnnxEvaluator(model.SerializeToString(), "tdgammon")
    arr = batch.to_array(random_positions("backgammon", 50, seed=4))
    want = 1 / (1 + np.exp(-(batch.encode(arr, "tdgammon") @ w)))
    assert np.allclose(ev(arr), want, atol=1e-5)
    r = search.evaluate(nardy.Position(), ev, 1)
    assert len(r.probabilities) == 5


def test_torch_evaluator_is_duck_typed(monkeypatch):
    # a stand-in for torch: from_numpy, no_grad and tensors with detach().cpu().numpy()
    class Tensor:
        def __init__(self, a):
            self.a = a

        def to(self, device):
            return self

        def detach(self):
            return self

        def cpu(self):
            return self

        def numpy(self):
            return self.a

    class NoGrad:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    fake = types.SimpleNamespace(from_numpy=Tensor, no_grad=NoGrad)
    monkeypatch.setitem(sys.modules, "torch", fake)
    module = lambda t: Tensor(t.a.sum(axis=1) / 100.0)  # noqa: E731
    ev = evaluators.TorchEvaluator(module, "tdgammon", "equity", device="cpu")
    arr = batch.to_array([nardy.Position()])
    assert ev(arr) == pytest.approx(batch.encode(arr, "tdgammon").sum(axis=1) / 100.0)


def test_evaluator_answers_are_checked():
    arr = batch.to_array([nardy.Position()])
    nan = evaluators.from_function(lambda b: np.full((len(b), 5), np.nan))
    with pytest.raises(nardy.Error, match="NaN"):
        evaluators.call(nan, arr, "standard")
    eq = evaluators.from_function(lambda b: np.zeros((len(b), 2)), "equity")
    with pytest.raises(nardy.Error, match="equity"):
        evaluators.call(eq, arr, "standard")
    with pytest.raises(nardy.Error, match="unknown evaluator"):
        evaluators.as_evaluator("nope")
