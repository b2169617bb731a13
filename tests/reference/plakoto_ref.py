"""Slow, obviously-correct pure-Python reference move generator for Plakoto.

Written straight from docs/rules/plakoto.md; shares no code with the nardy core or with the
other references.

Positions are pairs of side arrays (26 ints, each side in its own coordinates: index i needs
i + 1 pips to bear off, index 23 is the starting point, 25 = borne off, 24 unused). A checker
pinned by the opponent is written -1 on its index (it is then the only checker of its side
there). The opponent's index j lies on the mover's index 23 - j.

Rules (numbers of the rules page):
  R2  a checker moves `d` points down; it may not land where the opponent has two or more
      checkers, nor where an opponent checker pins one of the mover's (such a point is
      closed as if two stood there);
  R3  landing on a single free opponent checker pins it; more of the mover's checkers may
      join the pinner; a pinned checker cannot move; when the last checker of the pinning
      side leaves, the pinned checker is free again;
  R5  bearing off once all fifteen are in the home board (indices 0..5) -- and, unless
      pinned_bear_off="allowed", none of them pinned; a die larger than needed only from
      the highest point holding a checker of the side (a pinned one included);
  R6  dice: both if possible, all four of a double if possible, else as many as possible,
      the larger die when only one of a non-double can be played;
  M1-M3 the mother rule: a side's checker pinned on its starting point while the pinner has
      no checker on its own starting point loses; both mothers pinned is a draw.
"""
from __future__ import annotations

import random

OFF = 25
START = 23
CHECKERS = 15

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def initial():
    side = [0] * 26
    side[START] = CHECKERS
    return tuple(side), tuple(side)


def count(side, i):
    """Checkers of a side on a slot, a pinned one counting 1."""
    return 1 if side[i] == -1 else side[i]


def home(side, pinned_bear_off):
    if any(count(side, i) for i in range(6, 25)):
        return False
    if pinned_bear_off == "allowed":
        return True
    return all(side[i] != -1 for i in range(6))


def steps(mover, opponent, d, pinned_bear_off="blocked"):
    """Every (mover', opponent') after one checker of the mover moves `d` points."""
    out = []
    for src in range(24):
        if mover[src] <= 0:  # empty, or its checker is pinned
            continue
        dest = src - d
        m = list(mover)
        o = list(opponent)
        if dest < 0:
            if not home(mover, pinned_bear_off):
                continue
            if dest < -1 and any(count(mover, k) for k in range(src + 1, 24)):
                continue
            m[src] -= 1
            m[OFF] += 1
        else:
            j = 23 - dest
            if count(opponent, j) >= 2:
                continue
            if mover[dest] == -1:  # an opponent checker pins ours there
                continue
            m[src] -= 1
            if opponent[j] == 1:  # a free single checker: pinned now
                o[j] = -1
                m[dest] = 1
            else:
                m[dest] += 1
        if m[src] == 0 and o[23 - src] == -1:  # the last pinner has left
            o[23 - src] = 1
        out.append((tuple(m), tuple(o)))
    return out


def _after(start, dice_seq, pinned_bear_off):
    """The positions after playing dice_seq in that order, every step legal."""
    frontier = {start}
    for d in dice_seq:
        frontier = {r for m, o in frontier for r in steps(m, o, d, pinned_bear_off)}
    return frontier


def legal_results(mover, opponent, dice, pinned_bear_off="blocked"):
    """Every distinct (mover', opponent') after a complete legal move (not swapped); a roll
    with no legal move gives {(mover, opponent)}."""
    start = (tuple(mover), tuple(opponent))
    a, b = dice
    orders = [(a,) * 4] if a == b else [(a, b), (b, a)]
    for n in range(len(orders[0]), 0, -1):  # as many dice as possible
        if n == 1 and a != b:
            # one die only: the larger when it can be played
            hi = _after(start, (max(a, b),), pinned_bear_off)
            return hi or _after(start, (min(a, b),), pinned_bear_off) or {start}
        out = set()
        for order in orders:
            out |= _after(start, order[:n], pinned_bear_off)
        if out:
            return out
    return {start}


def mother_end(a, b):
    """None, or who wins by the mother rule between sides a and b: "a", "b" or "draw"."""
    a_pinned, b_pinned = a[START] == -1, b[START] == -1
    if a_pinned and b_pinned:
        return "draw"
    if a_pinned and b[START] == 0:
        return "b"
    if b_pinned and a[START] == 0:
        return "a"
    return None


def finished(mover, opponent):
    return mover[OFF] == CHECKERS or opponent[OFF] == CHECKERS or \
        mother_end(mover, opponent) is not None


def is_valid(mover, opponent) -> bool:
    for side in (mover, opponent):
        if sum(count(side, i) for i in range(26)) != CHECKERS or side[24] != 0:
            return False
        if min(side[:24]) < -1 or min(side[24:]) < 0:
            return False
    for i in range(24):
        a, b = mover[i], opponent[23 - i]
        if a == -1 and b <= 0 or b == -1 and a <= 0:
            return False
        if a > 0 and b > 0:
            return False
    return True


def random_positions(n, seed, pinned_bear_off="blocked", sample_prob=0.4, greedy=0.0):
    """n positions on roll from random games played with this reference (restarting when a
    game ends); with probability `greedy` a turn runs its rearmost checkers forward, which
    drives games into bear-offs."""
    rng = random.Random(seed)
    out = []
    pos = initial()
    while len(out) < n:
        mover, opponent = pos
        if rng.random() < sample_prob:
            out.append(pos)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        results = sorted(legal_results(mover, opponent, dice, pinned_bear_off))
        if greedy and rng.random() < greedy:
            def key(r):
                m, o = r
                return (-m[OFF], sum((i + 1) ** 2 * count(m, i) for i in range(24)))
            low = min(key(r) for r in results)
            results = [r for r in results if key(r) == low]
        m, o = results[rng.randrange(len(results))]
        pos = initial() if finished(m, o) else (o, m)
    return out


def perft(position, depth, pinned_bear_off="blocked") -> int:
    """Leaves `depth` plies deep: 21 rolls a ply, children the distinct results, a pass one
    child, a finished game none. Equal positions of a level are merged with their weight."""
    level = {tuple(map(tuple, position)): 1}
    for ply in range(depth):
        nxt: dict = {}
        for (m0, o0), w in level.items():
            if finished(m0, o0):
                continue
            for dice in ALL_ROLLS:
                for m, o in legal_results(m0, o0, dice, pinned_bear_off):
                    child = (o, m)
                    nxt[child] = nxt.get(child, 0) + w
        level = nxt
    return sum(level.values())
