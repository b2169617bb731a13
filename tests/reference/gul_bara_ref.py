"""A slow, obviously-correct Gul bara move generator written from docs/rules/gul-bara.md,
sharing no code with nardy: positions are two tuples of 26 counts (mover, opponent, each in
its own coordinates: index 0..23 a point counted from the owner's bear-off end, 25 off); the
opponent's index j lies on the mover's (j + 12) % 24.

Every ordering of every group's dice is tried one checker step at a time; a turn's groups are
searched depth first; the legal moves are the results of the plays with the most dice.
"""

from __future__ import annotations

from functools import lru_cache

Side = tuple[int, ...]
Pos = tuple[Side, Side]


def start() -> Pos:
    s = [0] * 26
    s[23] = 15
    return (tuple(s), tuple(s))


def opponent_on(them: Side, i: int) -> bool:
    return them[(i + 12) % 24] > 0


def steps(pos: Pos, die: int) -> list[Pos]:
    """Every position one checker step of `die` can reach (no hitting, no landing on a point
    the opponent holds, bearing off once all fifteen are home)."""
    us, them = pos
    out = []
    all_home = sum(us[6:24]) == 0
    for i in range(24):
        if us[i] == 0:
            continue
        t = i - die
        if t >= 0:
            if opponent_on(them, t):
                continue
            new = list(us)
            new[i] -= 1
            new[t] += 1
        else:
            if not all_home:
                continue
            if t < -1 and any(us[i + 1:6]):
                continue  # a higher die only from the highest point
            new = list(us)
            new[i] -= 1
            new[25] += 1
        out.append((tuple(new), them))
    return out


def group_plays(pos: Pos, d1: int, d2: int) -> tuple[int, set[Pos]]:
    """(dice played, results) of one roll's worth of dice by the roll rules: as many dice as
    possible; when only one die of a non-double can be played, the larger if it can."""
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    found: dict[int, set[Pos]] = {}
    larger_alone: set[Pos] = set()
    visited: set[tuple[Pos, tuple[int, ...], tuple[int, ...]]] = set()

    def walk(p: Pos, dice: list[int], used: list[int]) -> None:
        # (what a walk adds depends only on where it is and which dice it used and has left)
        state = (p, tuple(dice), tuple(used))
        if state in visited:
            return
        visited.add(state)
        found.setdefault(len(used), set()).add(p)
        if len(used) == 1 and d1 != d2 and used[0] == max(d1, d2):
            larger_alone.add(p)
        if not dice:
            return
        for q in steps(p, dice[0]):
            walk(q, dice[1:], used + [dice[0]])

    for order in orders:
        walk(pos, order, [])
    most = max(found)
    if most == 0:
        return 0, set()
    if most == 1 and d1 != d2 and larger_alone:
        return 1, larger_alone
    return most, found[most]


def cascade(d1: int, d2: int, turn: int, cascade_from_turn: int = 3) -> list[tuple[int, int]]:
    """The groups of dice a roll gives on the mover's turn number `turn`."""
    if d1 != d2 or cascade_from_turn == 0 or turn < cascade_from_turn:
        return [(d1, d2)]
    return [(d, d) for d in range(d1, 7)]


def turn_moves(pos: Pos, groups: list[tuple[int, int]]) -> tuple[int, set[Pos]]:
    """(dice played, distinct results) of the whole turn: a group is played only after the
    one before was played in full, and the moves play the most dice over the sequence."""
    groups_t = tuple(groups)

    @lru_cache(maxsize=None)
    def best(p: Pos, k: int) -> tuple[int, frozenset[Pos]]:
        d1, d2 = groups_t[k]
        size = 4 if d1 == d2 else 2
        played, results = group_plays(p, d1, d2)
        if played == 0 and k > 0:
            results = {p}  # the turn stops where the groups before left it
        if played < size or k + 1 == len(groups_t):
            return played, frozenset(results)
        top, finals = -1, set()
        for r in results:
            n, fs = best(r, k + 1)
            if n > top:
                top, finals = n, set(fs)
            elif n == top:
                finals |= fs
        return size + top, frozenset(finals)

    n, fs = best(pos, 0)
    return n, set(fs)


def is_finished(pos: Pos) -> bool:
    return pos[0][25] == 15 or pos[1][25] == 15


def swapped(pos: Pos) -> Pos:
    return (pos[1], pos[0])


ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def perft(pos: Pos, depth: int, first_turn: int = 1, ply: int = 0) -> int:
    """Leaves `depth` plies deep over the 21 distinct rolls (a pass is one child; a finished
    game has none); ply p is played on turn first_turn + p // 2."""
    if depth == 0:
        return 1
    if is_finished(pos):
        return 0
    turn = first_turn + ply // 2
    total = 0
    for d1, d2 in ROLLS:
        _, results = turn_moves(pos, cascade(d1, d2, turn))
        if depth == 1:
            total += len(results) or 1
            continue
        for r in (results or {pos}):
            total += perft(swapped(r), depth - 1, first_turn, ply + 1)
    return total
