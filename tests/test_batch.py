"""nardy.batch: numpy afterstates and feature encodings.

* afterstates (and their steps) equal what Position.legal_moves returns, for backgammon, long
  nardy and Shlem on positions from random games;
* the TD-Gammon encoding against an independent pure-Python implementation written from the
  published description (Tesauro via Sutton & Barto: four units a point and side, n >= 1, 2, 3
  and (n - 3) / 2, the bar n / 2, borne off n / 15, two side-to-move units); gnubg's raw
  inputs from gnubg's baseInputs; the long-nardy and Shlem encodings from their documentation;
* shapes and dtypes validated with nardy errors; many Python threads at once get the serial
  answers.
"""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

import nardy
from nardy import batch

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


def random_positions(variant: str, n: int, seed: int) -> list[nardy.Position]:
    """Positions met in random games (the mover on roll), the start included."""
    rng = random.Random(seed)
    v = nardy.find_variant(variant)()
    out: list[nardy.Position] = []
    while len(out) < n:
        p = nardy.Position(v)
        for _ in range(400):
            if p.is_game_over() or len(out) >= n:
                break
            out.append(p)
            d = (rng.randint(1, 6), rng.randint(1, 6))
            moves = p.legal_moves(d)
            p = rng.choice(moves.results()) if moves else p.pass_turn()
    return out


@pytest.fixture(scope="module")
def samples() -> dict[str, list[nardy.Position]]:
    return {"backgammon": random_positions("backgammon", 300, 1),
            "long-nardy": random_positions("long-nardy", 300, 2),
            "shlem": random_positions("shlem", 120, 3)}


# ------------------------------------------------------------------------------ afterstates

@pytest.mark.parametrize("variant", ["backgammon", "long-nardy", "shlem"])
def test_afterstates_equal_legal_moves(samples, variant):
    positions = samples[variant]
    rng = random.Random(7)
    dice = [rng.choice(ROLLS) for _ in positions]
    rows, offsets, steps = batch.afterstates(positions, dice, steps=True)
    assert rows.dtype == np.int8 and rows.shape[1:] == (2, 26)
    assert offsets.dtype == np.int64 and offsets.shape == (len(positions) + 1,)
    assert steps.dtype == np.int8 and steps.shape == (len(rows), 4, 3)
    assert offsets[0] == 0 and offsets[-1] == len(rows)
    for i, (p, d) in enumerate(zip(positions, dice)):
        moves = p.legal_moves(d)
        want = []
        for r in moves.results():  # opponent on roll: swap back to the mover's view
            them, us = r.sides()
            want.append([list(us), list(them)])
        got = rows[offsets[i]:offsets[i + 1]].tolist()
        assert got == want, (p, d)
        for k, m in enumerate(moves):
            st = steps[offsets[i] + k]
            n = int((st[:, 0] >= 0).sum())
            assert n == len(m.steps)
            assert [(int(a), int(b), bool(h)) for a, b, h in st[:n]] == \
                [(s.from_, s.to, s.hit) for s in m.steps]
            assert (st[n:, 0] == -1).all()


def test_afterstates_arrays_and_positions_agree(samples):
    positions = samples["backgammon"][:50]
    arr = batch.to_array(positions)
    dice = np.array([ROLLS[i % 21] for i in range(len(arr))], dtype=np.int64)
    a_rows, a_off = batch.afterstates(arr, dice, "backgammon")
    p_rows, p_off = batch.afterstates(positions, dice)
    assert np.array_equal(a_rows, p_rows) and np.array_equal(a_off, p_off)
    # other integer dtypes and a broadcast roll
    r1, o1 = batch.afterstates(arr.astype(np.int32), (6, 5))
    r2, o2 = batch.afterstates(arr, np.tile([6, 5], (len(arr), 1)))
    assert np.array_equal(r1, r2) and np.array_equal(o1, o2)


def test_afterstates_threads_and_engine_kernel(samples):
    positions = samples["backgammon"] * 3
    arr = batch.to_array(positions)
    dice = np.array([ROLLS[i % 21] for i in range(len(arr))], dtype=np.int8)
    one = batch.afterstates(arr, dice, steps=True)
    two = batch.afterstates(arr, dice, steps=True, threads=2)
    allc = batch.afterstates(arr, dice, steps=True, threads=0)
    for a, b, c in zip(one, two, allc):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    # threads take chunks of rows in turn: more threads than cores, and features, the same
    three = batch.afterstates(arr, dice, steps=True, threads=3)
    for a, c in zip(one, three):
        assert np.array_equal(a, c)
    f1 = batch.afterstate_features(arr, dice, "tdgammon", results=True)
    f3 = batch.afterstate_features(arr, dice, "tdgammon", results=True, threads=3)
    for a, c in zip(f1, f3):
        assert np.array_equal(a, c)


@pytest.mark.parametrize("variant", ["backgammon", "shlem"])
def test_threads_write_chunks_in_row_order(samples, variant):
    """Every roll of each position: rows whose costs differ a hundredfold (a Shlem double against
    a pass), so the threads finish chunks out of order; each output is still the one-thread
    output, for rows with steps and for keys."""
    positions = [p for p in samples[variant] for _ in ROLLS]
    dice = ROLLS * len(samples[variant])
    one = batch.afterstates(positions, dice, steps=True)
    one_keys = batch.afterstate_keys(positions, dice)
    for threads in (2, 4, 7):
        many = batch.afterstates(positions, dice, steps=True, threads=threads)
        for a, b in zip(one, many):
            assert np.array_equal(a, b), threads
        for a, b in zip(one_keys, batch.afterstate_keys(positions, dice, threads=threads)):
            assert np.array_equal(a, b), threads


def test_pass_gives_an_empty_range():
    # the mover on the bar against a closed board: no legal move for any roll
    mover = [0] * 26
    mover[24], mover[5] = 2, 13
    opp = [0] * 26
    for j in range(6):
        opp[j] = 2
    opp[10] = 3
    p = nardy.Position.from_sides("backgammon", mover, opp)
    rows, off = batch.afterstates([p, p], [(6, 6), (1, 2)])
    assert rows.shape == (0, 2, 26) and off.tolist() == [0, 0, 0]


def test_empty_batch():
    rows, off = batch.afterstates(np.zeros((0, 2, 26), np.int8), np.zeros((0, 2), np.int8))
    assert rows.shape == (0, 2, 26) and off.tolist() == [0]
    assert batch.encode(np.zeros((0, 2, 26), np.int8)).shape == (0, 198)


def test_to_from_array_roundtrip(samples):
    for name in ("backgammon", "long-nardy", "shlem"):
        positions = samples[name][:40]
        arr = batch.to_array(positions)
        assert arr.shape == (40, 2, 26) and arr.dtype == np.int8
        back = batch.from_array(arr, positions[0].variant, [p.turn for p in positions])
        assert back == positions
    p = nardy.Position("backgammon")
    rows, _ = batch.afterstates([p], [(3, 1)])
    children = batch.from_array(rows, "backgammon", turn=nardy.BLACK, swap=True)
    assert children == p.legal_moves((3, 1)).results()


# ------------------------------------------------------------------------------ validation

def test_errors_are_nardy_value_errors():
    good = batch.to_array([nardy.Position()])
    with pytest.raises(nardy.InvalidPositionError, match=r"shape \(N, 2, 26\)"):
        batch.afterstates(np.zeros((3, 26), np.int8), (3, 1))
    with pytest.raises(nardy.InvalidPositionError, match="integers"):
        batch.afterstates(good.astype(np.float32), (3, 1))
    with pytest.raises(nardy.InvalidPositionError, match="outside"):
        batch.afterstates(good.astype(np.int32) + 20, (3, 1))
    bad = good.copy()
    bad[0, 0, 0] += 1  # 16 checkers
    with pytest.raises(nardy.InvalidPositionError, match="position 0"):
        batch.afterstates(bad, (3, 1))
    with pytest.raises(nardy.InvalidDiceError):
        batch.afterstates(good, (7, 1))
    with pytest.raises(nardy.InvalidDiceError, match=r"\(1, 2\)"):
        batch.afterstates(good, np.ones((2, 2), np.int8))
    with pytest.raises(nardy.InvalidDiceError):
        batch.afterstates(good, [[1.5, 2.0]])
    with pytest.raises(nardy.Error, match="unknown encoding"):
        batch.encode(good, "chess")
    with pytest.raises(nardy.Error, match="on_roll"):
        batch.encode(good, "tdgammon", on_roll=2)
    with pytest.raises(nardy.Error, match="out must be"):
        batch.encode(good, "tdgammon", out=np.zeros((1, 197), np.float32))
    with pytest.raises(nardy.InvalidPositionError):  # long nardy has no bar
        lg = batch.to_array([nardy.Position("long-nardy")])
        lg[0, 0, 23] -= 1
        lg[0, 0, 24] += 1
        batch.afterstates(lg, (1, 2), "long-nardy")
    # the core checks its own inputs too
    with pytest.raises(nardy.InvalidPositionError):
        nardy._core.batch_afterstates(nardy.Backgammon().engine, good.astype(np.int16),
                                      np.ones((1, 2), np.int8))
    assert issubclass(nardy.InvalidPositionError, ValueError)


# ------------------------------------------------------------------------------ encodings
# Independent implementations, one float at a time, from the published descriptions.

def tdgammon_ref(mover, opponent, on_roll):
    """Tesauro's 198 units: for each player, each of 24 points, 4 units: the first is 1 if at
    least one checker, the second 1 if at least two, the third 1 if at least three, the fourth
    (n - 3) / 2 for more than three; then the bar (n / 2) and borne off (n / 15) of that player;
    last, two units for whose turn it is."""
    units = []
    for side in (mover, opponent):
        for point in range(24):
            n = side[point]
            units += [1.0 if n >= 1 else 0.0, 1.0 if n >= 2 else 0.0,
                      1.0 if n >= 3 else 0.0, (n - 3) / 2 if n > 3 else 0.0]
        units += [side[24] / 2, side[25] / 15]
    units += [1.0 if on_roll == 0 else 0.0, 1.0 if on_roll == 1 else 0.0]
    return units


def gnubg_ref(sides, on_roll):
    """gnubg baseInputs: anBoard[0] is the player not on roll, anBoard[1] the player on roll;
    points: n == 1, n == 2, n >= 3, (n - 3) / 2; the bar as >= 1, >= 2, >= 3, (n - 3) / 2."""
    units = []
    for board in (sides[1 - on_roll], sides[on_roll]):
        for point in range(24):
            n = board[point]
            units += [float(n == 1), float(n == 2), float(n >= 3), (n - 3) / 2 if n > 3 else 0.0]
        n = board[24]
        units += [float(n >= 1), float(n >= 2), float(n >= 3), (n - 3) / 2 if n > 3 else 0.0]
    return units


def long_ref(sides, on_roll):
    units = []
    for side in sides:
        for point in range(24):
            n = side[point]
            units += [float(n >= 1), float(n >= 2), float(n >= 3), (n - 3) / 4 if n > 3 else 0.0]
        units += [side[25] / 15, sum((i + 1) * side[i] for i in range(24)) / 360]
    return units + [float(on_roll == 0), float(on_roll == 1)]


def shlem_ref(sides, on_roll):
    units = []
    for side in sides:
        closed = []
        for point in range(24):
            n = side[point]
            f = max(n, 0)
            units += [float(f >= 1), float(f >= 2), (f - 2) / 4 if f > 2 else 0.0, float(n < 0)]
            closed.append(n >= 2)
        longest = run = 0
        for c in closed[12:]:
            run = run + 1 if c else 0
            longest = max(longest, run)
        units += [side[24] / 3, side[25] / 15, longest / 12, sum(closed[12:]) / 12]
    return units + [float(on_roll == 0), float(on_roll == 1)]


def _rows(positions):
    return [p.sides() for p in positions]


def test_tdgammon_matches_published_description(samples):
    positions = samples["backgammon"]
    arr = batch.to_array(positions)
    for on_roll in (0, 1):
        x = batch.encode(arr, "tdgammon", on_roll=on_roll)
        assert x.shape == (len(arr), 198) and x.dtype == np.float32
        want = np.array([tdgammon_ref(us, them, on_roll) for us, them in _rows(positions)],
                        dtype=np.float32)
        assert np.array_equal(x, want)


def test_gnubg_raw_inputs(samples):
    positions = samples["backgammon"]
    arr = batch.to_array(positions)
    rng = np.random.default_rng(0)
    on_roll = rng.integers(0, 2, len(arr))
    x = batch.encode(arr, "gnubg", on_roll=on_roll)
    want = np.array([gnubg_ref(s, int(r)) for s, r in zip(_rows(positions), on_roll)],
                    dtype=np.float32)
    assert x.shape == (len(arr), 200) and np.array_equal(x, want)


def test_long_and_shlem_encodings(samples):
    lp = samples["long-nardy"]
    x = batch.encode(batch.to_array(lp), "long", on_roll=1)
    assert np.allclose(x, np.array([long_ref(s, 1) for s in _rows(lp)], dtype=np.float32),
                       rtol=0, atol=1e-6)
    sp = samples["shlem"]
    arr = batch.to_array(sp)
    assert (arr == -1).any(), "the sample should hold a prisoner"
    x = batch.encode(arr, "shlem")
    assert x.shape == (len(sp), 202)
    assert np.allclose(x, np.array([shlem_ref(s, 0) for s in _rows(sp)], dtype=np.float32),
                       rtol=0, atol=1e-6)


@pytest.mark.parametrize("variant,kind", [("backgammon", "tdgammon"), ("backgammon", "gnubg"),
                                          ("long-nardy", "long"), ("shlem", "shlem")])
def test_afterstate_features_fused(samples, variant, kind):
    positions = samples[variant][:80]
    dice = [ROLLS[i % 21] for i in range(len(positions))]
    rows, off = batch.afterstates(positions, dice)
    feats, off2 = batch.afterstate_features(positions, dice, kind)
    assert np.array_equal(off, off2)
    assert np.array_equal(feats, batch.encode(rows, kind, on_roll=1))
    r3, f3, o3 = batch.afterstate_features(positions, dice, kind, results=True, threads=2)
    assert np.array_equal(r3, rows) and np.array_equal(f3, feats) and np.array_equal(o3, off)


def test_encode_out_and_positions(samples):
    positions = samples["backgammon"][:10]
    out = np.full((10, 198), 7.0, np.float32)
    got = batch.encode(positions, "td-gammon", out=out)
    assert got is out or np.shares_memory(got, out)
    assert np.array_equal(out, batch.encode(batch.to_array(positions)))
    assert batch.encoding_width("gnubg") == 200
    assert batch.default_encoding("long nardy") == "long"


# ------------------------------------------------------------------------------ threads

def test_many_python_threads_get_serial_answers(samples):
    arr = batch.to_array(samples["backgammon"] + samples["backgammon"])
    dice = np.array([ROLLS[(3 * i) % 21] for i in range(len(arr))], dtype=np.int8)
    serial = batch.afterstates(arr, dice, steps=True)
    feats = batch.afterstate_features(arr, dice)
    shared_engine_variant = nardy.Backgammon()
    errors: list[str] = []

    def worker(k: int) -> None:
        for _ in range(5):
            got = batch.afterstates(arr, dice, shared_engine_variant, steps=True)
            if not all(np.array_equal(a, b) for a, b in zip(got, serial)):
                errors.append(f"thread {k}: afterstates differ")
            f = batch.afterstate_features(arr, dice, "tdgammon", shared_engine_variant)
            if not all(np.array_equal(a, b) for a, b in zip(f, feats)):
                errors.append(f"thread {k}: features differ")

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


# -- the benchmark kernel Engine.enumerate_loop --------------------------------------------
@pytest.mark.parametrize("variant", ["backgammon", "long", "shlem"])
def test_enumerate_loop_counts_what_legal_moves_lists(variant):
    positions = random_positions(variant, 12, seed=31)
    engine = nardy.find_variant(variant)().engine
    enums, results, seconds = engine.enumerate_loop(batch.to_array(positions), 2)
    assert enums == 2 * 21 * len(positions)
    assert results == 2 * sum(len(p.legal_moves(d)) for p in positions for d in ROLLS)
    assert seconds >= 0


def test_enumerate_loop_refuses_bad_input_with_nardy_errors():
    engine = nardy.Backgammon().engine
    good = batch.to_array([nardy.Position()])
    wide = good.astype(np.int16)
    wide[0, 0, 0] += 256  # would wrap to the same int8 value if it were cast
    for bad in (wide, good.astype(np.float64), good[:, :, :25], good[0]):
        with pytest.raises(nardy.InvalidPositionError):
            engine.enumerate_loop(bad, 1)
    # a strided int8 view is fine: only its layout is copied
    strided = np.repeat(good, 4, axis=0)[::2]
    assert not strided.flags.c_contiguous
    assert engine.enumerate_loop(strided, 1)[:2] == engine.enumerate_loop(good, 2)[:2]
    broken = good.copy()
    broken[0, 0, 5] = 14  # 23 white checkers
    with pytest.raises(nardy.InvalidPositionError, match="position 0"):
        engine.enumerate_loop(broken, 1)
    with pytest.raises(nardy.Error, match="repeat"):
        engine.enumerate_loop(good, -1)
    assert (good == batch.to_array([nardy.Position()])).all()  # the input is untouched


@pytest.mark.parametrize("variant", ["backgammon", "long-nardy"])
def test_rows_accepted_exactly_when_the_position_is_valid(variant):
    """The core's fast row packer (SIMD) against Position.from_sides's validation, on rows
    from play with one or two counts changed (out of range, negative, wrong totals, a shared
    point, a long-nardy bar): accepted rows give legal_moves' results, the others an error."""
    rng = random.Random(41)
    v = nardy.find_variant(variant)()
    rows = batch.to_array(random_positions(variant, 300, seed=43))
    accepted = rejected = 0
    for i in range(len(rows)):
        row = rows[i].copy()
        if rng.random() < 0.5:  # one checker moved anywhere: valid or not, the total holds
            s, a, b = rng.randrange(2), rng.randrange(26), rng.randrange(26)
            if row[s, a] > 0:
                row[s, a] -= 1
                row[s, b] += 1
        else:
            for _ in range(rng.choice([1, 1, 2])):
                row[rng.randrange(2), rng.randrange(26)] += rng.choice([-16, -1, 1, 2, 15, 16])
        try:
            pos = nardy.Position.from_sides(v, row[0].tolist(), row[1].tolist())
        except nardy.Error:
            pos = None
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if pos is None:
            with pytest.raises(nardy.InvalidPositionError, match="position 0"):
                batch.afterstates(row[None], dice, v)
            rejected += 1
        else:
            got, _ = batch.afterstates(row[None], dice, v)
            want = sorted(child.sides()[::-1] for child in pos.legal_moves(dice).results())
            assert sorted((tuple(r[0]), tuple(r[1])) for r in got.tolist()) == want
            accepted += 1
    assert accepted > 50 and rejected > 100


def test_big_outputs_reused_only_after_numpy_frees_them():
    """Outputs of 4 MiB and more go back to a small block cache when numpy frees them; a live
    array is never handed out again, and a reused block holds only the new results."""
    positions = random_positions("backgammon", 420, seed=47)
    boards = np.repeat(batch.to_array(positions), 21, axis=0)
    dice = np.array(ROLLS * len(positions), dtype=np.int8)
    first, off1 = batch.afterstates(boards, dice)
    assert first.nbytes >= 4 << 20  # big enough for the block path
    kept = first.copy()
    other, _ = batch.afterstates(boards[::-1].copy(), dice[::-1].copy())
    assert not np.shares_memory(first, other)
    assert (first == kept).all()  # untouched while alive
    view = first[10:20]  # a view keeps the block alive too
    del first
    again, off2 = batch.afterstates(boards, dice)
    assert not np.shares_memory(again, view) and not np.shares_memory(again, other)
    assert (again == kept).all() and (off1 == off2).all() and (view == kept[10:20]).all()
    del view, again, other
    for _ in range(3):  # freed blocks come back: still the right results every time
        rows, _ = batch.afterstates(boards, dice)
        assert (rows == kept).all()
