"""Bad input to a variant's core engine (``Variant().engine``, ``nardy._core.Engine``) raises
nardy's own exception classes, as the public layer does: dice out of range are
``InvalidDiceError``, rule options out of range ``InvalidRuleError``, other bad arguments
``InvalidArgumentError``; all derive from ``nardy.Error`` and ``ValueError``."""

from __future__ import annotations

import pytest

import nardy
from nardy import _core

GUL_BARA = nardy.GulBara()
BACKGAMMON = nardy.Backgammon()


def start(variant: nardy.Variant) -> bytes:
    return nardy.Position(variant).key


@pytest.mark.parametrize("dice", [(0, 3), (3, 7), (-1, -1), (7, 7)])
@pytest.mark.parametrize("call", ["legal", "count", "turn_pick", "turn_greedy", "turn_moves"])
def test_dice_out_of_range(call: str, dice: tuple[int, int]) -> None:
    engine = GUL_BARA.engine
    key = start(GUL_BARA)
    args = {
        "legal": (key, *dice),
        "count": (key, *dice),
        "turn_pick": (key, *dice, 3, 0),
        "turn_greedy": (key, *dice, 3),
        "turn_moves": (key, *dice, 3),
    }[call]
    method = getattr(engine, call, None)
    if method is None:
        pytest.skip(f"Engine has no {call}")
    with pytest.raises(nardy.InvalidDiceError, match="dice"):
        method(*args)


@pytest.mark.parametrize(
    "option, value",
    [("cascade_from_turn", 256), ("cascade_from_turn", -1), ("shlem_pass_limit", 300),
     ("fevga_their_quarter", 0), ("fevga_their_quarter", 7)],
)
def test_rule_options_out_of_range(option: str, value: int) -> None:
    with pytest.raises(nardy.InvalidRuleError, match=option):
        _core.Engine(_core.Variant.GUL_BARA, **{option: value})


@pytest.mark.parametrize("call", ["perft", "divide"])
def test_negative_depth(call: str) -> None:
    with pytest.raises(nardy.InvalidArgumentError, match="depth"):
        getattr(BACKGAMMON.engine, call)(start(BACKGAMMON), -1)


def test_the_classes_are_value_errors() -> None:
    with pytest.raises(ValueError):
        GUL_BARA.engine.turn_pick(start(GUL_BARA), 9, 9, 3, 0)
    with pytest.raises(nardy.Error):
        _core.Engine(_core.Variant.GUL_BARA, cascade_from_turn=1000)
