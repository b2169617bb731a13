"""Calls that release the GIL must not share an Engine's scratch memory: several Python
threads using one variant object at once get the serial answers."""

from __future__ import annotations

import threading

import numpy as np

import nardy
from nardy import batch


def test_concurrent_perft_divide_and_afterstates_on_one_variant():
    v = nardy.LongNardy()
    pos = nardy.Position(v)
    want_perft = nardy.perft(pos, 3)
    want_divide = nardy.divide(pos, 2)
    boards = np.array([[list(s) for s in pos.sides()]] * 21, dtype=np.int8)
    dice = np.array([(a, b) for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int16)
    want_after = [a.tolist() for a in batch.afterstates(boards, dice, v)]
    errors: list[str] = []

    def work() -> None:
        for _ in range(15):
            if nardy.perft(pos, 3) != want_perft:
                errors.append("perft")
            if nardy.divide(pos, 2) != want_divide:
                errors.append("divide")
            if [a.tolist() for a in batch.afterstates(boards, dice, v)] != want_after:
                errors.append("afterstates")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_shared_positions_and_variant_from_many_threads_give_the_serial_answers():
    # The documented guarantee (docs/reliability.md): immutable values may be shared by any
    # number of threads; calls on the variant's own engine hold the GIL, the ones that release
    # it use engines of their own.
    v = nardy.Backgammon()
    pos = nardy.Position(v)
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
    want_moves = {r: [m.steps for m in pos.legal_moves(r)] for r in rolls}
    want_play = {r: pos.play(pos.legal_moves(r)[-1], r) for r in rolls}
    want_count = {r: v.engine.count(pos.key, *r) for r in rolls}
    want_perft = nardy.perft(pos, 2)
    want_rollout = nardy.rollout(pos, 50, seed=3, threads=2).counts()
    errors: list[str] = []

    def work(k: int) -> None:
        for i in range(6):
            r = rolls[(k * 5 + i) % len(rolls)]
            if [m.steps for m in pos.legal_moves(r)] != want_moves[r]:
                errors.append("legal_moves")
            if pos.play(pos.legal_moves(r)[-1], r) != want_play[r]:
                errors.append("play")
            if v.engine.count(pos.key, *r) != want_count[r]:
                errors.append("count")
            if k % 2 and nardy.perft(pos, 2) != want_perft:
                errors.append("perft")
            if k % 3 == 0 and nardy.rollout(pos, 50, seed=3, threads=2).counts() != want_rollout:
                errors.append("rollout")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
