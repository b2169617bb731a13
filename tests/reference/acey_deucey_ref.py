"""A slow, independent reference for acey-deucey's legal moves, written from
docs/rules/acey-deucey.md and sharing no code with nardy.

A side is a tuple of 27 counts in its own coordinates: 0..23 the points (index i needs i + 1
pips to bear off), 24 the bar (hit checkers), 25 borne off, 26 the checkers yet to enter. A
position is (mover, opponent); the opponent's index j is the mover's 23 - j.

A move of the whole turn is (result, named, again): the position after it (mover still first),
the double named after a 1-2 (0: none) and whether the same player rolls again.
"""

from __future__ import annotations

BAR, OFF, RES = 24, 25, 26
Side = tuple[int, ...]
Pos = tuple[Side, Side]


def start() -> Pos:
    side = [0] * 27
    side[RES] = 15
    return tuple(side), tuple(side)


def step(pos: Pos, src: int, die: int) -> Pos | None:
    """One checker of the mover from `src` (24: whoever enters) moved `die` pips, or None."""
    us, them = list(pos[0]), list(pos[1])
    waiting = us[BAR] + us[RES]
    if us[BAR] and src != BAR:
        return None  # a hit checker enters first
    if src == BAR:
        if waiting == 0:
            return None
        dest = 24 - die
        if us[BAR]:
            us[BAR] -= 1
        else:
            us[RES] -= 1
    else:
        if us[src] == 0:
            return None
        dest = src - die
        us[src] -= 1
    if dest >= 0:
        facing = 23 - dest
        if them[facing] >= 2:
            return None
        if them[facing] == 1:
            them[facing] = 0
            them[BAR] += 1
        us[dest] += 1
        return tuple(us), tuple(them)
    # bearing off: nothing waiting, every checker in the home board (0..5)
    if waiting or any(pos[0][i] for i in range(6, 24)):
        return None
    if dest != -1 and any(pos[0][i] for i in range(src + 1, 6)):
        return None  # a larger die than needed only from the highest point
    us[OFF] += 1
    return tuple(us), tuple(them)


def after_dice(pos: Pos, dice: list[int]) -> list[set[Pos]]:
    """Positions after playing the first k dice in order, for k = 0..len(dice)."""
    levels = [{pos}]
    for die in dice:
        nxt = set()
        for p in levels[-1]:
            us = p[0]
            for src in [i for i in range(24) if us[i]] + [BAR]:
                q = step(p, src, die)
                if q is not None:
                    nxt.add(q)
        if not nxt:
            break
        levels.append(nxt)
    return levels


def most_dice(pos: Pos, dice: list[int]) -> int:
    """How many of `dice`, in order, can be played from pos (a depth-first search that stops at
    the first way to play them all)."""
    if not dice:
        return 0
    best = 0
    for src in [i for i in range(24) if pos[0][i]] + [BAR]:
        q = step(pos, src, dice[0])
        if q is not None:
            best = max(best, 1 + most_dice(q, dice[1:]))
            if best == len(dice):
                break
    return best


def after_dice_from(starts: set[Pos], dice: list[int]) -> set[Pos]:
    """Positions after playing all of `dice` in order from any of `starts` (each of which can)."""
    level = starts
    for die in dice:
        nxt = set()
        for p in level:
            for src in [i for i in range(24) if p[0][i]] + [BAR]:
                q = step(p, src, die)
                if q is not None:
                    nxt.add(q)
        level = nxt
    return level


def roll_plays(pos: Pos, d1: int, d2: int) -> tuple[int, set[Pos]]:
    """(dice played, results) of one roll by the roll rules: as many dice as possible, the
    larger die when only one of a non-double can be played."""
    if d1 == d2:
        levels = after_dice(pos, [d1] * 4)
        return len(levels) - 1, levels[-1]
    hi, lo = max(d1, d2), min(d1, d2)
    a = after_dice(pos, [hi, lo])
    b = after_dice(pos, [lo, hi])
    most = max(len(a), len(b)) - 1
    if most == 2:
        return 2, (a[2] if len(a) == 3 else set()) | (b[2] if len(b) == 3 else set())
    if most == 1:
        return 1, a[1] if len(a) >= 2 else b[1]
    return 0, {pos}


def turn_moves(pos: Pos, d1: int, d2: int) -> tuple[int, set[tuple[Pos, int, bool]]]:
    """(dice played, moves) of the whole turn the roll gives; no moves when it passes."""
    played, results = roll_plays(pos, d1, d2)
    if played == 0:
        return 0, set()
    if {d1, d2} != {1, 2}:
        return played, {(r, 0, False) for r in results}
    if played < 2:
        return played, {(r, 0, False) for r in results}  # no double without the whole 1-2
    best_all = 0
    moves: set[tuple[Pos, int, bool]] = set()
    for named in range(1, 7):
        # the 1-2 plays that let the named double be played furthest, and where it takes them
        # (played from all of them at once: the same positions recur)
        reach = {r: most_dice(r, [named] * 4) for r in results}
        best = max(reach.values())
        best_all = max(best_all, 2 + best)
        ends = after_dice_from({r for r, n in reach.items() if n == best}, [named] * best)
        moves |= {(e, named, best == 4) for e in ends}
    return best_all, moves


def to_core(side: Side) -> tuple[int, ...]:
    """The core's side array: slot 25 is -(checkers yet to enter) while any wait."""
    out = list(side[:26])
    if side[RES]:
        out[OFF] = -side[RES]
    return tuple(out)


def from_core(side: tuple[int, ...] | list[int]) -> Side:
    out = list(side) + [0]
    if out[OFF] < 0:
        out[RES] = -out[OFF]
        out[OFF] = 0
    return tuple(out)


def finished(pos: Pos) -> bool:
    return pos[0][OFF] == 15 or pos[1][OFF] == 15


def swap(pos: Pos) -> Pos:
    return pos[1], pos[0]


ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def perft(pos: Pos, depth: int) -> int:
    """Leaves `depth` plies deep over the 21 distinct rolls: a move is one child (a 1-2 with
    its named double included), a pass one child, a finished game none; after a move with
    `again` the same player rolls the next ply."""
    if depth == 0:
        return 1
    if finished(pos):
        return 0
    total = 0
    for d1, d2 in ROLLS:
        _, moves = turn_moves(pos, d1, d2)
        if depth == 1:
            total += len(moves) or 1
            continue
        if not moves:
            total += perft(swap(pos), depth - 1)
        for r, _, again in moves:
            total += perft(r if again else swap(r), depth - 1)
    return total
