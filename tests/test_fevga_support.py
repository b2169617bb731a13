"""Fevga through the rest of the library: the text form both ways, the text board and the SVG
picture, the "long" encoding (checked unit by unit against its documented layout), batch
afterstates and rollouts (their results against the reference and the scoring rules)."""

from __future__ import annotations

import random

import pytest

import nardy
import nardy.batch
from nardy.rollout import rollout
import nardy.svg
import nardy.textboard

try:
    from tests.reference import fevga_ref as R
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import fevga_ref as R  # type: ignore[no-redef]

np = pytest.importorskip("numpy")


def game_positions(v: nardy.Variant, n: int, seed: int) -> list[nardy.Position]:
    """Positions along random games (both colours on roll)."""
    rng = random.Random(seed)
    out: list[nardy.Position] = []
    while len(out) < n:
        pos = nardy.Position(v)
        while not pos.is_game_over() and len(out) < n:
            out.append(pos)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            moves = pos.legal_moves(dice)
            pos = pos.play(moves[rng.randrange(len(moves))], dice) if moves else pos.pass_turn()
    return out


@pytest.mark.parametrize("v", [nardy.Fevga(), nardy.Moultezim(), nardy.Fevga(prime="free")],
                         ids=repr)
def test_text_form_round_trips(v):
    positions = game_positions(v, 300, seed=3)
    assert {p.turn for p in positions} == {0, 1}
    for p in positions:
        text = p.to_text()
        assert text.split()[0].split("[")[0] == v.name  # rule options in brackets
        back = nardy.Position.from_text(text)
        assert back == p and back.variant == v, text


def test_text_form_of_the_start_names_the_starts():
    text = nardy.Position(nardy.Fevga()).to_text()
    # white on its 24, black on its own index 23, white's point 12 (long nardy's numbering)
    assert "24x15" in text and "12x15" in text, text


def test_text_board_shows_each_checker_where_the_layout_puts_it():
    # the layout of tests/reference/board_layout.py, written from the rules; Fevga's
    # positions are also in its picture tests (tests/test_svg.py, tests/test_textboard.py)
    from tests.test_textboard import check_text

    for pos in game_positions(nardy.Fevga(), 400, seed=9)[::40]:
        for flip in (False, True):
            check_text(nardy.textboard.board(pos, ascii=True, flip=flip), pos, True, flip)
    svg = nardy.svg.board(nardy.Position(nardy.Fevga()))
    assert svg.startswith("<svg") and "15" in svg  # the start stacks carry their count


def expected_long(us, them):
    """The "long" encoding of a position (mover on roll), from batch.ENCODINGS' description:
    per side (side 0 the mover) 24 x (n>=1, n>=2, n>=3, (n-3)/4), off/15, pips/360; then the
    two side-to-move units."""
    row = []
    for s in (us, them):
        for i in range(24):
            n = s[i]
            row += [float(n >= 1), float(n >= 2), float(n >= 3), (n - 3) / 4 if n > 3 else 0.0]
        row.append(s[25] / 15)
        row.append(sum((i + 1) * s[i] for i in range(24)) / 360)
    return row + [1.0, 0.0]


def test_long_encoding_unit_by_unit():
    positions = game_positions(nardy.Fevga(), 200, seed=4)
    enc = nardy.batch.encode(positions)
    assert enc.shape == (200, 198)
    for p, got in zip(positions, enc):
        us, them = (p.side(p.turn), p.side(1 - p.turn))
        assert np.allclose(got, expected_long(us, them), atol=1e-6), p.to_text()


def test_batch_afterstates_are_the_reference_moves():
    positions = game_positions(nardy.Fevga(), 150, seed=12)
    rng = random.Random(1)
    dice = np.array([rng.choice(R.ALL_ROLLS) for _ in positions], dtype=np.int8)
    boards = nardy.batch.to_array(positions)
    after, offsets = nardy.batch.afterstates(boards, dice)
    for i, p in enumerate(positions):
        us, them = tuple(p.side(p.turn)), tuple(p.side(1 - p.turn))
        want = R.legal_results(us, them, tuple(int(x) for x in dice[i]))  # a pass: no rows
        rows = np.asarray(after[offsets[i]:offsets[i + 1]])
        # afterstate rows keep the mover as side 0 (side 1 rolls next)
        assert all(tuple(int(x) for x in r[1]) == them for r in rows)
        got = {tuple(int(x) for x in r[0]) for r in rows}
        assert got == want, (p.to_text(), dice[i])


def test_random_rollouts_finish_with_fevga_results():
    res = rollout(nardy.Position(nardy.Fevga()), 400, "random", seed=5, threads=1)
    assert res.kinds == ("single", "gammon")
    assert res.unfinished == 0 and res.draws == 0
    assert sum(map(sum, res.wins)) == 400
    # points: +-1 a single, +-2 a gammon (double game), from side 0's view
    singles = res.wins[0][0] - res.wins[1][0]
    doubles = res.wins[0][1] - res.wins[1][1]
    assert res.points == singles + 2 * doubles
    # a game of Fevga takes dozens of turns each
    assert res.mean_plies > 60
    greedy = rollout(nardy.Moultezim(), 200, "greedy", seed=5, threads=1)
    assert greedy.unfinished == 0 and sum(map(sum, greedy.wins)) == 200
