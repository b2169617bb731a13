"""Arguments of Game, Match, GameRules and the variants' rule options: a wrong type or value
raises a specific nardy.Error naming the argument and what it allows; numpy scalars count as
the plain value."""

from __future__ import annotations

import numpy as np
import pytest

import nardy
from nardy import Game, GameRules, Match
from nardy.errors import InvalidArgumentError, InvalidRuleError, InvalidSeedError

ARRAY = np.array([1, 0])

BAD_VARIANT_OPTIONS = [
    (nardy.Shlem, "pass_limit", True, "0 to 16"),
    (nardy.Shlem, "pass_limit", 4.0, "0 to 16"),
    (nardy.Shlem, "pass_limit", 17, "0 to 16"),
    (nardy.Shlem, "pass_limit", ARRAY, "0 to 16"),
    (nardy.Shlem, "stage", ARRAY, "either"),
    (nardy.Backgammon, "no_hit_and_hide", ARRAY, "False, True"),
    (nardy.Backgammon, "no_hit_and_hide", 1, "False, True"),
    (nardy.LongNardy, "head_rule", ARRAY, "federation"),
    (nardy.LongNardy, "block_check", None, "step"),
]


@pytest.mark.parametrize("cls,key,value,allowed", BAD_VARIANT_OPTIONS)
def test_variant_options_are_type_strict(cls, key, value, allowed):
    with pytest.raises(InvalidRuleError) as e:
        cls(**{key: value})
    assert key in str(e.value) and allowed in str(e.value)


def test_variant_options_take_numpy_scalars_as_plain_values():
    v = nardy.Shlem(pass_limit=np.int64(6))
    assert v.rules["pass_limit"] == 6 and type(v.rules["pass_limit"]) is int
    assert v == nardy.Shlem(pass_limit=6) and hash(v) == hash(nardy.Shlem(pass_limit=6))
    b = nardy.Backgammon(no_hit_and_hide=np.bool_(True))
    assert b.rules["no_hit_and_hide"] is True


BAD_RULES = [
    ("cube", ARRAY), ("cube", 1), ("beaver", "yes"), ("jacoby", 0), ("last_roll_draw", 1.0),
    ("max_cube", 0), ("max_cube", 2.0), ("max_cube", True), ("max_cube", ARRAY),
    ("auto_doubles", -1), ("auto_doubles", 1.5), ("auto_doubles", 65),
    ("stakes", "exponential"), ("stakes", ARRAY), ("opening_roll", "both"),
    ("opening_roll", ARRAY), ("draw_points", 2), ("draw_points", True), ("draw_points", ARRAY),
    ("scoring", ARRAY), ("scoring", "no-such-scale"),
]


@pytest.mark.parametrize("name,value", BAD_RULES)
def test_game_rules_check_each_field_at_construction(name, value):
    with pytest.raises(InvalidRuleError) as e:
        GameRules(**{name: value})
    assert name in str(e.value) or "scoring" in str(e.value)
    # the same through Game and Match keyword options
    with pytest.raises(InvalidRuleError):
        Game("backgammon", **{name: value})
    with pytest.raises(InvalidRuleError):
        Match(0, "backgammon", **{name: value})


def test_game_rules_take_numpy_scalars():
    r = GameRules(cube=np.bool_(True), max_cube=np.int64(8), auto_doubles=np.int32(1),
                  draw_points=np.float64(1.0))
    assert r.cube is True and type(r.max_cube) is int and r.max_cube == 8
    assert type(r.auto_doubles) is int and r.draw_points == 1
    assert r.resolve("backgammon") == GameRules(cube=True, max_cube=8, auto_doubles=1,
                                                draw_points=1).resolve("backgammon")


BAD_SEEDS = [[1], {}, 1.5, ARRAY, -1, object(), "x" * 2000]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=lambda s: type(s).__name__)
def test_seeds_of_games_and_matches(seed):
    with pytest.raises(InvalidSeedError, match="seed"):
        Game("backgammon", seed=seed)
    with pytest.raises(InvalidSeedError, match="seed"):
        Match(3, seed=seed)


def test_good_seeds_give_the_same_dice():
    a, b = Game(seed=5), Game(seed=np.int64(5))
    a.roll()
    b.roll()
    assert a.history == b.history and b.seed == 5 and type(b.seed) is int
    for s in ("abc", b"\x00\xff", 2**80):
        g = Game(seed=s)
        g.roll()
        assert g.history == Game.replay(g.history).history


SETUP = [
    ({"crawford": 1}, "crawford"), ({"crawford": ARRAY}, "crawford"),
    ({"last_roll": 1}, "last_roll"), ({"passes": True}, "passes"), ({"passes": -2}, "passes"),
    ({"passes": 1.0}, "passes"), ({"cube_level": 1.0}, "cube_level"),
    ({"cube_level": ARRAY}, "cube_level"), ({"cube_owner": True}, "cube_owner"),
    ({"cube_owner": 2}, "cube_owner"), ({"starter": ARRAY}, "starter"),
]


@pytest.mark.parametrize("kw,name", SETUP, ids=lambda x: str(x))
def test_game_set_up_arguments(kw, name):
    with pytest.raises(InvalidRuleError, match=name):
        Game("backgammon", position=nardy.Position("backgammon"), **kw)


def test_position_must_be_a_position():
    with pytest.raises(InvalidArgumentError, match="position"):
        Game("backgammon", position="backgammon W:... w")


@pytest.mark.parametrize("length", [True, 2.0, -1, ARRAY, "5", 2**40])
def test_match_length(length):
    with pytest.raises(InvalidRuleError, match="match length"):
        Match(length)


def test_match_crawford_flag():
    with pytest.raises(InvalidRuleError, match="crawford"):
        Match(5, crawford=ARRAY)
    assert Match(np.int64(5)).length == 5


def test_dice_and_move_indices_accept_numpy():
    g = Game("backgammon", seed=1)
    g.roll(np.array([3, 1]))
    assert g.dice == (3, 1)
    n = g.move_count()
    g.play(np.int64(n - 1))
    assert g.phase is nardy.Phase.ROLL
    with pytest.raises(nardy.InvalidDiceError):
        g.roll((3, 7))
    with pytest.raises(nardy.InvalidDiceError):
        g.roll(np.array([3.0, 1.0]))


def test_resign_levels_and_recorded_actions():
    g = Game("backgammon", seed=2)
    g.roll()
    g.resign(np.int64(2))
    assert g.pending_resignation[1] == 2
    g.decline()
    for bad in (True, 0, 4, 2.0, ARRAY, "quadruple"):
        with pytest.raises(InvalidRuleError):
            g.resign(bad)
    with pytest.raises(InvalidArgumentError, match="nardy.Action"):
        g.apply(("roll", 0, (3, 1)))
    for history in (5, "roll", None):
        with pytest.raises(InvalidArgumentError, match="history"):
            Game.replay(history)
