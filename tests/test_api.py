"""The Python API: value semantics, validation and errors, notation, variants, the CLI.

Expected values come from the rules (checker counts, pip counts, which moves are legal) and
published figures (opening perft 202,782), never from running the core.
"""

from __future__ import annotations

import copy
import pickle

import pytest

import nardy
from nardy import (
    BLACK,
    WHITE,
    IllegalMoveError,
    InvalidDiceError,
    InvalidNotationError,
    InvalidPositionError,
    Move,
    Position,
    UnknownVariantError,
)

# a backgammon side at the start: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6 (index = point - 1)
START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0)
LN_START = tuple([0] * 23 + [15, 0, 0])  # long nardy: all 15 on the head (index 23)


def with_changes(base, **changes):
    s = list(base)
    for k, v in changes.items():
        s[int(k[1:])] = v
    return s


# ------------------------------------------------------------------------ value semantics

def test_start_position():
    p = Position("backgammon")
    assert p.sides() == (START, START)
    assert p.turn == WHITE
    assert p == Position() == Position.start("bg") == Position(nardy.Backgammon)
    assert p == Position.from_sides("backgammon", START, START)
    assert Position("long nardy").sides() == (LN_START, LN_START)


def test_position_is_immutable():
    p = Position("backgammon")
    for attr, value in (("turn", BLACK), ("variant", nardy.LongNardy()), ("key", (0, 0, 0, 0))):
        with pytest.raises(AttributeError):
            setattr(p, attr, value)
    with pytest.raises(AttributeError):
        p.some_new_attribute = 1  # type: ignore[attr-defined]
    # playing returns a new object; the original is unchanged
    before = p.sides()
    q = p.play("8/5 6/5", (3, 1))
    assert q is not p and p.sides() == before and p == Position()
    assert p.sides() == (START, START)


def test_equality_and_hash():
    a = Position("backgammon")
    b = Position.from_sides("short nardy", list(START), list(START))
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    c = Position.from_sides("backgammon", START, START, turn=BLACK)
    assert c != a  # same checkers, other colour on roll
    assert a != "a position" and a != None  # noqa: E711
    d = a.play("8/5 6/5", (3, 1))
    assert d != a
    assert {a: 1, d: 2}[Position()] == 1
    # the same result reached by different step orders is one position
    assert a.play("6/5 8/5", (1, 3)) == d == a.play("8/5 6/5", (3, 1))
    # the variant (with its rule options) is part of the identity
    assert Position("long nardy") != Position("long-nardy-classic")
    assert Position("long nardy") == Position(nardy.LongNardy(head_rule="federation"))


def test_copy_and_pickle():
    p = Position("backgammon").play("13/10 6/5", (3, 1))
    assert copy.copy(p) == p and copy.deepcopy(p) == p and p.copy() == p
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        q = pickle.loads(pickle.dumps(p, protocol=proto))
        assert q == p and hash(q) == hash(p) and q.turn == BLACK
        assert q.sides() == p.sides()
    ln = Position(nardy.LongNardy(head_rule="classic"))
    ln2 = pickle.loads(pickle.dumps(ln))
    assert ln2 == ln and ln2.variant.rules == {"head_rule": "classic", "block_check": "step"}
    m = Move.from_notation("8/5 6/5")
    assert pickle.loads(pickle.dumps(m)) == m and hash(pickle.loads(pickle.dumps(m))) == hash(m)


def test_sides_and_colors():
    mover = with_changes(START, i23=1, i22=1)  # white played 24/23
    p = Position.from_sides("backgammon", mover, START, turn=WHITE)
    assert p.side(WHITE) == tuple(mover) and p.side(BLACK) == START
    q = Position.from_colors("backgammon", mover, START, turn=BLACK)
    assert q.turn == BLACK and q.side(WHITE) == tuple(mover) and q.sides() == (START, tuple(mover))
    # the gnubg 25-entry layout is accepted (off count completed)
    r = Position.from_sides("backgammon", START[:25], START[:25])
    assert r == Position()


# ---------------------------------------------------------------- from_sides validation

BAD_SIDES = {
    "16 checkers": with_changes(START, i5=6),
    "14 checkers": with_changes(START, i5=4),
    "negative count": with_changes(START, i5=6, i12=4, i0=-1, i24=1),
    "too long": list(START) + [0],
    "too short": list(START[:24]),
    "strings": [str(x) for x in START],
    "floats": [float(x) for x in START],
    "bools": [bool(x) for x in START],
    "None": None,
    "an int": 15,
    "a string": "0" * 26,
}


@pytest.mark.parametrize("what", sorted(BAD_SIDES))
def test_from_sides_rejects(what):
    bad = BAD_SIDES[what]
    with pytest.raises(InvalidPositionError):
        Position.from_sides("backgammon", bad, START)
    with pytest.raises(InvalidPositionError):
        Position.from_sides("backgammon", START, bad)


def test_from_sides_rejects_both_colours_on_one_point():
    # the mover's 1-point (index 0) is the opponent's 24-point (index 23), where it has 2
    mover = with_changes(START, i0=1, i5=4)
    with pytest.raises(InvalidPositionError):
        Position.from_sides("backgammon", mover, START)
    # long nardy: the mover's index 11 is the opponent's head (index 23)
    mover = with_changes(LN_START, i23=14, i11=1)
    with pytest.raises(InvalidPositionError):
        Position.from_sides("long nardy", mover, LN_START)


def test_from_sides_rejects_long_nardy_bar_and_bad_turn():
    on_bar = with_changes(LN_START, i23=14, i24=1)
    with pytest.raises(InvalidPositionError):
        Position.from_sides("long nardy", on_bar, LN_START)
    with pytest.raises(InvalidPositionError):
        Position.from_sides("long nardy", LN_START, on_bar)
    # the same side is fine in backgammon, where there is a bar
    bg = with_changes(START, i23=1, i24=1)
    Position.from_sides("backgammon", bg, START)
    with pytest.raises(InvalidPositionError):
        Position.from_sides("backgammon", START, START, turn=2)


def test_errors_are_value_errors():
    for exc in (InvalidPositionError, InvalidDiceError, InvalidNotationError, IllegalMoveError,
                UnknownVariantError, nardy.InvalidIdError, nardy.InvalidRuleError):
        assert issubclass(exc, nardy.Error) and issubclass(exc, ValueError)


# ------------------------------------------------------------------------------- dice

@pytest.mark.parametrize("dice", [(0, 1), (7, 1), (1,), "ab", (1.0, 2), True, None, (1, 2, 3),
                                  (-1, 3), "31", (1, "2"), (True, 2)])
def test_bad_dice(dice):
    p = Position("backgammon")
    with pytest.raises(InvalidDiceError):
        p.legal_moves(dice)
    with pytest.raises(InvalidDiceError):
        p.play("8/5 6/5", dice)
    with pytest.raises(InvalidDiceError):
        p.parse_move("8/5 6/5", dice)


def test_dice_as_list_or_either_order():
    p = Position("backgammon")
    assert len(p.legal_moves([3, 1])) == len(p.legal_moves((1, 3))) == 16  # published: 16


# ------------------------------------------------------------------------- notation

@pytest.mark.parametrize("text", ["", "   ", "hello", "13-8", "13/", "/8", "13//8", "off/5",
                                  "13/off/8", "13/8(5)", "13/8(0)", "26/20", "0/5", "13/x",
                                  "8/5 6/5 junk", "bar", "13", None, 5, b"13/8"])
def test_junk_notation(text):
    p = Position("backgammon")
    with pytest.raises(InvalidNotationError):
        p.parse_move(text, (3, 1))
    with pytest.raises(InvalidNotationError):
        p.play(text, (3, 1))


@pytest.mark.parametrize("text", ["13/7", "24/21 24/21", "6/off", "8/5 6/2", "bar/22 6/5",
                                  "13/9 13/12", "6/5*", "pass", "13/10 13/10 13/10"])
def test_well_formed_but_illegal(text):
    # 3-1 from the opening: each is readable but not a legal 3-1 (wrong distances, bearing
    # off before all are home, no checker on the bar, no blot to hit, passing when able)
    p = Position("backgammon")
    with pytest.raises(IllegalMoveError):
        p.parse_move(text, (3, 1))
    with pytest.raises(IllegalMoveError):
        p.play(text, (3, 1))
    assert p == Position() and p.sides() == (START, START)


def test_illegal_move_object():
    p = Position("backgammon")
    with pytest.raises(IllegalMoveError):
        p.play(Move([(12, 6)]), (3, 1))  # 13/7 is a 6
    with pytest.raises(IllegalMoveError):
        p.play(Move([(20, 17), (17, 16)]), (3, 1))  # no checker on the 21-point
    assert p == Position()


def test_parse_and_play():
    p = Position("backgammon")
    m = p.parse_move("8/5 6/5", (3, 1))
    assert isinstance(m, Move) and m in p.legal_moves((3, 1))
    after = p.play(m, (3, 1))
    assert after.turn == BLACK
    assert after.side(WHITE) == tuple(with_changes(START, i7=2, i5=4, i4=2))
    assert after.side(BLACK) == START
    assert p.play("8/5 6/5", (3, 1)) == after == p.play("6/5 8/5", (3, 1))
    # chains with a skipped point, and a two-checker group
    assert p.play("24/13", (6, 5)).side(WHITE) == tuple(with_changes(START, i23=1, i12=6))
    assert p.play("13/7(2) 24/18(2)", (6, 6)).side(WHITE) == tuple(
        with_changes(START, i23=0, i17=2, i12=3, i6=2))
    # gnubg's 25 for the bar is read as "bar"
    q = Position.from_sides("backgammon", with_changes(START, i23=1, i24=1), START)
    assert q.play("25/22 6/5", (3, 1)) == q.play("bar/22 6/5", (3, 1))


def test_notation_of_moves():
    p = Position("backgammon")
    texts = {m.notation() for m in p.legal_moves((3, 1))}
    assert {"8/5 6/5", "24/20", "13/9", "24/21 24/23"} <= texts
    assert str(p.parse_move("8/5 6/5", (3, 1))) == "8/5 6/5"
    assert nardy.PASS.notation() == "pass"
    assert Move.from_notation("24/18 18/13").steps == ((23, 17, False), (17, 12, False))
    assert Move.from_notation("bar/22*").steps == ((24, 21, True),)
    assert Move.from_notation("6/off").steps == ((5, -1, False),)


def test_double_hit_marking_is_accepted():
    # white 2 on the 5-point, black blot on white's 3-point (black index 21); 1-1.
    # "5/3*(2)" (gnubg style) and "5/3* 5/3" both mean: both checkers to 3, the blot is hit.
    white = [0] * 26
    white[4], white[0] = 2, 13
    black = [0] * 26
    black[21], black[0] = 1, 14
    p = Position.from_sides("backgammon", white, black)
    want_white = tuple(with_changes([0] * 26, i2=2, i0=13))
    want_black = tuple(with_changes([0] * 26, i24=1, i0=14))
    for text in ("5/3*(2)", "5/3* 5/3", "5/3 5/3*", "5/3(2)", "5/4/3*(2)", "5/4(2) 4/3*(2)"):
        after = p.play(text, (1, 1))
        assert after.side(WHITE) == want_white and after.side(BLACK) == want_black, text


# ------------------------------------------------------------------------------ `in`

def test_membership():
    p = Position("backgammon")
    moves = p.legal_moves((3, 1))
    assert len(moves) == 16
    assert Move.from_notation("8/5 6/5") in moves
    assert Move.from_notation("6/5 8/5") in moves  # any step order
    assert Move([(7, 4), (5, 4)]) in moves
    assert Move.from_notation("24/21 21/20") in moves  # = 24/20
    assert Move.from_notation("13/7") not in moves
    assert Move.from_notation("13/10") not in moves  # incomplete: the 1 must be played too
    assert Move([(20, 17), (17, 16)]) not in moves  # no checker there
    assert "8/5 6/5" not in moves  # text is not a Move
    assert None not in moves and 42 not in moves
    assert all(m in moves for m in moves)


def test_pass():
    # white on the bar against a closed board (black on white's 1..6-points)
    white = with_changes([0] * 26, i24=1, i5=14)
    black = with_changes([0] * 26, i0=2, i1=2, i2=2, i3=2, i4=2, i5=2, i12=3)
    p = Position.from_sides("backgammon", white, black)
    for dice in ((6, 6), (1, 2), (3, 5)):
        moves = p.legal_moves(dice)
        assert len(moves) == 0 and not moves
        assert p.parse_move("pass", dice) == nardy.PASS
        assert p.play("pass", dice) == p.pass_turn()
        with pytest.raises(IllegalMoveError):
            p.play("bar/20", dice)
    assert p.pass_turn().turn == BLACK and p.pass_turn().sides() == (tuple(black), tuple(white))


# --------------------------------------------------------------------------- variants

@pytest.mark.parametrize("name,cls", [
    ("short nardy", nardy.Backgammon),
    ("короткие нарды", nardy.Backgammon),
    ("Backgammon", nardy.Backgammon),
    ("BACKGAMMON", nardy.Backgammon),
    ("  backgammon ", nardy.Backgammon),
    ("long nardy", nardy.LongNardy),
    ("long-nardy", nardy.LongNardy),
    ("Long_Nardy", nardy.LongNardy),
    ("длинные нарды", nardy.LongNardy),
])
def test_find_variant(name, cls):
    assert nardy.find_variant(name) is cls
    assert type(Position(name).variant) is cls


@pytest.mark.parametrize("name", ["chess", "", "nardy", "backgammon2", "long nardy 2", 42, None])
def test_unknown_variant(name):
    with pytest.raises(UnknownVariantError):
        nardy.find_variant(name)
    if name is not None:  # Position(None) is the default variant
        with pytest.raises(UnknownVariantError):
            Position(name)


def test_rule_options():
    with pytest.raises(nardy.InvalidRuleError):
        nardy.LongNardy(head_rule="nonsense")
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Backgammon(jacoby=True)
    assert nardy.LongNardy() == nardy.LongNardy(head_rule="federation")
    assert hash(nardy.LongNardy()) == hash(nardy.LongNardy())
    assert nardy.LongNardy() != nardy.LongNardy(head_rule="classic")


# ---------------------------------------------------------------------------- pip count

def test_pip_counts():
    p = Position("backgammon")
    # 2*24 + 5*13 + 3*8 + 5*6 = 167
    assert p.pip_count() == p.pip_count(WHITE) == p.pip_count(BLACK) == 167
    after = p.play("8/5 6/5", (3, 1))
    assert after.pip_count(WHITE) == 163 and after.pip_count(BLACK) == 167
    assert after.pip_count() == 167  # black on roll
    # a checker on the bar needs 25 pips
    white = with_changes(START, i23=1, i24=1)
    assert Position.from_sides("backgammon", white, START).pip_count() == 168
    assert Position("long nardy").pip_count() == 15 * 24
    assert p.borne_off(WHITE) == 0 and not p.is_game_over() and p.winner() is None


def test_game_over():
    white = with_changes([0] * 26, i25=15)
    black = with_changes([0] * 26, i0=15)
    p = Position.from_sides("backgammon", black, white, turn=BLACK)
    assert p.is_game_over() and p.winner() == WHITE and p.borne_off(WHITE) == 15
    assert nardy.perft(p, 1) == 0  # a finished game has no children


# -------------------------------------------------------------------------------- perft

def test_perft_argument_errors():
    p = Position("backgammon")
    for bad in (-1, 1.5, "2", True):
        with pytest.raises(nardy.Error):
            nardy.perft(p, bad)
    with pytest.raises(nardy.Error):
        nardy.perft(p, 1, rolls=20)
    with pytest.raises(nardy.Error):
        nardy.divide(p, 0)


# ---------------------------------------------------------------------------------- CLI

def test_cli_perft(capsys):
    from nardy.cli import main

    assert main(["perft", "backgammon", "2"]) == 0
    out = capsys.readouterr().out
    assert "202782" in out
    assert main(["perft", "backgammon", "1", "--rolls", "36"]) == 0
    assert "637" in capsys.readouterr().out
    assert main(["perft", "short nardy", "1", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "447" in out and "3-1: 16" in out and "6-6: 11" in out


def test_cli_perft_position_id(capsys):
    from nardy.cli import main

    assert main(["perft", "backgammon", "1", "--position", "4HPwATDgc/ABMA"]) == 0
    assert "447" in capsys.readouterr().out


def test_cli_moves(capsys):
    from nardy.cli import main

    assert main(["moves", "backgammon", "31"]) == 0
    out = capsys.readouterr().out
    assert "8/5 6/5" in out and "16" in out
    assert main(["moves", "backgammon", "3-1"]) == 0
    assert "8/5 6/5" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["perft", "chess", "2"],
    ["perft", "backgammon", "-1"],
    ["perft", "backgammon", "1", "--position", "junk"],
    ["perft", "long-nardy", "1", "--position", "4HPwATDgc/ABMA"],
    ["moves", "backgammon", "77"],
    ["moves", "backgammon", "31", "--position", "junk"],
])
def test_cli_errors_return_2(argv, capsys):
    from nardy.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [
    [],
    ["perft"],
    ["perft", "backgammon", "x"],
    ["perft", "backgammon", "1", "--rolls", "20"],
    ["frobnicate"],
])
def test_cli_usage_errors_exit_2(argv, capsys):
    from nardy.cli import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("dice", ["9x", "123", "3"])
def test_cli_bad_dice_text(dice, capsys):
    from nardy.cli import main

    try:
        rc = main(["moves", "backgammon", dice])
    except SystemExit as e:
        rc = e.code
    assert rc == 2
    assert "error" in capsys.readouterr().err


def test_from_sides_accepts_numpy_integers_and_rejects_floats():
    import numpy as np

    side = np.zeros(26, dtype=np.int8)
    side[23], side[12], side[7], side[5] = 2, 5, 3, 5  # the opening, 2-5-3-5
    assert nardy.Position.from_sides("backgammon", side, side) == nardy.Position("backgammon")
    with pytest.raises(nardy.InvalidPositionError):
        nardy.Position.from_sides("backgammon", side.astype(np.float64), side)


def test_listed_moves_name_no_double_after_named_moves_were_freed():
    # Move objects are recycled by the core: one made with a named die and dropped must not
    # lend it to a move listed afterwards
    pos = nardy.Position("backgammon")
    steps = pos.legal_moves((4, 4))[0].steps
    for _ in range(100):
        nardy.Move(steps, named=5)
    assert [m.named for m in pos.legal_moves((4, 4))] == [0] * len(pos.legal_moves((4, 4)))
    assert all(m == nardy.Move(m.steps) for m in pos.legal_moves((4, 4)))
