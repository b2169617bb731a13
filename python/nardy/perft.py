"""perft: counting the game tree, for checking move generators against each other."""

from __future__ import annotations

from typing import Any

from nardy import _core, _validate
from nardy.position import Position

#: The deepest tree perft counts: far beyond any tree that could finish (depth 6 of
#: backgammon has ~10^16 leaves), and it bounds the C++ recursion.
MAX_DEPTH = 64

#: The largest transposition table perft takes, in MB (1 TB).
MAX_TABLE_MB = 1 << 20


def table(table_mb: int) -> Any:
    """A transposition table of ``table_mb`` MB for the core's perft calls, or None for 0."""
    table_mb = _validate.integer(table_mb, "table_mb (MB of perft table, 0: none)", 0,
                                 MAX_TABLE_MB)
    return _core.PerftTable(table_mb) if table_mb else None


def _check(depth: int, rolls: int, lo: int = 0) -> int:
    depth = _validate.integer(depth, "perft depth", lo, MAX_DEPTH)
    _validate.choice(rolls, "rolls (21 distinct rolls or 36 ordered rolls)", (21, 36),
                     error=_validate.InvalidArgumentError)
    return depth  # type: ignore[no-any-return]


#: the turn number perft gives a root that is not the starting position, in variants whose
#: moves depend on the turn number: past every opening rule
LATE_TURN = 1 << 20


def first_turn_of(position: Position) -> int:
    """The turn number perft gives the root's mover by default where moves depend on it: 1 at
    the starting position, a turn past the opening rules anywhere else."""
    return 1 if position == Position.start(position.variant) else LATE_TURN


def perft(position: Position, depth: int, rolls: int = 21, first_turn: int | None = None, *,
          table_mb: int = 0) -> int:
    """Leaves of the tree ``depth`` plies deep: per ply the 21 distinct rolls (or 36 ordered),
    children are the distinct resulting positions, a roll with no legal move has one child
    (the turn passes) and a finished game has none. Runs in C++ with the GIL released.

    In a variant whose turns depend on the mover's turn number (``sequence_turns``, e.g. Gul
    bara's cascade), the player on roll rolls first, on turn ``first_turn``, and ply p is
    played on turn ``first_turn + p // 2`` (where the rules count turns over the game's rolls,
    ``variant.engine.turn_at(first_turn, p)``: the second roller's one ahead); by default the
    starting position is turn 1 and any other position a turn past the opening rules.

    ``table_mb``: memory for a transposition table (MB; 0, the default: none). It remembers
    the count of each subtree by its whole position and depth, so a position reached again
    at the same depth is not counted again; the count is the same, exactly. Variants whose
    turns depend on the turn number count without it (the turn is not in the position).

    >>> import nardy
    >>> perft(nardy.Position("backgammon"), 2, table_mb=1)
    202782
    """
    depth = _check(depth, rolls)
    t = table(table_mb)
    v = position.variant
    if v.sequence_turns:
        if first_turn is None:
            first_turn = first_turn_of(position)
        first_turn = _validate.integer(first_turn, "first_turn", 1, LATE_TURN)
        return v.engine.perft_turn(position.key, depth, rolls == 36, first_turn)
    return v.engine.perft(position.key, depth, rolls == 36, None, t)


def divide(position: Position, depth: int, rolls: int = 21, first_turn: int | None = None, *,
           table_mb: int = 0) -> list[tuple[tuple[int, int], int]]:
    """perft split by the first roll: [((d1, d2), leaves), ...], d1 >= d2; ``table_mb`` as
    for :func:`perft` (one table for every roll). ``first_turn`` as for :func:`perft`: in a
    variant whose turns depend on the turn number the sums are those of perft, ply by ply."""
    depth = _check(depth, rolls, 1)
    t = table(table_mb)
    v = position.variant
    if v.sequence_turns:
        if first_turn is None:
            first_turn = first_turn_of(position)
        first_turn = _validate.integer(first_turn, "first_turn", 1, LATE_TURN)
        return _divide_turns(position, depth, rolls == 36, first_turn)
    return [((d1, d2), n) for d1, d2, n in
            v.engine.divide(position.key, depth, rolls == 36, None, t)]


def _rolls(ordered: bool) -> list[tuple[tuple[int, int], int]]:
    """The 21 distinct rolls in the core's divide order, each with its weight (ordered:
    a non-double stands for its two orders)."""
    return [((b, a), 2 if ordered and a != b else 1)
            for a in range(1, 7) for b in range(a, 7)]


def _divide_turns(position: Position, depth: int, ordered: bool,
                  first_turn: int) -> list[tuple[tuple[int, int], int]]:
    # The core's perft_turn numbers the turns from its root, whose mover rolls first: ply p
    # is on turn engine.turn_at(first_turn, p). The opponent below the first roll rolls
    # second, which a root of its own cannot say, so the first two plies are walked here and
    # the core counts from the grandchildren (their mover's turn is turn_at(first_turn, 2)).
    v = position.variant
    engine = v.engine
    swap = _core.swap
    second_turn = engine.turn_at(first_turn, 1)
    next_turn = engine.turn_at(first_turn, 2)

    def finished(key: bytes) -> bool:
        return engine.game_end(key) is not None

    def children(key: bytes, dice: tuple[int, int],
                 turn: int) -> tuple[list[bytes], tuple[int, int] | None]:
        """The positions after the roll's moves (the opponent on roll), and the dice they
        leave him (Gul bara's stopped_cascade="to-opponent")."""
        moves = engine.turn_legal(key, dice[0], dice[1], turn)
        if not len(moves):
            return [swap(key)], None
        return [swap(k) for k in moves.keys()], v.carry(dice, turn, moves.played)

    def before_roll(key: bytes, carried: tuple[int, int] | None) -> list[bytes]:
        """Where the player on roll rolls from: after his play of the dice left him."""
        if carried is None:
            return [key]
        moves = engine.turn_legal(key, carried[0], carried[0], -carried[1])
        return list(moves.keys()) if len(moves) else [key]

    rolls = _rolls(ordered)
    out = []
    for dice, weight in rolls:
        n = 0
        kids, left = children(position.key, dice, first_turn)
        for child in kids:
            if depth == 1:
                n += 1
                continue
            if finished(child):
                continue
            for start in before_roll(child, left):
                if finished(start):
                    continue
                for dice2, w2 in rolls:
                    sub = 0
                    grandchildren, left2 = children(start, dice2, second_turn)
                    for grandchild in grandchildren:
                        if depth == 2:
                            sub += 1
                        else:
                            die, count = left2 or (0, 0)
                            sub += engine.perft_turn(grandchild, depth - 2, ordered, next_turn,
                                                     carried_die=die, carried_left=count)
                    n += sub * w2
        out.append((dice, n))
    return out
