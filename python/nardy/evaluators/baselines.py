"""Built-in baseline evaluators, in numpy, each with its source.

``race``        every variant whose games end by bearing off: a pip-count race model.
``pubeval``     backgammon: Gerry Tesauro's public-domain linear evaluator, with his weights.
``long_nardy``  long nardy: the race model on pip counts corrected by hand for the head and
                for blocks.

They are baselines to compare against, not strong players: the race model ignores contact,
pubeval "makes lots of obvious mistakes" (its author's words), and the long-nardy weights are
set by hand, not trained.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from nardy.errors import Error
from nardy.evaluators import EQUITY, PROBABILITIES, Evaluator
from nardy.evaluators._pubeval_weights import CONTACT, RACE
from nardy.variants import Backgammon, LongNardy, Variant

# Pips moved by one roll (doubles count four times), over the 36 ordered rolls.
_ROLL_PIPS = np.array([4 * a if a == b else a + b for a in range(1, 7) for b in range(1, 7)],
                      dtype=np.float64)
#: mean pips a roll moves (49/6)
MEAN_PIPS = float(_ROLL_PIPS.mean())
#: variance of the pips a roll moves
VAR_PIPS = float(_ROLL_PIPS.var())


def _phi(z: np.ndarray) -> np.ndarray:
    """Standard normal CDF, Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7)."""
    x = np.abs(z) / math.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
                                                                          + t * 1.061405429))))
    erf = 1.0 - poly * np.exp(-x * x)
    return np.asarray(0.5 * (1.0 + np.sign(z) * erf))


def race_probability(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """P(the player who rolls first finishes ``first`` pips no later than the other finishes
    ``second``), both counts moved by fair dice.

    Renewal model: the rolls needed for ``p`` pips are about normal with mean ``p / m`` and
    variance ``p v / m^3`` (``m``, ``v``: mean and variance of one roll's pips, doubles
    counted four times). Wastage in the bear-off is ignored. The player rolling first wins
    ties, which gives the half-roll continuity correction. A count of 0 is finished already.
    """
    a = np.asarray(first, dtype=np.float64)
    b = np.asarray(second, dtype=np.float64)
    sd = np.sqrt(np.maximum(a + b, 1.0) * VAR_PIPS / MEAN_PIPS ** 3)
    p = _phi(((b - a) / MEAN_PIPS + 0.5) / sd)
    p = np.where(a <= 0, 1.0, np.where(b <= 0, 0.0, p))
    return np.asarray(p)


def pip_counts(boards: np.ndarray) -> np.ndarray:
    """(N, 2) pips each side needs to bear off (index ``i`` is ``i + 1`` pips, the bar 25)."""
    w = np.arange(1, 26, dtype=np.int64)
    return np.asarray(boards[:, :, :25].astype(np.int64) @ w)


def save_pips(boards: np.ndarray) -> np.ndarray:
    """(N, 2) pips each side needs to bear off its first checker: bring every checker home
    (indices 0..5) and take one off (from the lowest home point reached, 3.5 pips when none is
    home yet); 0 for a side that has borne off a checker."""
    b = boards.astype(np.int64)
    outside = np.maximum(np.arange(25) - 5, 0)  # pips from index i to index 5
    home_in = b[:, :, :25] @ outside
    home = b[:, :, :6] > 0
    lowest = np.where(home.any(axis=2), home.argmax(axis=2) + 1.0, 3.5)
    pips = home_in + lowest
    return np.asarray(np.where(b[:, :, 25] > 0, 0.0, pips))


def race_outcomes(us: np.ndarray, them: np.ndarray, us_save: np.ndarray,
                  them_save: np.ndarray, width: int) -> np.ndarray:
    """(N, width) cumulative probabilities for the player on roll from pip counts: ``win``,
    ``win`` of the second kind (the loser bore off none), ``lose`` of the second kind; higher
    kinds 0."""
    n = (width + 1) // 2
    out = np.zeros((len(us), width), dtype=np.float64)
    win = race_probability(us, them)
    out[:, 0] = win
    if n > 1:
        # gammon (mars): we finish before they take one off / they finish before we do
        out[:, 1] = np.minimum(win, np.where(them_save > 0, race_probability(us, them_save), 0))
        lose = 1.0 - win
        out[:, n] = np.minimum(lose, np.where(
            us_save > 0, 1.0 - race_probability(us_save, them), 0.0))
    return out


def _width(scoring: Any) -> int:
    from nardy.evaluators import outcome_width

    return outcome_width(scoring)


class RaceEvaluator(Evaluator):
    """Pip-count race model for any variant whose games end by bearing off (backgammon, long
    nardy): :func:`race_probability` on the two pip counts gives the win, the same model on
    the loser's pips to his first checker off gives the gammon / mars; higher kinds are 0.
    Contact, blocks and the bar are ignored beyond their pips."""

    output = PROBABILITIES
    name = "race"

    def __init__(self, scoring: Any = "standard") -> None:
        self.width = _width(scoring)

    def bind(self, variant: Variant, scoring: Any) -> RaceEvaluator:
        if not variant.bears_off:
            raise Error(f"the race evaluator needs a game that ends by bearing off, not "
                        f"{variant.name}")
        return RaceEvaluator(scoring)

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        pips = pip_counts(boards)
        save = save_pips(boards)
        return race_outcomes(pips[:, 0], pips[:, 1], save[:, 0], save[:, 1],
                             self.width).astype(np.float32)


def is_race(boards: np.ndarray) -> np.ndarray:
    """(N,) bool: no contact left in backgammon: nobody on the bar and every checker of side 0
    past every checker of side 1."""
    b = boards
    idx = np.arange(24)
    back0 = np.where(b[:, 0, :24] > 0, idx, -1).max(axis=1)
    back1 = np.where(b[:, 1, :24] > 0, idx, -1).max(axis=1)
    return np.asarray((b[:, 0, 24] == 0) & (b[:, 1, 24] == 0) & (back0 + back1 < 23))


def pubeval_inputs(mover: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """(N, 122) float32 pubeval inputs of the position after ``mover``'s move ((N, 26) side
    arrays, own coordinates; the opponent rolls next)."""
    n = len(mover)
    x = np.zeros((n, 24, 5), dtype=np.float32)
    # Location j (1..24) of the mover's view is his index j - 1; pubeval lists the locations
    # from 24 down to 1, and the opponent's index k is the mover's location 24 - k.
    own = mover[:, 23::-1].astype(np.int64)
    theirs = opponent[:, :24].astype(np.int64)  # index k -> location 24 - k -> input row k
    x[:, :, 0] = theirs == 1
    x[:, :, 1] = own == 1
    x[:, :, 2] = own >= 2
    x[:, :, 3] = own == 3
    x[:, :, 4] = np.maximum(own - 3, 0) / 2.0
    out = np.empty((n, 122), dtype=np.float32)
    out[:, :120] = x.reshape(n, 120)
    out[:, 120] = opponent[:, 24] / 2.0
    out[:, 121] = mover[:, 25] / 15.0
    return out


_W = np.array([CONTACT, RACE], dtype=np.float32)


def pubeval_scores(mover: np.ndarray, opponent: np.ndarray,
                   race: np.ndarray | None = None) -> np.ndarray:
    """pubeval's score of the positions after ``mover``'s moves (higher = better for the
    mover), as Tesauro's ``pubeval(race, pos)``: the race weights where ``race`` is true
    (default: where the position after the move has no contact), 99999999 when the mover has
    borne off all 15."""
    x = pubeval_inputs(mover, opponent)
    if race is None:
        race = is_race(np.stack([mover, opponent], axis=1))
    w = _W[np.asarray(race, dtype=np.int64)]
    score = np.einsum("ij,ij->i", x, w, dtype=np.float64)
    return np.asarray(np.where(mover[:, 25] == 15, 99999999.0, score))


class PubevalEvaluator(Evaluator):
    """Tesauro's pubeval as an evaluator (backgammon, equity output). pubeval scores the
    position after a move for the player who made it; the player on roll here is the other
    one, so the equity returned is minus that score. The score is a linear preference, not
    calibrated points: fine for picking moves, rough when averaged in deeper searches.

    Tesauro chooses the race weights when the position *before* the move was a race; an
    evaluator sees only the position after it, so contact is read there (a move can only
    break contact, never make it, so the two differ only on the move that breaks contact)."""

    output = EQUITY
    name = "pubeval"

    def bind(self, variant: Variant, scoring: Any) -> PubevalEvaluator:
        if not isinstance(variant, Backgammon):
            raise Error(f"pubeval is a backgammon evaluator, not one for {variant.name}")
        return self

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        return (-pubeval_scores(boards[:, 1], boards[:, 0])).astype(np.float32)


# -- long nardy ----------------------------------------------------------------------------
#: pips added per checker on the head beyond the first (one may leave it per turn)
HEAD_PIPS = 2.0
#: pips added to each opponent checker behind a run of L >= 3 occupied points: (L - 2)^2 times
BLOCK_PIPS = 0.4


def _block_penalty(blocker: np.ndarray, blocked: np.ndarray, to_blocked: np.ndarray) -> np.ndarray:
    """Pips lost by ``blocked`` to ``blocker``'s runs of points in front of its checkers.
    ``to_blocked[q]``: the blocker's index of the blocked side's index ``q``."""
    occ = blocker[:, to_blocked] > 0  # occupied by the blocker, in the blocked side's indices
    counts = np.maximum(blocked[:, :24].astype(np.float64), 0)
    behind = np.cumsum(counts[:, ::-1], axis=1)[:, ::-1]  # behind[q] = checkers at >= q
    run = np.zeros(len(blocker))
    pen = np.zeros(len(blocker))
    for q in range(24):
        run = np.where(occ[:, q], run + 1, 0)
        ends = occ[:, q] & ((q == 23) | ~occ[:, min(q + 1, 23)])
        if q < 23:
            pen += np.where(ends & (run >= 3), (run - 2) ** 2 * behind[:, q + 1], 0.0)
    return BLOCK_PIPS * pen


class LongNardyEvaluator(Evaluator):
    """A hand-made long-nardy evaluator: the race model (:class:`RaceEvaluator`) on pip counts
    with two corrections written from the rules, not fitted to games. The head rule lets one
    checker leave the head a turn, so each checker on the head beyond the first costs
    :data:`HEAD_PIPS`; points cannot be hit, only blocked, so each run of ``L >= 3`` occupied
    points costs every opponent checker that still has to pass it ``BLOCK_PIPS (L - 2)^2``."""

    output = PROBABILITIES
    name = "long_nardy"

    def __init__(self, variant: Variant | None = None, scoring: Any = "oin_mars") -> None:
        v = variant if variant is not None else LongNardy()
        self.width = _width(scoring)
        self._to_mover = np.array([v.to_mover(q) for q in range(24)])

    def bind(self, variant: Variant, scoring: Any) -> LongNardyEvaluator:
        if not isinstance(variant, LongNardy):
            raise Error(f"the long_nardy evaluator is made for long nardy, not {variant.name}")
        return LongNardyEvaluator(variant, scoring)

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        pips = pip_counts(boards).astype(np.float64)
        save = save_pips(boards)
        head = np.maximum(boards[:, :, 23].astype(np.float64) - 1, 0) * HEAD_PIPS
        # side 1's index q is side 0's index to_mover[q], and the map is its own inverse
        pen0 = head[:, 0] + _block_penalty(boards[:, 1], boards[:, 0], self._to_mover)
        pen1 = head[:, 1] + _block_penalty(boards[:, 0], boards[:, 1], self._to_mover)
        eff0, eff1 = pips[:, 0] + pen0, pips[:, 1] + pen1
        s0 = np.where(save[:, 0] > 0, save[:, 0] + pen0, 0)
        s1 = np.where(save[:, 1] > 0, save[:, 1] + pen1, 0)
        return race_outcomes(eff0, eff1, s0, s1, self.width).astype(np.float32)


#: name -> evaluator class
BASELINES: dict[str, type[Evaluator]] = {
    "race": RaceEvaluator, "pubeval": PubevalEvaluator, "long_nardy": LongNardyEvaluator,
}

__all__ = ["BASELINES", "LongNardyEvaluator", "MEAN_PIPS", "PubevalEvaluator",
           "RaceEvaluator", "VAR_PIPS", "is_race", "pip_counts", "pubeval_inputs",
           "pubeval_scores", "race_probability", "save_pips"]
