"""Acey-deucey through the batch calls (nardy.batch): rows, afterstates, keys and features of
positions whose checkers are still to enter (-n in slot 25) against the per-position path,
Position.legal_moves and each result's side arrays (Position.sides, through the variant's
traits), on random reachable positions x all 21 rolls (NARDY_SLOW=1: 1,000 positions instead
of 40)."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

import nardy
from nardy import batch

V = nardy.AceyDeucey()
N_POSITIONS = 1000 if os.environ.get("NARDY_SLOW") == "1" else 40
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _reachable(n: int, seed: int) -> list[nardy.Position]:
    """Positions met in random games (every move of a roll, the named doubles included, as
    Engine.turn_moves lists them), many with checkers still to enter."""
    rng = random.Random(seed)
    engine = V.engine
    out: list[nardy.Position] = []
    while len(out) < n:
        p = nardy.Position(V)
        for _ in range(rng.randrange(0, 60)):
            _, moves = engine.turn_moves(p.key, rng.randint(1, 6), rng.randint(1, 6), 1,
                                         again=True)
            if not moves:
                p = p.pass_turn()
                continue
            key, _, _, again = rng.choice(moves)
            us, them = nardy._core.decode(key, V.core_variant)
            p = nardy.Position.from_sides(V, us, them) if again else \
                nardy.Position.from_sides(V, them, us)
            if p.is_game_over():
                break
        if not p.is_game_over():
            out.append(p)
    return out


@pytest.fixture(scope="module")
def positions() -> list[nardy.Position]:
    return _reachable(N_POSITIONS, seed=2210)


def _expected(positions, dice):
    """Afterstate rows as the batch calls give them (side 0 just moved), from legal_moves."""
    rows, counts = [], []
    for p in positions:
        results = p.legal_moves(dice).results()
        counts.append(len(results))
        rows += [c.sides()[::-1] for c in results]  # the opponent is on roll in a result
    return np.array(rows, dtype=np.int8).reshape(-1, 2, 26), np.concatenate(([0], np.cumsum(counts)))


def test_rows_show_checkers_still_to_enter(positions):
    arr = batch.to_array(positions)
    want = np.array([p.sides() for p in positions], dtype=np.int8)
    assert (arr == want).all()
    assert (arr[:, :, 25] < 0).sum() > len(positions) // 3, "the sample needs checkers to enter"
    assert (arr[:, :, 25] > 0).any() or (arr[:, :, 24] > 0).any()
    back = batch.from_array(arr, V)
    assert [b.sides() for b in back] == [p.sides() for p in positions]


@pytest.mark.parametrize("dice", ROLLS)
def test_afterstates_against_legal_moves(positions, dice):
    want, want_off = _expected(positions, dice)
    got, off = batch.afterstates(positions, dice)
    assert (off == want_off).all()
    assert got.shape == want.shape and (np.asarray(got) == want).all()
    keys, key_off = batch.afterstate_keys(positions, dice)
    assert (key_off == want_off).all()
    assert (np.asarray(batch.keys_to_boards(keys, V)) == want).all()


def test_afterstates_with_threads_and_features(positions):
    dice = np.array([ROLLS[i % len(ROLLS)] for i in range(len(positions))], dtype=np.int8)
    one, off1 = batch.afterstates(positions, dice)
    two, off2 = batch.afterstates(positions, dice, threads=2)
    assert (off1 == off2).all() and (np.asarray(one) == np.asarray(two)).all()
    assert (np.asarray(one)[:, :, 25] < 0).sum() > len(positions)
    feats, foff = batch.afterstate_features(positions, dice, "tdgammon")
    assert (foff == off1).all()
    # encode() counts checkers still to enter as on the bar (tdgammon unit 96: bar / 2)
    assert np.allclose(feats, batch.encode(one, "tdgammon"))
    waiting = np.asarray(one)[:, 0, 24] - np.minimum(np.asarray(one)[:, 0, 25], 0)
    assert np.allclose(feats[:, 96], waiting / 2)
    assert np.allclose(feats[:, 97], np.maximum(np.asarray(one)[:, 0, 25], 0) / 15)
