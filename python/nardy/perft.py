"""perft: counting the game tree, for checking move generators against each other."""

from __future__ import annotations

from nardy.errors import Error
from nardy.position import Position


def _check(depth: int, rolls: int) -> None:
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise Error(f"perft depth must be a non-negative integer, got {depth!r}")
    if rolls not in (21, 36):
        raise Error(f"rolls must be 21 (distinct rolls) or 36 (ordered rolls), got {rolls!r}")


def perft(position: Position, depth: int, rolls: int = 21) -> int:
    """Leaves of the tree ``depth`` plies deep: per ply the 21 distinct rolls (or 36 ordered),
    children are the distinct resulting positions, a roll with no legal move has one child
    (the turn passes) and a finished game has none. Runs in C++ with the GIL released."""
    _check(depth, rolls)
    return position.variant.engine.perft(position.key, depth, rolls == 36)


def divide(position: Position, depth: int, rolls: int = 21) -> list[tuple[tuple[int, int], int]]:
    """perft split by the first roll: [((d1, d2), leaves), ...], d1 >= d2."""
    _check(depth, rolls)
    if depth < 1:
        raise Error("divide needs depth >= 1")
    return [((d1, d2), n) for d1, d2, n in position.variant.engine.divide(position.key, depth, rolls == 36)]
