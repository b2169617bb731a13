"""The core's acey-deucey turns against the independent reference (tests/reference/
acey_deucey_ref.py) on random reachable positions x all 21 rolls: the moves compared as
(result, named double, rolls again). A default sample keeps the run short; NARDY_SLOW=1 runs
5,000 positions."""

from __future__ import annotations

import os
import random

import pytest

from nardy import _core
from tests.reference import acey_deucey_ref as ref

V = _core.Variant.ACEY_DEUCEY
ENGINE = _core.Engine(V)
N_POSITIONS = 5000 if os.environ.get("NARDY_SLOW") else 10


def key_of(pos: ref.Pos) -> bytes:
    return _core.encode(ref.to_core(pos[0]), ref.to_core(pos[1]), V)


def pos_of(key: bytes) -> ref.Pos:
    us, them = _core.decode(key, V)
    return ref.from_core(us), ref.from_core(them)


def core_moves(pos: ref.Pos, d1: int, d2: int) -> tuple[int, set[tuple[ref.Pos, int, bool]]]:
    played, moves = ENGINE.turn_moves(key_of(pos), d1, d2, 1, again=True)
    return played, {(pos_of(k), named, again) for k, _, named, again in moves}


def reachable(n: int, seed: int) -> list[ref.Pos]:
    """Positions met in random games played by the core (the side on roll first)."""
    rng = random.Random(seed)
    out: list[ref.Pos] = []
    while len(out) < n:
        key = key_of(ref.start())
        for _ in range(rng.randrange(2, 160)):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            _, moves = ENGINE.turn_moves(key, d1, d2, 1, again=True)
            if not moves:
                key = _core.swap(key)
                continue
            k, _, _, again = rng.choice(moves)
            key = k if again else _core.swap(k)
            if ref.finished(pos_of(key)):
                break
        if not ref.finished(pos_of(key)):
            out.append(pos_of(key))
    return out


def test_start_matches_reference_all_rolls() -> None:
    for d1, d2 in ref.ROLLS:
        assert core_moves(ref.start(), d1, d2) == ref.turn_moves(ref.start(), d1, d2)


@pytest.mark.parametrize("chunk", range(5))
def test_random_reachable_positions(chunk: int) -> None:
    positions = reachable(N_POSITIONS // 5, seed=1000 + chunk)
    for pos in positions:
        for d1, d2 in ref.ROLLS:
            got = core_moves(pos, d1, d2)
            want = ref.turn_moves(pos, d1, d2)
            assert got == want, (pos, d1, d2, sorted(got[1] ^ want[1])[:4])


def test_steps_replay_to_their_result() -> None:
    # every listed move's steps, applied one by one, lead to its result
    for pos in reachable(20, seed=7):
        for d1, d2 in ref.ROLLS:
            _, moves = ENGINE.turn_moves(key_of(pos), d1, d2, 1, again=True)
            for k, steps, _, _ in moves:
                p = pos
                for s in steps:
                    p = ref.step(p, s[0], s[0] - s[1] if s[1] >= 0 else 0) if s[1] >= 0 \
                        else next(q for d in range(1, 7)
                                  if (q := ref.step(p, s[0], d)) is not None
                                  and q[0][ref.OFF] == p[0][ref.OFF] + 1)
                    assert p is not None
                assert key_of(p) == k


def test_reference_perft_matches_core_at_depth_1() -> None:
    # the reference's own perft (depths 2 and 3 are in tests/perft/acey-deucey.perft)
    assert ref.perft(ref.start(), 1) == ENGINE.perft_turn(key_of(ref.start()), 1)
