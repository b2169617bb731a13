"""Slow, obviously-correct reference move generator for LONG NARDY (длинные нарды).

Written straight from the rule texts (seed 000 sections 1-4, seed 004) and the issue text;
it shares no code with the C++ core and imports nothing from ``nardy``.  It is meant to be
read, not to be fast.

Coordinates (docs/coordinates.md): a position is two "side arrays" of 26 ints, one for the
player on roll ("mover") and one for the opponent, each in the side's OWN distance
coordinates: index 23 = the head, 0..5 = home (0 = last home point), 24 unused (always 0),
25 = borne off.  A checker moves from index ``i`` to ``i - d``; ``i - d < 0`` bears it off.
The opponent's index ``j`` lies on the mover's index ``(j + 12) % 24``, so the mover's index
``i`` holds the opponent's index ``(i + 12) % 24``.

Rules implemented (one short function each, below):

* no hitting: a checker never lands on a point holding any opponent checker;
* head rule: at most one checker leaves the head (index 23) per turn, with the first-turn
  exception decided by the preset ("federation", "classic", "extended");
* six-block rule, checked after every single checker step (``block_check="step"``, the
  default, "даже пробегом") or on the final position only (``block_check="end"``);
* maximum dice: play as many dice as possible; if only one die of a non-double can be
  played, the larger one when it can be played;
* bearing off once all 15 are home: the exact die, or a larger die from the highest point.

The generator is a plain exhaustive search over every single-step sequence (every order of
the dice, every checker), so "a move is legal if some order of its steps is legal" holds by
construction.  A move is identified by its resulting position.
"""

from __future__ import annotations

import random
from typing import Iterable

HEAD = 23  # the head, in the side's own coordinates
OFF = 25  # borne-off slot
CHECKERS = 15
PRESETS = ("federation", "classic", "extended")
BLOCK_CHECKS = ("step", "end")

Side = tuple  # 26 ints
Position = tuple  # (mover side, opponent side)

# The 21 distinct rolls: 15 non-doubles and 6 doubles.
ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


# ---------------------------------------------------------------------------------------------
# Basic helpers
# ---------------------------------------------------------------------------------------------


def initial() -> Position:
    """The starting position: 15 checkers on each side's head (index 23)."""
    side = [0] * 26
    side[HEAD] = CHECKERS
    return (tuple(side), tuple(side))


def swap(position: Position) -> Position:
    """The same position seen by the other player (sides exchanged, arrays unchanged)."""
    mover, opponent = position
    return (tuple(opponent), tuple(mover))


def opponent_index_on(i: int) -> int:
    """The opponent's own index of the point that is the mover's index ``i`` (0..23)."""
    return (i + 12) % 24


def opponent_on(opponent: Side, i: int) -> bool:
    """True when the mover's point ``i`` holds at least one opponent checker."""
    return opponent[opponent_index_on(i)] > 0


def all_home(mover: Side) -> bool:
    """All 15 checkers are in home (indices 0..5) or already borne off."""
    return all(mover[k] == 0 for k in range(6, 25))


def _check_side(side: Iterable[int], name: str) -> Side:
    side = tuple(int(x) for x in side)
    if len(side) != 26:
        raise ValueError(f"{name}: a side array has 26 entries, got {len(side)}")
    if any(x < 0 for x in side) or sum(side) != CHECKERS or side[24] != 0:
        raise ValueError(f"{name}: counts must be >= 0, sum to 15, index 24 = 0: {side}")
    return side


# ---------------------------------------------------------------------------------------------
# Six-block rule
# ---------------------------------------------------------------------------------------------


def forbidden_block(mover: Side, opponent: Side) -> bool:
    """True when the mover holds six consecutive points with no opponent checker past them.

    "Consecutive" is measured along the OPPONENT's path: the mover's occupied points are
    mapped to opponent indices j = (i + 12) % 24 and we look for six consecutive j without
    wrapping past j = 0 / j = 23.  An opponent checker is past a block j_lo..j_lo+5 when it
    stands on an opponent index j < j_lo (further along its own path), or is borne off.
    """
    held = [False] * 24  # held[j]: the mover holds the point that is the opponent's index j
    for i in range(24):
        if mover[i] > 0:
            held[opponent_index_on(i)] = True
    for lo in range(0, 24 - 6 + 1):
        if all(held[lo:lo + 6]):
            someone_past = opponent[OFF] > 0 or any(opponent[j] > 0 for j in range(lo))
            if not someone_past:
                return True
    return False


# ---------------------------------------------------------------------------------------------
# One checker step
# ---------------------------------------------------------------------------------------------


def single_step(mover: Side, opponent: Side, i: int, d: int) -> Side | None:
    """Move one checker from the mover's index ``i`` by ``d`` pips, or None if impossible.

    Only the point rules are checked here (own checker present, no opponent on the landing
    point, bearing-off conditions); the head limit and the six-block rule are checked by the
    caller.
    """
    if mover[i] == 0:
        return None
    target = i - d
    new = list(mover)
    new[i] -= 1
    if target >= 0:
        if opponent_on(opponent, target):
            return None
        new[target] += 1
    else:
        # Bearing off: every checker must be home.
        if not all_home(mover):
            return None
        exact = target == -1  # the checker needs exactly d pips
        if not exact:
            # A larger die only from the highest occupied point.
            if any(mover[k] > 0 for k in range(i + 1, 6)):
                return None
        new[OFF] += 1
    return tuple(new)


# ---------------------------------------------------------------------------------------------
# Whole turn for a given head limit
# ---------------------------------------------------------------------------------------------


def _remove_one(dice: tuple, d: int) -> tuple:
    lst = list(dice)
    lst.remove(d)
    return tuple(lst)


def _plays(mover: Side, opponent: Side, dice: tuple, head_limit: int, block_check: str):
    """All legal plays with a given head limit, before choosing among them.

    Returns (max dice played, set of resulting mover sides).  Every reachable
    (position, remaining dice) node of the step search is a candidate play ("stop here");
    under block_check="step" every step is checked, under "end" only the candidate's final
    position.  The legal plays are the valid candidates that use the most dice; among
    one-die plays of a non-double, those using the larger die if any does.
    """
    start_head = mover[HEAD]
    all_dice = tuple(sorted(dice))
    start = (mover, all_dice)
    seen = {start}
    todo = [start]
    while todo:
        pos, left = todo.pop()
        for d in set(left):
            for i in range(24):
                if i == HEAD and start_head - pos[HEAD] >= head_limit:
                    continue  # head limit reached
                new = single_step(pos, opponent, i, d)
                if new is None:
                    continue
                if block_check == "step" and forbidden_block(new, opponent):
                    continue  # a block made even in passing
                node = (new, _remove_one(left, d))
                if node not in seen:
                    seen.add(node)
                    todo.append(node)

    # Candidates: every node; "end" drops the ones ending in a forbidden block.
    candidates = []
    for pos, left in seen:
        used = len(all_dice) - len(left)
        if block_check == "end" and used > 0 and forbidden_block(pos, opponent):
            continue
        candidates.append((pos, left, used))
    best = max(used for _, _, used in candidates)
    chosen = [(pos, left) for pos, left, used in candidates if used == best]
    if best == 1 and dice[0] != dice[1]:
        big = max(dice)
        # used the larger die <=> the larger die is not what is left
        with_big = [(pos, left) for pos, left in chosen if left != (big,)]
        if with_big:
            chosen = with_big
    return best, {pos for pos, _ in chosen}


# ---------------------------------------------------------------------------------------------
# First-turn head exception
# ---------------------------------------------------------------------------------------------


def is_first_turn(mover: Side) -> bool:
    """The mover's first turn (derived): all 15 of its checkers are on its head."""
    return mover[HEAD] == CHECKERS


def first_checker_stopped_by_opponent_head(opponent: Side, d: int) -> bool:
    """Federation test: the lone head checker's path head, head-d, ... (up to 4 steps) is
    stopped by the opponent's head (mover index 11 while the opponent still has checkers
    there) and not earlier by any other opponent checker."""
    for k in range(1, 5):
        p = HEAD - k * d
        if p < 0:
            return False
        if opponent_on(opponent, p):
            return p == 11 and opponent[HEAD] > 0
    return False


SPECIAL_DOUBLES = (6, 4, 3)


def legal_results(mover, opponent, dice, preset: str = "federation",
                  block_check: str = "step") -> set:
    """Every distinct legal result of the roll ``dice``, as a set of (mover', opponent)
    tuples in the same orientation (not swapped).  A pass returns {(mover, opponent)}."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    if block_check not in BLOCK_CHECKS:
        raise ValueError(f"unknown block_check {block_check!r}")
    mover = _check_side(mover, "mover")
    opponent = _check_side(opponent, "opponent")
    dice = tuple(int(d) for d in dice)
    if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two ints 1..6, got {dice}")
    steps = dice * 2 if dice[0] == dice[1] else dice
    double = dice[0] == dice[1]

    head_limit = 1
    if is_first_turn(mover):
        if preset == "classic":
            if double and dice[0] in SPECIAL_DOUBLES:
                head_limit = 2
        elif preset == "federation":
            if (double and dice[0] in SPECIAL_DOUBLES
                    and first_checker_stopped_by_opponent_head(opponent, dice[0])):
                head_limit = 2
        elif preset == "extended":
            best1, _ = _plays(mover, opponent, steps, 1, block_check)
            best2, _ = _plays(mover, opponent, steps, 2, block_check)
            if best2 > best1:
                head_limit = 2

    _, sides = _plays(mover, opponent, steps, head_limit, block_check)
    return {(side, opponent) for side in sides}


# ---------------------------------------------------------------------------------------------
# Games, random positions and perft
# ---------------------------------------------------------------------------------------------


def game_over(position: Position) -> bool:
    """Either side has borne off all 15 checkers."""
    mover, opponent = position
    return mover[OFF] == CHECKERS or opponent[OFF] == CHECKERS


def random_positions(n: int, seed: int, preset: str = "federation",
                     block_check: str = "step", max_plies: int = 2000) -> list:
    """``n`` positions (mover to move, game not over) from random games.

    Each ply rolls two dice with ``random.Random(seed)`` and picks a legal result uniformly
    (from the sorted list, so it is deterministic); a finished game (or one longer than
    ``max_plies``) is followed by a new one from the start.  Every position on roll is
    recorded, so all phases appear, bear-off included.
    """
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = initial()
        for _ in range(max_plies):
            if len(out) >= n or game_over(pos):
                break
            out.append(pos)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            results = sorted(legal_results(pos[0], pos[1], dice, preset, block_check))
            pos = swap(rng.choice(results))
    return out


def children(position: Position, dice, preset: str = "federation",
             block_check: str = "step") -> list:
    """Distinct positions after the roll, swapped so the next player is the mover."""
    mover, opponent = position
    return sorted(swap(r) for r in legal_results(mover, opponent, dice, preset, block_check))


def perft(mover, opponent, depth: int, preset: str = "federation",
          block_check: str = "step") -> int:
    """Leaves of the game tree ``depth`` plies deep over the 21 distinct rolls per ply.

    Children of a roll are the distinct resulting positions (swapped); a roll with no legal
    move has one child (the pass).  A finished game has no children (chess convention:
    perft of a game-over position at depth > 0 is 0).
    """
    position = (tuple(mover), tuple(opponent))
    if depth == 0:
        return 1
    if game_over(position):
        return 0
    total = 0
    for dice in ROLLS:
        for child in children(position, dice, preset, block_check):
            total += perft(child[0], child[1], depth - 1, preset, block_check)
    return total


def perft_divide(mover, opponent, depth: int, preset: str = "federation",
                 block_check: str = "step") -> dict:
    """perft split by the first roll (for diffing against another generator)."""
    position = (tuple(mover), tuple(opponent))
    return {dice: sum(perft(c[0], c[1], depth - 1, preset, block_check)
                      for c in children(position, dice, preset, block_check))
            for dice in ROLLS}


if __name__ == "__main__":  # pragma: no cover - manual timing
    import sys
    import time

    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    for p in PRESETS:
        t0 = time.perf_counter()
        m, o = initial()
        print(p, [perft(m, o, k, p) for k in range(1, depth + 1)],
              f"{time.perf_counter() - t0:.1f}s")
