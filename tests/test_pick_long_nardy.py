"""Engine.pick on the long-nardy board (long nardy and Fevga): a random rollout takes one move
as pick(index), counted without listing wherever the rules let a turn be counted, and that
must be exactly the listed move at every index, with the listed count, whichever path the
turn takes. So the random player's distribution (uniform over distinct results, in list
order) and every seeded rollout are those of listing.

Positions come from random games played through the listing API, from every phase, and from
positions built to sit next to the six-block or prime rules (where the turn is listed).
NARDY_SLOW=1 checks five times as many.
"""

from __future__ import annotations

import os
import random

import pytest

import nardy
from tests.support import pick_mismatches

try:
    from tests.test_core_long_nardy import _block_heavy_positions
    from tests.test_fevga import crowded
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from test_core_long_nardy import _block_heavy_positions  # type: ignore[no-redef]
    from test_fevga import crowded  # type: ignore[no-redef]

SLOW = os.environ.get("NARDY_SLOW") == "1"
ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def game_keys(variant: nardy.Variant, n: int, seed: int) -> list:
    """Keys of `n` positions on roll from random games (listing API, uniform choice)."""
    engine = variant.engine
    rng = random.Random(seed)
    out: list = []
    while len(out) < n:
        pos = nardy.Position(variant)
        for _ in range(600):
            if pos.is_game_over() or len(out) >= n:
                break
            out.append(pos._key)
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            results = list(pos.legal_moves((d1, d2)).results())
            pos = rng.choice(results) if results else pos.pass_turn()
    return out


def check(variant: nardy.Variant, keys: list) -> None:
    failures = []
    for key in keys:
        for d1, d2 in ALL_ROLLS:
            failures += [(key, *e) for e in pick_mismatches(variant.engine, key, d1, d2)]
    assert not failures, f"{len(failures)} mismatches, first: {failures[:3]}"


LONG_NARDY = [dict(head_rule=h, block_check=b) for h in ("federation", "classic", "extended")
              for b in ("step", "end")]


@pytest.mark.parametrize("options", LONG_NARDY, ids=lambda o: "-".join(o.values()))
def test_long_nardy_pick_is_the_listed_move(options):
    v = nardy.LongNardy(**options)
    check(v, game_keys(v, 600 if SLOW else 120, seed=len(options["head_rule"])))


@pytest.mark.parametrize("block_check", ["step", "end"])
def test_long_nardy_pick_next_to_a_block(block_check):
    v = nardy.LongNardy(block_check=block_check)
    positions = _block_heavy_positions(500 if SLOW else 100, seed=31)
    check(v, [nardy.Position.from_sides(v, m, o)._key for m, o in positions])


FEVGA = [dict(), dict(prime="all-behind"), dict(prime="free", start_quarter=False),
         dict(first_checker="opponent-quarter"), dict(block_check="end"),
         dict(prime="all-behind", block_check="end", their_quarter_limit=3),
         dict(prime="free", start_quarter=False, their_quarter_limit=4)]  # Moultezim


@pytest.mark.parametrize("options", FEVGA, ids=lambda o: "-".join(map(str, o.values())) or "default")
def test_fevga_pick_is_the_listed_move(options):
    v = nardy.Fevga(**options)
    check(v, game_keys(v, 600 if SLOW else 150, seed=len(options) + 40))


@pytest.mark.parametrize("options", FEVGA[:3], ids=lambda o: "-".join(map(str, o.values())) or "default")
def test_fevga_pick_next_to_a_prime(options):
    v = nardy.Fevga(**options)
    positions = crowded(300 if SLOW else 60, seed=8)
    check(v, [nardy.Position.from_sides(v, m, o)._key for m, o in positions])
