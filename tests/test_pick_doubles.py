"""A double's moves counted without making them (Enumerator::count and pick): where the
checkers stay clear of the bear-off for the whole double, the last three and four steps are
counted from occupancy masks, stacks of two and three included. Every index must still pick
the listed move at that index, on positions from seeded random games of backgammon,
Acey-deucey (whose reserve is one more stack) and Gul bara (long nardy's board: no hitting,
a single checker holds a point)."""

from __future__ import annotations

import random

import pytest

import nardy
from nardy import _core
from tests.support import pick_mismatches

VARIANTS = {"backgammon": _core.Variant.BACKGAMMON, "acey-deucey": _core.Variant.ACEY_DEUCEY,
            "gul-bara": _core.Variant.GUL_BARA}


def outside_home(key: bytes, variant) -> int:
    """Checkers of the mover outside the home board (a reserve counts), or -1 with one on the
    bar (the masks do not count those doubles)."""
    us, _ = _core.decode(key, variant)
    if us[24] > 0:
        return -1
    return sum(us[6:24]) + max(0, -us[25])


def game_positions(name: str, games: int, seed: int) -> list[bytes]:
    variant = VARIANTS[name]
    engine = _core.Engine(variant)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        key = nardy.Position(nardy.find_variant(name)())._key
        for _ply in range(300):
            out.append(key)
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if {d1, d2} == {1, 2}:
                d1 = d2 = rng.randint(1, 6)  # Acey-deucey's 1-2 is a turn of two groups
            moves = engine.legal(key, d1, d2).keys()
            if moves:
                key = moves[rng.randrange(len(moves))]
            us, _ = _core.decode(key, variant)
            if us[25] == 15:
                break
            key = _core.swap(key)
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_every_index_of_a_double_is_the_listed_move(name):
    variant = VARIANTS[name]
    engine = _core.Engine(variant)
    positions = game_positions(name, 10, seed=2027)[::2]
    # the counts first: a wrong count can send a pick past the moves it knows of
    wrong_counts = [(key.hex(), d) for key in positions for d in range(1, 7)
                    if engine.count(key, d, d) != len(engine.legal(key, d, d))]
    assert not wrong_counts, f"{len(wrong_counts)} wrong counts, first: {wrong_counts[:3]}"
    failures, by_masks = [], 0
    for key in positions:
        if outside_home(key, variant) >= 4:
            by_masks += 1
        for d in range(1, 7):
            failures += [(key.hex(), *e) for e in pick_mismatches(engine, key, d, d)]
    assert not failures, f"{len(failures)} mismatches, first: {failures[:3]}"
    # many positions are ones the masks count, and the rest (bar, bear-off) are there too
    assert by_masks > len(positions) // 4
    assert by_masks < len(positions)
