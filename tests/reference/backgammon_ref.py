"""Slow, obviously-correct pure-Python reference move generator for backgammon.

Written straight from the rules; shares no code with the nardy core.

The setup is a parameter (``start``, a side array; default the standard 2-5-3-5): variants
played with backgammon's movement and another setup or number of checkers (Nackgammon,
Hypergammon) use the same rules of movement, and a side has ``sum(start)`` checkers.

Positions are pairs of *side arrays* (see docs/coordinates.md): 26 ints per side in the
side's own distance coordinates, index 24 = bar, 25 = borne off.  The opponent's index j
lies on the mover's index 23 - j.  All functions work from the mover's point of view and
never swap sides unless asked to (``swap``).
"""
from __future__ import annotations

import random

BAR = 24
OFF = 25
NCHECKERS = 15

Side = tuple  # tuple[int, ...] of length 26
Position = tuple  # (mover Side, opponent Side)


def standard_start() -> Side:
    """Backgammon's setup: 2 on index 23, 5 on 12, 3 on 7, 5 on 5."""
    side = [0] * 26
    side[23], side[12], side[7], side[5] = 2, 5, 3, 5
    return tuple(side)


def initial(start=None) -> Position:
    """Opening position: both sides set up as ``start`` (default: backgammon's)."""
    side = tuple(start) if start is not None else standard_start()
    return side, side


def swap(mover, opponent) -> Position:
    """Hand the turn over: the opponent becomes the mover."""
    return tuple(opponent), tuple(mover)


def pip_count(side) -> int:
    """Pips a side needs to bear everything off (bar checkers need 25)."""
    return sum((i + 1) * side[i] for i in range(24)) + 25 * side[BAR]


def _all_home(mover) -> bool:
    """All 15 checkers are in indices 0..5 or already borne off (none on bar/outfield)."""
    return sum(mover[6:25]) == 0


def single_moves(mover, opponent, d):
    """All positions reachable by moving exactly one checker by one die ``d``.

    Returns a list of (mover', opponent') pairs (possibly with repeats)."""
    out = []
    if mover[BAR] > 0:
        sources = [BAR]  # bar checkers must enter before anything else moves
    else:
        sources = [i for i in range(24) if mover[i] > 0]
    for src in sources:
        dest = (24 - d) if src == BAR else (src - d)
        if dest < 0:
            # bearing off
            if not _all_home(mover):
                continue
            if dest != -1:
                # larger die than needed: only from the highest occupied point
                if any(mover[k] > 0 for k in range(src + 1, 24)):
                    continue
            m = list(mover)
            m[src] -= 1
            m[OFF] += 1
            out.append((tuple(m), tuple(opponent)))
            continue
        j = 23 - dest  # the same point in the opponent's coordinates
        if opponent[j] >= 2:
            continue  # blocked
        m = list(mover)
        o = list(opponent)
        m[src] -= 1
        m[dest] += 1
        if o[j] == 1:  # hit a blot
            o[j] = 0
            o[BAR] += 1
        out.append((tuple(m), tuple(o)))
    return out


def _play_sequence(start, dice_seq):
    """levels[k] = set of distinct positions reached after playing the first k dice of
    dice_seq in that order (every move legal)."""
    levels = [{start}]
    for d in dice_seq:
        nxt = set()
        for (m, o) in levels[-1]:
            nxt.update(single_moves(m, o, d))
        if not nxt:
            break
        levels.append(nxt)
    return levels


def legal_results(mover, opponent, dice):
    """All distinct positions (mover', opponent') -- same perspective, NOT swapped -- after a
    complete legal move with ``dice = (d1, d2)``.  A pass returns {(mover, opponent)}."""
    mover, opponent = tuple(mover), tuple(opponent)
    assert len(mover) == 26 and len(opponent) == 26
    d1, d2 = dice
    start = (mover, opponent)
    if d1 == d2:
        levels = _play_sequence(start, (d1,) * 4)
        # must use as many of the four dice as possible
        return set(levels[-1])
    # non-double: try both orders
    lev_a = _play_sequence(start, (d1, d2))
    lev_b = _play_sequence(start, (d2, d1))
    both = set()
    if len(lev_a) == 3:
        both |= lev_a[2]
    if len(lev_b) == 3:
        both |= lev_b[2]
    if both:
        return both  # both dice must be used when possible
    hi, lo = max(d1, d2), min(d1, d2)
    with_hi = set(single_moves(mover, opponent, hi))
    if with_hi:
        return with_hi  # only one die playable: the larger one when it can be
    with_lo = set(single_moves(mover, opponent, lo))
    if with_lo:
        return with_lo
    return {start}


ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # the 21 distinct rolls


def is_valid(mover, opponent, checkers=NCHECKERS) -> bool:
    """Structural sanity: ``checkers`` a side, no point shared by both sides."""
    if sum(mover) != checkers or sum(opponent) != checkers:
        return False
    if min(mover) < 0 or min(opponent) < 0:
        return False
    return all(not (mover[i] and opponent[23 - i]) for i in range(24))


def _race_key(result):
    """Greedy preference used by the race-biased sampler (every legal move uses the same
    number of pips, so the pip count itself cannot steer; squared distances can)."""
    m, o = result
    return (o[BAR], -m[OFF], sum((i + 1) ** 2 * m[i] for i in range(24)) + 625 * m[BAR])


def _play_games(n, seed, greedy, sample_prob, start=None):
    """Play random games with the reference; yield positions on roll.

    ``greedy`` is the probability that a turn picks a result minimising ``_race_key`` (no
    hits, bear off, run the back checkers first: drives games into races and bear-offs);
    otherwise a uniformly random legal result.
    Each position on roll is recorded with probability ``sample_prob``."""
    rng = random.Random(seed)
    out = []
    pos = initial(start)
    checkers = sum(pos[0])
    while len(out) < n:
        mover, opponent = pos
        if rng.random() < sample_prob:
            out.append(pos)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        results = sorted(legal_results(mover, opponent, dice))
        if greedy and rng.random() < greedy:
            best = min(_race_key(r) for r in results)
            results = [r for r in results if _race_key(r) == best]
        m, o = results[rng.randrange(len(results))]
        if m[OFF] == checkers:
            pos = initial(start)  # game over: restart
        else:
            pos = swap(m, o)
    return out


def random_positions(n, seed, start=None):
    """n reachable positions (mover, opponent), mover on roll, from random games with
    uniformly random legal moves; deterministic in ``seed``.  Mixes in a share of
    race-biased games so that races and bear-offs are well represented."""
    rng = random.Random(seed)
    n_race = n // 3
    pos = _play_games(n - n_race, rng.randrange(2**32), greedy=0.0, sample_prob=0.5,
                      start=start)
    pos += random_positions_race(n_race, rng.randrange(2**32), start=start)
    rng.shuffle(pos)
    return pos


def random_positions_race(n, seed, greedy=0.8, start=None):
    """Like random_positions but moves are chosen greedily (see ``_race_key``) with
    probability ``greedy``, so games quickly become races and bear-offs."""
    return _play_games(n, seed, greedy=greedy, sample_prob=0.5, start=start)


def perft(position, depth, checkers=NCHECKERS) -> int:
    """Leaves of the game tree ``depth`` plies deep: per ply the 21 distinct rolls, children
    the distinct resulting positions, a pass one child, a finished game (a side with all
    ``checkers`` off) none. Equal positions of a level are merged with their multiplicity,
    which changes no count."""
    if depth == 0:
        return 1
    level = {tuple(map(tuple, position)): 1}
    for ply in range(depth):
        last = ply == depth - 1
        leaves = 0
        nxt: dict = {}
        for (mover, opponent), weight in level.items():
            if mover[OFF] == checkers or opponent[OFF] == checkers:
                continue
            for dice in ALL_ROLLS:
                results = legal_results(mover, opponent, dice)
                if last:
                    leaves += weight * len(results)
                    continue
                for m, o in results:
                    child = (o, m)
                    nxt[child] = nxt.get(child, 0) + weight
        if last:
            return leaves
        level = nxt
    raise AssertionError("unreachable")


def phase(mover, opponent) -> str:
    """Rough classification used to check coverage of random_positions."""
    if mover[BAR] or opponent[BAR]:
        return "bar"
    if _all_home(mover) or _all_home(opponent):
        return "bearoff"
    # contact: some mover checker still has to pass some opponent checker
    m_back = max(i for i in range(24) if mover[i])
    o_back_on_mover = min(23 - j for j in range(24) if opponent[j])
    if m_back > o_back_on_mover:
        return "contact"
    return "race"
