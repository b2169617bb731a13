"""A whole turn's move found without listing the turn: ``TurnMoves`` answers ``played``,
``bool`` and ``in``, and ``Game`` plays a move given as a Move or as text, by searching the
turn towards the move's result. Checked against the listed turn (itself checked against the
pure-Python reference in tests/test_reference_gul_bara.py) on positions of random games, and
on the cascade of millions of moves that a 1-1 gives on the third turn of an opening."""

from __future__ import annotations

import random

import pytest

import nardy
from nardy.perft import LATE_TURN
from tests.test_gul_bara_game import small_cascade_game

V = nardy.GulBara()
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _positions(seeds: range) -> list[nardy.Position]:
    out = []
    for seed in seeds:
        g = small_cascade_game(seed)
        r = nardy.Game(V, seed=seed)
        for ply, action in enumerate(g.history):
            r.apply(action)
            # (from the middle game on: a low double near the start lists millions of moves)
            if r.phase is nardy.Phase.ROLL and ply >= 60:
                out.append(r.position)
    return out


def _fresh(pos: nardy.Position, dice: tuple[int, int], turn: int):
    return V.engine.turn_legal(pos.key, dice[0], dice[1], turn)


def test_found_moves_are_the_listed_moves():
    rng = random.Random(7)
    positions = _positions(range(3))
    checked = refused = 0
    for pos in rng.sample(positions, 60):
        for dice in rng.sample(ROLLS, 5) + [(d, d) for d in rng.sample(range(3, 7), 2)]:
            listed = _fresh(pos, dice, LATE_TURN)
            keys = listed.keys()
            if len(keys) > 20000:
                continue
            lazy = _fresh(pos, dice, LATE_TURN)
            assert lazy.played == listed.played
            assert not lazy.listed
            for key in rng.sample(keys, min(25, len(keys))):
                found = lazy.resolve(key)
                assert found is not None
                steps, named, again = found
                assert (named, again) == (0, False)
                assert len(steps) == listed.played
                assert V.engine.apply(pos.key, list(steps)) == key
                checked += 1
            # results of other turns from the same position: a turn of the first double only
            # (no cascade) and the other rolls' turns, legal here only where listed
            known = set(keys)
            others = _fresh(pos, dice, 1).keys() + _fresh(pos, rng.choice(ROLLS), LATE_TURN).keys()
            for key in rng.sample(others, min(25, len(others))):
                found = lazy.resolve(key)
                assert (found is not None) == (key in known)
                refused += found is None
            assert not lazy.listed
    assert checked > 1000 and refused > 100


def _cascade_game() -> nardy.Game:
    """White on his third turn at the start, with a 1-1 to play: every double up to 6-6, some
    3.2 million distinct results."""
    g = nardy.Game(V, position=nardy.Position(V), turn_number=3, seed=1)
    g.roll((1, 1))
    return g


def _some_legal_key(g: nardy.Game, word: int) -> bytes:
    pos = g.position
    picked = V.engine.turn_pick(pos.key, 1, 1, g.turn_number, word)
    assert picked is not None
    return picked[0]


@pytest.mark.parametrize("word", [1, 2, 3])
def test_a_game_plays_a_cascade_of_millions_without_listing_it(word):
    g = _cascade_game()
    legal = g.legal_moves()
    assert legal.played == 24 and legal
    key = _some_legal_key(g, word)
    steps, _, _ = legal._core_set.resolve(key)
    move = nardy.Move(steps)
    assert move in legal
    # the same move written as notation, in a second game
    text = move.notation(V, g.position.turn)
    h = _cascade_game()
    g.play(move)
    h.play(text)
    expected = nardy.Position._raw(V, nardy._core.swap(key), 1)
    assert g.position == h.position == expected
    assert not legal._core_set.listed
    # the record replays without listing either
    assert nardy.Game.from_text(g.to_text()).position == expected


def test_a_move_short_of_the_cascade_is_refused():
    g = _cascade_game()
    legal = g.legal_moves()
    four = nardy.Move([(23, 22, False)] * 4)  # the 1-1 alone: the cascade plays 24 dice
    assert four not in legal
    before = g.position
    with pytest.raises(nardy.IllegalMoveError):
        g.play(four)
    with pytest.raises(nardy.IllegalMoveError):
        g.play(four.notation(V, g.position.turn))
    with pytest.raises(nardy.IllegalMoveError):
        g.pass_turn()
    assert g.position == before and g.phase is nardy.Phase.MOVE
    assert not legal._core_set.listed
