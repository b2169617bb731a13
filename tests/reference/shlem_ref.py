"""Slow, obviously-correct pure-Python reference move generator for Shlem (Шлем, seed 003).

Written straight from the rules as read in docs/rules/shlem.md; it shares no code with the
nardy core and does not use its coordinates internally: the board is kept by the seed's
two-digit point names (quarter 1-4, point 1-6), one cell per point holding the white count,
the black count and which colour's single checker (if any) is a prisoner there.

    state = (cells, reserves, hit)
      cells    : tuple of 24 cells in the order of POINTS; a cell is (white, black, prisoner)
                 with prisoner = WHITE / BLACK (whose checker is held) or NONE
      reserves : (white, black) checkers not yet entered (3 each at the start)
      hit      : (white, black) checkers hit out of the game (stage 2)

Only ``to_sides`` / ``from_sides`` know the core's side-array layout (documented in
docs/rules/shlem.md), so the tests can compare the two generators.
"""
from __future__ import annotations

import random

WHITE, BLACK, NONE = 0, 1, -1

# The board: quarters 1-4, points 1-6 in each ("11".."46" as integers).
POINTS = [q * 10 + k for q in (1, 2, 3, 4) for k in range(1, 7)]
IDX = {p: i for i, p in enumerate(POINTS)}

# Each colour's line of twelve points in order (the issue: white 11..16 21..26, black 41..46
# 31..36); a colour's territory is its own line.
LINE = {
    WHITE: [11, 12, 13, 14, 15, 16, 21, 22, 23, 24, 25, 26],
    BLACK: [41, 42, 43, 44, 45, 46, 31, 32, 33, 34, 35, 36],
}
TERRITORY = {c: frozenset(LINE[c]) for c in (WHITE, BLACK)}
# Own quarters, where reserves enter: white 1k / 2k, black 3k / 4k.
OWN_QUARTERS = {WHITE: (1, 2), BLACK: (3, 4)}
# Facing points: 1k faces 4k, 2k faces 3k (seed: "пункт 13 и пункт 43", "с 12 на 42").
_FACE_QUARTER = {1: 4, 4: 1, 2: 3, 3: 2}
FACING = {p: _FACE_QUARTER[p // 10] * 10 + p % 10 for p in POINTS}

STAGE_EITHER, STAGE_PER_PLAYER = "either", "per-player"
END_MOVE, END_CLAIM = "move", "claim"
RESERVES = 3
CHECKERS = 15

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]  # 21 rolls, a >= b


def initial():
    cells = []
    for p in POINTS:
        if p in TERRITORY[WHITE]:
            cells.append((1, 0, NONE))
        else:
            cells.append((0, 1, NONE))
    return (tuple(cells), (RESERVES, RESERVES), (0, 0))


def _count(cell, c):
    return cell[c]


def _set_count(cell, c, n, prisoner):
    w, b = (n, cell[1]) if c == WHITE else (cell[0], n)
    return (w, b, prisoner)


def stage2(state, c, stage_rule=STAGE_EITHER):
    """May ``c`` hit? Stage 2: all reserves of either player entered (or of ``c`` itself)."""
    _, res, _ = state
    if stage_rule == STAGE_PER_PLAYER:
        return res[c] == 0
    return res[WHITE] == 0 or res[BLACK] == 0


def _movable(cell, c):
    """c has a checker here that may move (at least one, and c's checker is not a prisoner)."""
    return cell[c] >= 1 and cell[2] != c


def _targets(p, c, d):
    """Points a checker of ``c`` on ``p`` may reach with die ``d`` (geometry only)."""
    o = 1 - c
    out = []
    if p in TERRITORY[c]:
        line = LINE[c]
        k = line.index(p)
        if k + d < 12:
            out.append(line[k + d])
        if k - d >= 0:
            out.append(line[k - d])
        if p % 10 == d:  # the jump: only with the die equal to the point's number
            out.append(FACING[p])
    else:  # on the opponent's territory: along its line, never back home
        line = LINE[o]
        k = line.index(p)
        if k + d < 12:
            out.append(line[k + d])
        if k - d >= 0:
            out.append(line[k - d])
    return out


def _leave(cells, p, c):
    """Takes one checker of c off p; frees a prisoner whose last capturer that was."""
    o = 1 - c
    cell = cells[IDX[p]]
    n = cell[c] - 1
    prisoner = cell[2]
    if n == 0 and prisoner == o:
        prisoner = NONE
    cells[IDX[p]] = _set_count(cell, c, n, prisoner)


def single_steps(state, c, d, stage_rule=STAGE_EITHER):
    """Every (next_state, step) for one die ``d`` played by ``c``; step = (from, to, hit) with
    from = 'res' for a reserve entering. Capture and hit are separate steps."""
    cells, res, hit = state
    o = 1 - c
    out = []
    # Reserves enter on the own point with the die's number in either own quarter; only an
    # empty point or one c holds (its own prisoner point included): never capture or hit.
    if res[c] > 0:
        for q in OWN_QUARTERS[c]:
            t = q * 10 + d
            cell = cells[IDX[t]]
            if cell[o] == 0 or cell[2] == o:
                new = list(cells)
                new[IDX[t]] = _set_count(cell, c, cell[c] + 1, cell[2])
                r = list(res)
                r[c] -= 1
                out.append(((tuple(new), tuple(r), hit), ("res", t, False)))
    may_hit = stage2(state, c, stage_rule)
    for p in POINTS:
        if not _movable(cells[IDX[p]], c):
            continue
        for t in _targets(p, c, d):
            tc = cells[IDX[t]]
            if tc[2] == c:  # the opponent holds c's checker prisoner there
                continue
            if tc[o] >= 2:  # the opponent's closed point
                continue
            new = list(cells)
            _leave(new, p, c)
            tc = new[IDX[t]]  # unchanged by leaving p (t != p)
            if tc[o] == 1 and tc[2] != o:  # a free single opponent checker
                cap = list(new)
                cap[IDX[t]] = (tc[0] + (c == WHITE), tc[1] + (c == BLACK), o)
                out.append(((tuple(cap), res, hit), (p, t, False)))
                if may_hit:
                    hitl = list(new)
                    hitl[IDX[t]] = (1, 0, NONE) if c == WHITE else (0, 1, NONE)
                    h = list(hit)
                    h[o] += 1
                    out.append(((tuple(hitl), res, tuple(h)), (p, t, True)))
            else:
                new[IDX[t]] = _set_count(tc, c, tc[c] + 1, tc[2])
                out.append(((tuple(new), res, hit), (p, t, False)))
    return out


def legal_results(state, c, dice, stage_rule=STAGE_EITHER):
    """The set of states ``c`` can reach with the roll: as many dice as possible; if only one
    die of a non-double can be played, the larger one when it can be. Empty: c passes."""
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    finals = []  # (state, dice used)
    seen = set()

    def dfs(st, remaining, used):
        key = (st, remaining)
        if key in seen:
            return
        seen.add(key)
        if remaining:
            nxt = single_steps(st, c, remaining[0], stage_rule)
            if nxt:
                for s2, _ in nxt:
                    dfs(s2, remaining[1:], used + (remaining[0],))
                return
        finals.append((st, used))

    for order in orders:
        dfs(state, order, ())
    most = max(len(u) for _, u in finals)
    if most == 0:
        return set()
    keep = [(s, u) for s, u in finals if len(u) == most]
    if d1 != d2 and most == 1:
        big = max(d1, d2)
        if any(u == (big,) for _, u in keep):
            keep = [(s, u) for s, u in keep if u == (big,)]
    return {s for s, _ in keep}


# ----------------------------------------------------------------------------- end of game

def longest_blockade(state, c):
    """Longest run of consecutive points along the opponent's line closed by c (>= 2 of c's
    checkers there, a prisoner under them or not)."""
    cells = state[0]
    best = run = 0
    for p in LINE[1 - c]:
        if cells[IDX[p]][c] >= 2:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


def closed_points_on_opponent(state, c):
    cells = state[0]
    return sum(1 for p in LINE[1 - c] if cells[IDX[p]][c] >= 2)


def free_checkers(state, c):
    """Checkers of c not hit out and not held prisoner (reserves included)."""
    cells, res, hit = state
    prisoners = sum(1 for cell in cells if cell[2] == c)
    return CHECKERS - hit[c] - prisoners


def left_start(state, c):
    cells, res, _ = state
    return res[c] == 0 and all(cells[IDX[p]][c] == 0 for p in TERRITORY[c])


def status(state, to_move, end_rule=END_MOVE, passes=0, pass_limit=4):
    """(over, winner colour or None, value, reason) with ``to_move`` on roll."""
    other = 1 - to_move
    b_move, b_other = longest_blockade(state, to_move), longest_blockade(state, other)
    if end_rule == END_MOVE:
        if b_other >= 2:
            return True, other, b_other ** 2, "blockade"
        if b_move >= 2:
            return True, to_move, b_move ** 2, "blockade"
    reason = ""
    if left_start(state, WHITE) or left_start(state, BLACK):
        reason = "left_start"
    elif free_checkers(state, WHITE) < 4 and free_checkers(state, BLACK) < 4:
        reason = "no_material"
    elif pass_limit and passes >= pass_limit:
        reason = "passes"
    if not reason:
        return False, None, 0, ""
    if b_move >= 2 or b_other >= 2:
        if b_move >= b_other:
            return True, to_move, b_move ** 2, "blockade"
        return True, other, b_other ** 2, "blockade"
    a, b = closed_points_on_opponent(state, to_move), closed_points_on_opponent(state, other)
    if a == b:
        return True, None, 0, reason
    return True, (to_move if a > b else other), 1, reason


def perft(state, c, depth, stage_rule=STAGE_EITHER, end_rule=END_MOVE):
    """Leaves ``depth`` plies deep over the 21 rolls; a pass is one child; a finished game
    (by the position alone: no pass history) has none."""
    if depth == 0:
        return 1
    if status(state, c, end_rule)[0]:
        return 0
    total = 0
    for roll in ALL_ROLLS:
        res = legal_results(state, c, roll, stage_rule)
        if not res:
            total += 1 if depth == 1 else perft(state, 1 - c, depth - 1, stage_rule, end_rule)
        elif depth == 1:
            total += len(res)
        else:
            total += sum(perft(s, 1 - c, depth - 1, stage_rule, end_rule) for s in res)
    return total


# ------------------------------------------------------- the core's side arrays (interface)
# A colour's own index i: 0..11 its own line in order, 12..23 the opponent's line in order
# (12 + i faces own index i); 24 reserves; 25 hit out; -1 = c's checker is a prisoner there.

def _own_point(c, i):
    return LINE[c][i] if i < 12 else LINE[1 - c][i - 12]


def to_sides(state, c):
    """(side of c, side of the other colour), each in its own coordinates."""
    cells, res, hit = state
    out = []
    for col in (c, 1 - c):
        side = []
        for i in range(24):
            cell = cells[IDX[_own_point(col, i)]]
            side.append(-1 if cell[2] == col else cell[col])
        side += [res[col], hit[col]]
        out.append(tuple(side))
    return out[0], out[1]


def from_sides(mover, opponent, c):
    """Inverse of to_sides, ``c`` being the mover's colour."""
    cells = {p: [0, 0, NONE] for p in POINTS}
    for col, side in ((c, mover), (1 - c, opponent)):
        for i in range(24):
            n = side[i]
            if n:
                cell = cells[_own_point(col, i)]
                cell[col] = 1 if n < 0 else n
                if n < 0:
                    cell[2] = col
    res = [0, 0]
    hit = [0, 0]
    res[c], res[1 - c] = mover[24], opponent[24]
    hit[c], hit[1 - c] = mover[25], opponent[25]
    return (tuple(tuple(cells[p]) for p in POINTS), tuple(res), tuple(hit))


def is_valid(state):
    cells, res, hit = state
    for c in (WHITE, BLACK):
        n = sum(cell[c] for cell in cells) + res[c] + hit[c]
        if n != CHECKERS or not 0 <= res[c] <= RESERVES:
            return False
    for w, b, pr in cells:
        if w and b:
            if pr == WHITE and w != 1 or pr == BLACK and b != 1 or pr == NONE:
                return False
        elif pr != NONE:
            return False
    return True


def random_game_states(rng: random.Random, plies: int, stage_rule=STAGE_EITHER):
    """States along one random game played with this reference (slow; for small samples)."""
    st, c = initial(), WHITE
    out = []
    for _ in range(plies):
        if status(st, c)[0]:
            break
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        res = legal_results(st, c, roll, stage_rule)
        if res:
            st = rng.choice(sorted(res))
        c = 1 - c
        out.append((st, c))
    return out
