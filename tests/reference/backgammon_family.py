"""Checks of the core for variants played with backgammon's movement from another setup or
with another number of checkers (Nackgammon, Hypergammon): the core's moves on positions
from games the pure-Python reference plays (tests/reference/backgammon_ref.py, from the
variant's setup) against the reference's, and against gnubg's move generator, which takes
any board. Each variant's test file gives the setup, written from its rules page."""

from __future__ import annotations

import random

from nardy import _core

try:
    from tests.reference import backgammon_ref as R
except ImportError:  # plain `pytest` puts tests/ on sys.path instead of the root
    from reference import backgammon_ref as R  # type: ignore[no-redef]


def side_of(points: dict[int, int]) -> tuple[int, ...]:
    """A side array from {index: count}."""
    side = [0] * 26
    for index, count in points.items():
        side[index] = count
    return tuple(side)


def core_results(variant, mover, opponent, dice) -> list[tuple[tuple, tuple]]:
    """The core's results in its order, (mover, opponent) from the mover's view."""
    moves = variant.engine.legal(_core.encode(mover, opponent), *dice)
    return [tuple(map(tuple, _core.decode(k))) for k in moves.keys()]


def ref_results(mover, opponent, dice) -> set:
    """The reference's results; a pass becomes the empty set, as the core lists no move."""
    res = R.legal_results(mover, opponent, dice)
    if res == {(tuple(mover), tuple(opponent))}:
        return set()
    return res


def compare_with_reference(variant, positions) -> list[str]:
    """Every position x the 21 rolls: the same set of results, none twice, count() and
    pick() agreeing with the list. Returns the differences found (at most 20)."""
    failures: list[str] = []
    for mover, opponent in positions:
        key = _core.encode(mover, opponent)
        for dice in R.ALL_ROLLS:
            got = core_results(variant, mover, opponent, dice)
            want = ref_results(mover, opponent, dice)
            ctx = f"mover={mover} opponent={opponent} dice={dice}"
            if len(set(got)) != len(got):
                failures.append(f"{ctx}: a result listed twice")
            if set(got) != want:
                failures.append(f"{ctx}: core only {sorted(set(got) - want)}, "
                                f"reference only {sorted(want - set(got))}")
            if variant.engine.count(key, *dice) != len(got):
                failures.append(f"{ctx}: count() {variant.engine.count(key, *dice)}, "
                                f"listed {len(got)}")
            if got:
                i = (len(got) * 7 + 3) % len(got)
                n, picked = variant.engine.pick(key, *dice, i)
                if n != len(got) or tuple(map(tuple, _core.decode(picked))) != got[i]:
                    failures.append(f"{ctx}: pick({i}) is not the listed move {i}")
            if len(failures) >= 20:
                return failures
    return failures


def gnubg_moves(gnubg, mover, opponent, dice) -> list[tuple[int, ...]]:
    """gnubg's distinct moves (1-based points, 25 the bar, a bear-off cuts the tuple)."""
    board = (tuple(opponent[:25]), tuple(mover[:25]))  # the side on roll second
    ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    return [x["move"] for x in gnubg.findbestmoves(board, gnubg.cubeinfo(), ec, tuple(dice))]


def apply_gnubg(mover, opponent, move):
    """A gnubg move without bear-offs applied by hand (a checker landing on a lone opponent
    checker hits it); None if it bears off."""
    if len(move) % 2:
        return None
    m, o = list(mover), list(opponent)
    for k in range(0, len(move), 2):
        src, dst = move[k] - 1, move[k + 1] - 1  # 25 -> 24, the bar
        if dst < 0:
            return None
        m[src] -= 1
        m[dst] += 1
        if o[23 - dst] == 1:
            o[23 - dst] = 0
            o[R.BAR] += 1
    return tuple(m), tuple(o)


def compare_with_gnubg(gnubg, variant, positions, rolls_each: int, seed: int) -> list[str]:
    """`rolls_each` random rolls of each position: as many moves as gnubg lists (a pass is
    none in both), and each gnubg move that bears nothing off among the core's results."""
    rng = random.Random(seed)
    failures: list[str] = []
    for mover, opponent in positions:
        for dice in rng.sample(R.ALL_ROLLS, rolls_each):
            got = core_results(variant, mover, opponent, dice)
            moves = [mv for mv in gnubg_moves(gnubg, mover, opponent, dice) if mv]
            ctx = f"mover={mover} opponent={opponent} dice={dice}"
            if len(moves) != len(got):
                failures.append(f"{ctx}: gnubg {len(moves)} moves {moves}, core {len(got)}")
            for mv in moves:
                r = apply_gnubg(mover, opponent, mv)
                if r is not None and r not in got:
                    failures.append(f"{ctx}: gnubg's {mv} -> {r} not among the core's results")
            if len(failures) >= 20:
                return failures
    return failures
