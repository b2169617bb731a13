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


#: the turn number perft gives a root that is not the starting position, in variants whose
#: moves depend on the turn number: past every opening rule
LATE_TURN = 1 << 20


def perft(position: Position, depth: int, rolls: int = 21, first_turn: int | None = None) -> int:
    """Leaves of the tree ``depth`` plies deep: per ply the 21 distinct rolls (or 36 ordered),
    children are the distinct resulting positions, a roll with no legal move has one child
    (the turn passes) and a finished game has none. Runs in C++ with the GIL released.

    In a variant whose turns depend on the mover's turn number (``sequence_turns``, e.g. Gul
    bara's cascade), ply p is played on turn ``first_turn + p // 2``; by default the starting
    position is turn 1 and any other position a turn past the opening rules."""
    depth = _check(depth, rolls)
    v = position.variant
    if v.sequence_turns:
        if first_turn is None:
            first_turn = 1 if position == Position.start(v) else LATE_TURN
        first_turn = _validate.integer(first_turn, "first_turn", 1, LATE_TURN)
        return v.engine.perft_turn(position.key, depth, rolls == 36, first_turn)
    return v.engine.perft(position.key, depth, rolls == 36)


def divide(position: Position, depth: int, rolls: int = 21) -> list[tuple[tuple[int, int], int]]:
    """perft split by the first roll: [((d1, d2), leaves), ...], d1 >= d2."""
    depth = _check(depth, rolls, 1)
    return [((d1, d2), n) for d1, d2, n in position.variant.engine.divide(position.key, depth, rolls == 36)]
