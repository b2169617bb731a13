"""Backgammon's movement with the rules that follow individual checkers through a turn, the
reference of the per-checker rule options: backgammon's house rule ``no_hit_and_hide`` (a
checker that hit may not go on to a point holding another own checker) and Tavla's
``no_hit_and_run`` (a checker that hits in its own home board moves no further that turn).
Written from the rules (docs/rules/backgammon.md §11, tavla.md T6); shares nothing with the
core. Sides are 26-slot arrays in their own coordinates, as in backgammon_ref."""

from __future__ import annotations

BAR, OFF = 24, -1


def _step(checkers, k, opp, d, run_rule, hide_rule):
    """Checker k (position, hit this turn, stopped) moves d pips: the new (checkers, opp) or
    None when the rules forbid it."""
    src, has_hit, stopped = checkers[k]
    if src == OFF or stopped:
        return None  # borne off, or it hit in its home board this turn
    if src != BAR and any(c[0] == BAR for c in checkers):
        return None  # everything on the bar enters first
    dst = 24 - d if src == BAR else src - d
    if dst < 0:
        if any(c[0] == BAR or c[0] > 5 for c in checkers):
            return None  # bearing off needs every checker home
        if dst < -1 and any(c[0] > src for c in checkers):
            return None  # a larger die than needed only from the highest point
        dst = OFF
    hit = False
    if dst != OFF:
        j = 23 - dst
        if opp[j] >= 2:
            return None
        if opp[j] == 1:
            hit = True
            opp = list(opp)
            opp[j] = 0
            opp[24] += 1
            opp = tuple(opp)
        if hide_rule and has_hit and any(c[0] == dst for i, c in enumerate(checkers) if i != k):
            return None  # house rule: a hitter may not join its own checkers
    moved = (dst, has_hit or hit, hit and run_rule and 0 <= dst <= 5)
    rest = checkers[:k] + checkers[k + 1:]
    return tuple(sorted(rest + (moved,))), opp


def legal_results(mover, opponent, dice, *, run_rule=False, hide_rule=False):
    """The distinct (mover, opponent) results of the roll; the position itself when the
    turn passes."""
    checkers = []
    for i in range(25):
        checkers += [(i, False, False)] * mover[i]
    checkers += [(OFF, False, False)] * mover[25]
    start = (tuple(sorted(checkers)), tuple(opponent))
    orders = [(dice[0],) * 4] if dice[0] == dice[1] else [dice, dice[::-1]]
    best: dict = {}
    for order in orders:
        frontier = {start}
        for depth, d in enumerate(order, start=1):
            nxt = set()
            for ch, op in frontier:
                for k in range(len(ch)):
                    if k and ch[k] == ch[k - 1]:
                        continue  # the same checker state as the one before
                    r = _step(ch, k, op, d, run_rule, hide_rule)
                    if r is not None:
                        nxt.add(r)
            if not nxt:
                break
            for ch, op in nxt:
                best.setdefault((depth, sum(order[:depth])), set()).add((ch, op))
            frontier = nxt
    if not best:
        return {(tuple(mover), tuple(opponent))}
    out = set()
    for ch, op in best[max(best)]:
        side = [0] * 26
        for c in ch:
            side[25 if c[0] == OFF else c[0]] += 1
        out.add((tuple(side), tuple(op)))
    return out
