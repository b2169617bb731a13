"""n-ply search: expectimax over the 21 rolls with an evaluator called in large batches.

>>> import nardy
>>> from nardy import search
>>> pos = nardy.Position("backgammon")
>>> str(search.best_move(pos, (3, 1), "pubeval"))
'8/5 6/5'

Values are cubeless money equities (points per game, :func:`nardy.evaluators.equity`) from
the view of the player on roll, under the variant's default scoring unless ``scoring`` names
another. What "n plies" means follows GNU Backgammon:

* :func:`evaluate` at 0 plies is the evaluator's own answer; at n plies it is the average over
  the 21 rolls (a double weighs 1/36, any other roll 2/36) of the value of the best move at
  n - 1 plies, the turn passing when a roll has no move;
* :func:`rank_moves` / :func:`best_move` at n plies score each move by the n-ply value of the
  position it leads to, seen from the player who made it.

A game that ends with a move is scored exactly (the kind of win by the scoring's rule), never
by the evaluator. Each ply level calls the evaluator once on every position of that level,
whatever their number (chunked in calls of at most ``chunk`` rows), so a numpy or neural-net
evaluator sees large batches. The tree is expanded in C++ (``nardy._core.search_children``:
every roll's afterstates of a whole level, swapped for the evaluator, on ``threads`` threads
with the GIL released); Python only calls the evaluator and reduces its answers with numpy.

Move filtering, as gnubg does it: the candidates of a roll are first scored at 0 plies, and
only the best ``keep`` within ``margin`` of the best go deeper (:class:`MoveFilter`).
``filter`` applies to the moves of the position searched (gnubg's default for its 2-ply
search keeps 8 within 0.16); ``inner`` to the moves inside the tree, where gnubg plays the
0-ply best reply (``keep=1``). :data:`EXHAUSTIVE` searches every move: full expectimax.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from nardy import _core, batch
from nardy.errors import Error
from nardy.evaluators import (
    EQUITY,
    as_evaluator,
    call,
    equity,
    invert,
    outcome_names,
    scoring_for,
    win_values,
)
from nardy.position import PASS, Move, Position

#: the 21 distinct rolls (high die first) and their probabilities
ROLLS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(1, 7) for b in range(1, a + 1))
ROLL_WEIGHTS = np.array([1 / 36 if a == b else 2 / 36 for a, b in ROLLS])
#: ROLL_INDEX[d1, d2]: the index in ROLLS of a roll, in either order of the dice
ROLL_INDEX = np.zeros((7, 7), dtype=np.int64)
for _i, (_a, _b) in enumerate(ROLLS):
    ROLL_INDEX[_a, _b] = ROLL_INDEX[_b, _a] = _i

#: deepest search accepted
MAX_PLIES = 3


@dataclass(frozen=True)
class MoveFilter:
    """Which moves of a roll go one ply deeper: the best ``keep`` (None: all) of those within
    ``margin`` (equity) of the best, by their 0-ply value."""

    keep: int | None = 8
    margin: float = 0.16

    def __post_init__(self) -> None:
        if self.keep is not None and (not isinstance(self.keep, int)
                                      or isinstance(self.keep, bool) or self.keep < 1):
            raise Error(f"MoveFilter.keep must be an integer >= 1 or None, got {self.keep!r}")
        if not isinstance(self.margin, (int, float)) or isinstance(self.margin, bool) \
                or math.isnan(self.margin) or self.margin < 0:
            raise Error(f"MoveFilter.margin must be a number >= 0, got {self.margin!r}")
        object.__setattr__(self, "margin", float(self.margin))  # np.float64 -> float


#: every move searched (full expectimax)
EXHAUSTIVE = MoveFilter(None, math.inf)
#: gnubg's default for the moves of the position searched at 2 plies
ROOT_FILTER = MoveFilter(8, 0.16)
#: gnubg's choice inside the tree: the 0-ply best move of each roll
INNER_FILTER = MoveFilter(1, 0.0)


@dataclass(frozen=True)
class Evaluation:
    """A position's value for the player on roll: cubeless ``equity`` and, with an evaluator
    of probabilities, the ``probabilities`` in the layout ``names``; ``evaluated`` counts the
    positions the evaluator was asked about."""

    equity: float
    probabilities: tuple[float, ...] | None
    names: tuple[str, ...]
    plies: int
    evaluated: int

    def as_dict(self) -> dict[str, float]:
        out = {"equity": self.equity}
        if self.probabilities is not None:
            out.update(zip(self.names, self.probabilities))
        return out


@dataclass(frozen=True)
class Candidate:
    """One move of a ranking: the value of its result for the player who made it, found at
    ``plies`` (moves filtered out early keep their shallower value)."""

    move: Move
    equity: float
    probabilities: tuple[float, ...] | None
    plies: int

    def __str__(self) -> str:
        return f"{self.move} {self.equity:+.4f} ({self.plies}-ply)"


class _Search:
    """One search: the variant's engine and scoring, the evaluator, and counters."""

    def __init__(self, variant: Any, evaluator: Any, scoring: Any, chunk: int,
                 threads: int) -> None:
        if not variant.bears_off:
            raise Error(f"nardy.search scores games that end by bearing off; {variant.name} "
                        f"games end by its own rules")
        self.variant = variant
        self.scoring = scoring_for(variant, scoring)
        self.evaluator = as_evaluator(evaluator, variant, self.scoring)
        self.output = self.evaluator.output
        self.checkers = int(variant.checkers)
        self.engine = variant.engine
        self.chunk = chunk
        self.threads = threads
        self.evaluated = 0
        self.calls = 0

    # -- values ----------------------------------------------------------------------------
    def equities(self, values: np.ndarray) -> np.ndarray:
        return values if self.output == EQUITY else equity(values, self.scoring)

    def _won(self, losers: np.ndarray) -> np.ndarray:
        levels = np.array([self.scoring.classify(row) for row in losers.tolist()],
                          dtype=np.int64)
        return win_values(levels, self.scoring, self.output)

    def _empty(self, n: int) -> np.ndarray:
        if self.output == EQUITY:
            return np.empty(n, dtype=np.float64)
        return np.empty((n, len(outcome_names(self.scoring))), dtype=np.float64)

    def static(self, boards: np.ndarray) -> np.ndarray:
        """0-ply values of positions (side 0 on roll), games already over scored exactly."""
        out = self._empty(len(boards))
        lost = boards[:, 1, 25] == self.checkers
        won = boards[:, 0, 25] == self.checkers
        live = ~(lost | won)
        if lost.any():
            out[lost] = invert(self._won(boards[lost, 0]), self.output)
        if won.any():
            out[won] = self._won(boards[won, 1])
        if live.any():
            rows = boards if live.all() else np.ascontiguousarray(boards[live])
            values = call(self.evaluator, rows, self.scoring, self.chunk)
            if np.isnan(values).any():
                raise Error(f"the evaluator {getattr(self.evaluator, 'name', '')!r} returned "
                            f"NaN")
            out[live] = values
            self.evaluated += len(rows)
            self.calls += 1
        return out

    def after_static(self, after: np.ndarray) -> np.ndarray:
        """0-ply values of afterstates (side 0 just moved) for the player who moved."""
        return invert(self.static(np.ascontiguousarray(after[:, ::-1])), self.output)

    def after_value(self, after: np.ndarray, plies: int) -> np.ndarray:
        """``plies``-ply values of afterstates for the player who moved."""
        if plies == 0:
            return self.after_static(after)
        return invert(self.value(np.ascontiguousarray(after[:, ::-1]), plies), self.output)

    def value(self, boards: np.ndarray, plies: int, inner: MoveFilter = INNER_FILTER
              ) -> np.ndarray:
        """``plies``-ply values of positions (side 0 on roll)."""
        if plies == 0 or len(boards) == 0:
            return self.static(boards)
        n = len(boards)
        over = (boards[:, 0, 25] == self.checkers) | (boards[:, 1, 25] == self.checkers)
        out = self._empty(n)
        live: Any  # the rows searched: an index array, or every row
        if over.any():
            out[over] = self.static(boards[over])
            live = np.flatnonzero(~over)
            if len(live) == 0:
                return out
            rows = np.ascontiguousarray(boards[live])
        else:
            live = slice(None)
            rows = np.ascontiguousarray(boards)
        nxt, off = self.expand(rows)
        v = invert(self.static(nxt), self.output)  # for the player who moved
        if plies > 1:
            keep = keep_mask(self.equities(v), off, inner)
            # a move that ends the game is scored exactly; the others go one ply deeper
            deep = np.flatnonzero(keep & (nxt[:, 1, 25] != self.checkers))
            if len(deep):
                v[deep] = invert(self.value(nxt[deep], plies - 1), self.output)
            chosen = first_best(np.where(keep, self.equities(v), -np.inf), off)
        else:
            chosen = first_best(self.equities(v), off)
        per_roll = v[chosen].reshape((len(rows), len(ROLLS)) + v.shape[1:])
        out[live] = np.tensordot(ROLL_WEIGHTS, per_roll, axes=([0], [1]))
        return out

    def expand(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every afterstate of each row for each of the 21 rolls, swapped (the player to roll
        next on side 0), the row itself when a roll has no move; group ``21 i + r`` (row i,
        roll ``ROLLS[r]``) is ``offsets[21 i + r]:offsets[21 i + r + 1]``."""
        nxt, off = _core.search_children(self.engine, rows, self.threads)
        return nxt, off


def first_best(eq: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Index of the best row of each group ``offsets[g]:offsets[g + 1]`` (none empty), the
    first in move order among equals."""
    starts = offsets[:-1]
    best = np.maximum.reduceat(eq, starts)
    at = np.where(eq == np.repeat(best, np.diff(offsets)), np.arange(len(eq)), len(eq))
    return np.asarray(np.minimum.reduceat(at, starts))


def keep_mask(eq: np.ndarray, offsets: np.ndarray, flt: MoveFilter) -> np.ndarray:
    """Mask of the rows that pass ``flt`` within their group (groups as in first_best)."""
    if flt.keep == 1:  # the best alone (it is always within the margin)
        keep = np.zeros(len(eq), dtype=bool)
        keep[first_best(eq, offsets)] = True
        return keep
    if flt.keep is None and flt.margin == math.inf:
        return np.ones(len(eq), dtype=bool)
    groups = len(offsets) - 1
    return select(eq, np.repeat(np.arange(groups), np.diff(offsets)), groups, flt)


def _order(eq: np.ndarray, group: np.ndarray) -> np.ndarray:
    # by group, best first, ties in move order (lexsort is stable)
    return np.lexsort((-eq, group))


def best_of_groups(eq: np.ndarray, group: np.ndarray, groups: int) -> np.ndarray:
    """Index of the best row of each group (the first in move order among equals)."""
    order = _order(eq, group)
    first = np.searchsorted(group[order], np.arange(groups))
    return np.asarray(order[first])


def select(eq: np.ndarray, group: np.ndarray, groups: int, flt: MoveFilter) -> np.ndarray:
    """Mask of the rows that pass ``flt`` within their group."""
    order = _order(eq, group)
    g_sorted = group[order]
    first = np.searchsorted(g_sorted, np.arange(groups))
    rank = np.arange(len(order)) - first[g_sorted]
    best = eq[order][first[g_sorted]]
    ok = eq[order] >= best - flt.margin
    if flt.keep is not None:
        ok &= rank < flt.keep
    keep = np.zeros(len(eq), dtype=bool)
    keep[order[ok]] = True
    return keep


# -- public API ------------------------------------------------------------------------------
def _check(position: Any, plies: Any, chunk: Any, threads: Any) -> None:
    if not isinstance(position, Position):
        raise Error(f"position must be a nardy.Position, not {type(position).__name__}")
    if not isinstance(plies, (int, np.integer)) or isinstance(plies, bool) \
            or not 0 <= plies <= MAX_PLIES:
        raise Error(f"plies must be an integer from 0 to {MAX_PLIES}, got {plies!r}")
    if not isinstance(chunk, (int, np.integer)) or isinstance(chunk, bool) or chunk < 1:
        raise Error(f"chunk must be an integer >= 1, got {chunk!r}")
    if not isinstance(threads, (int, np.integer)) or isinstance(threads, bool) or threads < 0:
        raise Error(f"threads must be an integer >= 0 (0: all cores), got {threads!r}")


def _check_filter(name: str, flt: Any) -> MoveFilter:
    if not isinstance(flt, MoveFilter):
        raise Error(f"{name} must be a nardy.search.MoveFilter, not {flt!r}")
    return flt


def _probs(values: np.ndarray, output: str) -> tuple[float, ...] | None:
    if output == EQUITY:
        return None
    return tuple(float(x) for x in values)


def evaluate(position: Position, evaluator: Any, plies: int = 0, *, scoring: Any = None,
             inner: MoveFilter = INNER_FILTER, chunk: int = 1 << 16,
             threads: int = 1) -> Evaluation:
    """The ``plies``-ply value of ``position`` for the player on roll (see the module
    docstring). ``evaluator``: a built-in name (``race``, ``pubeval``, ``long_nardy``,
    ``gnubg``), an evaluator object or a numpy function (:mod:`nardy.evaluators`).
    ``threads``: C++ threads for the move generation."""
    _check(position, plies, chunk, threads)
    s = _Search(position.variant, evaluator, scoring, int(chunk), int(threads))
    v = s.value(batch.to_array([position]), int(plies), _check_filter("inner", inner))[0]
    eq = float(v) if s.output == EQUITY else float(equity(v[None], s.scoring)[0])
    return Evaluation(eq, _probs(v, s.output), outcome_names(s.scoring), int(plies),
                      s.evaluated)


def _values_of_moves(position: Position, dice: Any, evaluator: Any, plies: Any,
                     scoring: Any, filter: Any, inner: Any, chunk: Any, threads: Any
                     ) -> tuple[Any, _Search, np.ndarray, np.ndarray] | None:
    # the moves and their values, or None when the roll has no move
    _check(position, plies, chunk, threads)
    flt = _check_filter("filter", filter)
    inn = _check_filter("inner", inner)
    moves = position.legal_moves(dice)
    if not len(moves):
        return None
    s = _Search(position.variant, evaluator, scoring, int(chunk), int(threads))
    after = batch.afterstates(batch.to_array([position]), np.array([moves.dice]),
                              position.variant, threads=int(threads))[0]
    if len(after) != len(moves):
        raise Error("internal: afterstates and legal moves disagree")
    v = s.after_static(after)
    depth = np.zeros(len(after), dtype=np.int64)
    if plies > 0:
        group = np.zeros(len(after), dtype=np.int64)
        keep = select(s.equities(v), group, 1, flt)
        deep = np.flatnonzero(keep & (after[:, 0, 25] != s.checkers))
        if len(deep):
            v[deep] = invert(s.value(np.ascontiguousarray(after[deep, ::-1]), int(plies), inn),
                             s.output)
        depth[keep] = plies
    return moves, s, v, depth


def rank_moves(position: Position, dice: Any, evaluator: Any, plies: int = 0, *,
               scoring: Any = None, filter: MoveFilter = ROOT_FILTER,
               inner: MoveFilter = INNER_FILTER, chunk: int = 1 << 16,
               threads: int = 1) -> list[Candidate]:
    """The legal moves of ``position`` for ``dice``, best first: those that passed ``filter``
    with their ``plies``-ply value, then the others with their 0-ply value. Equal values keep
    the order of ``position.legal_moves(dice)``. An empty list: the roll has no move."""
    found = _values_of_moves(position, dice, evaluator, plies, scoring, filter, inner, chunk,
                             threads)
    if found is None:
        return []
    moves, s, v, depth = found
    eq = s.equities(v)
    order = np.lexsort((np.arange(len(eq)), -eq, -depth))
    return [Candidate(moves[int(i)], float(eq[i]), _probs(v[i], s.output), int(depth[i]))
            for i in order]


def best_move(position: Position, dice: Any, evaluator: Any, plies: int = 0, *,
              scoring: Any = None, filter: MoveFilter = ROOT_FILTER,
              inner: MoveFilter = INNER_FILTER, chunk: int = 1 << 16,
              threads: int = 1) -> Move:
    """The first move of :func:`rank_moves` (``nardy.PASS`` when the roll has no move),
    found without building the ranking."""
    found = _values_of_moves(position, dice, evaluator, plies, scoring, filter, inner, chunk,
                             threads)
    if found is None:
        return PASS
    moves, s, v, depth = found
    eq = s.equities(v)
    # rank_moves' order: the deepest, then the highest equity, then the first in move order
    deepest = depth == depth.max()
    top = np.flatnonzero(deepest & (eq == eq[deepest].max()))
    return moves[int(top[0])]


__all__ = ["EXHAUSTIVE", "INNER_FILTER", "MAX_PLIES", "ROLLS", "ROOT_FILTER", "Candidate",
           "Evaluation", "MoveFilter", "best_move", "evaluate", "rank_moves"]
