"""nardy.batch.afterstate_keys: the results of batch.afterstates alone, as 32-byte keys.

* every key, unpacked, is the afterstate batch.afterstates lists at the same place, and both
  equal Position.legal_moves' results (backgammon, long nardy, Shlem, on positions from random
  games), on one thread and on two;
* keys_to_boards gives the same rows, carrying the variant and side 1 to roll next;
* afterstate_steps recovers the steps of the rows asked for, those of legal_moves;
* bad input raises nardy errors.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import nardy
from nardy import batch

from tests.test_batch import ROLLS, random_positions


@pytest.fixture(scope="module")
def samples() -> dict[str, list[nardy.Position]]:
    return {"backgammon": random_positions("backgammon", 300, 11),
            "long-nardy": random_positions("long-nardy", 200, 12),
            "shlem": random_positions("shlem", 60, 13)}


def _mover_rows(p: nardy.Position, d: tuple[int, int]) -> list[list[list[int]]]:
    """legal_moves' results from the mover's view, as afterstates lists them."""
    out = []
    for r in p.legal_moves(d).results():  # opponent on roll: swap back
        them, us = r.sides()
        out.append([list(us), list(them)])
    return out


@pytest.mark.parametrize("variant", ["backgammon", "long-nardy", "shlem"])
@pytest.mark.parametrize("threads", [1, 2])
def test_keys_are_the_afterstates(samples, variant, threads):
    positions = samples[variant]
    rng = random.Random(5)
    dice = [rng.choice(ROLLS) for _ in positions]
    keys, offsets = batch.afterstate_keys(positions, dice, threads=threads)
    rows, offsets2 = batch.afterstates(positions, dice)
    assert keys.dtype == np.uint8 and keys.shape == (len(rows), 32)
    assert offsets.dtype == np.int64 and offsets.tolist() == offsets2.tolist()
    boards = batch.keys_to_boards(keys, variant)
    assert boards.tolist() == rows.tolist()
    assert boards.variant == positions[0].variant and boards.on_roll == 1
    for i, (p, d) in enumerate(zip(positions, dice)):
        assert boards[offsets[i]:offsets[i + 1]].tolist() == _mover_rows(p, d), (p, d)


def test_steps_on_demand(samples):
    positions = samples["backgammon"]
    rng = random.Random(9)
    dice = [rng.choice(ROLLS) for _ in positions]
    _keys, offsets = batch.afterstate_keys(positions, dice)
    wanted = [3, 17, 120, 299]
    steps, step_offsets = batch.afterstate_steps([positions[i] for i in wanted],
                                                 [dice[i] for i in wanted])
    assert steps.shape == (int(step_offsets[-1]), 4, 3)
    for j, i in enumerate(wanted):
        moves = positions[i].legal_moves(dice[i])
        assert step_offsets[j + 1] - step_offsets[j] == offsets[i + 1] - offsets[i] == len(moves)
        for k, m in enumerate(moves):
            st = steps[step_offsets[j] + k]
            n = int((st[:, 0] >= 0).sum())
            assert [(int(a), int(b), bool(h)) for a, b, h in st[:n]] == \
                [(s.from_, s.to, s.hit) for s in m.steps]


def test_pass_and_empty():
    closed = nardy.Position.from_sides(
        "backgammon", [0] * 12 + [14] + [0] * 11 + [1, 0],
        [2] * 6 + [0] * 4 + [3] + [0] * 15)
    keys, offsets = batch.afterstate_keys([closed], [(6, 5)])
    assert keys.shape == (0, 32) and offsets.tolist() == [0, 0]
    keys, offsets = batch.afterstate_keys(np.zeros((0, 2, 26), np.int8), np.zeros((0, 2), np.int8))
    assert keys.shape == (0, 32) and offsets.tolist() == [0]


def test_errors_are_nardy_errors():
    with pytest.raises(nardy.InvalidPositionError):
        batch.afterstate_keys(np.zeros((2, 2, 25), np.int8), [(1, 2)] * 2)
    with pytest.raises(nardy.InvalidDiceError):
        batch.afterstate_keys([nardy.Position("backgammon")], [(0, 2)])
    with pytest.raises(nardy.InvalidPositionError, match=r"\(M, 32\)"):
        batch.keys_to_boards(np.zeros((3, 31), np.uint8))
    with pytest.raises(nardy.InvalidPositionError, match="uint8"):
        batch.keys_to_boards(np.zeros((3, 32), np.int64))
    bad = np.zeros((1, 32), np.uint8)
    bad[0, 0] = 0xFF  # 15 checkers on point 0 and 15 on point 1: not a position
    with pytest.raises(nardy.InvalidPositionError):
        batch.keys_to_boards(bad)
    with pytest.raises(nardy.Error):
        batch.afterstate_keys([nardy.Position("backgammon")], [(1, 2)], threads=-1)
