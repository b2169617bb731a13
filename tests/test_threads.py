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
