"""Hypergammon against independent generators: the pure-Python backgammon reference playing
from Hypergammon's setup (three checkers a side, written here from docs/rules/hypergammon.md,
not taken from the core) on thousands of positions x all 21 rolls, and gnubg's move generator
(which takes boards of any number of checkers). Perft from the start is in
tests/perft/hypergammon.perft (computed with the reference)."""

from __future__ import annotations

import random

import pytest

import nardy
from nardy import _core

try:
    from tests.reference import backgammon_family as F
    from tests.reference import backgammon_ref as R
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import backgammon_family as F  # type: ignore[no-redef]
    from reference import backgammon_ref as R  # type: ignore[no-redef]

# One checker on each of the 24-, 23- and 22-points (index = point - 1).
START = F.side_of({23: 1, 22: 1, 21: 1})
HYPER = nardy.Hypergammon()


@pytest.fixture(scope="module")
def positions():
    return R.random_positions(3000, seed=20261202, start=START)


def test_setup_is_the_rules_setup():
    assert HYPER.initial_side() == START
    assert HYPER.checkers == 3
    info = _core.variant_info(HYPER.core_variant)
    assert tuple(info["start"]) == START
    assert info["checkers"] == 3


def test_found_by_name():
    assert nardy.find_variant("hypergammon") is nardy.Hypergammon
    assert nardy.find_variant("Hyper") is nardy.Hypergammon


def test_validation_counts_three_checkers():
    assert _core.validate(HYPER.core_variant, START, START) == ""
    four = F.side_of({23: 1, 22: 1, 21: 1, 20: 1})
    assert "exactly 3" in _core.validate(HYPER.core_variant, four, START)
    fifteen = nardy.Backgammon().initial_side()
    assert "0..3 allowed" in _core.validate(HYPER.core_variant, fifteen, fifteen)
    assert "exactly 15" in _core.validate(nardy.Backgammon.core_variant, START, START)
    with pytest.raises(nardy.InvalidPositionError):
        nardy.Position.from_sides(HYPER, fifteen, fifteen)


def test_positions_cover_every_phase(positions):
    phases = {R.phase(m, o) for m, o in positions}
    assert phases == {"bar", "bearoff", "contact", "race"}
    assert all(R.is_valid(m, o, checkers=3) for m, o in positions)


def test_core_vs_reference_all_rolls(positions):
    assert len(positions) >= 3000
    failures = F.compare_with_reference(HYPER, positions)
    assert not failures, "\n".join(failures)


def test_core_vs_gnubg(positions):
    gnubg = pytest.importorskip("gnubg")
    failures = F.compare_with_gnubg(gnubg, HYPER, positions[:1000], rolls_each=3, seed=6)
    assert not failures, "\n".join(failures)


def test_batch_rows_of_three_checkers(positions):
    np = pytest.importorskip("numpy")
    rows = np.array([[m, o] for m, o in positions[:200]], dtype=np.int8)
    dice = np.array([random.Random(i).choice(R.ALL_ROLLS) for i in range(200)], dtype=np.int8)
    results, offsets = _core.batch_afterstates(HYPER.engine, rows, dice)
    for i, (m, o) in enumerate(positions[:200]):
        got = {(tuple(r[0]), tuple(r[1])) for r in results[offsets[i]:offsets[i + 1]].tolist()}
        assert got == F.ref_results(m, o, tuple(int(x) for x in dice[i])), (m, o, dice[i])
    with pytest.raises(nardy.InvalidPositionError):
        bad = np.array([[nardy.Backgammon().initial_side()] * 2], dtype=np.int8)
        _core.batch_afterstates(HYPER.engine, bad, np.array([[3, 1]], dtype=np.int8))


def test_game_end_with_three_checkers():
    won = F.side_of({25: 3})
    # the loser bore one off: a single game
    assert HYPER.engine.game_end(_core.encode(F.side_of({3: 2, 25: 1}), won)) == (-1, "single", 1)
    # none off, one in the winner's home board (the loser's indices 18..23): a backgammon
    assert HYPER.engine.game_end(_core.encode(F.side_of({20: 1, 5: 2}), won)) == (
        -1, "backgammon", 3)
    # none off, none there: a gammon
    assert HYPER.engine.game_end(_core.encode(F.side_of({5: 3}), won)) == (-1, "gammon", 2)
    assert HYPER.engine.game_end(_core.encode(START, START)) is None


def test_a_game_plays_to_the_end_with_backgammons_cube_and_scoring():
    assert HYPER.scorings == nardy.Backgammon.scorings
    assert HYPER.cube_allowed and HYPER.default_cube == nardy.Backgammon.default_cube
    game = nardy.Game(HYPER, seed=11)
    while not game.is_game_over():
        if game.phase in ("opening", "roll"):
            game.roll()
        moves = game.legal_moves()
        if len(moves):
            game.play(moves[0])
        else:
            game.pass_turn()
    result = game.result()
    assert result.kind in ("single", "gammon", "backgammon")
    assert game.position.borne_off(result.winner) == 3
