"""Positions as strings: Position.from_*/to_* round trips over random positions of every
variant, nardy.parse_position recognising each format, a short repr that evaluates back, and
the gnubg package reading what we write."""

from __future__ import annotations

import random

import pytest

import nardy
from nardy.variants import VARIANTS


def _positions(v: nardy.Variant, n: int, seed: int) -> list[nardy.Position]:
    rng = random.Random(seed)
    out = []
    pos = nardy.Position(v)
    while len(out) < n:
        if pos.is_game_over():
            pos = nardy.Position(v)
        out.append(pos)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        moves = pos.legal_moves(dice)
        pos = pos.play(moves[rng.randrange(len(moves))], dice) if moves else pos.pass_turn()
    return out


@pytest.mark.parametrize("cls", VARIANTS, ids=lambda c: c.name)
def test_text_and_repr_round_trip(cls: type[nardy.Variant]) -> None:
    for p in _positions(cls(), 60 if cls is nardy.Shlem else 300, 3):
        text = p.to_text()
        assert nardy.Position.from_text(text) == p
        assert nardy.parse_position(text) == p
        r = repr(p)
        assert r == f"Position.from_text({text!r})" and len(r) < 160
        assert eval(r, {"Position": nardy.Position}) == p


def test_backgammon_formats_round_trip_and_gnubg_reads_them() -> None:
    gnubg = pytest.importorskip("gnubg")
    for p in _positions(nardy.Backgammon(), 400, 5):
        us, them = p.sides()
        pid = p.to_position_id()
        assert gnubg.positionfromid(pid) == (tuple(them[:25]), tuple(us[:25]))
        assert nardy.Position.from_position_id(pid, turn=p.turn) == p
        for s in (p.to_xgid(), p.to_fibs()):
            assert nardy.parse_position(s) == p
        assert nardy.Position.from_xgid(p.to_xgid()) == p
        assert nardy.Position.from_fibs(p.to_fibs()) == p
        # a Position ID carries no colour: white on roll unless told
        assert nardy.parse_position(pid) == nardy.Position.from_position_id(pid)
        assert nardy.parse_position(pid + ":cAkAAAAAAAAA").sides() == p.sides()


def test_known_strings() -> None:
    start = nardy.Position()
    assert start.to_position_id() == "4HPwATDgc/ABMA"
    assert start.to_xgid() == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert repr(start) == "Position.from_text('backgammon W:24x2,13x5,8x3,6x5 B:24x2,13x5,8x3,6x5 w')"
    assert nardy.parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10") == \
        start.pass_turn()
    long = nardy.Position("long nardy")
    assert nardy.parse_position(long.to_text()) == long


@pytest.mark.parametrize("text", [
    "", "garbage", "XGID=nonsense", "board:You:Opponent", "backgammon W:24x2 B:24x2 w",
    "4HPwATDgc/AB!A", 42,
])
def test_bad_strings_raise_nardy_errors(text: object) -> None:
    with pytest.raises(nardy.InvalidIdError):
        nardy.parse_position(text)  # type: ignore[arg-type]


def test_gnubg_formats_refuse_other_variants() -> None:
    long = nardy.Position("long nardy")
    for method in (long.to_xgid, long.to_fibs, long.to_position_id):
        with pytest.raises(nardy.InvalidIdError, match="long-nardy"):
            method()
    with pytest.raises(nardy.InvalidIdError, match="shlem"):
        nardy.Position.from_position_id("4HPwATDgc/ABMA", "shlem")


def test_from_text_refuses_game_state() -> None:
    with pytest.raises(nardy.InvalidIdError, match="nardy.from_text"):
        nardy.Position.from_text("backgammon W:24x2,13x5,8x3,6x5 B:24x2,13x5,8x3,6x5 w dice=31")
