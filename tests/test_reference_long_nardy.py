"""Tests of the pure-Python long-nardy reference generator (tests/reference/long_nardy_ref.py).

Every expected value below was worked out by hand from the rules (seed 000 sections 1-4,
seed 004, the issue text); the comment next to each explains the derivation.  None was
pasted from the generator's output.

Coordinates: side arrays of 26 ints in the side's own distance coordinates (23 = head,
0 = last home point, 25 = borne off); the opponent's index j lies on the mover's index
(j + 12) % 24, so the mover's index i holds the opponent's index (i + 12) % 24.
"""

from __future__ import annotations

import time

import pytest

try:  # `python -m pytest` from the repo root puts the root on sys.path ...
    from tests.reference.long_nardy_ref import (
        PRESETS,
        forbidden_block,
        initial,
        legal_results,
        perft,
        random_positions,
        swap,
    )
except ImportError:  # ... plain `pytest` (rootdir insertion) puts tests/ there instead.
    from reference.long_nardy_ref import (  # type: ignore[no-redef]
        PRESETS,
        forbidden_block,
        initial,
        legal_results,
        perft,
        random_positions,
        swap,
    )

def side(points: dict, off: int = 0) -> tuple:
    """A side array from {index: count}; the counts plus ``off`` must make 15."""
    s = [0] * 26
    for i, n in points.items():
        s[i] += n
    s[25] = off
    assert sum(s) == 15, points
    return tuple(s)


def movers(results) -> set:
    """The mover sides of a result set (the opponent never changes: there is no hitting)."""
    return {m for m, _ in results}


START = side({23: 15})


# ---------------------------------------------------------------------------------------------
# Start position and the first-turn head exception
# ---------------------------------------------------------------------------------------------


def test_initial_and_swap():
    m, o = initial()
    assert m == o == START
    a, b = side({23: 14, 3: 1}), START
    assert swap((a, b)) == (b, a)


@pytest.mark.parametrize("preset", PRESETS)
def test_first_turn_6_6_two_checkers_to_17(preset):
    # One checker: 23 -> 17 -> 11 stopped by the opponent's head (mover index 11).  Two
    # checkers may leave: each plays one six to 17, the other two sixes are lost.
    res = legal_results(START, START, (6, 6), preset)
    assert res == {(side({23: 13, 17: 2}), START)}


@pytest.mark.parametrize("preset", PRESETS)
def test_first_turn_4_4_two_checkers_to_15(preset):
    # 23 -> 19 -> 15 -> 11 (head).  Each checker can make two fours: both end on 15 (+8).
    res = legal_results(START, START, (4, 4), preset)
    assert res == {(side({23: 13, 15: 2}), START)}


@pytest.mark.parametrize("preset", PRESETS)
def test_first_turn_3_3_two_options(preset):
    # 23 -> 20 -> 17 -> 14 -> 11 (head).  Each checker makes at most three threes, four in
    # all: 2+2 (both on 17, +6 +6) or 3+1 (14 and 20, +9 +3).
    res = legal_results(START, START, (3, 3), preset)
    assert movers(res) == {side({23: 13, 17: 2}), side({23: 13, 20: 1, 14: 1})}


@pytest.mark.parametrize("preset", PRESETS)
def test_first_turn_5_5_not_special(preset):
    # 23 -> 18 -> 13 -> 8 -> 3 jumps the opponent's head: one runner plays all four (+20).
    res = legal_results(START, START, (5, 5), preset)
    assert res == {(side({23: 14, 3: 1}), START)}


@pytest.mark.parametrize("preset", PRESETS)
def test_first_turn_non_doubles_one_runner(preset):
    # Any non-double: one head checker, both dice, landing 23-a-b >= 12 (never the opponent's
    # head at 11), intermediate points free.  Exactly one result.
    for a in range(1, 7):
        for b in range(a + 1, 7):
            res = legal_results(START, START, (a, b), preset)
            assert movers(res) == {side({23: 14, 23 - a - b: 1})}, (a, b)


def test_seed_000_note_white_5_5_then_black_4_4():
    # Seed 000: "При первом броске белых 5-5, и последующем броске чёрными 4-4, последние
    # снимают одну шашку с головы играя одну четвёрку, так как пройти дальше мешает
    # созданная помеха."  White's runner ends on white index 3 = black index 15.
    white_results = legal_results(START, START, (5, 5))
    assert len(white_results) == 1
    (white_after,) = white_results
    black, white = swap(white_after)
    assert white == side({23: 14, 3: 1}) and black == START
    # Black's path 23 -> 19 -> 15: stopped at 15 by the runner, not by white's head, so in
    # "federation" only one checker leaves and only one four is played.
    assert legal_results(black, white, (4, 4), "federation") == {(side({23: 14, 19: 1}), white)}
    # "classic": 4-4 on the first turn always allows two head checkers: each plays one four.
    assert legal_results(black, white, (4, 4), "classic") == {(side({23: 13, 19: 2}), white)}
    # "extended": two checkers play 2 fours instead of 1, so the second one may leave.
    assert legal_results(black, white, (4, 4), "extended") == {(side({23: 13, 19: 2}), white)}


def test_seed_004_extended_exception():
    # Seed 004: "Если противник первым броском кинул: два-один, шесть-два или пять-пять, то
    # второй игрок может снять вторую шашку также при бросках пять-пять и шесть-два".
    # White 2-1: runner on white 20 = black 8.  Black 5-5: 23 -> 18 -> 13 -> 8 blocked.
    white = side({23: 14, 20: 1})
    assert movers(legal_results(START, white, (5, 5), "federation")) == {side({23: 14, 13: 1})}
    assert movers(legal_results(START, white, (5, 5), "classic")) == {side({23: 14, 13: 1})}
    # extended: two checkers, two fives each (a checker cannot pass 8): both on 13.
    assert movers(legal_results(START, white, (5, 5), "extended")) == {side({23: 13, 13: 2})}
    # White 6-2: runner on white 15 = black 3.  Black 5-5: 18, 13, 8 free, 3 blocked: one
    # checker plays three fives; two checkers play four: 3+1 (8 and 18) or 2+2 (13, 13).
    white = side({23: 14, 15: 1})
    assert movers(legal_results(START, white, (5, 5), "federation")) == {side({23: 14, 8: 1})}
    assert movers(legal_results(START, white, (5, 5), "extended")) == {
        side({23: 13, 18: 1, 8: 1}), side({23: 13, 13: 2})}
    # White 5-5: runner on black 15.  Black 6-2: 23-6-2 = 15 blocked both ways, so one
    # checker plays only the six (larger die); two checkers play both dice (17 and 21).
    white = side({23: 14, 3: 1})
    assert movers(legal_results(START, white, (6, 2), "federation")) == {side({23: 14, 17: 1})}
    assert movers(legal_results(START, white, (6, 2), "extended")) == {
        side({23: 13, 21: 1, 17: 1})}


@pytest.mark.parametrize("preset", PRESETS)
def test_second_head_checker_illegal_after_first_turn(preset):
    # 14 on the head: not the first turn.  The checker on 0 cannot move (bearing off needs
    # all 15 home), so 2-1 must be played by ONE head checker: 23 -> 20 (via 22 or 21).
    # Two head checkers (22 and 21) would be illegal.
    mover = side({23: 14, 0: 1})
    assert movers(legal_results(mover, START, (2, 1), preset)) == {side({23: 13, 20: 1, 0: 1})}
    # 6-6 with 14 on the head: one checker to 17 (17 -> 11 is the opponent's head), the
    # checker on 17 is stuck too; a second head checker is not allowed: one six is played.
    mover = side({23: 14, 17: 1})
    assert movers(legal_results(mover, START, (6, 6), preset)) == {side({23: 13, 17: 2})}


# ---------------------------------------------------------------------------------------------
# Maximum dice and the larger-die rule
# ---------------------------------------------------------------------------------------------


def test_must_use_both_dice():
    # Opponent on black-out points: j=21 (mover 9) and j=16 (mover 4).  The 0s cannot move.
    # 6: 20->14 (10->4 blocked); 5: 20->15 or 10->5.  Both dice: 20->14 + 10->5 only
    # (15->9 and 14->9 blocked, 10->4 blocked).  The single 5 20->15 is not a legal move.
    mover = side({20: 1, 10: 1, 0: 13})
    opp = side({23: 13, 21: 1, 16: 1})
    assert legal_results(mover, opp, (6, 5)) == {(side({14: 1, 5: 1, 0: 13}), opp)}


def test_larger_die_rule():
    # One free checker on 20; mover 9 (opponent j=21) blocked, so 6 and 5 can each be played
    # (20->14 or 20->15) but not both: the larger (6) must be played.
    mover = side({20: 1, 0: 14})
    opp = side({23: 14, 21: 1})
    assert legal_results(mover, opp, (6, 5)) == {(side({14: 1, 0: 14}), opp)}
    assert legal_results(mover, opp, (5, 6)) == {(side({14: 1, 0: 14}), opp)}
    # If the six cannot be played at all (mover 14 = opponent j=2 blocked too), the five is.
    opp = side({23: 13, 21: 1, 2: 1})
    assert legal_results(mover, opp, (6, 5)) == {(side({15: 1, 0: 14}), opp)}


def test_pass_returns_the_position():
    # Every mover checker is stuck: 20 and 0 (not all home).  Opponent on mover 14 and 15
    # (j=2, j=3) blocks the 6 and the 5.
    mover = side({20: 1, 0: 14})
    opp = side({23: 13, 2: 1, 3: 1})
    assert legal_results(mover, opp, (6, 5)) == {(mover, opp)}


# ---------------------------------------------------------------------------------------------
# Six-block rule
# ---------------------------------------------------------------------------------------------

# Mover points 2, 1, 0, 23, 22, 21 lie on opponent indices 14, 13, 12, 11, 10, 9: six
# consecutive points of the OPPONENT's path, going round the mover's home-to-head corner.
CORNER_BEFORE = side({23: 10, 22: 1, 21: 1, 4: 1, 1: 1, 0: 1})
CORNER_BLOCK = side({23: 9, 22: 2, 21: 1, 2: 1, 1: 1, 0: 1})  # 4->2 (die 2), 23->22 (die 1)


def test_six_block_round_the_corner_forbidden_while_all_behind():
    opp = side({23: 15})  # every opponent checker on j=23 > 14: behind the block j=9..14
    assert forbidden_block(CORNER_BLOCK, opp)
    res = movers(legal_results(CORNER_BEFORE, opp, (2, 1)))
    assert CORNER_BLOCK not in res
    # Without the block (e.g. 4->2 with 22->21) the same dice are fine.
    assert side({23: 10, 21: 2, 2: 1, 1: 1, 0: 1}) in res
    assert CORNER_BLOCK not in movers(legal_results(CORNER_BEFORE, opp, (2, 1), block_check="end"))


def test_six_block_round_the_corner_allowed_once_one_is_past():
    opp = side({23: 14, 3: 1})  # j=3 < 9: this checker is past the block (on mover 15)
    assert not forbidden_block(CORNER_BLOCK, opp)
    assert CORNER_BLOCK in movers(legal_results(CORNER_BEFORE, opp, (2, 1)))
    # A checker borne off also counts as past.
    opp = side({23: 14}, off=1)
    assert CORNER_BLOCK in movers(legal_results(CORNER_BEFORE, opp, (2, 1)))


def test_run_straddling_opponents_head_is_not_a_block():
    # Mover 15..9 lie on opponent j = 3, 2, 1, 0, 23, 22, 21: they are consecutive only by
    # wrapping past the opponent's j=0/j=23, which does not count.  16->15 (1), 15->9 (6).
    mover = side({16: 1, 15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1, 0: 8})
    opp = side({19: 15})  # on mover 7
    after = side({15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1, 9: 1, 0: 8})
    assert not forbidden_block(after, opp)
    assert after in movers(legal_results(mover, opp, (6, 1)))


# 1-1: the checker on 22 must pass 21 to reach 20; while it stands on 21 the mover holds
# 21..16 = opponent j 9..4, a six-block with no opponent checker past it (opponent on j=23 and
# j=13).  Each of 20..16 holds two checkers, so no other step can open a gap first.
TRANSIENT_BEFORE = side({22: 1, 20: 2, 19: 2, 18: 2, 17: 2, 16: 2, 0: 4})
TRANSIENT_AFTER = side({20: 2, 19: 2, 18: 3, 17: 2, 16: 2, 0: 4})  # 22-21-20, 20-19, 19-18
TRANSIENT_OPP = side({23: 14, 13: 1})


def test_transient_block_illegal_under_step():
    assert not forbidden_block(TRANSIENT_AFTER, TRANSIENT_OPP)
    res = movers(legal_results(TRANSIENT_BEFORE, TRANSIENT_OPP, (1, 1), block_check="step"))
    assert TRANSIENT_AFTER not in res
    # The checker on 22 may pass 21 once a gap is opened first: 17->16 twice empties 17,
    # then 22->21->20 holds only 21..18 and 16.
    assert side({20: 3, 19: 2, 18: 2, 16: 4, 0: 4}) in res


def test_transient_block_legal_under_end():
    res = movers(legal_results(TRANSIENT_BEFORE, TRANSIENT_OPP, (1, 1), block_check="end"))
    assert TRANSIENT_AFTER in res
    # ... but a final position holding the block is still illegal under "end".
    assert side({21: 1, 20: 2, 19: 2, 18: 2, 17: 1, 16: 3, 0: 4}) not in res


def test_transient_block_legal_when_someone_is_past():
    opp = side({23: 14, 2: 1})  # j=2 < 4, on mover 14
    res = movers(legal_results(TRANSIENT_BEFORE, opp, (1, 1), block_check="step"))
    assert TRANSIENT_AFTER in res


# ---------------------------------------------------------------------------------------------
# Bearing off
# ---------------------------------------------------------------------------------------------


def test_last_checker_enters_home_then_bears_off():
    # Mover {8:1, 5:7, 4:7}, dice 3-5, opponent far away (mover 14, 13, 12).
    # 3 first: 8->5 (all home), then 5: 5->0, or 4 off exactly.  5->2 or 4->1 leaves 8
    #   outside, then the 5 is 8->3 or 5->0 (no bearing off: not all home).
    # 5 first: 8->3 then 3: 5->2, 4->1, 3->0 (all duplicates); 5->0 then 3: 8->5, 5->2, 4->1.
    mover = side({8: 1, 5: 7, 4: 7})
    opp = side({2: 5, 1: 5, 0: 5})
    assert movers(legal_results(mover, opp, (3, 5))) == {
        side({5: 7, 4: 7, 0: 1}),
        side({5: 8, 4: 6}, off=1),
        side({5: 6, 4: 7, 3: 1, 2: 1}),
        side({8: 1, 5: 5, 4: 7, 2: 1, 0: 1}),
        side({5: 7, 4: 6, 3: 1, 1: 1}),
        side({8: 1, 5: 6, 4: 6, 1: 1, 0: 1}),
    }


def test_bear_off_overshoot_only_from_highest_point():
    # {3:1, 1:2}, dice 5-1.  The 5 overshoots every checker: only the highest (3) may go off.
    # 5 first: 3 off, then 1: 1->0.  1 first: 3->2 then 2 off (highest now), or 1->0 then 3 off.
    # Never a checker off from 1 while 3 is occupied.
    mover = side({3: 1, 1: 2}, off=12)
    opp = side({23: 15})
    assert movers(legal_results(mover, opp, (5, 1))) == {
        side({1: 1, 0: 1}, off=13),
        side({1: 2}, off=13),
    }


def test_bear_off_exact_and_move_inside_home():
    # {2:1, 0:1}, dice 3-1: 3 takes 2 off exactly and 1 takes 0 off exactly (all off); or
    # 1 first 2->1, then 3 overshoots from the highest point 1 (0 stays).  0 cannot go off
    # with the 3 while 2 or 1 is occupied.
    mover = side({2: 1, 0: 1}, off=13)
    assert movers(legal_results(mover, START, (3, 1))) == {side({}, off=15), side({0: 1}, off=14)}


# ---------------------------------------------------------------------------------------------
# Random positions
# ---------------------------------------------------------------------------------------------


def test_random_positions_deterministic_and_cover_bear_off():
    a = random_positions(400, seed=7)
    assert a == random_positions(400, seed=7)
    assert len(a) == 400 and a[0] == initial()
    for m, o in a:
        assert sum(m) == sum(o) == 15 and m[24] == o[24] == 0
        assert m[25] < 15 and o[25] < 15
        for i in range(24):  # no point holds checkers of both sides
            assert not (m[i] and o[(i + 12) % 24])
        assert not forbidden_block(m, o) and not forbidden_block(o, m)
    assert any(all(m[k] == 0 for k in range(6, 25)) and m[25] > 0 for m, _ in a)


# ---------------------------------------------------------------------------------------------
# Perft
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_perft_depth_1(preset):
    # 15 non-doubles: one result each; 1-1, 2-2, 4-4, 5-5, 6-6: one each; 3-3: two.
    m, o = initial()
    assert perft(m, o, 1, preset) == 22


def test_perft_depth_2():
    # Black's first turn after each of white's 22 results has 22 again in "classic" and
    # "federation" (the only difference, black 4-4 after white 5-5, is one result either way).
    # "extended" gains 5: black 5-5 after white 2-2, 6-2, 5-3, 4-4 (white checker on black 3:
    # two checkers play 3+1 or 2+2 fives instead of one checker three), and black 2-2 after
    # white 5-5 (white on black 15: 3+1 or 2+2 twos instead of three).
    m, o = initial()
    assert perft(m, o, 2, "classic") == 484
    assert perft(m, o, 2, "federation") == 484
    assert perft(m, o, 2, "extended") == 489


def test_perft_classic_depth_3():
    # Matched by two independent public engines (issue text).  About 2 s here.
    m, o = initial()
    t0 = time.perf_counter()
    assert perft(m, o, 3, "classic") == 35387
    assert time.perf_counter() - t0 < 60


def test_perft_federation_depth_3_equals_classic():
    # The federation/classic difference at depth 2 (white 5-5, black 4-4: one or two black
    # checkers on black 19 = white 7) leaves the same points occupied for white's reply, so
    # white's 21 rolls have the same number of results: the totals agree at depth 3.
    m, o = initial()
    assert perft(m, o, 3, "federation") == 35387


# ---------------------------------------------------------------------------------------------
# Properties over positions from random games
# ---------------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_SAMPLE = random_positions(300, seed=11)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_SAMPLE), st.integers(1, 6), st.integers(1, 6), st.sampled_from(PRESETS))
def test_properties(position, a, b, preset):
    m, o = position
    res = legal_results(m, o, (a, b), preset)
    assert res and res == legal_results(m, o, (b, a), preset)  # dice order is irrelevant
    pip = sum(i * m[i] for i in range(24)) + sum(m[:24])  # pips needed to bear everything off
    for m2, o2 in res:
        assert o2 == o  # no hitting
        assert sum(m2) == 15 and m2[24] == 0
        assert not forbidden_block(m2, o)
        left = m[23] - m2[23]
        assert left <= (2 if m[23] == 15 else 1)  # head rule
        moved = pip - (sum(i * m2[i] for i in range(24)) + sum(m2[:24]))
        assert 0 <= moved <= (4 * a if a == b else a + b)
        if res != {(m, o)}:
            assert moved > 0
