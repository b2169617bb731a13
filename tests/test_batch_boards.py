"""Batch rows that carry their variant and side to move: afterstates encode the right way
round without being told, and rows of one variant are refused as another's."""

from __future__ import annotations

import random

import numpy as np
import pytest

import nardy
from nardy import batch


def _positions(name: str, n: int, seed: int = 1) -> list[nardy.Position]:
    rng = random.Random(seed)
    v = nardy.find_variant(name)()
    out, pos = [], nardy.Position(v)
    while len(out) < n:
        if pos.is_game_over():
            pos = nardy.Position(v)
        if pos.turn == nardy.WHITE:
            out.append(pos)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        moves = pos.legal_moves(dice)
        pos = pos.play(moves[rng.randrange(len(moves))], dice) if moves else pos.pass_turn()
    return out


@pytest.mark.parametrize("name", ["backgammon", "long-nardy", "shlem"])
def test_afterstates_encode_the_same_both_ways(name: str) -> None:
    positions = _positions(name, 40 if name != "shlem" else 6)
    arr = batch.to_array(positions)
    assert isinstance(arr, batch.Boards) and arr.on_roll == 0 and arr.variant.name == name
    dice = np.array([[3, 1]] * len(positions))
    boards, offsets = batch.afterstates(arr, dice)
    assert boards.on_roll == 1 and boards.variant == positions[0].variant
    want, offsets2 = batch.afterstate_features(arr, dice)
    assert (offsets == offsets2).all()
    assert np.array_equal(batch.encode(boards), want)               # read from the boards
    kind = batch.default_encoding(name)
    assert np.array_equal(batch.encode(np.asarray(boards), kind, on_roll=1), want)  # told
    # the next player's view: side 0 (now the player to roll) on roll
    assert batch.encode(boards.swapped()).tobytes() == batch.encode(
        np.ascontiguousarray(np.asarray(boards)[:, ::-1]), kind, on_roll=0).tobytes()
    # the trap the Boards close: a plain array is taken for positions (side 0 to move)
    plain = batch.encode(np.asarray(boards), kind)
    assert not np.array_equal(plain, want)
    # an explicit on_roll is taken as given
    assert np.array_equal(batch.encode(boards, on_roll=0), plain)


def test_backgammon_side_to_move_units() -> None:
    boards, _ = batch.afterstates([nardy.Position()], (3, 1))
    x = batch.encode(boards, "tdgammon")
    assert x[:, -2:].tolist() == [[0.0, 1.0]] * len(boards)
    assert batch.encode(np.asarray(boards), "tdgammon")[:, -2:].tolist() == [[1.0, 0.0]] * 16


def test_an_index_into_the_sides_forgets_the_side_to_move() -> None:
    boards, _ = batch.afterstates([nardy.Position()], (3, 1))
    assert boards[:5].on_roll == 1 and boards[3].shape == (2, 26)
    flipped = boards[:, ::-1]
    assert flipped.on_roll is None
    with pytest.raises(nardy.Error, match="on_roll"):
        batch.encode(flipped)
    assert np.array_equal(batch.encode(flipped, on_roll=0), batch.encode(boards.swapped()))


def test_rows_of_one_variant_are_refused_as_another() -> None:
    long = batch.to_array([nardy.Position("long nardy")])
    with pytest.raises(nardy.InvalidPositionError, match="long-nardy positions"):
        batch.afterstates(long, (6, 5), "backgammon")
    with pytest.raises(nardy.InvalidPositionError, match="long-nardy positions"):
        batch.from_array(long, "backgammon")
    # without a variant the rows' own is used
    res, off = batch.afterstates(long, (6, 5))
    assert off.tolist() == [0, 1] and res.variant.name == "long-nardy"


def test_from_array_swaps_afterstates_itself() -> None:
    pos = nardy.Position()
    boards, _ = batch.afterstates([pos], (3, 1))
    got = batch.from_array(boards, turn=nardy.BLACK)
    assert got == pos.legal_moves((3, 1)).results()
    with pytest.raises(nardy.Error, match="contradicts"):
        batch.from_array(boards, swap=False)
    with pytest.raises(nardy.Error, match="afterstates"):
        batch.afterstates(boards, (3, 1))
