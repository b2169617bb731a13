"""perft: counting the game tree, for checking move generators against each other."""

from __future__ import annotations

from nardy import _validate
from nardy.position import Position

#: The deepest tree perft counts: far beyond any tree that could finish (depth 6 of
#: backgammon has ~10^16 leaves), and it bounds the C++ recursion.
MAX_DEPTH = 64


def _check(depth: int, rolls: int, lo: int = 0) -> int:
    depth = _validate.integer(depth, "perft depth", lo, MAX_DEPTH)
    _validate.choice(rolls, "rolls (21 distinct rolls or 36 ordered rolls)", (21, 36),
                     error=_validate.InvalidArgumentError)
    return depth  # type: ignore[no-any-return]


def perft(position: Position, depth: int, rolls: int = 21) -> int:
    """Leaves of the tree ``depth`` plies deep: per ply the 21 distinct rolls (or 36 ordered),
    children are the distinct resulting positions, a roll with no legal move has one child
    (the turn passes) and a finished game has none. Runs in C++ with the GIL released."""
    depth = _check(depth, rolls)
    return position.variant.engine.perft(position.key, depth, rolls == 36)


def divide(position: Position, depth: int, rolls: int = 21) -> list[tuple[tuple[int, int], int]]:
    """perft split by the first roll: [((d1, d2), leaves), ...], d1 >= d2."""
    depth = _check(depth, rolls, 1)
    return [((d1, d2), n) for d1, d2, n in position.variant.engine.divide(position.key, depth, rolls == 36)]
