"""A slow, independent reference for acey-deucey's legal moves, written from
docs/rules/acey-deucey.md (rules A1-A8) and sharing no code with nardy.

A side is 27 counts in its own coordinates: 0..23 the points (index i needs i + 1 pips to bear
off), 24 the bar (hit checkers), 25 borne off, 26 the checkers yet to enter. A position is
(mover, opponent); the opponent's index j is the mover's 23 - j.

The public functions (step, roll_plays, turn_moves, perft) take and give a position as a pair
of 27-tuples. The work is done on the packed form, one `bytes` of 54 counts, the mover's 27
then the opponent's (`pack`, `unpack`): sets of those hash and compare much faster, which is
what the level-by-level sets below spend their time on.

A move of the whole turn is (result, named, again): the position after it (mover still first),
the double named after a 1-2 (0: none) and whether the same player rolls again.
"""

from __future__ import annotations

BAR, OFF, RES = 24, 25, 26
THEM = 27  # where the opponent's counts start in the packed form
Side = tuple[int, ...]
Pos = tuple[Side, Side]
Packed = bytes


def pack(pos: Pos) -> Packed:
    return bytes(pos[0]) + bytes(pos[1])


def unpack(p: Packed) -> Pos:
    return tuple(p[:THEM]), tuple(p[THEM:])


def start() -> Pos:
    side = [0] * 27
    side[RES] = 15  # A1: all fifteen off the board, yet to enter
    return tuple(side), tuple(side)


def move_one(p: Packed, src: int, die: int) -> Packed | None:
    """One checker of the mover from `src` (24: whoever enters) moved `die` pips, or None."""
    if src == BAR:
        if p[BAR] == 0 and p[RES] == 0:
            return None
        dest = 24 - die  # A2: enters on the opponent's home board point the die shows
    else:
        if p[BAR] or p[src] == 0:
            return None  # A4: a hit checker enters before any other checker moves
        dest = src - die
    if dest >= 0:
        facing = THEM + 23 - dest
        if p[facing] >= 2:
            return None  # A2, A5: two opposing checkers close a point
        b = bytearray(p)
        if src != BAR:
            b[src] -= 1
        elif b[BAR]:
            b[BAR] -= 1  # the hit checker enters first (A4)
        else:
            b[RES] -= 1
        if b[facing] == 1:  # A2, A5: a single opposing checker is hit and goes to the bar
            b[facing] = 0
            b[THEM + BAR] += 1
        b[dest] += 1
        return bytes(b)
    # A5: bearing off needs every checker home (0..5), none on the bar or still to enter
    if p[BAR] or p[RES] or any(p[6:24]):
        return None
    if dest != -1 and any(p[src + 1:6]):
        return None  # a larger die than needed bears off only from the highest point
    b = bytearray(p)
    b[src] -= 1
    b[OFF] += 1
    return bytes(b)


def sources(p: Packed) -> list[int]:
    """Where the mover's checkers may move from (24: entering): only the bar while a hit
    checker is on it (A4); otherwise every occupied point, and entering while checkers are
    still to enter (A3: entering is not forced first)."""
    if p[BAR]:
        return [BAR]
    out = [i for i in range(24) if p[i]]
    if p[RES]:
        out.append(BAR)
    return out


def after_die(starts: set[Packed], die: int) -> set[Packed]:
    """Every position one checker moved `die` pips from any of `starts` leads to."""
    out = set()
    for p in starts:
        for src in sources(p):
            q = move_one(p, src, die)
            if q is not None:
                out.add(q)
    return out


def levels_of(starts: set[Packed], dice: list[int]) -> list[set[Packed]]:
    """levels[k]: the positions after playing the first k of `dice`, in order, from any of
    `starts`, for k = 0.. the most that can be played (the list stops before the first empty
    level)."""
    levels = [set(starts)]
    for die in dice:
        nxt = after_die(levels[-1], die)
        if not nxt:
            break
        levels.append(nxt)
    return levels


def roll_results(p: Packed, d1: int, d2: int) -> tuple[int, set[Packed]]:
    """(dice played, results) of one roll by the roll rules (A5): as many dice as possible,
    the larger die when only one of a non-double can be played, a double four times."""
    if d1 == d2:
        levels = levels_of({p}, [d1] * 4)
        return len(levels) - 1, levels[-1]
    hi, lo = max(d1, d2), min(d1, d2)
    a = levels_of({p}, [hi, lo])
    b = levels_of({p}, [lo, hi])
    most = max(len(a), len(b)) - 1
    if most == 2:
        return 2, (a[2] if len(a) == 3 else set()) | (b[2] if len(b) == 3 else set())
    if most == 1:
        return 1, a[1] if len(a) >= 2 else b[1]
    return 0, {p}


def turn(p: Packed, d1: int, d2: int) -> tuple[int, set[tuple[Packed, int, bool]]]:
    """(dice played, moves) of the whole turn the roll gives; no moves when it passes."""
    played, results = roll_results(p, d1, d2)
    if played == 0:
        return 0, set()
    if {d1, d2} != {1, 2} or played < 2:
        return played, {(r, 0, False) for r in results}  # A7: no double without the whole 1-2
    best_all = 0
    moves: set[tuple[Packed, int, bool]] = set()
    for named in range(1, 7):
        # A6, A8: of the 1-2's plays, those that let the named double be played furthest.
        # The double is played from all of them at once: the deepest level reached is the
        # most any 1-2 play allows, and each position on it comes from a 1-2 play that allows
        # that many, so that level is exactly the results of naming this double; the same
        # player rolls again only when the double was played in full.
        levels = levels_of(results, [named] * 4)
        best = len(levels) - 1
        best_all = max(best_all, 2 + best)
        moves |= {(e, named, best == 4) for e in levels[-1]}
    return best_all, moves


def finished_packed(p: Packed) -> bool:
    return p[OFF] == 15 or p[THEM + OFF] == 15  # A9


def swap_packed(p: Packed) -> Packed:
    return p[THEM:] + p[:THEM]


ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def perft_packed(p: Packed, depth: int) -> int:
    """Leaves `depth` plies deep over the 21 distinct rolls: a move is one child (a 1-2 with
    its named double included), a pass one child, a finished game none; after a move with
    `again` the same player rolls the next ply."""
    if depth == 0:
        return 1
    if finished_packed(p):
        return 0
    total = 0
    for d1, d2 in ROLLS:
        _, moves = turn(p, d1, d2)
        if depth == 1:
            total += len(moves) or 1
            continue
        if not moves:
            total += perft_packed(swap_packed(p), depth - 1)
        for r, _, again in moves:
            total += perft_packed(r if again else swap_packed(r), depth - 1)
    return total


# The same on (mover, opponent) tuples.

def step(pos: Pos, src: int, die: int) -> Pos | None:
    q = move_one(pack(pos), src, die)
    return None if q is None else unpack(q)


def roll_plays(pos: Pos, d1: int, d2: int) -> tuple[int, set[Pos]]:
    played, results = roll_results(pack(pos), d1, d2)
    return played, {unpack(r) for r in results}


def turn_moves(pos: Pos, d1: int, d2: int) -> tuple[int, set[tuple[Pos, int, bool]]]:
    played, moves = turn(pack(pos), d1, d2)
    return played, {(unpack(r), named, again) for r, named, again in moves}


def perft(pos: Pos, depth: int) -> int:
    return perft_packed(pack(pos), depth)


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


# The first formulation, on tuples, kept to cross-check `turn` on a sample
# (tests/test_reference_acey_deucey.py): one step builds new tuples, and how far each 1-2
# result lets the named double be played is a depth-first search per result, after which the
# double is played from the results that go furthest. The same moves, several times slower.

def step_tuples(pos: Pos, src: int, die: int) -> Pos | None:
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


def after_dice_tuples(pos: Pos, dice: list[int]) -> list[set[Pos]]:
    """Positions after playing the first k dice in order, for k = 0..len(dice)."""
    levels = [{pos}]
    for die in dice:
        nxt = set()
        for p in levels[-1]:
            for src in [i for i in range(24) if p[0][i]] + [BAR]:
                q = step_tuples(p, src, die)
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
        q = step_tuples(pos, src, dice[0])
        if q is not None:
            best = max(best, 1 + most_dice(q, dice[1:]))
            if best == len(dice):
                break
    return best


def turn_moves_per_result(pos: Pos, d1: int, d2: int) -> tuple[int, set[tuple[Pos, int, bool]]]:
    """turn_moves by the first formulation."""
    if d1 == d2:
        levels = after_dice_tuples(pos, [d1] * 4)
        played, results = len(levels) - 1, levels[-1]
    else:
        hi, lo = max(d1, d2), min(d1, d2)
        a = after_dice_tuples(pos, [hi, lo])
        b = after_dice_tuples(pos, [lo, hi])
        played = max(len(a), len(b)) - 1
        if played == 2:
            results = (a[2] if len(a) == 3 else set()) | (b[2] if len(b) == 3 else set())
        else:
            results = (a[1] if len(a) >= 2 else b[1]) if played == 1 else {pos}
    if played == 0:
        return 0, set()
    if {d1, d2} != {1, 2} or played < 2:
        return played, {(r, 0, False) for r in results}
    best_all = 0
    moves: set[tuple[Pos, int, bool]] = set()
    for named in range(1, 7):
        reach = {r: most_dice(r, [named] * 4) for r in results}
        best = max(reach.values())
        best_all = max(best_all, 2 + best)
        ends = {r for r, n in reach.items() if n == best}
        for _ in range(best):
            ends = {q for e in ends for src in [i for i in range(24) if e[0][i]] + [BAR]
                    if (q := step_tuples(e, src, named)) is not None}
        moves |= {(e, named, best == 4) for e in ends}
    return best_all, moves
