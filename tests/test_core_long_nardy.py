"""The C++ long-nardy policy against the slow pure-Python reference (tests/reference/
long_nardy_ref.py, written from the rules, sharing no code with the core), for every preset
and both six-block checks, plus perft figures published for the "classic" preset.
"""

from __future__ import annotations

import random

import pytest

import nardy

try:
    from tests.reference import long_nardy_ref as ref
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import long_nardy_ref as ref  # type: ignore[no-redef]

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
PRESETS = ("federation", "classic", "extended")


def variant(preset: str, block_check: str = "step") -> nardy.LongNardy:
    return nardy.LongNardy(head_rule=preset, block_check=block_check)


def core_results(v: nardy.Variant, mover, opponent, dice) -> set:
    pos = nardy.Position.from_sides(v, mover, opponent)
    moves = pos.legal_moves(dice)
    if not moves:
        return {(tuple(mover), tuple(opponent))}
    out = set()
    for child in moves.results():
        them, us = child.sides()  # children have the opponent on roll: swap back
        out.add((us, them))
    assert len(out) == len(moves), "the core returned two moves with the same result"
    return out


def reference_results(mover, opponent, dice, preset, block_check="step") -> set:
    return {(tuple(a), tuple(b)) for a, b in ref.legal_results(mover, opponent, dice, preset, block_check)}


def compare(v, preset, block_check, positions, rng, all_rolls=False):
    checked = 0
    for mover, opponent in positions:
        rolls = ROLLS if all_rolls else [(rng.randint(1, 6), rng.randint(1, 6))]
        for dice in rolls:
            want = reference_results(mover, opponent, dice, preset, block_check)
            got = core_results(v, mover, opponent, dice)
            assert got == want, (
                f"{preset}/{block_check} mover={mover} opponent={opponent} dice={dice}\n"
                f"core only: {sorted(got - want)}\nreference only: {sorted(want - got)}")
            checked += 1
    return checked


@pytest.mark.parametrize("preset", PRESETS)
def test_random_game_positions(preset):
    rng = random.Random(17)
    positions = ref.random_positions(3400, seed=100 + PRESETS.index(preset), preset=preset)
    assert compare(variant(preset), preset, "step", positions, rng) == 3400


def test_random_positions_block_checked_at_end():
    rng = random.Random(5)
    positions = ref.random_positions(1500, seed=7, preset="federation", block_check="end")
    assert compare(variant("federation", "end"), "federation", "end", positions, rng) == 1500


def _block_heavy_positions(n: int, seed: int) -> list:
    """Positions built to sit next to the six-block rule: the mover holds a run of four to
    six points somewhere (often round its home-to-head corner), the opponent's checkers are
    scattered on the remaining points, sometimes all behind the run, sometimes one past it."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        mover = [0] * 26
        opponent = [0] * 26
        start = rng.randrange(24)
        length = rng.randint(4, 6)
        run = [(start - k) % 24 for k in range(length)]
        left = 15
        for i in run:
            mover[i] += 1
            left -= 1
        while left:
            i = rng.choice(run + [rng.randrange(24)])
            mover[i] += 1
            left -= 1
        taken = {i for i in range(24) if mover[i]}
        # the opponent's points in its own coordinates, avoiding the mover's points
        free_j = [j for j in range(24) if (j + 12) % 24 not in taken]
        if rng.random() < 0.5:  # everyone behind: keep to high opponent indices
            free_j = sorted(free_j)[len(free_j) // 2:] or free_j
        left = 15 - (off := rng.choice([0, 0, 0, 2]))
        opponent[25] = off
        if off:  # borne-off checkers need every opponent checker home (indices 0..5)
            free_j = [j for j in free_j if j < 6] or None
            if not free_j:
                continue
        while left:
            opponent[rng.choice(free_j)] += 1
            left -= 1
        if sum(mover) != 15 or sum(opponent) != 15:
            continue
        if ref.forbidden_block(tuple(mover), tuple(opponent)):
            continue  # not reachable: a block may not stand in front of every opponent
        if ref.forbidden_block(tuple(opponent), tuple(mover)):
            continue
        out.append((tuple(mover), tuple(opponent)))
    return out


@pytest.mark.parametrize("block_check", ["step", "end"])
def test_block_heavy_positions(block_check):
    rng = random.Random(11)
    positions = _block_heavy_positions(400, seed=3 if block_check == "step" else 4)
    checked = compare(variant("federation", block_check), "federation", block_check, positions,
                      rng, all_rolls=True)
    assert checked == 400 * 21


# Block checked at the end: every play of both dice ends in a forbidden six-block, so the
# legal plays are the one-die plays whose end is allowed (the rule counts only legal plays
# when it asks for as many dice as possible). Found by a search with the reference; the core
# used to treat "a second die could be stepped" as "two dice are playable" and returned a
# pass for the first, only one of the two plays for the second.
END_CHECK_ONE_DIE_CASES = [
    ((0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 3, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0),
     (0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 1, 1, 1, 0, 2, 1, 1, 1, 1, 1, 2, 0, 0), (5, 3)),
    ((0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 1, 2, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0),
     (0, 0, 0, 0, 0, 0, 0, 3, 2, 0, 0, 1, 0, 2, 1, 0, 0, 0, 0, 2, 1, 1, 1, 1, 0, 0), (6, 5)),
]


@pytest.mark.parametrize("mover, opponent, dice", END_CHECK_ONE_DIE_CASES)
def test_block_at_end_leaves_only_one_die_plays(mover, opponent, dice):
    # the case is the one meant: without the block rule both dice play, with it only one
    assert ref._plays(mover, opponent, dice, 1, "none")[0] == 2
    assert ref._plays(mover, opponent, dice, 1, "end")[0] == 1
    want = reference_results(list(mover), list(opponent), dice, "federation", "end")
    assert len(want) == 2
    got = core_results(variant("federation", "end"), list(mover), list(opponent), dice)
    assert got == want


def test_first_turn_positions_every_preset():
    """The head rule's exceptions: the mover on its first turn after each of the opponent's
    possible first moves (all 21 rolls, every result), for every preset."""
    start = ref.initial()
    first_moves = set()
    for dice in ROLLS:
        for child in ref.children(start, dice, "classic"):
            first_moves.add(child)
    for preset in PRESETS:
        v = variant(preset)
        for mover, opponent in sorted(first_moves):
            for dice in ROLLS:
                want = reference_results(mover, opponent, dice, preset)
                assert core_results(v, mover, opponent, dice) == want, (preset, opponent, dice)


def test_shared_engine_matches_fresh_engine():
    """Results must not depend on what the engine computed before (scratch state reuse)."""
    rng = random.Random(2)
    positions = ref.random_positions(300, seed=9) + _block_heavy_positions(100, seed=8)
    shared = variant("extended")
    jobs = [(p, d) for p in positions for d in ROLLS]
    rng.shuffle(jobs)
    for (mover, opponent), dice in jobs[:3000]:
        assert core_results(shared, mover, opponent, dice) == core_results(
            variant("extended"), mover, opponent, dice)


@pytest.mark.parametrize(
    "preset, figures",
    [
        # classic: published and matched by two independent public engines
        ("classic", [22, 484, 35_387, 2_411_418]),
    ],
)
def test_perft_published(preset, figures):
    pos = nardy.Position(variant(preset))
    for depth, nodes in enumerate(figures, start=1):
        assert nardy.perft(pos, depth) == nodes


@pytest.mark.parametrize("preset", PRESETS)
def test_perft_matches_reference(preset):
    pos = nardy.Position(variant(preset))
    start = ref.initial()
    for depth in (1, 2, 3):
        assert nardy.perft(pos, depth) == ref.perft(start[0], start[1], depth, preset), depth
