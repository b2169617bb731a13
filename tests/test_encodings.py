"""Every encoding on every variant equals a slow reference written from the layout documented
in nardy.batch.ENCODINGS (and src/nardy/features.hpp), one unit at a time. Which rows are
valid (a held checker, -1, only where the variant or the encoding has one) is the engine's
answer for the variant: Python passes the variant, never a flag chosen by encoding name."""

from __future__ import annotations

import random

import numpy as np
import pytest

import nardy
from nardy import batch


def positions(variant: str, n: int, seed: int) -> list[nardy.Position]:
    rng = random.Random(seed)
    out: list[nardy.Position] = []
    while len(out) < n:
        p = nardy.Position(nardy.find_variant(variant)())
        for _ in range(300):
            if p.is_game_over() or len(out) >= n:
                break
            out.append(p)
            moves = p.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
            p = rng.choice(moves.results()) if moves else p.pass_turn()
    return out


def _count(n: int) -> int:
    # the encodings without a unit for a held checker count it as one of its owner's
    return 1 if n < 0 else n


def _as_encoded(side):
    # checkers still to enter (-n in slot 25, Acey-deucey) are encoded as on the bar
    side = list(side)
    if side[25] < 0:
        side[24], side[25] = side[24] - side[25], 0
    return side


def tdgammon_ref(sides, on_roll):
    u = []
    for side in sides:
        for i in range(24):
            n = _count(side[i])
            u += [n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3 else 0]
        u += [side[24] / 2, side[25] / 15]
    return u + [on_roll == 0, on_roll == 1]


def gnubg_ref(sides, on_roll):
    u = []
    for side in (sides[1 - on_roll], sides[on_roll]):
        for i in range(24):
            n = _count(side[i])
            u += [n == 1, n == 2, n >= 3, (n - 3) / 2 if n > 3 else 0]
        n = side[24]
        u += [n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3 else 0]
    return u


def long_ref(sides, on_roll):
    u = []
    for side in sides:
        counts = [_count(side[i]) for i in range(24)]
        for n in counts:
            u += [n >= 1, n >= 2, n >= 3, (n - 3) / 4 if n > 3 else 0]
        u += [side[25] / 15, sum((i + 1) * n for i, n in enumerate(counts)) / 360]
    return u + [on_roll == 0, on_roll == 1]


def shlem_ref(sides, on_roll):
    u = []
    for side in sides:
        closed = [side[i] >= 2 for i in range(24)]
        for i in range(24):
            f = max(side[i], 0)
            u += [f >= 1, f >= 2, (f - 2) / 4 if f > 2 else 0, side[i] < 0]
        longest = run = 0
        for c in closed[12:]:
            run = run + 1 if c else 0
            longest = max(longest, run)
        u += [side[24] / 3, side[25] / 15, longest / 12, sum(closed[12:]) / 12]
    return u + [on_roll == 0, on_roll == 1]


def plakoto_ref(sides, on_roll):
    """Per side: 24 points x (free f >= 1, f >= 2, f >= 3, (f - 3) / 2), where a pinned
    checker is not free; then 24 units, 1 where the side's checker is pinned; then off / 15.
    Last, two side-to-move units."""
    u = []
    for side in sides:
        for i in range(24):
            f = max(side[i], 0)
            u += [f >= 1, f >= 2, f >= 3, (f - 3) / 2 if f > 3 else 0]
        u += [side[i] < 0 for i in range(24)]
        u += [side[25] / 15]
    return u + [on_roll == 0, on_roll == 1]


REFS = {"tdgammon": tdgammon_ref, "gnubg": gnubg_ref, "long": long_ref, "shlem": shlem_ref,
        "plakoto": plakoto_ref}


def test_every_encoding_has_a_reference():
    assert set(REFS) == set(batch.ENCODINGS)
    for name, (width, _) in batch.ENCODINGS.items():
        assert len(REFS[name](([0] * 26, [0] * 26), 0)) == width


@pytest.mark.parametrize("variant", [c.name for c in nardy.VARIANTS])
def test_encodings_equal_the_reference(variant):
    ps = positions(variant, 60, hash(variant) % 1000)
    rows = batch.to_array(ps)
    sides = [tuple(_as_encoded(side) for side in p.sides()) for p in ps]
    rng = np.random.default_rng(1)
    on_roll = rng.integers(0, 2, len(ps)).astype(np.uint8)
    for kind, ref in REFS.items():
        got = batch.encode(rows, kind, on_roll=on_roll)
        want = np.array([ref(s, int(r)) for s, r in zip(sides, on_roll)], dtype=np.float32)
        assert got.shape == want.shape, kind
        assert np.allclose(got, want, rtol=0, atol=1e-6), (variant, kind)


def test_plakoto_sample_has_pins_and_its_own_default():
    v = nardy.find_variant("plakoto")()
    assert batch.default_encoding(v) == "plakoto"
    rows = batch.to_array(positions("plakoto", 200, 5))
    assert (rows == -1).any(), "the sample should hold a pinned checker"
    x = batch.encode(rows)
    assert x.shape == (len(rows), batch.encoding_width("plakoto"))
    pins = np.stack([x[:, 96:120], x[:, 121 + 96:121 + 120]], axis=1)
    assert np.array_equal(pins, (rows[:, :, :24] == -1).astype(np.float32))


def test_afterstate_features_of_plakoto():
    ps = positions("plakoto", 40, 7)
    dice = [(1 + i % 6, 1 + (i * 5) % 6) for i in range(len(ps))]
    rows, off = batch.afterstates(ps, dice)
    feats, off2 = batch.afterstate_features(ps, dice)
    assert np.array_equal(off, off2)
    assert np.array_equal(feats, batch.encode(rows, "plakoto", on_roll=1))


def test_held_checkers_are_the_variants_answer():
    rows = batch.to_array(positions("plakoto", 200, 5))
    held = rows[(rows == -1).any(axis=(1, 2))]
    plain = np.asarray(held).view(np.ndarray)   # the variant forgotten
    # the variant's rows may hold a pinned checker, whatever the encoding
    for kind in batch.ENCODINGS:
        batch.encode(held, kind)
    # without a variant, only an encoding with a unit for held checkers reads one
    batch.encode(plain, "shlem")
    batch.encode(plain, "plakoto")
    with pytest.raises(nardy.InvalidPositionError, match="-1"):
        batch.encode(plain, "tdgammon")
