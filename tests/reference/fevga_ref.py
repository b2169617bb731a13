"""A slow, obviously-correct Fevga move generator written from docs/rules/fevga.md, sharing no
code with the core or with the long-nardy reference.

Side arrays are 26 counts in their owner's coordinates: 0..23 the points (the owner starts on
23 and bears off from 0..5), 24 unused, 25 borne off. The opponent's index j is the mover's
(j + 12) % 24. A move is found by trying every order of the dice one step at a time; the rules
say which steps and which finished moves are allowed, then the dice rule keeps the plays that
use the most dice (and, when only one die of a non-double can be played, the larger).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

START_POINT = 23
ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


@dataclass(frozen=True)
class Options:
    """The rule options of docs/rules/fevga.md, defaults first."""

    first_checker: str = "past-start"      # or "opponent-quarter"
    prime: str = "one-point-behind"        # or "all-behind", "free"
    start_quarter: bool = True
    their_quarter_limit: int = 6
    block_check: str = "step"              # or "end"


MOULTEZIM = Options(prime="free", start_quarter=False, their_quarter_limit=4)


def start_side() -> tuple[int, ...]:
    side = [0] * 26
    side[START_POINT] = 15
    return tuple(side)


def mover_index(j: int) -> int:
    """The mover's index of the opponent's point j (and the other way round)."""
    return (j + 12) % 24


def first_checker_through(us, opts: Options) -> bool:
    """Rule F3: has a checker gone far enough for others to leave the start?"""
    last = 10 if opts.first_checker == "past-start" else 11
    return us[25] > 0 or any(us[i] > 0 for i in range(last + 1))


def may_leave_start(us, opts: Options) -> bool:
    return us[START_POINT] == 15 or first_checker_through(us, opts)


def breaks_six_point_rules(us, them, opts: Options) -> bool:
    """Rules F5-F7 on a position (mover `us`, opponent `them`)."""
    if opts.start_quarter and all(us[i] > 0 for i in range(18, 24)):
        return True
    if sum(1 for i in range(6, 12) if us[i] > 0) > opts.their_quarter_limit:
        return True

    def held_by_mover(j):  # opponent's point j
        return us[mover_index(j)] > 0

    if opts.prime == "one-point-behind":
        stacks = [j for j in range(24) if them[j] > 0]
        if len(stacks) == 1:
            k = stacks[0]
            if k >= 6 and all(held_by_mover(j) for j in range(k - 6, k)):
                return True
    elif opts.prime == "all-behind":
        for low in range(0, 19):
            if all(held_by_mover(j) for j in range(low, low + 6)):
                someone_past = them[25] > 0 or any(them[j] > 0 for j in range(low))
                if not someone_past:
                    return True
    return False


def step(us, them, point, die, opts: Options):
    """The mover's side after moving one checker from `point` by `die`, or None."""
    if us[point] == 0:
        return None
    if point == START_POINT and not may_leave_start(us, opts):
        return None
    target = point - die
    new = list(us)
    new[point] -= 1
    if target >= 0:
        if them[mover_index(target)] > 0:
            return None
        new[target] += 1
        return tuple(new)
    # bearing off: all fifteen (less those off) in 0..5; exact, or from the highest point
    if any(us[i] > 0 for i in range(6, 24)):
        return None
    if target < -1 and any(us[i] > 0 for i in range(point + 1, 6)):
        return None
    new[25] += 1
    return tuple(new)


def legal_results(us, them, roll, opts: Options = Options()) -> set[tuple[int, ...]]:
    """The distinct mover sides after every legal move of the roll (empty: the turn passes)."""
    d1, d2 = roll
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    began_bad = breaks_six_point_rules(us, them, opts)
    check_steps = opts.block_check == "step" and not began_bad
    plays: dict[tuple[int, ...], set[tuple[int, ...]]] = {}  # dice used -> results
    seen: set = set()  # (side, dice used, dice left): what follows depends on nothing else

    def search(side, dice_left, used):
        key = (side, tuple(used), tuple(dice_left))
        if key in seen:
            return
        seen.add(key)
        if used:
            if not check_steps and breaks_six_point_rules(side, them, opts):
                pass  # a finished move must be clean
            else:
                plays.setdefault(tuple(used), set()).add(side)
        if not dice_left:
            return
        die = dice_left[0]
        for point in range(24):
            nxt = step(side, them, point, die, opts)
            if nxt is None:
                continue
            if check_steps and breaks_six_point_rules(nxt, them, opts):
                continue
            search(nxt, dice_left[1:], used + [die])

    for order in orders:
        search(us, order, [])
    if not plays:
        return set()
    most = max(len(k) for k in plays)
    best = {k: v for k, v in plays.items() if len(k) == most}
    if most == 1 and d1 != d2:
        larger = (max(d1, d2),)
        if larger in best:
            best = {larger: best[larger]}
    out: set[tuple[int, ...]] = set()
    for v in best.values():
        out |= v
    return out


def game_over(us, them) -> bool:
    return us[25] == 15 or them[25] == 15


def perft(us, them, depth, opts: Options = Options()) -> int:
    """Leaves at `depth` plies: 21 distinct rolls a ply, children the distinct results, a roll
    with no move one child (the turn passes), a finished game none."""
    level = {(us, them): 1}
    for _ in range(depth):
        nxt: dict = {}
        for (m, o), mult in level.items():
            if game_over(m, o):
                continue
            for roll in ALL_ROLLS:
                results = legal_results(m, o, roll, opts) or {m}
                for r in results:
                    key = (o, r)
                    nxt[key] = nxt.get(key, 0) + mult
        level = nxt
    return sum(level.values())


def random_positions(n, seed, opts: Options = Options(), max_plies=400):
    """Positions (mover, opponent) met in random games played with this generator."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        us, them = start_side(), start_side()
        for _ in range(max_plies):
            if game_over(us, them) or len(out) >= n:
                break
            out.append((us, them))
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            results = sorted(legal_results(us, them, roll, opts))
            if results:
                us = rng.choice(results)
            us, them = them, us
    return out
