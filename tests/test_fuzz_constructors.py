"""Hostile arguments to every public constructor: whatever is passed (wrong types, bools and
floats for ints, numpy arrays and scalars, huge and negative numbers, nested containers,
mutated valid values), a constructor returns a value or raises a nardy.Error subclass, never
anything else, and the arguments passed in are unchanged afterwards. What it accepts it keeps
as plain Python values: no bool kept as an int, no numpy scalar kept in a field.

NARDY_SLOW=1 runs ten times as many examples."""

from __future__ import annotations

import math
import os
from dataclasses import fields
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nardy
from nardy import batch
from nardy.formats import FibsBoard, MatchState, XgidRecord
from nardy.formats.text import TextState
from nardy.game import GameRules
from nardy.search import MoveFilter
from nardy.variants import VARIANTS

SLOW = os.environ.get("NARDY_SLOW") == "1"
FUZZ = settings(max_examples=800 if SLOW else 80, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# -- hostile values --------------------------------------------------------------------------

_SPECIAL_INTS = [0, 1, 2, 3, 5, 6, 7, 15, 16, 25, 26, -1, -2, 2**31 - 1, 2**31, 2**32, 2**63 - 1,
                 2**63, 2**64, 2**64 + 1, -2**63, -2**64, 10**30]
_NUMPY = [np.int64(3), np.int8(-1), np.uint8(200), np.uint64(2**64 - 1), np.int64(2**62),
          np.float64(1.0), np.float32(0.5), np.bool_(True), np.bool_(False), np.array(3),
          np.array([1, 0]), np.array([True]), np.zeros((2, 26), np.int8), np.array([], float),
          np.array(["a"]), np.array([[1, 2], [3, 4]], np.int64), np.array([3, 1], np.int8),
          np.array([np.nan]), np.array([1, 2], np.uint64)]

_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-40, 40),
    st.sampled_from(_SPECIAL_INTS),
    st.integers(min_value=-2**80, max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 4.0, 0.5, -0.0, float("nan"), float("inf"), 1e300]),
    st.text(max_size=6),
    st.sampled_from(["backgammon", "long-nardy", "shlem", "white", "black", "geometric",
                     "standard", "rolloff", "fresh", "federation", "claim", "0", "1", "", " ",
                     "x" * 5000]),
    st.binary(max_size=6),
    st.sampled_from(_NUMPY),
    st.sampled_from([complex(1, 2), object(), int, nardy.Error, range(3), frozenset({1})]),
)
HOSTILE = st.recursive(
    _LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(st.text(max_size=3), inner, max_size=2)),
    max_leaves=6)


def freeze(x: Any, depth: int = 0) -> Any:
    """A comparable snapshot of a value: equal before and after means unchanged."""
    if depth > 50:
        return ("deep",)
    if isinstance(x, np.ndarray):
        return ("nd", x.dtype.str, x.shape, x.tobytes(), x.flags.writeable)
    if isinstance(x, np.generic):
        return ("np", x.dtype.str, x.tobytes())
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, id(x) if isinstance(x, list) else 0,
                tuple(freeze(i, depth + 1) for i in x))
    if isinstance(x, dict):
        return ("dict", id(x), tuple((freeze(k, depth + 1), freeze(v, depth + 1))
                                     for k, v in x.items()))
    if isinstance(x, float):
        return ("float", "nan" if math.isnan(x) else x.hex())
    if isinstance(x, (bool, int, str, bytes, complex, type(None))):
        return (type(x).__name__, x)
    return ("obj", id(x), repr(x) if isinstance(x, (nardy.Position, GameRules)) else "")


def attempt(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """call(*args, **kwargs): its value, or None after a nardy.Error with a message. Any other
    exception fails the test; so does any change to the arguments."""
    before = freeze((args, kwargs))
    try:
        out = call(*args, **kwargs)
    except nardy.Error as e:
        assert str(e), f"{type(e).__name__} without a message"
        out = None
    assert freeze((args, kwargs)) == before, "the arguments were changed"
    return out


def plain(value: Any) -> bool:
    """A value a nardy object may keep: Python scalars and tuples of them, never numpy."""
    if isinstance(value, tuple):
        return all(plain(v) for v in value)
    return value is None or type(value) in (bool, int, float, str)


def near(valid: Any) -> st.SearchStrategy[Any]:
    """Mostly valid values, some hostile."""
    return st.one_of(st.just(valid), HOSTILE) if not isinstance(valid, st.SearchStrategy) \
        else st.one_of(valid, HOSTILE)


def mutated_side(base: list[int]) -> st.SearchStrategy[Any]:
    """A side array with an entry changed, the length changed, or another container type."""
    @st.composite
    def build(draw: Any) -> Any:
        side = list(base)
        for _ in range(draw(st.integers(0, 3))):
            i = draw(st.integers(0, len(side) - 1))
            side[i] = draw(st.one_of(st.integers(-3, 20), _LEAF))
        if draw(st.booleans()):
            side = side[:draw(st.integers(0, len(side) + 2))] + \
                draw(st.lists(st.integers(0, 15), max_size=2))
        kind = draw(st.sampled_from(["list", "tuple", "int8", "int64", "float", "uint8", "obj"]))
        if kind == "tuple":
            return tuple(side)
        if kind in ("int8", "int64", "float", "uint8"):
            if all(isinstance(x, int) and not isinstance(x, bool) and -100 < x < 100
                   for x in side):
                return np.array(side, dtype={"int8": np.int8, "int64": np.int64,
                                             "float": np.float64, "uint8": np.int64}[kind])
            return side
        if kind == "obj":
            return np.array(side, dtype=object)
        return side
    return build()


VARIANT_NAMES = [v.name for v in VARIANTS]
VARIANT_ARG = st.one_of(st.sampled_from(VARIANT_NAMES), st.sampled_from(VARIANTS),
                        st.sampled_from([v() for v in VARIANTS]), HOSTILE)
START = {v.name: nardy.Position(v()) for v in VARIANTS}


def sides_of(name: str) -> tuple[list[int], list[int]]:
    p = START[name]
    m, o = p.sides()
    return [int(x) for x in m], [int(x) for x in o]


# -- positions and moves ---------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_position_from_sides(data):
    name = data.draw(st.sampled_from(VARIANT_NAMES))
    mover, opponent = sides_of(name)
    variant = data.draw(st.one_of(st.just(name), VARIANT_ARG))
    m = data.draw(st.one_of(st.just(mover), mutated_side(mover), HOSTILE))
    o = data.draw(st.one_of(st.just(opponent), mutated_side(opponent), HOSTILE))
    turn = data.draw(near(st.sampled_from([0, 1])))
    p = attempt(nardy.Position.from_sides, variant, m, o, turn)
    if p is not None:
        assert type(p.turn) is int and p.turn in (0, 1)
        got_m, got_o = p.sides()
        assert [int(x) for x in got_m] == [int(x) for x in m]
        assert [int(x) for x in got_o] == [int(x) for x in o]


@FUZZ
@given(variant=VARIANT_ARG)
def test_position(variant):
    p = attempt(nardy.Position, variant)
    if p is not None:
        assert p.turn == 0 and p == START[p.variant.name]


_STEP = st.one_of(st.tuples(st.integers(-3, 27), st.integers(-3, 27)),
                  st.tuples(st.integers(-3, 27), st.integers(-3, 27), st.booleans()), HOSTILE)


@FUZZ
@given(steps=st.one_of(st.lists(_STEP, max_size=5), st.tuples(_STEP, _STEP), HOSTILE))
def test_move(steps):
    move = attempt(nardy.Move, steps)
    if move is not None:
        for s in move.steps:
            assert type(s.from_) is int and type(s.to) is int and type(s.hit) is bool
        attempt(lambda: [move.notation(v()) for v in VARIANTS])


@FUZZ
@given(notation=st.one_of(st.text(max_size=12), HOSTILE), variant=VARIANT_ARG,
       color=near(st.sampled_from([0, 1])))
def test_move_from_notation(notation, variant, color):
    attempt(nardy.Move.from_notation, notation, variant, color)


# -- variants and their rule options (every variant of the registry) -------------------------

@FUZZ
@given(data=st.data())
def test_variant_rule_options(data):
    cls = data.draw(st.sampled_from(VARIANTS))
    options = cls.options
    kw: dict[str, Any] = {}
    for name, (_default, allowed) in options.items():
        if data.draw(st.booleans()):
            kw[name] = data.draw(near(st.sampled_from(list(allowed))))
    if data.draw(st.integers(0, 4)) == 0:
        kw[data.draw(st.sampled_from(["no_such_rule", "pass_limit", "head_rule", "stage",
                                      "no_hit_and_hide", "block_check", ""]))] = \
            data.draw(HOSTILE)
    v = attempt(lambda: cls(**kw))
    if v is not None:
        for name, value in v.rules.items():
            assert plain(value), (name, value)
            assert value in options[name][1]
        for name, value in kw.items():
            assert v.rules[name] == value and not isinstance(v.rules[name], np.generic)


# -- games, matches and their rules ----------------------------------------------------------

_RULE_VALUES = {
    "scoring": ["standard", "encyclopedia", "oin_mars", "four_kind", "shlem", None],
    "opening_roll": ["rolloff", "fresh", None],
    "cube": [True, False, None],
    "max_cube": [None, 1, 2, 64],
    "stakes": ["geometric", "arithmetic"],
    "beaver": [True, False], "raccoon": [True, False], "jacoby": [True, False],
    "auto_doubles": [0, 1, 3],
    "no_mars_with_cube": [True, False], "last_roll_draw": [True, False],
    "draw_points": [0.5, 1, 1.0],
}
assert set(_RULE_VALUES) == {f.name for f in fields(GameRules)}


@st.composite
def rule_kwargs(draw: Any) -> dict[str, Any]:
    kw = {}
    for name, values in _RULE_VALUES.items():
        if draw(st.integers(0, 3)) == 0:
            kw[name] = draw(near(st.sampled_from(values)))
    return kw


@FUZZ
@given(kw=rule_kwargs())
def test_game_rules(kw):
    r = attempt(lambda: GameRules(**kw))
    if r is not None:
        for f in fields(GameRules):
            assert plain(getattr(r, f.name)), (f.name, getattr(r, f.name))
        for v in VARIANTS:
            resolved = attempt(r.resolve, v())
            if resolved is not None:
                assert all(plain(getattr(resolved, f.name)) for f in fields(GameRules))


@FUZZ
@given(data=st.data())
def test_game(data):
    variant = data.draw(VARIANT_ARG)
    args: dict[str, Any] = {}
    if data.draw(st.booleans()):
        args["rules"] = data.draw(st.one_of(rule_kwargs(), st.just(GameRules()), HOSTILE))
    if data.draw(st.booleans()):
        args["seed"] = data.draw(near(st.integers(0, 2**64 - 1)))
    for name, valid in (("starter", st.sampled_from([0, 1, None])),
                        ("crawford", st.booleans()), ("passes", st.integers(0, 5)),
                        ("cube_level", st.integers(0, 6)),
                        ("cube_owner", st.sampled_from([0, 1, None])),
                        ("last_roll", st.booleans()),
                        ("position", st.sampled_from(list(START.values())))):
        if data.draw(st.integers(0, 3)) == 0:
            args[name] = data.draw(near(valid))
    if data.draw(st.integers(0, 4)) == 0:
        args[data.draw(st.sampled_from(["pass_limit", "no_hit_and_hide", "cube", "jacoby",
                                        "bogus"]))] = data.draw(HOSTILE)
    g = attempt(lambda: nardy.Game(variant, **args))
    if g is not None:
        assert g.turn is None or type(g.turn) is int
        assert g.passes is None or type(g.passes) is int
        assert type(g.crawford) is bool


@FUZZ
@given(data=st.data())
def test_match(data):
    length = data.draw(near(st.integers(0, 25)))
    variant = data.draw(VARIANT_ARG)
    args: dict[str, Any] = {}
    if data.draw(st.booleans()):
        args["rules"] = data.draw(st.one_of(rule_kwargs(), HOSTILE))
    if data.draw(st.booleans()):
        args["seed"] = data.draw(near(st.integers(0, 2**64 - 1)))
    for name, valid in (("crawford", st.booleans()), ("post_crawford", st.booleans()),
                        ("score", st.tuples(st.integers(0, 30), st.integers(0, 30)))):
        if data.draw(st.integers(0, 3)) == 0:
            args[name] = data.draw(near(valid))
    m = attempt(lambda: nardy.Match(length, variant, **args))
    if m is not None:
        assert type(m.length) is int
        assert plain(tuple(m.score))


# -- arrays ----------------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_batch_from_array(data):
    name = data.draw(st.sampled_from(VARIANT_NAMES))
    good = batch.to_array([START[name]] * 3)
    boards = data.draw(st.one_of(
        st.just(good), st.just(good.astype(np.int64)), st.just(good[:, ::-1]),
        st.just(good.astype(np.float64)), st.just(good[0]), st.just(good.tolist()),
        st.builds(lambda i, v: _poked(good, i, v), st.integers(0, good.size - 1),
                  st.integers(-128, 127)),
        HOSTILE))
    variant = data.draw(st.one_of(st.just(name), VARIANT_ARG))
    turn = data.draw(near(st.one_of(st.sampled_from([0, 1]),
                                    st.lists(st.sampled_from([0, 1]), min_size=1, max_size=4),
                                    st.just(np.array([0, 1, 1])))))
    kw = {}
    if data.draw(st.booleans()):
        kw["swap"] = data.draw(near(st.booleans()))
    out = attempt(batch.from_array, boards, variant, turn, **kw)
    if out is not None:
        assert all(type(p.turn) is int for p in out)


def _poked(a: np.ndarray, i: int, v: int) -> np.ndarray:
    b = a.copy()
    b.flat[i] = v
    return b


# -- the records of the gnubg formats --------------------------------------------------------

_BG_M, _BG_O = sides_of("backgammon")


@FUZZ
@given(data=st.data())
def test_xgid_record(data):
    kw = dict(mover=data.draw(st.one_of(st.just(_BG_M), mutated_side(_BG_M), HOSTILE)),
              opponent=data.draw(st.one_of(st.just(_BG_O), mutated_side(_BG_O), HOSTILE)))
    for name, valid in (("cube", st.sampled_from([1, 2, 4, 64])),
                        ("cube_position", st.sampled_from([-1, 0, 1])),
                        ("turn", st.sampled_from([-1, 1])),
                        ("dice", st.sampled_from([(0, 0), (3, 1), (6, 6)])),
                        ("action", st.sampled_from([None, "D", "B", "R"])),
                        ("score_bottom", st.integers(0, 10)), ("score_top", st.integers(0, 10)),
                        ("rules", st.integers(0, 3)), ("match_length", st.integers(0, 15)),
                        ("max_cube", st.sampled_from([1, 8, 1024]))):
        if data.draw(st.integers(0, 2)) == 0:
            kw[name] = data.draw(near(valid))
    rec = attempt(lambda: XgidRecord(**kw))
    if rec is not None:
        for f in fields(rec):
            if f.name not in ("mover", "opponent"):
                assert plain(getattr(rec, f.name)), (f.name, getattr(rec, f.name))
        from nardy.formats import decode_xgid, encode_xgid
        text = attempt(encode_xgid, rec)
        if text is not None:
            assert attempt(decode_xgid, text) is not None


@FUZZ
@given(data=st.data())
def test_match_state(data):
    kw: dict[str, Any] = {}
    for name, valid in (("cube", st.sampled_from([1, 2, 4, 3])),
                        ("cube_owner", st.sampled_from([None, 0, 1])),
                        ("dice_owner", st.sampled_from([0, 1])),
                        ("crawford", st.booleans()), ("turn", st.sampled_from([0, 1])),
                        ("double_offered", st.booleans()), ("resignation", st.integers(0, 3)),
                        ("dice", st.sampled_from([(0, 0), (3, 1), (6, 6)])),
                        ("match_length", st.integers(0, 15)),
                        ("score", st.tuples(st.integers(0, 15), st.integers(0, 15))),
                        ("jacoby", st.booleans())):
        if data.draw(st.integers(0, 2)) == 0:
            kw[name] = data.draw(near(valid))
    state = attempt(lambda: MatchState(**kw))
    if state is not None:
        from nardy.formats import decode_match_id, encode_match_id
        text = attempt(encode_match_id, state)
        if text is not None:
            assert attempt(decode_match_id, text) is not None


_FIBS_BOARD = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)


@FUZZ
@given(data=st.data())
def test_fibs_board(data):
    kw: dict[str, Any] = dict(
        player_name="me", opponent_name="you", match_length=3, player_score=0,
        opponent_score=0, board=_FIBS_BOARD, turn=1, player_dice=(3, 1), opponent_dice=(0, 0),
        cube=1, player_may_double=True, opponent_may_double=True, was_doubled=0, colour=1,
        direction=1, home=25, bar=0, player_off=0, opponent_off=0, player_on_bar=0,
        opponent_on_bar=0)
    for name in list(kw) + ["can_move", "forced_move", "did_crawford", "redoubles"]:
        if data.draw(st.integers(0, 5)) == 0:
            kw[name] = data.draw(st.one_of(mutated_side(list(_FIBS_BOARD)), HOSTILE)
                                 if name == "board" else HOSTILE)
    board = attempt(lambda: FibsBoard(**kw))
    if board is not None:
        from nardy.formats import format_fibs_board, parse_fibs_board
        text = attempt(format_fibs_board, board)
        if text is not None:
            assert attempt(parse_fibs_board, text) is not None


@FUZZ
@given(data=st.data())
def test_text_state(data):
    name = data.draw(st.sampled_from(VARIANT_NAMES))
    kw: dict[str, Any] = {"position": data.draw(near(START[name]))}
    for field, valid in (("dice", st.sampled_from([None, (3, 1), (6, 6)])),
                         ("cube", st.sampled_from([None, 1, 2])),
                         ("cube_owner", st.sampled_from([None, 0, 1])),
                         ("offer", st.sampled_from([None, "double", "resign1"])),
                         ("passes", st.sampled_from([None, 0, 2])), ("opening", st.booleans()),
                         ("starter", st.sampled_from([None, 0, 1])),
                         ("last_roll", st.booleans()),
                         ("over", st.sampled_from([None, 0, 1, "draw"])),
                         ("match_length", st.sampled_from([None, 0, 5])),
                         ("score", st.sampled_from([None, (0, 0), (1.5, 2)])),
                         ("crawford", st.booleans())):
        if data.draw(st.integers(0, 3)) == 0:
            kw[field] = data.draw(near(valid))
    state = attempt(lambda: TextState(**kw))
    if state is not None:
        text = attempt(state.to_text)
        if text is not None:
            assert attempt(nardy.from_text, text) is not None


@FUZZ
@given(keep=near(st.sampled_from([None, 1, 8])), margin=near(st.sampled_from([0, 0.16, 1])))
def test_move_filter(keep, margin):
    attempt(MoveFilter, keep, margin)


# -- the examples, each a specific class -------------------------------------------

@pytest.mark.parametrize("call, error", [
    (lambda: nardy.Position.from_sides("backgammon", *sides_of("backgammon"), turn=True),
     nardy.InvalidPositionError),
    (lambda: nardy.Shlem(pass_limit=True), nardy.InvalidRuleError),
    (lambda: nardy.Shlem(pass_limit=4.0), nardy.InvalidRuleError),
    (lambda: nardy.Backgammon(no_hit_and_hide=np.array([1, 0])), nardy.InvalidRuleError),
    (lambda: nardy.Game(seed=[1]), nardy.InvalidSeedError),
    (lambda: nardy.Match(3, seed={}), nardy.InvalidSeedError),
    (lambda: nardy.Move([5]), nardy.Error),
    (lambda: nardy.Move(None), nardy.Error),
    (lambda: batch.from_array(batch.to_array([nardy.Position()]), turn=[0, 1]),
     nardy.InvalidPositionError),
])
def test_examples_raise_their_class(call, error):
    with pytest.raises(error):
        call()


# -- every argument, every bad value -------------------------------------------------------
#
# The random search above rarely lands a given type confusion on a given argument; this sweep
# puts each of a fixed set of wrong values into each argument of each constructor in turn,
# the others valid.

BAD = [None, True, False, 0, 1, -1, 2, 7, 26, 2**31, 2**63, 2**64, -2**63, 10**30, 0.0, 1.0,
       4.0, 0.5, float("nan"), float("inf"), "", "0", "yes", "x" * 20000, b"1", [], [1],
       [1, 2], [0, 1, 1], (1,), (3, 1), {}, {"a": 1}, set(), object(), complex(1, 1),
       np.int64(1), np.int64(2**62), np.uint64(2**64 - 1), np.float64(1.0), np.bool_(True),
       np.array(1), np.array([1, 0]), np.array([]), np.zeros((2, 26), np.int8),
       np.array([3, 1]), np.array([[0, 1]]), int, range(2), nardy.Position()]

_FIBS_KW = dict(
    player_name="me", opponent_name="you", match_length=3, player_score=0, opponent_score=0,
    board=_FIBS_BOARD, turn=1, player_dice=(3, 1), opponent_dice=(0, 0), cube=1,
    player_may_double=True, opponent_may_double=True, was_doubled=0, colour=1, direction=1,
    home=25, bar=0, player_off=0, opponent_off=0, player_on_bar=0, opponent_on_bar=0,
    can_move=0, forced_move=0, did_crawford=0, redoubles=0)


def _with_rule_options(cls: Any) -> tuple[Callable[..., Any], dict[str, Any]]:
    return cls, {name: default for name, (default, _allowed) in cls.options.items()}


SWEEP: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "Position.from_sides": (nardy.Position.from_sides, dict(
        variant="backgammon", mover=_BG_M, opponent=_BG_O, turn=0)),
    "Position": (nardy.Position, dict(variant="backgammon")),
    "Move": (nardy.Move, dict(steps=[(7, 4), (5, 4)])),
    "Move.from_notation": (nardy.Move.from_notation, dict(
        text="8/5 6/5", variant="backgammon", color=0)),
    "GameRules": (GameRules, {f.name: _RULE_VALUES[f.name][0] if f.name != "cube" else True
                              for f in fields(GameRules)} | {"scoring": None}),
    "Game": (nardy.Game, dict(variant="backgammon", rules=None, seed=1, position=None,
                              starter=None, crawford=False, passes=0, cube_level=0,
                              cube_owner=None, last_roll=False)),
    "Match": (nardy.Match, dict(length=3, variant="backgammon", rules=None, seed=1,
                                crawford=True, score=(0, 0), post_crawford=False)),
    "batch.from_array": (batch.from_array, dict(
        boards=batch.to_array([nardy.Position()]), variant="backgammon", turn=0, swap=False)),
    "XgidRecord": (XgidRecord, dict(mover=_BG_M, opponent=_BG_O, cube=1, cube_position=0,
                                    turn=1, dice=(0, 0), action=None, score_bottom=0,
                                    score_top=0, rules=0, match_length=0, max_cube=1024)),
    "MatchState": (MatchState, dict(cube=1, cube_owner=None, dice_owner=0, crawford=False,
                                    turn=0, double_offered=False, resignation=0, dice=(0, 0),
                                    match_length=0, score=(0, 0), jacoby=False)),
    "FibsBoard": (FibsBoard, _FIBS_KW),
    "TextState": (TextState, dict(position=nardy.Position(), dice=None, cube=None,
                                  cube_owner=None, offer=None, passes=None, opening=False,
                                  starter=None, last_roll=False, over=None, match_length=None,
                                  score=None, crawford=False)),
    "MoveFilter": (MoveFilter, dict(keep=8, margin=0.16)),
} | {f"{cls.__name__}()": _with_rule_options(cls) for cls in VARIANTS}


@pytest.mark.parametrize("name", sorted(SWEEP))
def test_every_argument_takes_every_bad_value(name):
    make, valid = SWEEP[name]
    assert attempt(make, **valid) is not None, "the valid arguments are refused"
    for key in valid:
        for bad in BAD:
            out = attempt(make, **(valid | {key: bad}))
            if out is None or not hasattr(out, "__dataclass_fields__"):
                continue
            for f in fields(out):
                value = getattr(out, f.name)
                if f.name not in ("mover", "opponent", "board", "position", "game_state"):
                    assert plain(value), f"{name}({key}={bad!r}) keeps {f.name}={value!r}"
