"""The shared argument checks (nardy._validate): what each accepts, what it refuses, and
that every refusal is a nardy.Error subclass naming the argument."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nardy
from nardy import _validate as V
from nardy.errors import (
    InputTooLargeError,
    InvalidArgumentError,
    InvalidColorError,
    InvalidDiceError,
    InvalidRuleError,
    InvalidSeedError,
)


def test_error_classes_are_nardy_errors_and_value_errors():
    for cls in (InvalidArgumentError, InvalidColorError, InvalidSeedError, InputTooLargeError,
                InvalidDiceError, InvalidRuleError):
        assert issubclass(cls, nardy.Error) and issubclass(cls, ValueError)
        assert getattr(nardy, cls.__name__) is cls


@pytest.mark.parametrize("value, expected", [
    (0, 0), (7, 7), (np.int8(-3), -3), (np.uint64(2**64 - 1), 2**64 - 1), (np.int64(5), 5)])
def test_integer_accepts_ints_and_numpy_integer_scalars(value, expected):
    out = V.integer(value, "n")
    assert out == expected and type(out) is int


@pytest.mark.parametrize("value", [
    True, False, np.bool_(True), 4.0, 4.5, "4", None, np.array(4), np.array([4]), [4], 4 + 0j,
    np.float64(4.0)])
def test_integer_refuses_non_integers(value):
    with pytest.raises(InvalidArgumentError, match="depth must be an integer"):
        V.integer(value, "depth", 0, 10)


def test_integer_range_message_names_argument_and_bounds():
    with pytest.raises(InvalidArgumentError, match=r"threads must be an integer from 0 to 2147483647, got 2147483648"):
        V.integer(2**31, "threads", 0, V.C_INT_MAX)
    with pytest.raises(InputTooLargeError):
        V.integer(2**31, "threads", 0, V.C_INT_MAX)
    with pytest.raises(InvalidArgumentError, match=r"must be an integer >= 1, got -5"):
        V.integer(-5, "games", 1)
    # a value too big for str() still gets a message
    with pytest.raises(InvalidArgumentError, match="an integer of 33220 bits"):
        V.integer(10**10000, "games", 0, 10)
    assert V.integer(None, "x", 0, 3, none=True) is None


def test_integer_uses_the_error_class_given():
    with pytest.raises(InvalidRuleError):
        V.integer(True, "pass_limit", 0, 16, error=InvalidRuleError)


def test_boolean():
    assert V.boolean(True, "f") is True
    assert V.boolean(np.bool_(False), "f") is False
    for bad in (0, 1, "True", None, np.array([True]), 1.0):
        with pytest.raises(InvalidArgumentError, match="crawford must be True or False"):
            V.boolean(bad, "crawford")


def test_real():
    assert V.real(1, "x") == 1.0 and V.real(np.float32(0.5), "x", 0, 1) == 0.5
    for bad in (True, float("nan"), float("inf"), "1", np.array([1.0]), 10**400):
        with pytest.raises(InvalidArgumentError, match="x must be a"):
            V.real(bad, "x")
    with pytest.raises(InvalidArgumentError, match=">= 0 and <= 1"):
        V.real(2, "x", 0, 1)


def test_color():
    assert V.color(np.int64(1)) == 1 and V.color(0) == 0 and V.color(None, none=True) is None
    for bad in (True, False, 2, -1, 0.0, "white", np.array([0]), None):
        with pytest.raises(InvalidColorError, match=r"turn must be 0 \(nardy.WHITE\) or 1"):
            V.color(bad, "turn")


@pytest.mark.parametrize("value", [
    (3, 1), [3, 1], np.array([3, 1]), np.array([3, 1], dtype=np.uint8), (np.int64(3), 1)])
def test_dice_accepts_pairs(value):
    out = V.dice(value)
    assert out == (3, 1) and type(out) is tuple and all(type(d) is int for d in out)


@pytest.mark.parametrize("value", [
    (1, 2**63), [1, 2**64], (0, 1), (1, 7), (True, 1), (1.0, 2), "31", b"31", (3,), (3, 1, 1),
    None, 31, {3: 1, 1: 3}, {3, 1}, np.array([3.0, 1.0]), np.array([[3, 1]]), iter((3, 1))])
def test_dice_refuses_anything_else(value):
    with pytest.raises(InvalidDiceError, match="dice must be a pair of integers from 1 to 6"):
        V.dice(value)


def test_dice_reads_without_consuming():
    it = [3, 1]
    V.dice(it)
    assert it == [3, 1]


def test_choice_is_type_strict():
    assert V.choice("step", "block_check", ("step", "end")) == "step"
    assert V.choice(np.int64(4), "pass_limit", range(0, 17)) == 4
    assert V.choice(np.bool_(True), "flag", (False, True)) is True
    for bad in (True, 4.0, "4", np.array([1, 0]), 17, -1):
        with pytest.raises(InvalidRuleError, match="pass_limit must be an integer from 0 to 16"):
            V.choice(bad, "pass_limit", range(0, 17))
    for bad in (0, 1, np.array([1, 0]), "True"):
        with pytest.raises(InvalidRuleError, match="one of False, True"):
            V.choice(bad, "no_hit_and_hide", (False, True))
    with pytest.raises(InvalidRuleError, match="pass_limit must be an integer from 0 to 3"):
        V.choice(True, "pass_limit", (0, 1, 2, 3))


def test_seed():
    assert V.seed(np.uint64(7)) == 7 and V.seed(2**64 - 1) == 2**64 - 1
    assert V.seed("abc", text=True) == "abc" and V.seed(None, none=True) is None
    for bad in ([1], {}, 1.0, True, -1, 2**64, "abc", None, np.array([1])):
        with pytest.raises(InvalidSeedError, match="seed must be an integer from 0 to"):
            V.seed(bad)
    with pytest.raises(InvalidSeedError, match="or text of at most 1,000 characters or None"):
        V.seed("x" * 1001, text=True, none=True)


def test_text_limit():
    assert V.text("abc", "notation", 3) == "abc"
    with pytest.raises(InputTooLargeError, match="notation is 4 characters long; the limit is 3"):
        V.text("abcd", "notation", 3)
    with pytest.raises(InvalidArgumentError, match="notation must be text"):
        V.text(b"abc", "notation", 3)


def test_int_sequence():
    assert V.int_sequence(np.array([1, 2], dtype=np.int8), "side", (2,), 0, 15) == (1, 2)
    with pytest.raises(InvalidArgumentError, match=r"side\[1\] must be an integer from 0 to 15, got True"):
        V.int_sequence([1, True], "side", (2,), 0, 15)
    with pytest.raises(InvalidArgumentError, match="must hold 26 integers, got 3"):
        V.int_sequence((1, 2, 3), "side", (26,), 0, 15)
    with pytest.raises(InvalidArgumentError, match="list or tuple"):
        V.int_sequence("12", "side", (2,), 0, 15)


class _BadRepr:
    def __repr__(self):
        raise RuntimeError("no")


def test_show_survives_hostile_values():
    assert "_BadRepr" in V.show(_BadRepr())
    assert "characters" in V.show("x" * 10**6)
    assert "a numpy array of shape (2,)" in V.show(np.array([1, 2]))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5),
                 st.binary(max_size=5), st.lists(st.integers(), max_size=3),
                 st.tuples(st.integers(), st.integers())))
def test_every_check_raises_only_nardy_errors(value):
    checks = [
        lambda: V.integer(value, "n", 0, 100), lambda: V.boolean(value, "b"),
        lambda: V.real(value, "r", 0, 1), lambda: V.color(value), lambda: V.dice(value),
        lambda: V.choice(value, "o", ("a", 1, False)), lambda: V.seed(value, text=True),
        lambda: V.text(value, "t", 3), lambda: V.int_sequence(value, "s", (2,), 0, 6),
    ]
    for check in checks:
        try:
            check()
        except nardy.Error as e:
            assert str(e)


# ------------------------------------------------------------- the C++ boundary uses them

@pytest.mark.parametrize("dice", [(1, 2**63), [1, 2**64], (3, -2**70), (np.int64(3), True)])
def test_huge_dice_raise_and_leave_no_error_set(dice):
    p = nardy.Position("backgammon")
    with pytest.raises(InvalidDiceError, match="dice must be a pair"):
        p.legal_moves(dice)
    with pytest.raises(InvalidDiceError):
        p.play("8/5 6/5", dice)
    # a leaked Python error would surface here as SystemError
    __import__("json")
    assert len(p.legal_moves((3, 1))) == 16


def test_dice_of_other_integer_types_reach_the_core():
    p = nardy.Position("backgammon")
    for dice in ([3, 1], np.array([3, 1]), (np.int8(3), np.uint64(1))):
        moves = p.legal_moves(dice)
        assert moves.dice == (3, 1) and all(type(d) is int for d in moves.dice)
        assert len(moves) == 16


@pytest.mark.parametrize("call", [
    lambda p: nardy.perft(p, 2**31), lambda p: nardy.perft(p, 65), lambda p: nardy.divide(p, 2**63),
    lambda p: nardy.perft(p, np.array([1])), lambda p: nardy.perft(p, 1, rolls=True),
    lambda p: nardy.rollout(p, 10, threads=2**31), lambda p: nardy.rollout(p, 10, max_plies=2**32),
    lambda p: nardy.rollout(p, 10, first_trial=2**64), lambda p: nardy.rollout(p, 10**12 + 1),
    lambda p: nardy.rollout(p, 2**63), lambda p: nardy.rollout(p, 10, seed=2**64),
    lambda p: nardy.rollout(p, 10, seed=[1]), lambda p: nardy.rollout(p, 10, threads=True),
    lambda p: nardy.rollout(p, 10.0),
])
def test_out_of_range_counts_raise_nardy_errors(call):
    with pytest.raises(InvalidArgumentError):
        call(nardy.Position("backgammon"))


def test_turn_must_be_a_colour_not_a_bool():
    side = nardy.Backgammon().initial_side()
    p = nardy.Position.from_sides("backgammon", side, side, turn=np.int64(1))
    assert type(p.turn) is int and p.turn == 1
    for bad in (True, 1.0, 2, np.array([1])):
        with pytest.raises(nardy.InvalidPositionError, match="turn must be 0"):
            nardy.Position.from_sides("backgammon", side, side, turn=bad)
        with pytest.raises(nardy.InvalidPositionError, match="turn must be 0"):
            nardy.Position.from_colors("backgammon", side, side, turn=bad)


@pytest.mark.parametrize("variant, option, bad", [
    (nardy.Shlem, "pass_limit", True), (nardy.Shlem, "pass_limit", 4.0),
    (nardy.Shlem, "pass_limit", np.array([4])), (nardy.Shlem, "pass_limit", 17),
    (nardy.Backgammon, "no_hit_and_hide", np.array([1, 0])), (nardy.Backgammon, "no_hit_and_hide", 1),
    (nardy.LongNardy, "head_rule", ["classic"]), (nardy.Shlem, "stage", None)])
def test_rule_options_are_type_strict(variant, option, bad):
    with pytest.raises(InvalidRuleError, match=f"rule {option} must be"):
        variant(**{option: bad})


def test_rule_options_take_numpy_scalars_and_keep_plain_values():
    v = nardy.Shlem(pass_limit=np.int64(3))
    assert v.rules["pass_limit"] == 3 and type(v.rules["pass_limit"]) is int
    b = nardy.Backgammon(no_hit_and_hide=np.bool_(True))
    assert b.rules["no_hit_and_hide"] is True and b == nardy.Backgammon(no_hit_and_hide=True)


def test_batch_turns_and_threads():
    from nardy import batch

    p = nardy.Position()
    rows = batch.to_array([p, p])
    assert [q.turn for q in batch.from_array(rows, turn=[0, np.int8(1)])] == [0, 1]
    assert [q.turn for q in batch.from_array(rows, turn=np.array(1))] == [1, 1]
    for bad in ([0, 1, 0], True, np.array([[0, 1]]), [0, 2], 0.0):
        with pytest.raises(nardy.InvalidPositionError, match="turn must be"):
            batch.from_array(rows, turn=bad)
    for bad in (2**31, True, -1, 1.0):
        with pytest.raises(InvalidArgumentError, match="threads"):
            batch.afterstates(rows, (3, 1), threads=bad)
