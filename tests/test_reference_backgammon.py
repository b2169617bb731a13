"""Tests of the pure-Python backgammon reference (tests/reference/backgammon_ref.py).

The reference checks itself against known facts (opening perft counts), against positions
whose full result sets were worked out by hand from the rules, and against gnubg, a real
independent move generator.  No expected value here was produced by running the reference.

gnubg conventions (checked empirically, see ``test_gnubg_conventions``):
  * board = (opponent25, mover25): the side NOT on roll first; each side is a 25-tuple in its
    own coordinates, index 24 = bar (the same layout as our side arrays minus the off count);
  * findbestmoves(...) returns one dict per distinct resulting position, key 'move' a flat
    tuple (from1, to1, from2, to2, ...), 1-based points, 25 = bar.  Hits are not marked.
  * a bear-off would be written "to = 0", but the tuple is CUT at that 0: (6, 5) bearing off
    from the 5-point and 5-point shows as (5,).  So tuples with a bear-off have odd length;
    we cannot apply them, only count them and sanity-check their prefix.
  * no legal move (a pass) -> an empty list.
"""
import random

import pytest

from tests.reference.backgammon_ref import (
    ALL_ROLLS,
    BAR,
    OFF,
    initial,
    is_valid,
    legal_results,
    phase,
    pip_count,
    random_positions,
    random_positions_race,
    single_moves,
    swap,
)

gnubg = pytest.importorskip("gnubg")


def side(**points):
    """Side array from keyword args: i12=2 means 2 checkers on index 12, bar=, off=."""
    s = [0] * 26
    for k, v in points.items():
        if k == "bar":
            s[BAR] = v
        elif k == "off":
            s[OFF] = v
        else:
            s[int(k[1:])] = v
    assert sum(s) == 15, s
    return tuple(s)


# ---------------------------------------------------------------- facts about the opening

OPENING_COUNTS = {(1, 1): 42, (2, 2): 75, (3, 3): 73, (4, 4): 52, (1, 3): 16, (6, 6): 11}


@pytest.mark.parametrize("roll,count", sorted(OPENING_COUNTS.items()))
def test_opening_counts(roll, count):
    m, o = initial()
    assert len(legal_results(m, o, roll)) == count
    assert len(legal_results(m, o, roll[::-1])) == count


def test_opening_perft_depth1():
    m, o = initial()
    assert len(ALL_ROLLS) == 21
    assert sum(len(legal_results(m, o, r)) for r in ALL_ROLLS) == 447


def test_initial_and_swap():
    m, o = initial()
    assert m == o == side(i23=2, i12=5, i7=3, i5=5)
    assert is_valid(m, o)
    a, b = side(i0=15), side(i23=15)
    assert swap(a, b) == (b, a)


# ------------------------------------------------- hand-worked positions (from the rules)
# Opponent index j lies on mover index 23 - j.  "m:" comments use mover indices.


def test_bar_6_4_must_enter_with_the_4():
    # mover on the bar; opponent holds mover index 18 (opp index 5: entry for a 6) and
    # mover index 14 (opp index 9: so the entered checker cannot continue 20->14).
    mover = side(bar=1, i12=2, i5=12)
    opp = side(i5=2, i9=2, i0=11)
    res = legal_results(mover, opp, (6, 4))
    # enter with the 4 (bar -> 20); the 6 can then only be 12 -> 6 (5 -> off is illegal:
    # not all home); playing the 6 first is impossible (entry for 6 blocked).
    assert res == {(side(i20=1, i12=1, i6=1, i5=12), opp)}
    assert res == legal_results(mover, opp, (4, 6))
    for m, _ in res:
        assert m[BAR] == 0 and m[20] == mover[20] + 1


def test_bar_6_4_enter_then_6_anywhere():
    # same, but the entered checker may continue with the 6 (20 -> 14 open).
    mover = side(bar=1, i12=2, i5=12)
    opp = side(i5=2, i0=13)
    res = legal_results(mover, opp, (6, 4))
    assert res == {
        (side(i20=1, i12=1, i6=1, i5=12), opp),
        (side(i14=1, i12=2, i5=12), opp),
    }


def test_two_on_bar_only_one_enters():
    # two on the bar, only the 4 enters: one checker enters, the other stays; the 6 is lost.
    mover = side(bar=2, i5=13)
    opp = side(i5=2, i0=13)
    assert legal_results(mover, opp, (6, 4)) == {(side(bar=1, i20=1, i5=13), opp)}


def test_closed_board_pass():
    mover = side(bar=1, i5=14)
    opp = side(i0=2, i1=2, i2=2, i3=2, i4=2, i5=2, i6=3)
    for roll in ALL_ROLLS:
        assert legal_results(mover, opp, roll) == {(mover, opp)}


def test_larger_die_rule():
    # Only the checker on 12 can move (the 14 on index 0 cannot bear off: not all home).
    # Mover index 4 (opp index 19) is blocked, so 12-6-4 and 12-10-4 both fail:
    # either die alone is playable but not both -> the larger (6) must be played.
    mover = side(i12=1, i0=14)
    opp = side(i19=2, i0=13)
    assert legal_results(mover, opp, (6, 2)) == {(side(i6=1, i0=14), opp)}
    assert legal_results(mover, opp, (2, 6)) == {(side(i6=1, i0=14), opp)}
    # also block mover index 6 (opp 17): the 6 is unplayable, so the 2 is played.
    opp2 = side(i19=2, i17=2, i0=11)
    assert legal_results(mover, opp2, (6, 2)) == {(side(i10=1, i0=14), opp2)}


def test_larger_die_not_preferred_when_both_can_be_used():
    # 12 -> 6 is blocked (opp index 17) but 12 -> 10 -> 4 uses both dice: must be played.
    mover = side(i12=1, i0=14)
    opp = side(i17=2, i0=13)
    assert legal_results(mover, opp, (6, 2)) == {(side(i4=1, i0=14), opp)}


def test_must_use_both_dice():
    # checkers A on 12, B on 9; mover indices 4 and 1 blocked.  A6 or A2 leaves A stuck, so
    # the second die must be played by B: results {6,7} and {10,3} only.
    mover = side(i12=1, i9=1, i0=13)
    opp = side(i19=2, i22=2, i0=11)
    assert legal_results(mover, opp, (6, 2)) == {
        (side(i6=1, i7=1, i0=13), opp),
        (side(i10=1, i3=1, i0=13), opp),
    }


def test_doubles_as_many_as_possible():
    # 3-3, single mobile checker on 12, mover index 3 blocked: 12 -> 9 -> 6, two dice only.
    mover = side(i12=1, i0=14)
    opp = side(i20=2, i0=13)
    assert legal_results(mover, opp, (3, 3)) == {(side(i6=1, i0=14), opp)}


def test_bearoff_overshoot_only_from_highest():
    # checkers on index 3 and 1, 5-1: the 5 may bear off only the highest (index 3).
    mover = side(i3=1, i1=1, off=13)
    opp = side(i0=15)  # on mover index 23, out of the way
    assert legal_results(mover, opp, (5, 1)) == {
        (side(i0=1, off=14), opp),  # 3/off 1/0, or 1/0 3/off
        (side(i1=1, off=14), opp),  # 3/2, then 2 is highest: 2/off with the 5
    }
    # the overshooting die after moving down: 4/off with the 6 then 2/off with the 4,
    # or 4/0 with the 4 then 2/off with the 6; the 4 cannot bear off from 2 first.
    mover = side(i4=1, i2=1, off=13)
    assert legal_results(mover, opp, (6, 4)) == {
        (side(off=15), opp),
        (side(i0=1, off=14), opp),
    }


def test_bearoff_becomes_legal_mid_turn():
    # last checker outside home on index 6; 2-1.  After 6->4 all are home: 0/off with the 1.
    mover = side(i6=1, i0=14)
    opp = side(i0=15)
    assert legal_results(mover, opp, (2, 1)) == {
        (side(i3=1, i0=14), opp),
        (side(i4=1, i0=13, off=1), opp),
    }


def test_bearoff_exact_die_from_any_point():
    # 6-5 with checkers on index 5 and 4: 5/off exact, 4/off exact; or 5->0 then 4/off...
    mover = side(i5=1, i4=1, off=13)
    opp = side(i0=15)
    # 6: only index 5 (exact).  5: index 4 exact, or 5->0.
    # 6 then 5: {off 15} ; 5 (4/off) then 6: 5/off -> off 15 ; 5 (5->0) then 6: highest is
    # index 4 -> off -> {i0}.
    assert legal_results(mover, opp, (6, 5)) == {
        (side(off=15), opp),
        (side(i0=1, off=14), opp),
    }


def test_hit_and_no_hit_are_distinct():
    # opponent blot on mover index 11 (opp index 12); 1-2 from 12: via the blot (hit) or not.
    mover = side(i12=1, i0=14)
    opp = side(i12=1, i0=14)
    res = legal_results(mover, opp, (1, 2))
    assert res == {
        (side(i9=1, i0=14), opp),
        (side(i9=1, i0=14), side(bar=1, i0=14)),
        # 12 -> 11 (hit) -> 9 and 12 -> 10 -> 9 ; nothing else moves
    }


def test_cannot_land_on_made_point_but_can_hit_blot():
    mover = side(i7=1, i0=14)
    for opp_count, expect_hit in ((2, None), (1, True), (0, False)):
        rest = 15 - opp_count
        opp = side(i19=opp_count, i0=rest) if opp_count else side(i0=15)  # mover index 4
        moves = single_moves(mover, opp, 3)
        if expect_hit is None:
            assert moves == []
        else:
            assert len(moves) == 1
            m, o = moves[0]
            assert m == side(i4=1, i0=14)
            assert o[BAR] == (1 if expect_hit else 0)


# -------------------------------------------------------------- invariants on random play

@pytest.fixture(scope="module")
def positions():
    pos = random_positions(6000, seed=20240607)
    pos += random_positions_race(2000, seed=7)
    return pos


def test_random_positions_cover_all_phases(positions):
    counts = {}
    for p in positions:
        counts[phase(*p)] = counts.get(phase(*p), 0) + 1
    for ph in ("bar", "contact", "race", "bearoff"):
        assert counts.get(ph, 0) >= 100, counts
    assert any(p == initial() for p in positions)
    assert random_positions(50, 3) == random_positions(50, 3)  # deterministic


def test_results_invariants(positions):
    rng = random.Random(1)
    for m, o in positions[:3000]:
        assert is_valid(m, o)
        d = (rng.randint(1, 6), rng.randint(1, 6))
        maxpips = 4 * d[0] if d[0] == d[1] else d[0] + d[1]
        for m2, o2 in legal_results(m, o, d):
            assert is_valid(m2, o2)
            drop = pip_count(m) - pip_count(m2)
            assert 0 <= drop <= maxpips
            # opponent only changes by hits: checkers moved to its bar
            hits = o2[BAR] - o[BAR]
            assert hits >= 0
            assert sum(abs(a - b) for a, b in zip(o[:24], o2[:24])) == hits
            assert o2[OFF] == o[OFF]


# ---------------------------------------------------------------- differential vs gnubg

CI = gnubg.cubeinfo()
EC = gnubg.evalcontext(0, 0, 1, 0, 0.0)


def gnubg_moves(mover, opp, dice):
    board = (tuple(opp[:25]), tuple(mover[:25]))
    return [x["move"] for x in gnubg.findbestmoves(board, CI, EC, tuple(dice))]


def apply_gnubg(mover, opp, mv):
    """Apply a gnubg move tuple without bear-offs (pairs of 1-based points, 25 = bar)."""
    m, o = list(mover), list(opp)
    for k in range(0, len(mv), 2):
        src, dst = mv[k] - 1, mv[k + 1] - 1  # 25 -> 24 = bar
        assert 0 <= dst < 24 and m[src] > 0, mv
        m[src] -= 1
        m[dst] += 1
        if o[23 - dst] == 1:
            o[23 - dst] = 0
            o[BAR] += 1
        assert o[23 - dst] == 0, mv
    return tuple(m), tuple(o)


def test_gnubg_conventions():
    b = gnubg.positionfromid("4HPwATDgc/ABMA")
    m, o = initial()
    assert b == (o[:25], m[:25])
    assert len(gnubg_moves(m, o, (3, 1))) == 16
    assert (8, 5, 6, 5) in gnubg_moves(m, o, (3, 1))
    # pass -> empty list
    assert gnubg_moves(side(bar=1, i5=14), side(i0=2, i1=2, i2=2, i3=2, i4=2, i5=2, i6=3),
                       (3, 4)) == []
    # bear-off tuples are cut at the 0 ("off"): 6-5 from the 5-point twice -> (5,)
    assert gnubg_moves(side(i0=3, i2=4, i4=8), side(i23=15), (6, 5)) == [(5,)]
    # orientation: mover moved one back checker 24/23; gnubg sees it on point 23
    m2 = side(i23=1, i22=1, i12=5, i7=3, i5=5)
    assert (23, 22, 24, 22) in gnubg_moves(m2, o, (1, 2))


def test_gnubg_position_id_roundtrip(positions):
    # our sampled positions are legal for gnubg's encoder/decoder
    for m, o in positions[::10]:
        board = (tuple(o[:25]), tuple(m[:25]))
        assert gnubg.positionfromid(gnubg.positionid(board)) == board


def _reachable(state, dice, steps):
    """States reachable from state by up to ``steps`` single moves with dice values from
    ``dice`` (loose: ignores which die is used) -- for checking cut bear-off tuples."""
    seen = {state}
    frontier = {state}
    for _ in range(steps):
        nxt = set()
        for m, o in frontier:
            for d in set(dice):
                nxt.update(single_moves(m, o, d))
        frontier = nxt - seen
        seen |= nxt
    return seen


def check_against_gnubg(mover, opp, dice):
    ref = legal_results(mover, opp, dice)
    gm = gnubg_moves(mover, opp, dice)
    ctx = (mover, opp, dice)
    if not gm:
        assert ref == {(mover, opp)}, ctx
        return
    assert (mover, opp) not in ref, ctx
    assert len(gm) == len(ref), (ctx, gm, sorted(ref))
    applied = set()
    for mv in gm:
        if len(mv) % 2 == 0 and 0 not in mv:
            r = apply_gnubg(mover, opp, mv)
            assert r in ref, (ctx, mv)
            applied.add(r)
        else:
            # cut at the first bear-off: apply the prefix and the first bear-off, then some
            # reference result must still be reachable with the remaining dice.
            pre = mv[: len(mv) - 1]
            m, o = apply_gnubg(mover, opp, pre)
            src = mv[-1] - 1
            assert 0 <= src < 6 and m[src] > 0, (ctx, mv)
            m = list(m)
            m[src] -= 1
            m[OFF] += 1
            used = len(pre) // 2 + 1
            left = (4 if dice[0] == dice[1] else 2) - used
            assert _reachable((tuple(m), o), dice, left) & ref, (ctx, mv)
    assert len(applied) == sum(1 for mv in gm if len(mv) % 2 == 0 and 0 not in mv)


def test_differential_vs_gnubg_random_rolls(positions):
    rng = random.Random(99)
    n_bear = 0
    for m, o in positions:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        check_against_gnubg(m, o, dice)
        n_bear += phase(m, o) == "bearoff"
    assert len(positions) >= 2000 and n_bear >= 100


def test_differential_vs_gnubg_all_rolls(positions):
    # every roll on a smaller spread of positions (hits all the rare rule corners)
    for m, o in positions[::20]:
        for roll in ALL_ROLLS:
            check_against_gnubg(m, o, roll)
