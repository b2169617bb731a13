"""Shlem (Шлем, seed 003): the C++ policy, its end-of-game detection and the Python variant,
checked on hand-built positions (every expectation worked out from the rules in
docs/rules/shlem.md, never pasted from a generator) and against the slow pure-Python
reference (tests/reference/shlem_ref.py, written from the rules, sharing no code with the
core) on thousands of positions from random play.

Positions are written by point name, as the seed does: white's line 11..16 21..26, black's
41..46 31..36, 1k facing 4k and 2k facing 3k.
"""

from __future__ import annotations

import os
import pickle
import random
import time

import pytest

import nardy
from nardy import BLACK, WHITE, _core, batch

try:
    from tests.reference import shlem_ref as R
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import shlem_ref as R  # type: ignore[no-redef]

V = nardy.Shlem()
SHLEM_ID = _core.Variant.SHLEM
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
SLOW = bool(os.environ.get("NARDY_SLOW"))


# ------------------------------------------------------------------------------- helpers

def side(color, points, res, hit=None, prisoners=()):
    """A side array of ``color`` from {point name: count}; names in ``prisoners`` hold one
    checker of ``color`` held prisoner there. Checkers not placed are hit out (unless
    ``hit`` is given)."""
    s = [0] * 26
    for name, n in points.items():
        s[V.point_index(str(name), color)] = n
    for name in prisoners:
        s[V.point_index(str(name), color)] = -1
    s[24] = res
    placed = sum(abs(x) for x in s[:25])
    s[25] = 15 - placed if hit is None else hit
    return s


def position(white, black, turn=WHITE, wres=3, bres=3, wpris=(), bpris=(), variant=V,
             whit=None, bhit=None):
    return nardy.Position.from_colors(
        variant, side(WHITE, white, wres, whit, wpris), side(BLACK, black, bres, bhit, bpris),
        turn)


def cell(p, name):
    """(white count, black count, whose checker is the prisoner: 'W', 'B' or None) on a point."""
    out = [0, 0, None]
    for color in (WHITE, BLACK):
        n = p.side(color)[V.point_index(str(name), color)]
        out[color] = abs(n)
        if n < 0:
            out[2] = "W" if color == WHITE else "B"
    return tuple(out)


def results(p, dice):
    """Resulting positions (opponent on roll) of every legal move."""
    return p.legal_moves(dice).results()


def to_ref(p):
    us, them = p.sides()
    return R.from_sides(us, them, p.turn)


def ref_keys(p, dice, stage="either"):
    st = to_ref(p)
    return {_core.encode(*R.to_sides(s, p.turn), SHLEM_ID) for s in R.legal_results(st, p.turn, dice, stage)}


def core_keys(p, dice):
    return set(p.legal_moves(dice).keys())


def agrees_with_reference(p, dice, stage="either"):
    return ref_keys(p, dice, stage) == core_keys(p, dice)


# --------------------------------------------------------------------------- the variant

def test_registry_names_and_start():
    assert nardy.find_variant("shlem") is nardy.Shlem
    assert nardy.find_variant("Шлем") is nardy.Shlem
    assert nardy.find_variant("шлем") is nardy.Shlem
    p = nardy.Position("шлем")
    us, them = p.sides()
    assert us == them == tuple([1] * 12 + [0] * 12 + [3, 0])
    for name in (11, 16, 21, 26):
        assert cell(p, name) == (1, 0, None)
    for name in (31, 36, 41, 46):
        assert cell(p, name) == (0, 1, None)
    assert not p.is_game_over() and p.winner() is None
    assert V.rules == {"stage": "either", "blockade_end": "move", "pass_limit": 4}
    with pytest.raises(nardy.InvalidRuleError):
        nardy.Shlem(stage="never")


def test_point_names():
    white = [V.point_name(i, WHITE) for i in range(24)]
    black = [V.point_name(i, BLACK) for i in range(24)]
    assert white == [str(x) for x in R.LINE[WHITE] + R.LINE[BLACK]]
    assert black == [str(x) for x in R.LINE[BLACK] + R.LINE[WHITE]]
    assert V.point_name(24, WHITE) == "res"
    for color in (WHITE, BLACK):
        for i in range(25):
            assert V.point_index(V.point_name(i, color), color) == i
        # the opponent's index j is on the mover's to_mover(j): same name
        for j in range(24):
            assert V.point_name(V.to_mover(j), color) == V.point_name(j, 1 - color)
    for bad in ("10", "17", "51", "07", "1", "off"):
        with pytest.raises(ValueError):
            V.point_index(bad, WHITE)


def test_validation():
    ok = side(WHITE, {23: 1}, 3), side(BLACK, {}, 3, prisoners=(23,))
    nardy.Position.from_colors(V, *ok)
    bad = [
        # both colours on 23 without a prisoner
        (side(WHITE, {23: 1}, 3), side(BLACK, {23: 1}, 3)),
        # a prisoner with no capturer
        (side(WHITE, {}, 3), side(BLACK, {}, 3, prisoners=(23,))),
        # both marked prisoner
        (side(WHITE, {}, 3, prisoners=(23,)), side(BLACK, {}, 3, prisoners=(23,))),
        # four reserves
        (side(WHITE, {}, 4), side(BLACK, {}, 3)),
    ]
    for w, b in bad:
        with pytest.raises(nardy.InvalidPositionError):
            nardy.Position.from_colors(V, w, b)
    # 14 checkers
    w = side(WHITE, {}, 3)
    w[25] -= 1
    with pytest.raises(nardy.InvalidPositionError):
        nardy.Position.from_colors(V, w, side(BLACK, {}, 3))
    # -1 is Shlem only
    with pytest.raises(nardy.InvalidPositionError):
        nardy.Position.from_sides("backgammon", [-1] + [0] * 23 + [0, 16], [0] * 25 + [15])


# ----------------------------------------------------------------------- the seed examples

def test_seed_example_white_4_3_pin_then_stage_2_hit():
    # "белая шашка стоит на пункте 15 ... 4-3. Черная шашка стоит на пункте 33, на пункте 32
    # ничего не стоит ... показание 4 и прыгнув на территорию противника, использовав 3."
    p = position({15: 1, 11: 1}, {33: 1, 36: 1})  # both have reserves: stage 1
    m = p.parse_move("15/23/33", (4, 3))
    assert m in p.legal_moves((4, 3))
    after = p.play(m, (4, 3))
    assert cell(after, 33) == (1, 1, "B")  # taken prisoner under the white checker
    assert cell(after, 15) == (0, 0, None)
    with pytest.raises(nardy.IllegalMoveError):  # stage 1: no hitting
        p.parse_move("15/23/33*", (4, 3))
    # stage 2 (white has entered all reserves): pin or hit, two distinct moves
    p2 = position({15: 1, 11: 1}, {33: 1, 36: 1}, wres=0)
    pin = p2.play("15/23/33", (4, 3))
    hit = p2.play("15/23/33*", (4, 3))
    assert pin != hit
    assert cell(pin, 33) == (1, 1, "B") and pin.side(BLACK)[25] == p2.side(BLACK)[25]
    assert cell(hit, 33) == (1, 0, None) and hit.side(BLACK)[25] == p2.side(BLACK)[25] + 1
    assert agrees_with_reference(p, (4, 3)) and agrees_with_reference(p2, (4, 3))


def test_seed_example_black_4_1_back_and_forth():
    # "в пункте 43 стоит белая шашка, в пункте 46 черная ... 4-1 шашку можно переместить на
    # пункт 42, а затем на пункт 43 и побить или пленить белую шашку."
    p = position({43: 1, 11: 1}, {46: 1, 31: 1}, turn=BLACK)
    moves = p.legal_moves((4, 1))
    m = p.parse_move("46/42/43", (4, 1))
    explicit = nardy.Move([(V.point_index("46", BLACK), V.point_index("42", BLACK)),
                           (V.point_index("42", BLACK), V.point_index("43", BLACK))])
    assert explicit in moves and moves.index_of(explicit) == moves.index_of(m)
    after = p.play(m, (4, 1))
    assert cell(after, 43) == (1, 1, "W")
    assert m in moves
    # the same with stage 2: hitting the white checker out of the game is a second move
    p2 = position({43: 1, 11: 1}, {46: 1, 31: 1}, turn=BLACK, bres=0)
    hit = p2.play("46/42/43*", (4, 1))
    assert cell(hit, 43) == (0, 1, None) and hit.side(WHITE)[25] == p2.side(WHITE)[25] + 1
    assert agrees_with_reference(p, (4, 1)) and agrees_with_reference(p2, (4, 1))


# ------------------------------------------------------------------------------ landing

def test_no_landing_on_opponent_closed_point():
    # white 21 may reach 24 with a 3; black holds 24 closed, so it may not
    p = position({21: 1}, {24: 2}, wres=0)
    for r in results(p, (3, 1)):
        assert cell(r, 24)[0] == 0
    assert any(cell(r, 22)[0] == 1 or cell(r, 25)[0] == 1 for r in results(p, (3, 1)))
    # a prisoner under two black checkers: still closed to white
    p = position({21: 1, 11: 1}, {24: 2}, wres=0, wpris=(24,))
    assert all(cell(r, 24) == (1, 2, "W") for r in results(p, (3, 2)))
    assert agrees_with_reference(p, (3, 2))


def test_no_landing_on_opponent_prisoner_point():
    # black holds a white prisoner on 23 under one black checker: white may not land there
    p = position({21: 1, 11: 1}, {23: 1}, wres=0, wpris=(23,))
    for dice in ((2, 1), (2, 2), (6, 2), (5, 2)):
        for r in results(p, dice):
            assert cell(r, 23) == (1, 1, "W")
        assert agrees_with_reference(p, dice)


def test_landing_on_own_closed_and_prisoner_points():
    # white holds 22 closed and a black prisoner on 23: 21 may go to either
    p = position({21: 1, 23: 1, 22: 2, 11: 1}, {}, wres=0, bpris=(23,))
    onto_prisoner_point = p.play("21/23 11/12", (2, 1))
    assert cell(onto_prisoner_point, 23) == (2, 1, "B")
    onto_closed = p.play("21/22 11/13", (2, 1))
    assert cell(onto_closed, 22) == (3, 0, None)
    assert agrees_with_reference(p, (2, 1))


# ------------------------------------------------------------------------------ prisoners

def test_prisoner_cannot_move():
    # the white checker on 23 is a prisoner: every move is played by the checker on 11
    p = position({11: 1}, {23: 1}, wres=0, wpris=(23,))
    for dice in ROLLS:
        for m in p.legal_moves(dice):
            assert all(V.point_name(s.from_, WHITE) != "23" for s in m.steps)
        for r in results(p, dice):
            assert cell(r, 23) == (1, 1, "W")


def test_prisoner_freed_when_last_capturer_leaves():
    # black's single capturer on 23 leaves: the white checker there is free again
    p = position({11: 1}, {23: 1, 41: 1}, turn=BLACK, wres=0, bres=0, wpris=(23,))
    freed = [r for r in results(p, (6, 5)) if cell(r, 23)[1] == 0]
    assert freed and all(cell(r, 23) == (1, 0, None) for r in freed)
    # two capturers: one leaving keeps the prisoner
    p = position({11: 1}, {23: 2, 41: 1}, turn=BLACK, wres=0, bres=0, wpris=(23,))
    for r in results(p, (6, 5)):
        c = cell(r, 23)
        assert c[2] == "W" if c[1] else c == (1, 0, None)
    assert any(cell(r, 23) == (1, 1, "W") for r in results(p, (6, 5)))
    assert agrees_with_reference(p, (6, 5))


def test_freed_then_hit_in_one_turn():
    # Stage 2. White holds a black prisoner on 23 under one white checker. With 4-2 the
    # capturer goes 23/15 (the 4, back along the line 21 16 15 ...), freeing the prisoner,
    # and 21/23* (the 2) lands on the now free single and hits it out of the game. Only this
    # order reaches that result: a generator that assumes steps commute misses it.
    p = position({23: 1, 21: 1, 11: 1}, {}, wres=0, bres=3, bpris=(23,))
    hit = p.play("23/15 21/23*", (4, 2))
    assert cell(hit, 23) == (1, 0, None)
    assert hit.side(BLACK)[25] == p.side(BLACK)[25] + 1
    # the other order only re-pins: 21/23 (joins the capturer), 23/15
    pin = p.play("21/23 23/15", (4, 2))
    assert cell(pin, 23) == (1, 1, "B")
    assert agrees_with_reference(p, (4, 2))


# ------------------------------------------------------------------------------ movement

def test_no_return_from_opponent_territory():
    # white's only checker stands on 43 (black's line): it stays on 41..46 31..36
    p = position({43: 1}, {}, wres=0, bres=3)
    for dice in ROLLS:
        for r in results(p, dice):
            ws = r.side(WHITE)
            assert sum(abs(x) for x in ws[:12]) == 0, r
            assert sum(abs(x) for x in ws[12:24]) == 1


def test_both_directions_and_line_ends():
    # 43 with a 2: to 41 or 45; with a 3: only 46 (40 is off the line), with a 6: only 33
    p = position({43: 1}, {}, wres=0)
    ends = {V.point_name(r.side(WHITE).index(1), WHITE) for r in results(p, (2, 3))}
    # 2 then 3 or 3 then 2, each either way, along black's line 41..46 31..36 from 43
    expected = set()
    line = R.LINE[BLACK]
    k = line.index(43)
    for a, b in ((2, 3), (3, 2)):
        for s1 in (k + a, k - a):
            if 0 <= s1 < 12:
                for s2 in (s1 + b, s1 - b):
                    if 0 <= s2 < 12:
                        expected.add(str(line[s2]))
    # 43 is index 2 of the line: 2+2=4 then 7 or 1; 2-2=0 then 3; 2+3=5 then 7 or 3
    assert ends == expected == {"32", "42", "44"}


def test_jump_only_with_die_equal_to_point_number():
    p = position({12: 1}, {}, wres=0)
    # 3-4: 12 cannot jump (needs a 2); 15 needs a 5, 16 a 6: nobody reaches black's line
    for r in results(p, (4, 3)):
        assert sum(abs(x) for x in r.side(WHITE)[12:24]) == 0
    # 5-2: 12 jumps to 42 with the 2 and goes on to 31 with the 5 (42 is index 1 of black's
    # line, 1 + 5 = 6 = 31); 5 first goes 12 -> 21, where a 2 does not jump
    landed = {V.point_name(r.side(WHITE).index(1), WHITE) for r in results(p, (5, 2))}
    assert "31" in landed
    assert p.parse_move("12/42/31", (5, 2)) in p.legal_moves((5, 2))
    # 2-2: 12/42 then along black's line: 42 -> 44 -> 46 -> 32 (46 is next to 31)
    assert p.parse_move("12/42/44/46/32", (2, 2)) in p.legal_moves((2, 2))
    # the jump lands only on a free point: black closed on 42 stops it
    p = position({12: 1}, {42: 2}, wres=0)
    for r in results(p, (5, 2)):
        assert cell(r, 42)[0] == 0
    for dice in ((5, 2), (2, 2), (4, 3), (2, 1)):
        assert agrees_with_reference(p, dice)


# ------------------------------------------------------------------------------ reserves

def test_reserve_entry_points_and_restrictions():
    # A reserve enters with die k on 1k or 2k (white). 13 holds a free black single (no
    # capture on entering) and 23 a black closed point: with 3-3 nothing can enter, and white
    # has nothing else: the turn passes.
    p = position({}, {13: 1, 23: 2}, wres=3)
    assert len(p.legal_moves((3, 3))) == 0
    # 14 is empty and 24 is white's: entering with 4s on both
    p = position({24: 1}, {13: 1, 23: 2}, wres=3)
    ends = {(cell(r, 14)[0], cell(r, 24)[0], r.side(WHITE)[24]) for r in results(p, (4, 4))}
    # three reserves enter (one die each), the fourth die moves a checker
    assert any(res == 0 for _, _, res in ends)
    assert all(cell(r, 13) == (0, 1, None) for r in results(p, (4, 4)))
    # onto an own prisoner point (white over a black prisoner on 15): allowed, no capture;
    # not onto 16, where a free black single stands
    p = position({15: 1}, {16: 1}, wres=3, bpris=(15,))
    rs = p.legal_moves((5, 5)).results()
    assert any(cell(r, 15)[0] >= 2 and cell(r, 15)[2] == "B" for r in rs)
    # a reserve enters 16 only after an earlier step of the move took the single prisoner
    i16 = V.point_index("16", WHITE)
    for m in p.legal_moves((6, 6)):
        for k, st in enumerate(m.steps):
            if st.from_ == 24 and st.to == i16:
                assert any(e.to == i16 and e.from_ != 24 for e in m.steps[:k]), m
    assert agrees_with_reference(p, (6, 6))
    for dice in ((3, 3), (4, 4), (5, 5), (5, 1), (6, 5)):
        assert agrees_with_reference(p, dice)


def test_reserve_never_captures_or_hits():
    # black single on 14 (free), white reserves only: a 4 enters on 24, never on 14
    # (with 4-1 and 4-4 no ordinary step can reach 14 afterwards either; with 4-2, 22/14
    # after entering on 22 takes it, legally)
    p = position({}, {14: 1}, wres=3, bres=0)  # stage 2 even
    for dice in ((4, 1), (4, 4)):
        for r in results(p, dice):
            assert cell(r, 14) == (0, 1, None)
    assert any(cell(r, 14) == (1, 1, "B") for r in results(p, (4, 2)))
    for dice in ((4, 1), (4, 4), (4, 2)):
        assert agrees_with_reference(p, dice)
    entries = {s.to for m in p.legal_moves((4, 4)) for s in m.steps if s.from_ == 24}
    assert entries == {V.point_index("24", WHITE)}


def test_entering_is_optional_but_dice_are_not():
    # entering competes with ordinary steps; the most dice must be played
    p = position({11: 1}, {}, wres=1)
    moves = p.legal_moves((6, 5))
    assert all(len(m.steps) == 2 for m in moves)
    assert any(all(s.from_ != 24 for s in m.steps) for m in moves)  # no entering at all
    assert any(any(s.from_ == 24 for s in m.steps) for m in moves)


# -------------------------------------------------------------------------------- stages

def test_stage_either_player():
    # black has entered all reserves, white has not: stage 2 for both (default)
    p = position({21: 1, 11: 1}, {23: 1}, wres=3, bres=0)
    hit_moves = [m for m in p.legal_moves((2, 1)) if any(s.hit for s in m.steps)]
    assert hit_moves
    # per player: only black, who has entered its reserves, may hit
    pp = position({21: 1, 11: 1}, {23: 1}, wres=3, bres=0, variant=nardy.Shlem(stage="per-player"))
    assert not [m for m in pp.legal_moves((2, 1)) if any(s.hit for s in m.steps)]
    assert agrees_with_reference(p, (2, 1))
    assert agrees_with_reference(pp, (2, 1), "per-player")


def test_stage_begins_mid_turn():
    # white enters its last reserve with the 6 (on 16 or 26), then hits 23 from 21 with the
    # 2: stage 2 begins with that entry
    p = position({21: 1, 11: 1}, {23: 1}, wres=1, bres=2)
    moves = p.legal_moves((6, 2))
    hits = [m for m in moves if any(s.hit for s in m.steps)]
    assert hits and all(any(s.from_ == 24 for s in m.steps) for m in hits)
    after = p.play("res/26 21/23*", (6, 2))
    assert cell(after, 23) == (1, 0, None)
    assert agrees_with_reference(p, (6, 2))
    for stage in ("either", "per-player"):
        v = nardy.Shlem(stage=stage)
        q = position({21: 1, 11: 1}, {23: 1}, wres=1, bres=2, variant=v)
        assert agrees_with_reference(q, (6, 2), stage)


def test_pin_or_hit_two_distinct_results():
    p = position({21: 1, 11: 1}, {23: 1}, wres=0, bres=2)
    pin = p.play("21/23 11/12", (2, 1))
    hit = p.play("21/23* 11/12", (2, 1))
    assert pin != hit and pin.key != hit.key
    assert cell(pin, 23) == (1, 1, "B")
    assert cell(hit, 23) == (1, 0, None)
    assert hit.side(BLACK)[25] == pin.side(BLACK)[25] + 1
    moves = p.legal_moves((2, 1))
    assert len({m for m in moves}) == len(moves)
    # a move with a hit flag is found by `in`, and its pinning twin separately
    h = [m for m in moves if any(s.hit for s in m.steps)]
    assert h and all(m in moves for m in h)
    assert moves.index_of(h[0]) != moves.index_of(
        nardy.Move([(s.from_, s.to, False) for s in h[0].steps]))


# ------------------------------------------------------------------ blockades and the end

def status(p, passes=0):
    return p.variant.status(p, passes)


@pytest.mark.parametrize("points,length", [
    ((41, 42), 2),
    ((41, 42, 43), 3),
    ((43, 44, 45, 46), 4),
    ((45, 46, 31, 32, 33), 5),   # 46 and 31 are neighbours on black's line
    ((41, 42, 43, 44, 45, 46), 6),
    ((36, 41), 1),               # the two ends of the line: not neighbours
    ((41, 43, 45), 1),
])
def test_blockade_lengths_and_values(points, length):
    white = {p: 2 for p in points}
    # white has just moved: black on roll
    p = position(white, {11: 1, 12: 1, 21: 1, 22: 1}, turn=BLACK)
    st = status(p)
    assert st["blockade"][WHITE] == length
    if length >= 2:
        assert st["over"] and st["winner"] == WHITE and st["value"] == length ** 2
        assert st["reason"] == "blockade"
        assert p.is_game_over() and p.winner() == WHITE
    else:
        assert not st["over"]
    ref = R.status(to_ref(p), BLACK)
    assert (ref[0], ref[1], ref[2]) == (st["over"], st["winner"], st["value"])


def test_blockade_values_named_in_the_seed():
    # двойная 4, тройная (медный шлем) 9, четверная (серебряный) 16, пятерная (золотой) 25
    for n, value in ((2, 4), (3, 9), (4, 16), (5, 25)):
        pts = R.LINE[BLACK][:n]
        p = position({q: 2 for q in pts}, {11: 1, 12: 1, 13: 1, 14: 1}, turn=BLACK)
        assert status(p)["value"] == value


def test_blockade_counts_prisoner_points_and_not_own_territory():
    # 41 closed over a black prisoner + 42 closed: a blockade
    p = position({41: 2, 42: 2}, {11: 1, 12: 1, 13: 1, 14: 1}, turn=BLACK, bpris=(41,))
    assert status(p)["blockade"][WHITE] == 2 and status(p)["over"]
    # closed points on white's own territory are no blockade
    p = position({11: 2, 12: 2, 13: 2}, {31: 1, 32: 1, 33: 1, 34: 1}, turn=BLACK)
    assert status(p)["blockade"][WHITE] == 0 and not status(p)["over"]


def test_blockade_claim_option():
    v = nardy.Shlem(blockade_end="claim")
    # white built it and black is on roll: the game goes on
    p = position({41: 2, 42: 2}, {11: 1, 12: 1, 13: 1, 14: 1}, turn=BLACK, variant=v)
    st = status(p)
    assert not st["over"] and not st["claimable"]
    # at white's next turn white may claim it
    q = p.pass_turn()
    st = status(q)
    assert not st["over"] and st["claimable"] and st["blockade"][WHITE] == 2
    # perft does not stop at an unclaimed blockade; with "move" it does
    assert nardy.perft(q, 1) > 0
    assert nardy.perft(position({41: 2, 42: 2}, {11: 1, 12: 1, 13: 1, 14: 1}), 1) == 0


def test_end_all_checkers_left_the_start():
    # white has nothing on its own territory and no reserves: the game ends; black has more
    # closed points on white's territory (2 against 1) and wins 1 point
    p = position({41: 2, 43: 2, 45: 1}, {11: 2, 13: 2, 15: 2, 31: 1}, wres=0)
    st = status(p)
    assert st["over"] and st["reason"] == "left_start"
    assert st["winner"] == BLACK and st["value"] == 1
    # equal counts: a draw
    p = position({41: 2, 43: 2, 45: 1}, {11: 2, 13: 2, 31: 1}, wres=0)
    st = status(p)
    assert st["over"] and st["winner"] is None and st["value"] == 0
    assert p.is_game_over() and p.winner() is None
    # a white prisoner on its own territory has not left it
    p = position({41: 2, 43: 2, 45: 1}, {11: 2, 13: 2, 15: 2, 31: 1}, wres=0, wpris=(15,))
    assert not status(p)["over"]
    # nor has a reserve
    p = position({41: 2, 43: 2, 45: 1}, {11: 2, 13: 2, 15: 2, 31: 1}, wres=1)
    assert not status(p)["over"]


def test_end_no_material():
    # both players have fewer than four free checkers (the rest hit out or prisoners)
    p = position({11: 1, 41: 2}, {31: 1, 21: 1, 22: 1}, wres=0, bres=0, wpris=(), bpris=())
    st = status(p)
    assert st["over"] and st["reason"] == "no_material"
    assert st["winner"] == WHITE and st["value"] == 1  # white's 41 is closed
    # one of them still has four: the game goes on
    p = position({11: 1, 12: 1, 13: 1, 41: 1}, {31: 1, 21: 1, 22: 1}, wres=0, bres=0)
    assert not status(p)["over"]
    # prisoners are not free: white's fourth checker held on 24 leaves white three
    p = position({11: 1, 12: 1, 13: 1, 14: 1}, {31: 1, 24: 1}, wres=0, bres=0)
    assert not status(p)["over"]
    q = position({11: 1, 12: 1, 13: 1}, {31: 1, 24: 1}, wres=0, bres=0, wpris=(24,))
    assert status(q)["over"] and status(q)["reason"] == "no_material"


def test_end_passes_and_pass_limit_option():
    p = nardy.Position("shlem")
    assert not status(p, passes=3)["over"]
    st = status(p, passes=4)
    assert st["over"] and st["reason"] == "passes" and st["winner"] is None
    v = nardy.Shlem(pass_limit=0)
    assert not v.status(nardy.Position(v), 100)["over"]


def test_blockade_beats_the_other_end_rules():
    # "Даже если один игрок набрал больше очков, но другой построил блокаду ... победителем
    # считается построивший шлем": black has more closed points, white the blockade
    p = position({41: 2, 42: 2}, {11: 2, 13: 2, 15: 2, 21: 2}, turn=BLACK, wres=0)
    st = status(p)
    assert st["over"] and st["winner"] == WHITE and st["reason"] == "blockade"
    v = nardy.Shlem(blockade_end="claim")
    q = position({41: 2, 42: 2}, {11: 2, 13: 2, 15: 2, 21: 2}, turn=BLACK, wres=0, variant=v)
    st = status(q)  # ends by left_start; the unclaimed blockade still wins
    assert st["over"] and st["winner"] == WHITE and st["value"] == 4


# ------------------------------------------------------------------- notation and Python

def test_notation_round_trip_and_board():
    p = nardy.Position("shlem")
    moves = p.legal_moves((4, 3))
    for m in moves[:60]:
        text = m.notation(V, WHITE)
        assert p.parse_move(text, (4, 3)) == m or p.play(text, (4, 3)) == p.play(m, (4, 3))
    from nardy.textboard import board
    lines = board(p.play("15/23/33", (4, 3)), ascii=True).split("\n")
    # 33 is the ninth point of black's line along the top: the black prisoner at the edge,
    # the white captor over it
    assert [x for x in lines[1].split("-") if x.strip("+")][8] == "33"
    assert lines[2][2 + 3 * 8 + 5 + 1] == "x" and lines[3][2 + 3 * 8 + 5 + 1] == "O"
    assert str(p.play("15/23/33", (4, 3))) == board(p.play("15/23/33", (4, 3)))
    q = pickle.loads(pickle.dumps(p.play("15/23/33", (4, 3))))
    assert q == p.play("15/23/33", (4, 3))
    assert eval(repr(q), {"Position": nardy.Position, "Shlem": nardy.Shlem,
                          "WHITE": WHITE, "BLACK": BLACK}) == q
    with pytest.raises(nardy.InvalidNotationError):
        p.parse_move("15/off", (4, 3))


def test_play_unchecked_reads_the_hit_flag():
    p = position({21: 1, 11: 1}, {23: 1}, wres=0, bres=2)
    pin = p.play_unchecked(nardy.Move([(6, 8, False), (0, 1, False)]))
    hit = p.play_unchecked(nardy.Move([(6, 8, True), (0, 1, False)]))
    assert cell(pin, 23) == (1, 1, "B") and cell(hit, 23) == (1, 0, None)


def test_afterstates_arrays_carry_prisoners():
    np = pytest.importorskip("numpy")
    p = nardy.Position("shlem")
    us, them = p.sides()
    arr = np.array([[us, them]], dtype=np.int8)
    out, offsets = batch.afterstates(arr, (4, 3), V)
    assert offsets[-1] == len(p.legal_moves((4, 3)))
    assert (out == -1).any()  # some results hold a prisoner (e.g. 15/23/33)
    keys = {_core.encode(tuple(int(x) for x in row[0]), tuple(int(x) for x in row[1]),
                         SHLEM_ID)
            for row in out}
    assert keys == set(p.legal_moves((4, 3)).keys())


# ------------------------------------------------------ core against the reference, broadly

def random_positions(n, seed, variant):
    """(position, roll) pairs from random games played with the core (validated on the way)."""
    rng = random.Random(seed)
    e = variant.engine
    out = []
    while len(out) < n:
        p = nardy.Position(variant)
        key, turn = p.key, WHITE
        for _ in range(rng.randint(1, 160)):
            if e.status(key)["over"]:
                break
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((key, turn, roll))
            ms = e.legal(key, *roll)
            if len(ms):
                key = ms.key(rng.randrange(len(ms)))
            key = _core.swap(key)
            turn = 1 - turn
    rng.shuffle(out)
    return out[:n]


def _features(us, them):
    f = set()
    if -1 in us or -1 in them:
        f.add("prisoner")
    if us[25] or them[25]:
        f.add("hit")
    if us[24] == 0 or them[24] == 0:
        f.add("stage2")
    if any(x >= 2 for x in us[12:24]):
        f.add("closed_far")
    return f


@pytest.mark.parametrize("stage,n,seed", [("either", 5000, 2024), ("per-player", 1000, 7)])
def test_core_matches_reference_on_random_positions(stage, n, seed):
    v = nardy.Shlem(stage=stage)
    e = v.engine
    seen = {"prisoner": 0, "hit": 0, "stage2": 0, "closed_far": 0, "double": 0, "pass": 0}
    bad = []
    for key, turn, roll in random_positions(n, seed, v):
        us, them = _core.decode(key, SHLEM_ID)
        st = R.from_sides(us, them, turn)
        assert R.is_valid(st)
        assert R.to_sides(st, turn) == (tuple(us), tuple(them))
        ref = {_core.encode(*R.to_sides(s, turn), SHLEM_ID) for s in R.legal_results(st, turn, roll, stage)}
        core = set(e.legal(key, *roll).keys())
        if ref != core:
            bad.append((us, them, turn, roll, len(ref), len(core)))
        for f in _features(us, them):
            seen[f] += 1
        seen["double"] += roll[0] == roll[1]
        seen["pass"] += not core
        # end-of-game detection agrees too (both end rules)
        for end in ("move", "claim"):
            c = _core.Engine(_core.Variant.SHLEM,
                              shlem_end=getattr(_core.ShlemEnd, end.upper())).status(key)
            r = R.status(st, turn, end)
            win = None if not c["over"] or c["winner"] == 0 else (
                turn if c["winner"] == 1 else 1 - turn)
            assert (c["over"], win, c["value"]) == r[:3], (us, them, end)
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"
    # the sample exercises what makes Shlem different
    assert seen["prisoner"] > n // 10 and seen["hit"] > n // 20 and seen["stage2"] > n // 5
    assert seen["closed_far"] > n // 10 and seen["double"] > n // 10


def test_core_matches_reference_all_rolls_midgame():
    v = nardy.Shlem()
    e = v.engine
    for key, turn, _ in random_positions(30, 99, v):
        us, them = _core.decode(key, SHLEM_ID)
        st = R.from_sides(us, them, turn)
        for roll in ROLLS:
            ref = {_core.encode(*R.to_sides(s, turn), SHLEM_ID) for s in R.legal_results(st, turn, roll)}
            assert ref == set(e.legal(key, *roll).keys()), (us, them, roll)


# ---------------------------------------------------------------------------------- perft

def test_perft_start_depth1_core_and_reference():
    p = nardy.Position("shlem")
    ref = R.perft(R.initial(), R.WHITE, 1)
    assert ref == nardy.perft(p, 1) == 39729
    # the issue: tens of thousands summed over the 21 rolls, over ten thousand for 1-1
    assert len(p.legal_moves((1, 1))) == len(R.legal_results(R.initial(), R.WHITE, (1, 1))) \
        == 11555


@pytest.mark.parametrize("sides", [
    "0 0 0 0 0 0 0 0 0 0 0 -1 0 0 1 0 0 0 0 0 0 0 0 0 0 13 / "
    "0 1 0 0 0 0 0 0 0 0 0 0 0 0 4 0 0 0 0 0 0 0 0 4 0 6",
    "0 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 13 / "
    "0 0 0 0 0 0 0 0 0 0 0 4 1 0 0 9 1 0 0 0 0 0 0 0 0 0",
])
def test_reference_perft_with_transpositions_counts_like_the_plain_one(sides):
    # tests/perft/shlem.perft takes its depth-3 figures from shlem_perft_ref (the reference
    # generator with a transposition table): it must count exactly like shlem_ref.perft
    try:
        from tests.reference import shlem_perft_ref as T
    except ImportError:
        from reference import shlem_perft_ref as T  # type: ignore[no-redef]
    state = R.from_sides(*T.parse_sides(sides), R.WHITE)
    tt = T.Perft()
    for depth in (1, 2):
        assert tt.perft(state, R.WHITE, depth) == R.perft(state, R.WHITE, depth)

    def plain_divide(roll):
        res = R.legal_results(state, R.WHITE, roll)
        if not res:  # the pass: the same board, black on roll
            return R.perft(state, R.BLACK, 1)
        return sum(R.perft(s, R.BLACK, 1) for s in res)

    assert tt.divide(state, R.WHITE, 2) == {roll: plain_divide(roll) for roll in R.ALL_ROLLS}


@pytest.mark.skipif(not SLOW, reason="slow: set NARDY_SLOW=1 (core perft(2) from the start)")
def test_perft_start_depth2_core():
    t = time.time()
    assert nardy.perft(nardy.Position("shlem"), 2) == PERFT2_START
    print(f"perft(2) from the Shlem start in {time.time() - t:.1f} s")


@pytest.mark.skipif(not SLOW, reason="slow: set NARDY_SLOW=1 (reference divide at depth 2)")
def test_perft_start_depth2_divide_by_reference():
    # perft(2) split by white's first roll, for the roll with the fewest first moves (6-5):
    # the reference enumerates every black reply
    p = nardy.Position("shlem")
    core = {(6, 5): sum(nardy.perft(c, 1) for c in p.legal_moves((6, 5)).results())}
    st = R.initial()
    n = sum(sum(len(R.legal_results(s, R.BLACK, r)) or 1 for r in R.ALL_ROLLS)
            for s in R.legal_results(st, R.WHITE, (6, 5)))
    assert core[(6, 5)] == n == 8_920_399


# perft(2) from the start, computed by the core (about 220 s here; docs/rules/shlem.md)
PERFT2_START = 1_187_751_978
