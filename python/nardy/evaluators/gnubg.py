"""GNU Backgammon's 0-ply evaluation as a nardy evaluator (needs the PyPI ``gnubg`` package).

``gnubg.evaluate(board, cubeinfo, evalcontext)`` returns the five cubeless probabilities of
the player on roll in the order nardy's standard layout uses (win, win gammon, win
backgammon, lose gammon, lose backgammon), from gnubg's neural nets, race nets and bear-off
databases as gnubg chooses for the position. nardy's search over this evaluator at 0 plies
picks the moves gnubg's own ``findbestmoves`` at 0 plies picks (tests/test_search_gnubg.py).

gnubg's board is ``(side not on roll, side on roll)``, each 25 counts in its own coordinates
(index 24 the bar): the two rows of a nardy board swapped, borne-off checkers left out.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nardy.errors import Error
from nardy.evaluators import PROBABILITIES, Evaluator
from nardy.variants import Backgammon, Variant


def _gnubg() -> Any:
    try:
        import gnubg
    except ImportError:
        raise Error("the gnubg evaluator needs the PyPI gnubg package: pip install gnubg") \
            from None
    return gnubg


class GnubgEvaluator(Evaluator):
    """gnubg's static (0-ply) evaluation, cubeless, one position a call into gnubg (gnubg's
    Python module has no batch form)."""

    output = PROBABILITIES
    name = "gnubg"

    def __init__(self) -> None:
        g = _gnubg()
        self._evaluate = g.evaluate
        # A money game's centred cube, given in full: gnubg.cubeinfo() with no arguments takes
        # the state of gnubg's current match, which any earlier gnubg call may have set.
        self._cube = g.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
        # cubeless, 0 plies, deterministic, no pruning, no noise
        self._context = g.evalcontext(0, 0, 1, 0, 0.0)

    def bind(self, variant: Variant, scoring: Any) -> GnubgEvaluator:
        if not isinstance(variant, Backgammon):
            raise Error(f"the gnubg evaluator is a backgammon evaluator, not one for "
                        f"{variant.name}")
        if getattr(scoring, "name", scoring) != "standard":
            raise Error("the gnubg evaluator gives gnubg's five outputs, which need the "
                        "standard backgammon scoring (single, gammon, backgammon)")
        return self

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        ev, cube, ctx = self._evaluate, self._cube, self._context
        out = np.empty((len(boards), 5), dtype=np.float32)
        for i, (us, them) in enumerate(boards[:, :, :25].tolist()):
            out[i] = ev((tuple(them), tuple(us)), cube, ctx)[:5]
        return out


__all__ = ["GnubgEvaluator"]
