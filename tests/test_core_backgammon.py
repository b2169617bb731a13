"""The C++ core's backgammon move generator against independent generators.

* the pure-Python reference (tests/reference/backgammon_ref.py, written from the rules and
  itself checked against gnubg) on >= 10,000 random reachable positions;
* gnubg (PyPI ``gnubg``), a real peer, on >= 3,000 random positions;
* the batch ``afterstates`` kernel against ``legal_moves``;
* ``Engine.pick`` (what random rollouts play: one move made alone, its last step counted, not
  made) against the listed moves, index by index;
* every legal move's steps and notation: the steps really lead to the result (and are single
  legal die moves per the reference), and notation round-trips through ``play``/``parse_move``;
* published opening figures (per-roll counts, perft 447 / 202,782; 36 rolls 637 / 419,783);
* hand-worked rule positions.

No expected value here was produced by running the core.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import nardy
from nardy import batch
from tests.support import pick_mismatches

try:  # `python -m pytest` from the repo root puts the root on sys.path ...
    from tests.reference import backgammon_ref as R
except ImportError:  # ... plain `pytest` (rootdir insertion) puts tests/ there instead.
    from reference import backgammon_ref as R  # type: ignore[no-redef]

BG = nardy.Backgammon()
BAR, OFF = R.BAR, R.OFF


# ------------------------------------------------------------------------------ helpers

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


def pos_of(mover, opponent):
    return nardy.Position.from_sides(BG, mover, opponent)


def core_results(mover, opponent, dice):
    """The core's results as (mover, opponent) pairs, mover's perspective (swapped back)."""
    out = []
    for r in pos_of(mover, opponent).legal_moves(dice).results():
        them, us = r.sides()  # the result has the opponent on roll
        out.append((us, them))
    return out


def ref_results(mover, opponent, dice):
    """The reference's results; a pass ({(mover, opponent)}) becomes the empty set, as the
    core returns no moves for a pass."""
    res = R.legal_results(mover, opponent, dice)
    if res == {(tuple(mover), tuple(opponent))}:
        return set()
    return res


def compare(mover, opponent, dice):
    """None when the core agrees with the reference, else a readable report."""
    got_list = core_results(mover, opponent, dice)
    got = set(got_list)
    want = ref_results(mover, opponent, dice)
    problems = []
    if len(got) != len(got_list):
        problems.append(f"core returned {len(got_list) - len(got)} duplicate result(s)")
    if got != want:
        problems.append(f"core has {len(got)}, reference {len(want)}")
        for m, o in sorted(got - want):
            problems.append(f"  only core:      mover={m} opp={o}")
        for m, o in sorted(want - got):
            problems.append(f"  only reference: mover={m} opp={o}")
    if not problems:
        return None
    return "\n".join([f"position mover={tuple(mover)} opponent={tuple(opponent)} dice={dice}",
                      f"  {pos_of(mover, opponent)!r}"] + problems)


def max_dice_playable(mover, opponent, dice):
    """How many dice a complete legal move uses (from the reference's sequence search)."""
    d1, d2 = dice
    start = (tuple(mover), tuple(opponent))
    if d1 == d2:
        return len(R._play_sequence(start, (d1,) * 4)) - 1
    best = max(len(R._play_sequence(start, (d1, d2))), len(R._play_sequence(start, (d2, d1))))
    if best == 3:
        return 2
    return 1 if (R.single_moves(*start, d1) or R.single_moves(*start, d2)) else 0


def apply_step(state, f, t):
    """One checker from mover index f (24 = bar) to t (-1 = off); hits a blot."""
    m, o = list(state[0]), list(state[1])
    m[f] -= 1
    if t == -1:
        m[OFF] += 1
    else:
        m[t] += 1
        if o[23 - t] == 1:
            o[23 - t] = 0
            o[BAR] += 1
    return tuple(m), tuple(o)


def steps_are_legal(mover, opponent, dice, steps):
    """The final state if ``steps`` can be played as single legal die moves (reference's
    single_moves) with a sub-multiset of the roll's dice, else None.  Checks hit flags."""
    d1, d2 = dice
    pool = [d1] * 4 if d1 == d2 else [d1, d2]

    def rec(state, k, pool):
        if k == len(steps):
            return state
        f, t, hit = steps[k]
        if t >= 0 and hit != (state[1][23 - t] == 1):
            return None
        if t == -1 and hit:
            return None
        for d in sorted(set(pool)):
            if (t == -1 and d < f + 1) or (t != -1 and d != f - t):
                continue
            nxt = apply_step(state, f, t)
            if nxt not in R.single_moves(*state, d):
                continue
            rest = list(pool)
            rest.remove(d)
            end = rec(nxt, k + 1, rest)
            if end is not None:
                return end
        return None

    return rec((tuple(mover), tuple(opponent)), 0, pool)


def random_roll(rng):
    return (rng.randint(1, 6), rng.randint(1, 6))


# -------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def positions():
    """~11,000 reachable positions: two uniform-random-play seeds (each with a third of
    race-biased games mixed in) and a strongly race-biased sample for bear-offs."""
    pos = R.random_positions(6000, seed=424242)
    pos += R.random_positions(2500, seed=2718)
    pos += R.random_positions_race(2500, seed=31415)
    pos += R.random_positions_race(500, seed=99, greedy=0.5)
    return pos


def test_positions_cover_every_phase(positions):
    assert len(positions) >= 10_000
    counts = {}
    for m, o in positions:
        ph = R.phase(m, o)
        counts[ph] = counts.get(ph, 0) + 1
    for ph in ("bar", "contact", "race", "bearoff"):
        assert counts.get(ph, 0) >= 500, counts


# ------------------------------------------------------------------ core vs reference

def test_core_vs_reference_random_roll(positions):
    rng = random.Random(20240611)
    failures = []
    passes = 0
    for m, o in positions:
        dice = random_roll(rng)
        err = compare(m, o, dice)
        if err:
            failures.append(err)
        passes += not ref_results(m, o, dice)
    assert not failures, f"{len(failures)} mismatches; first ones:\n" + "\n\n".join(failures[:5])
    assert passes > 0  # the sample includes positions where the mover cannot move


def test_core_vs_reference_all_rolls(positions):
    failures = []
    sample = positions[::30]  # ~380 positions x 21 rolls
    assert len(sample) >= 300
    for m, o in sample:
        for roll in R.ALL_ROLLS:
            for dice in {roll, roll[::-1]} if roll[0] != roll[1] else {roll}:
                err = compare(m, o, dice)
                if err:
                    failures.append(err)
    assert not failures, f"{len(failures)} mismatches; first ones:\n" + "\n\n".join(failures[:5])


def test_dice_order_irrelevant(positions):
    rng = random.Random(5)
    for m, o in positions[:1500]:
        d1, d2 = random_roll(rng)
        p = pos_of(m, o)
        a = set(p.legal_moves((d1, d2)).results())
        b = set(p.legal_moves((d2, d1)).results())
        assert a == b, (m, o, (d1, d2))


# -------------------------------------------------------------------------- core vs gnubg

def _gnubg():
    return pytest.importorskip("gnubg")


def gnubg_moves(gnubg, mover, opponent, dice):
    board = (tuple(opponent[:25]), tuple(mover[:25]))  # side on roll second
    ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    return [x["move"] for x in gnubg.findbestmoves(board, gnubg.cubeinfo(), ec, tuple(dice))]


def apply_gnubg(mover, opponent, mv):
    """A gnubg move tuple without bear-offs (pairs of 1-based points, 25 = bar), applied
    by hand: a checker landing on a lone opponent checker hits it."""
    state = (tuple(mover), tuple(opponent))
    for k in range(0, len(mv), 2):
        src, dst = mv[k] - 1, mv[k + 1] - 1  # 25 -> 24 = bar
        assert 0 <= dst < 24 and state[0][src] > 0 and state[1][23 - dst] <= 1, mv
        state = apply_step(state, src, dst)
    return state


def test_core_vs_gnubg(positions):
    gnubg = _gnubg()
    rng = random.Random(777)
    sample = positions[1::3][:3500]
    assert len(sample) >= 3000
    n_applied = n_cut = n_pass = 0
    failures = []
    for m, o in sample:
        dice = random_roll(rng)
        gm = gnubg_moves(gnubg, m, o, dice)
        core = set(core_results(m, o, dice))
        ctx = f"mover={m} opponent={o} dice={dice}"
        if len(gm) != len(core):
            failures.append(f"{ctx}: gnubg {len(gm)} moves {gm}, core {len(core)}")
            continue
        n_pass += not gm
        for mv in gm:
            if len(mv) % 2 == 0 and 0 not in mv:
                r = apply_gnubg(m, o, mv)
                n_applied += 1
                if r not in core:
                    failures.append(f"{ctx}: gnubg move {mv} -> {r} not among the core's results")
            else:
                n_cut += 1
    assert not failures, f"{len(failures)} mismatches:\n" + "\n".join(failures[:10])
    assert n_applied > 10_000 and n_cut > 100 and n_pass > 0, (n_applied, n_cut, n_pass)


def test_core_vs_gnubg_all_rolls(positions):
    gnubg = _gnubg()
    failures = []
    for m, o in positions[7::110]:
        for dice in R.ALL_ROLLS:
            gm = gnubg_moves(gnubg, m, o, dice)
            core = set(core_results(m, o, dice))
            if len(gm) != len(core):
                failures.append(f"mover={m} opponent={o} dice={dice}: gnubg {len(gm)}, core {len(core)}")
                continue
            for mv in gm:
                if len(mv) % 2 == 0 and 0 not in mv and apply_gnubg(m, o, mv) not in core:
                    failures.append(f"mover={m} opponent={o} dice={dice}: {mv} missing")
    assert not failures, "\n".join(failures[:10])


# ------------------------------------------------------------- one move made alone

def test_pick_is_the_listed_move(positions):
    """Engine.pick(index) counts the last steps of a search instead of making them and sorts
    out repeated results by rule (which intermediate landing hit); it must give exactly the
    listed move at every index, on every phase (bar, contact, race, bear-off)."""
    engine = BG.engine
    failures = []
    phases = set()
    for m, o in positions[::4]:
        key = pos_of(m, o)._key
        phases.add(R.phase(m, o))
        for d1, d2 in R.ALL_ROLLS:
            failures += [(m, o, *e) for e in pick_mismatches(engine, key, d1, d2)]
            if d1 != d2:
                failures += [(m, o, *e) for e in pick_mismatches(engine, key, d2, d1)]
    assert phases >= {"bar", "contact", "race", "bearoff"}
    assert not failures, f"{len(failures)} mismatches, first: {failures[:3]}"


def test_entering_against_every_set_of_held_entry_points():
    """A checker on the bar against each of the 64 sets of the opponent's home points held
    (a roll whose entry points are all held passes before any search): the core's moves,
    count and picked move agree with the reference on every roll, one or two on the bar."""
    engine = BG.engine
    failures = []
    for held in range(64):
        points = [j for j in range(6) if held >> j & 1]
        opp = [0] * 26
        for j in points:
            opp[j] = 2
        opp[12] = 15 - 2 * len(points)
        for on_bar in (1, 2):
            mover = [0] * 26
            mover[BAR] = on_bar
            mover[5] = 15 - on_bar - 1
            mover[2] = 1
            for dice in R.ALL_ROLLS:
                problem = compare(mover, opp, dice)
                if problem:
                    failures.append(problem)
                key = pos_of(mover, opp)._key
                failures += [(held, on_bar, *e) for e in pick_mismatches(engine, key, *dice)]
    assert not failures, f"{len(failures)} mismatches, first: {failures[:3]}"


def test_pick_on_arbitrary_valid_positions():
    """Valid positions no game need reach (checkers dealt at random, bar and off included):
    the count and the moves at the first, a middle and the last index are the listed ones."""
    engine = BG.engine
    rng = random.Random(424243)
    failures, checked = [], 0
    while checked < 2000:
        us, them = [0] * 26, [0] * 26
        for side, other in ((us, them), (them, us)):
            placed = 0
            while placed < 15:
                k = rng.choice([rng.randrange(26), rng.randrange(24), rng.randrange(6), 24, 25])
                if k < 24 and other[23 - k] > 0:
                    continue
                side[k] += 1
                placed += 1
        if us[25] == 15 or them[25] == 15:
            continue
        key = pos_of(tuple(us), tuple(them))._key
        checked += 1
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                listed = engine.legal(key, d1, d2).keys()
                n = len(listed)
                for index in {0, n // 2, max(n - 1, 0)}:
                    got = engine.pick(key, d1, d2, index)
                    if got[0] != n or (n and got[1] != listed[index]):
                        failures.append((us, them, d1, d2, index, got[0], n))
    assert not failures, f"{len(failures)} mismatches, first: {failures[:2]}"


def test_pick_repeated_results_by_hits():
    """Hand-made: one checker can carry hi + lo three ways; blots on the intermediate points
    make the ways different moves. The mover (indices 0..23, 24 bar) has checkers on 12 and 9;
    6-3 plays 12 -> 6 -> 3, 9 -> 3 -> ... . Every placement of opponent blots on the
    intermediate points 9, 6 must give pick() the listed moves."""
    engine = BG.engine
    failures = []
    for blots in itertools.product([False, True], repeat=3):
        mover = [0] * 26
        mover[12], mover[9], mover[0] = 2, 2, 11
        opp = [0] * 26
        placed = 0
        for on_blot, point in zip(blots, (6, 3, 8)):  # mover's indices
            if on_blot:
                opp[23 - point] = 1
                placed += 1
        opp[0] = 15 - placed
        key = pos_of(tuple(mover), tuple(opp))._key
        for d1, d2 in ((6, 3), (3, 6), (4, 3), (3, 1)):
            failures += pick_mismatches(engine, key, d1, d2)
    assert not failures, failures


def test_pick_rejects_a_negative_index():
    with pytest.raises(nardy.Error, match="index"):
        BG.engine.pick(nardy.Position(BG)._key, 3, 1, -1)


def test_pick_other_variants_fall_back_to_the_list():
    for variant in (nardy.find_variant("long-nardy")(), nardy.Backgammon(no_hit_and_hide=True)):
        p = nardy.Position(variant)
        for d1, d2 in ((6, 5), (3, 3), (2, 1)):
            assert not pick_mismatches(variant.engine, p._key, d1, d2)


# ------------------------------------------------------------------- batch afterstates

def test_afterstates_batch_matches_legal_moves(positions):
    rng = random.Random(4)
    sample = positions[::4]
    dice = [random_roll(rng) for _ in sample]
    # include a few rows with all 21 rolls of one position, and the opening
    for roll in R.ALL_ROLLS:
        sample = sample + [R.initial()]
        dice = dice + [roll]
    boards = np.array([[m, o] for m, o in sample], dtype=np.int8)
    dice_arr = np.array(dice, dtype=np.int16)
    arr, offsets = batch.afterstates(boards, dice_arr, BG)
    n = len(sample)
    assert arr.dtype == np.int8 and arr.ndim == 3 and arr.shape[1:] == (2, 26)
    assert offsets.dtype == np.int64 and offsets.shape == (n + 1,)
    assert offsets[0] == 0 and offsets[-1] == arr.shape[0]
    assert np.all(np.diff(offsets) >= 0)
    for i, ((m, o), d) in enumerate(zip(sample, dice)):
        rows = arr[offsets[i]:offsets[i + 1]]
        got = [(tuple(int(x) for x in r[0]), tuple(int(x) for x in r[1])) for r in rows]
        single = core_results(m, o, d)
        assert len(got) == len(set(got)), (m, o, d)
        assert set(got) == set(single), (m, o, d)
        assert set(got) == ref_results(m, o, d), (m, o, d)


def test_afterstates_rejects_bad_input():
    good = np.array([list(R.initial())], dtype=np.int8)
    with pytest.raises(nardy.InvalidDiceError):
        batch.afterstates(good, np.array([[0, 3]], dtype=np.int16), BG)
    with pytest.raises(nardy.InvalidDiceError):
        batch.afterstates(good, np.array([[1, 3], [2, 2]], dtype=np.int16), BG)
    # values of a wider type are checked, not wrapped into int8 (65537 would become a 1)
    with pytest.raises(nardy.InvalidDiceError):
        batch.afterstates(good, np.array([[65537, 3]], dtype=np.int64), BG)
    wide = good.astype(np.int64)
    wide[0, 0, 5] += 256
    with pytest.raises(nardy.InvalidPositionError):
        batch.afterstates(wide, (1, 3), BG)
    bad = good.copy()
    bad[0, 0, 0] += 1  # 16 checkers
    with pytest.raises(nardy.InvalidPositionError):
        batch.afterstates(bad, np.array([[1, 3]], dtype=np.int16), BG)
    empty, offs = batch.afterstates(np.zeros((0, 2, 26), np.int8), np.zeros((0, 2), np.int16),
                                    BG)
    assert empty.shape[0] == 0 and list(offs) == [0]


# ---------------------------------------------------------- steps, play, notation round-trip

def test_steps_and_notation_round_trip(positions):
    rng = random.Random(1234)
    sample = positions[2::4][:2000]
    n_moves = 0
    seen_marks = set()
    for m, o in sample:
        dice = random_roll(rng)
        p = pos_of(m, o)
        moves = p.legal_moves(dice)
        results = moves.results()
        assert len(moves) == len(results)
        want_len = max_dice_playable(m, o, dice)
        for move, res in zip(moves, results):
            ctx = (m, o, dice, move.steps)
            them, us = res.sides()
            # the steps are single legal die moves using the roll, and lead to the result
            assert len(move.steps) == want_len, ctx
            assert steps_are_legal(m, o, dice, move.steps) == (us, them), ctx
            assert p.play_unchecked(move) == res, ctx
            if len(moves) > 40 and rng.random() > 40 / len(moves):
                continue  # notation checks on at most ~40 moves of one roll (runtime)
            assert move in moves
            text = move.notation()
            assert p.play(text, dice) == res, (ctx, text)
            assert p.parse_move(text, dice) == move, (ctx, text)
            assert p.play(move, dice) == res, ctx
            for mark in ("*", "bar/", "/off", "(", "/"):
                if mark in text:
                    seen_marks.add(mark)
            if any(len(chain.split("/")) > 2 or (chain.count("/") == 1 and _skips(chain, dice))
                   for chain in text.split()):
                seen_marks.add("chain")
            n_moves += 1
        if not moves:
            assert want_len == 0
            assert p.parse_move("pass", dice) == nardy.PASS
            assert p.play("pass", dice) == p.pass_turn()
    assert n_moves > 15_000
    assert seen_marks == {"*", "bar/", "/off", "(", "/", "chain"}, seen_marks


def _skips(chain, dice):
    """A 'from/to' whose distance is no single die: the chain stands for several steps."""
    a, b = chain.split("(")[0].rstrip("*").split("/")
    if "off" in b:
        return False
    a = 25 if a == "bar" else int(a)
    return (a - int(b.rstrip("*"))) not in dice


# ----------------------------------------------------------------------- opening figures

OPENING_COUNTS = {(1, 1): 42, (2, 2): 75, (3, 3): 73, (4, 4): 52, (3, 1): 16, (6, 6): 11}


@pytest.mark.parametrize("roll,count", sorted(OPENING_COUNTS.items()))
def test_opening_counts(roll, count):
    p = nardy.Position(BG)
    assert len(p.legal_moves(roll)) == count
    assert len(p.legal_moves(roll[::-1])) == count


def test_opening_perft():
    p = nardy.Position("backgammon")
    assert nardy.perft(p, 0) == 1
    assert nardy.perft(p, 1) == 447
    assert nardy.perft(p, 2) == 202_782
    assert nardy.perft(p, 1, rolls=36) == 637
    assert nardy.perft(p, 2, rolls=36) == 419_783


@pytest.mark.parametrize("depth,rolls", [(1, 21), (2, 21), (1, 36), (2, 36)])
def test_divide_sums_to_perft(depth, rolls):
    p = nardy.Position("backgammon")
    rows = nardy.divide(p, depth, rolls)
    assert sum(n for _, n in rows) == nardy.perft(p, depth, rolls)
    # one row per distinct roll, written larger die first; with 36 rolls a non-double
    # row counts both orders
    assert sorted(d for d, _ in rows) == sorted((b, a) for a, b in R.ALL_ROLLS)
    if depth == 1:
        for (d1, d2), n in rows:
            weight = 2 if rolls == 36 and d1 != d2 else 1
            assert n == weight * len(p.legal_moves((d1, d2)))
            assert n == weight * len(R.legal_results(*R.initial(), (d1, d2)))


def test_divide_per_roll_matches_reference_depth2():
    # depth 2 per roll from a midgame position, the second ply by the reference
    m = side(i23=1, i20=1, i12=4, i7=2, i5=4, i4=2, i2=1)
    o = side(i23=2, i17=1, i12=4, i7=3, i5=4, i2=1)
    p = pos_of(m, o)
    for (d1, d2), n in nardy.divide(p, 2):
        kids = R.legal_results(m, o, (d1, d2))
        want = 0
        for km, ko in kids:
            om, oo = R.swap(km, ko)
            want += sum(len(R.legal_results(om, oo, r)) for r in R.ALL_ROLLS)
        assert n == want, (d1, d2)


# ------------------------------------------------------------- hand-worked rule positions
# Opponent index j lies on mover index 23 - j.  Expected sets derived by hand from the rules.

def results_of(mover, opponent, dice):
    return set(core_results(mover, opponent, dice))


def test_bar_6_4_must_enter_with_the_4():
    # White on the bar rolls 6-4; the entry point for the 6 (mover index 18 = opp index 5)
    # is closed and mover index 14 (opp 9) too, so the entered checker cannot continue with
    # the 6: enter with the 4 (bar/21), then the 6 must be 13/7; 6/off is illegal (not home).
    mover = side(bar=1, i12=2, i5=12)
    opp = side(i5=2, i9=2, i0=11)
    want = {(side(i20=1, i12=1, i6=1, i5=12), opp)}
    assert results_of(mover, opp, (6, 4)) == want
    assert results_of(mover, opp, (4, 6)) == want
    p = pos_of(mover, opp)
    assert [m.notation() for m in p.legal_moves((6, 4))] == ["bar/21 13/7"]


def test_bar_entered_checker_may_continue():
    mover = side(bar=1, i12=2, i5=12)
    opp = side(i5=2, i0=13)
    assert results_of(mover, opp, (6, 4)) == {
        (side(i20=1, i12=1, i6=1, i5=12), opp),  # bar/21 13/7
        (side(i14=1, i12=2, i5=12), opp),  # bar/15
    }


def test_nothing_moves_while_a_checker_is_on_the_bar():
    # two on the bar, only the 4 enters: one checker enters, the other stays, the 6 is lost
    mover = side(bar=2, i5=13)
    opp = side(i5=2, i0=13)
    assert results_of(mover, opp, (6, 4)) == {(side(bar=1, i20=1, i5=13), opp)}


def test_closed_board_is_a_pass():
    mover = side(bar=1, i5=14)
    opp = side(i0=2, i1=2, i2=2, i3=2, i4=2, i5=2, i6=3)
    p = pos_of(mover, opp)
    for roll in R.ALL_ROLLS:
        assert len(p.legal_moves(roll)) == 0
    assert nardy.perft(p, 1) == 21  # a pass counts one child per roll
    assert p.play("pass", (6, 6)) == p.pass_turn()


def test_larger_die_when_only_one_can_be_played():
    # only the checker on index 12 can move; 12-6=6 and 12-2=10 are open, but the landing
    # index 4 (opp 19) is blocked for both orders: the larger die (6) must be played
    mover = side(i12=1, i0=14)
    opp = side(i19=2, i0=13)
    assert results_of(mover, opp, (6, 2)) == {(side(i6=1, i0=14), opp)}
    assert results_of(mover, opp, (2, 6)) == {(side(i6=1, i0=14), opp)}
    # with the 6 blocked as well (opp 17), the 2 is played
    opp2 = side(i19=2, i17=2, i0=11)
    assert results_of(mover, opp2, (6, 2)) == {(side(i10=1, i0=14), opp2)}


def test_both_dice_must_be_used_if_possible():
    # 12 -> 6 blocked but 12 -> 10 -> 4 uses both dice: the only legal move
    mover = side(i12=1, i0=14)
    opp = side(i17=2, i0=13)
    assert results_of(mover, opp, (6, 2)) == {(side(i4=1, i0=14), opp)}
    # two checkers, each stuck after one die: the dice must be split between them
    mover = side(i12=1, i9=1, i0=13)
    opp = side(i19=2, i22=2, i0=11)
    assert results_of(mover, opp, (6, 2)) == {
        (side(i6=1, i7=1, i0=13), opp),
        (side(i10=1, i3=1, i0=13), opp),
    }


def test_doubles_play_as_many_as_possible():
    mover = side(i12=1, i0=14)
    opp = side(i20=2, i0=13)  # mover index 3 blocked: 12 -> 9 -> 6 and stuck
    assert results_of(mover, opp, (3, 3)) == {(side(i6=1, i0=14), opp)}


def test_bearoff_overshoot_only_from_highest_point():
    opp = side(i0=15)  # all on the mover's index 23, out of the way
    # checkers on index 3 and 1, 5-1: the 5 bears off only from the highest (index 3)
    mover = side(i3=1, i1=1, off=13)
    assert results_of(mover, opp, (5, 1)) == {
        (side(i0=1, off=14), opp),  # 4/off 2/1
        (side(i1=1, off=14), opp),  # 4/3 then 3/off with the 5 (3 is now highest)
    }
    # 6-4 with checkers on index 4 and 2: 5/off (6) then 3/off (4 overshoots, now highest);
    # or 5/1 (4) and 3/off (6): the 4 may not bear off from index 2 while 4 is occupied
    mover = side(i4=1, i2=1, off=13)
    assert results_of(mover, opp, (6, 4)) == {(side(off=15), opp), (side(i0=1, off=14), opp)}


def test_bearoff_only_when_all_home():
    # one checker still on index 6: 2-1 gives 7/5 then 1/off, or 7/4; nothing bears off first
    mover = side(i6=1, i0=14)
    opp = side(i0=15)
    assert results_of(mover, opp, (2, 1)) == {
        (side(i3=1, i0=14), opp),
        (side(i4=1, i0=13, off=1), opp),
    }


def test_hitting_sends_a_blot_to_the_bar():
    # opponent blot on mover index 11 (opp index 12); 1-2 from index 12: 12/11*/10 or 12/10/9
    mover = side(i12=1, i0=14)
    opp = side(i12=1, i0=14)
    assert results_of(mover, opp, (1, 2)) == {
        (side(i9=1, i0=14), opp),
        (side(i9=1, i0=14), side(bar=1, i0=14)),
    }
    p = pos_of(mover, opp)
    assert sorted(m.notation() for m in p.legal_moves((1, 2))) == ["13/10", "13/12*/10"]
    after = p.play("13/12*/10", (1, 2))
    assert after.sides() == (side(bar=1, i0=14), side(i9=1, i0=14))
    assert after.turn == nardy.BLACK


def test_cannot_land_on_a_made_point():
    mover = side(i7=1, i0=14)
    opp = side(i19=2, i0=13)  # mover index 4 made
    # the 3 (7 -> 4) is blocked; the 1 (7 -> 6) is playable, then 6 -> 3 with the 3
    assert results_of(mover, opp, (3, 1)) == {(side(i3=1, i0=14), opp)}


def test_opening_notation():
    p = nardy.Position("backgammon")
    texts = {m.notation() for m in p.legal_moves((3, 1))}
    assert "8/5 6/5" in texts and "24/20" in texts and "13/9" in texts
    assert "24/13" in {m.notation() for m in p.legal_moves((6, 5))}
    assert "24/18(2) 13/7(2)" in {m.notation() for m in p.legal_moves((6, 6))}
    assert p.play("24/13", (6, 5)) == p.play("24/18 18/13", (6, 5)) == p.play("24/19 19/13", (5, 6))
    assert p.play("13/11(2) 6/4(2)", (2, 2)) == p.play("6/4(2) 13/11 13/11", (2, 2))


def test_notation_bar_entry_and_bearoff():
    mover = side(bar=1, i12=2, i5=12)
    opp = side(i5=2, i0=13)
    p = pos_of(mover, opp)
    assert {m.notation() for m in p.legal_moves((6, 4))} == {"bar/21 13/7", "bar/15"}
    mover = side(i4=1, i2=1, off=13)
    p = pos_of(mover, side(i0=15))
    assert {m.notation() for m in p.legal_moves((6, 4))} == {"5/off 3/off", "5/1 3/off"}
