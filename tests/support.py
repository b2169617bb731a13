"""Small builders and checks shared by several test files."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction

import nardy


def race(mover: dict[int, int], opponent: dict[int, int]) -> nardy.Position:
    """A backgammon race: {index: checkers} per side, the rest borne off."""
    sides = []
    for d in (mover, opponent):
        s = [0] * 26
        for i, n in d.items():
            s[i] = n
        s[25] = 15 - sum(d.values())
        sides.append(s)
    return nardy.Position.from_sides("backgammon", *sides)


def pick_mismatches(engine, key, d1, d2) -> list:
    """Where ``engine.count`` and ``engine.pick(index)`` disagree with the listed moves of the
    roll (empty when every index picks the listed result at that index)."""
    listed = engine.legal(key, d1, d2).keys()
    errors = []
    if engine.count(key, d1, d2) != len(listed):
        errors.append((d1, d2, "count", engine.count(key, d1, d2), len(listed)))
    for index in range(max(1, len(listed))):
        n, result = engine.pick(key, d1, d2, index)
        if n != len(listed) or (n and result != listed[index]):
            errors.append((d1, d2, index, n, len(listed)))
    return errors


def pooled(counts: Mapping[Hashable, int], probs: Mapping[Hashable, Fraction],
           n: int) -> tuple[list[int], list[float]]:
    """Observed and expected counts of ``n`` draws for a chi-square test, the outcomes expected
    fewer than 5 times pooled in one bin."""
    obs, exp, small_obs, small_exp = [], [], 0, 0.0
    for r, p in probs.items():
        e = float(p) * n
        if e < 5:
            small_obs += counts.get(r, 0)
            small_exp += e
        else:
            obs.append(counts.get(r, 0))
            exp.append(e)
    if small_exp:
        obs.append(small_obs)
        exp.append(small_exp)
    return obs, exp
