"""Nackgammon against independent generators: the pure-Python backgammon reference playing
from Nackgammon's setup (written here from docs/rules/nackgammon.md, not taken from the core)
on thousands of positions x all 21 rolls, and gnubg's move generator. The perft figures from
the start are in tests/perft/nackgammon.perft (computed with the reference)."""

from __future__ import annotations

import pytest

import nardy
from nardy import _core

try:
    from tests.reference import backgammon_family as F
    from tests.reference import backgammon_ref as R
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import backgammon_family as F  # type: ignore[no-redef]
    from reference import backgammon_ref as R  # type: ignore[no-redef]

# 2 on the 24-point, 2 on the 23, 4 on the 13, 3 on the 8, 4 on the 6 (index = point - 1).
START = F.side_of({23: 2, 22: 2, 12: 4, 7: 3, 5: 4})
NACK = nardy.Nackgammon()


@pytest.fixture(scope="module")
def positions():
    return R.random_positions(2000, seed=20261201, start=START)


def test_setup_is_the_rules_setup():
    assert sum(START) == 15
    assert NACK.initial_side() == START
    info = _core.variant_info(NACK.core_variant)
    assert tuple(info["start"]) == START
    assert info["checkers"] == 15


def test_found_by_name():
    assert nardy.find_variant("nackgammon") is nardy.Nackgammon
    assert nardy.find_variant("Nack") is nardy.Nackgammon


def test_positions_cover_every_phase(positions):
    phases = {R.phase(m, o) for m, o in positions}
    assert phases == {"bar", "bearoff", "contact", "race"}
    assert all(R.is_valid(m, o) for m, o in positions)


def test_core_vs_reference_all_rolls(positions):
    assert len(positions) >= 2000
    failures = F.compare_with_reference(NACK, positions)
    assert not failures, "\n".join(failures)


def test_core_vs_gnubg(positions):
    gnubg = pytest.importorskip("gnubg")
    failures = F.compare_with_gnubg(gnubg, NACK, positions[:600], rolls_each=3, seed=5)
    assert not failures, "\n".join(failures)


def test_game_end_kinds_are_backgammons():
    # White bore off everything; black has a checker in white's home board: a backgammon.
    winner = F.side_of({25: 15})
    loser = F.side_of({23: 1, 12: 14})
    res = NACK.engine.game_end(_core.encode(loser, winner))
    assert res == (-1, "backgammon", 3)
