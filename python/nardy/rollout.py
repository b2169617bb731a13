"""Rollouts: games played from a position to the end, inside C++.

>>> import nardy
>>> r = nardy.rollout(nardy.Position("backgammon"), 2000, seed=1)
>>> r.games, r.unfinished
(2000, 0)

Reproducibility: trial ``t`` of a run seeded ``seed`` draws its dice (and the random policy's
choices) from a counter-based stream keyed by ``(seed, t)`` (SplitMix64; see
src/nardy/rollout.hpp), so the result depends only on (position, rules, policy, seed, trial
range), never on ``threads``. Trials ``[a, b)`` and ``[b, c)`` merged (:meth:`RolloutResult.merge`)
equal trials ``[a, c)`` bit for bit; :mod:`nardy.parallel` shards runs that way.

Policies
--------
``"random"``  uniform over the distinct resulting positions: move ``(hi32(word) * n) >> 32`` of
              the ``n`` that ``legal_moves`` lists, ``word`` the stream's draw for that ply.
              In backgammon the core makes only that move (it counts the others).
``"greedy"``  a one-ply heuristic per variant (pip count, exposed blots and made points in
              backgammon; progress, spread and blocks in long nardy; blockades, closed points
              and prisoners in Shlem), documented in src/nardy/rollout.hpp; ties go to the
              first move in move order.
a callable    a batched policy, e.g. a neural net. Games run in lockstep (``width`` at a time);
              whenever some games face a roll with two or more distinct results the callable
              is called on the calling thread as ``policy(candidates, offsets)``:

              * ``candidates``: (M, 2, 26) int8 afterstates of all waiting games, unswapped
                (side 0 = the player who moves, side 1 = the player to roll next); with
                ``features=KIND`` instead a (M, F) float32 matrix of their encoding
                (:func:`nardy.batch.encode` with ``on_roll=1``);
              * ``offsets``: (K + 1,) int64: game ``k``'s candidates are rows
                ``offsets[k]:offsets[k + 1]`` (always at least two);

              and returns either M scores (higher = better for the player who moves; the first
              best of each game is played) or K indices (one choice per game, counted from
              that game's first candidate). Forced moves and passes never reach it. For runs
              that merge exactly the callable must be deterministic (a function of its input).

              Where a turn can be several rolls (``variant.sequence_turns``: Acey-deucey's 1-2
              and the double named after it) the candidates are the whole turn's moves, as
              :meth:`nardy.Position.turn_moves` lists them on the mover's turn number (1 at the
              variant's start position; a rollout from any other position is taken to be past
              the opening turns, as with the built-in policies). After a move that ends in
              another roll the player who moved is still on roll: with ``features=KIND`` those
              rows are encoded with side 0 on roll. Variants whose turns cannot all be listed
              (``variant.listable_turns`` false: Gul bara, where one doubles cascade can have
              tens of millions of moves) refuse callable and evaluator policies.

an evaluator  (:mod:`nardy.evaluators`: an object with an ``output`` attribute, or a built-in
              evaluator name such as ``"pubeval"``, ``"race"``, ``"gnubg"``): each move is
              the best by :func:`nardy.search.rank_moves` at ``plies`` (0 or 1) with that
              evaluator, the lockstep batches making one evaluator call per ply level. Where a
              turn can be several rolls, the best of the whole turn's moves (above) at 0 plies
              only: the search's look-ahead lists one roll's moves, not whole turns.
a pair        ``(policy for the player on roll at the start, policy for the opponent)``, each
              an evaluator or a callable (``plies`` may be a pair too): matches between
              evaluators.

Budgets: ``games`` is the game budget; ``max_seconds`` stops after the first contiguous block
of trials that ends past that many seconds, so a timed run is still the run of trials
``[first_trial, first_trial + result.games)`` and merges exactly. ``progress(done, total)`` is
called after each block.

Quasi-random dice: ``quasi_random=k`` stratifies the rolls of the first ``k`` plies over the
trial numbers (gnubg's "quasi-random dice"): each block of ``36**k`` trials starting at a
multiple of ``36**k`` plays every sequence of first ``k`` rolls exactly once, which removes
their luck from the estimate's noise. Each trial's rolls stay uniform over seeds (unbiased),
and a result still depends only on (position, rules, policy, seed, trial range). The
``stderr`` shown is the plain-dice formula, an overestimate for such runs.

Variance reduction (luck adjustment, as gnubg does it): with ``variance_reduction=True`` and
an evaluator policy, every ply of every game (forced moves and passes too) also scores all 21
rolls of the position: the luck of the roll thrown is the evaluator's 0-ply equity after the
best move for that roll minus the mean of that over the 21 rolls (a double weighing 1/36, any
other roll 2/36). A trial's estimate is its points minus the luck of its plies (from the view
of the player on roll at the start). Given the position, the luck of a roll has mean exactly
zero, so the adjusted mean stays unbiased whatever the evaluator's errors; a good evaluator
makes it far less noisy. The luck is taken with the evaluator of the player on roll at the
start (or, if that side plays a callable, the opponent's), at 0 plies whatever ``plies`` the
policies search. The games played are the same as without the option; ``mean`` and
``stderr`` are then the adjusted figures (``raw_mean`` and ``raw_stderr`` the plain ones).
Luck is summed in fixed point (units of 2**-32 points per trial, integer sums), so a reduced
run still merges bit for bit and does not depend on ``width`` or sharding, for an evaluator
that scores each position independently of the rest of its batch.

Outcome kinds: backgammon ``single`` / ``gammon`` / ``backgammon`` (1 / 2 / 3 points), long
nardy ``oin`` / ``mars`` (1 / 2), Shlem ``blockade`` (the blockade length squared) /
``closed_points`` (1) and draws (0). ``wins[0]`` counts the wins of the player on roll in the
start position, ``wins[1]`` those of the opponent; ``points`` sums the points from the view of
the player on roll (a loss counts negative).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Union

import numpy as np

from nardy import _core, _validate
from nardy.errors import Error, InvalidArgumentError
from nardy.position import Position
from nardy.variants import as_variant

PolicyLike = Union[str, Callable[[np.ndarray, np.ndarray], Any]]

#: the policies played inside C++
BUILTIN_POLICIES = ("random", "greedy")


@dataclass(frozen=True)
class RolloutResult:
    """Integer outcome counts of a rollout, and figures derived from them.

    Equality compares the exact fields only (not ``seconds``, ``threads``, ``shards``), so a
    sharded run merged equals the serial run over the same trials.
    """

    variant: str
    policy: str
    seed: int
    first_trial: int
    games: int
    kinds: tuple[str, ...]
    #: wins[side][kind]: side 0 = the player on roll at the start, 1 = the opponent
    wins: tuple[tuple[int, ...], tuple[int, ...]]
    draws: int
    unfinished: int
    #: sum of points from side 0's view (losses negative), and of their squares
    points: int
    points_sq: int
    #: plies (moves and passes) played in all games
    plies: int
    seconds: float = field(default=0.0, compare=False)
    threads: int = field(default=1, compare=False)
    shards: int = field(default=1, compare=False)
    #: leading plies played with quasi-random dice (0: none)
    quasi_random: int = 0
    #: luck adjustment on (see "Variance reduction"): ``luck`` sums the trials' luck and
    #: ``adjusted_sq`` the squares of their adjusted points, in units of 2**-32 and 2**-64
    variance_reduction: bool = False
    luck: int = 0
    adjusted_sq: int = 0

    # -- derived figures ---------------------------------------------------------------
    @property
    def mean(self) -> float:
        """Mean points per game for the player on roll (unfinished games count 0); with
        variance reduction the luck-adjusted mean."""
        if not self.variance_reduction:
            return self.raw_mean
        return (self.points * LUCK_UNIT - self.luck) / (LUCK_UNIT * self.games) \
            if self.games else math.nan

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`mean` (sample standard deviation / sqrt(games)). With
        quasi-random dice this is the plain-dice formula, an overestimate: the true error is
        smaller (see "Quasi-random dice")."""
        if not self.variance_reduction:
            return self.raw_stderr
        n = self.games
        if n < 2:
            return math.nan
        total = self.points * LUCK_UNIT - self.luck
        var = (self.adjusted_sq * n - total * total) / (LUCK_UNIT * LUCK_UNIT * n * (n - 1))
        return math.sqrt(max(var, 0.0) / n)

    @property
    def raw_mean(self) -> float:
        """Mean points per game without the luck adjustment."""
        return self.points / self.games if self.games else math.nan

    @property
    def raw_stderr(self) -> float:
        """Standard error of :attr:`raw_mean`."""
        n = self.games
        if n < 2:
            return math.nan
        var = (self.points_sq - self.points * self.points / n) / (n - 1)
        return math.sqrt(max(var, 0.0) / n)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    @property
    def mean_plies(self) -> float:
        return self.plies / self.games if self.games else math.nan

    @property
    def win_rate(self) -> float:
        """Share of games the player on roll won."""
        return sum(self.wins[0]) / self.games if self.games else math.nan

    @property
    def outcomes(self) -> dict[str, int]:
        """``{"win_<kind>": n, "lose_<kind>": n, ..., "draw": n, "unfinished": n}`` from the
        view of the player on roll."""
        out = {f"win_{k}": n for k, n in zip(self.kinds, self.wins[0])}
        out.update({f"lose_{k}": n for k, n in zip(self.kinds, self.wins[1])})
        out["draw"] = self.draws
        out["unfinished"] = self.unfinished
        return out

    def counts(self) -> tuple[Any, ...]:
        """Every exact field, for bit-for-bit comparisons."""
        return (self.variant, self.policy, self.seed, self.first_trial, self.games, self.kinds,
                self.wins, self.draws, self.unfinished, self.points, self.points_sq, self.plies,
                self.luck, self.adjusted_sq)

    # -- merging -----------------------------------------------------------------------
    def merge(self, other: RolloutResult) -> RolloutResult:
        """The result of both trial sets (they should not overlap): counts summed,
        ``first_trial`` the smaller one, ``seconds`` the larger (shards run side by side)."""
        if (self.variant, self.policy, self.seed, self.kinds, self.quasi_random,
                self.variance_reduction) != \
                (other.variant, other.policy, other.seed, other.kinds, other.quasi_random,
                 other.variance_reduction):
            raise Error("cannot merge rollouts of different variants, policies, seeds, "
                        "quasi_random or variance_reduction settings")
        if self.games == 0:
            return replace(other, shards=self.shards + other.shards)
        if other.games == 0:
            return replace(self, shards=self.shards + other.shards)
        return RolloutResult(
            self.variant, self.policy, self.seed, min(self.first_trial, other.first_trial),
            self.games + other.games, self.kinds,
            tuple(tuple(a + b for a, b in zip(x, y)) for x, y in zip(self.wins, other.wins)),  # type: ignore[arg-type]
            self.draws + other.draws, self.unfinished + other.unfinished,
            self.points + other.points, self.points_sq + other.points_sq,
            self.plies + other.plies, max(self.seconds, other.seconds),
            max(self.threads, other.threads), self.shards + other.shards, self.quasi_random,
            self.variance_reduction, self.luck + other.luck,
            self.adjusted_sq + other.adjusted_sq)

    __add__ = merge

    def summary(self) -> str:
        lines = [f"{self.games:,} games of {self.variant}, policy {self.policy}, seed "
                 f"{self.seed}, trials {self.first_trial}..{self.first_trial + self.games - 1}"
                 + (f", quasi-random dice for {self.quasi_random} plies"
                    if self.quasi_random else "")]
        for who, side in (("player on roll", 0), ("opponent", 1)):
            parts = ", ".join(f"{k} {n:,}" for k, n in zip(self.kinds, self.wins[side]))
            lines.append(f"  {who} wins: {sum(self.wins[side]):,} ({parts})")
        if self.draws:
            lines.append(f"  draws: {self.draws:,}")
        if self.unfinished:
            lines.append(f"  unfinished (max plies reached): {self.unfinished:,}")
        if self.variance_reduction:
            lines.append(f"  luck-adjusted mean points for the player on roll: "
                         f"{self.mean:+.4f} +- {self.stderr:.4f} (standard error); without "
                         f"the adjustment {self.raw_mean:+.4f} +- {self.raw_stderr:.4f}")
        else:
            lines.append(f"  mean points for the player on roll: {self.mean:+.4f} "
                         f"+- {self.stderr:.4f} (standard error)")
        lines.append(f"  {self.mean_plies:.1f} plies a game; {self.seconds:.3f} s, "
                     f"{self.games_per_second:,.0f} games/s")
        return "\n".join(lines)


def _start(position: Position | Any) -> Position:
    if isinstance(position, Position):
        return position
    return Position(as_variant(position))


#: The most games one call plays (about four months of a fast core's work: a bound on
#: typing mistakes, not on real runs; Ctrl-C stops any run).
MAX_GAMES = 10**12
#: The most threads a built-in rollout starts, and the most games a callable policy's
#: lockstep batch holds.
MAX_THREADS = _validate.MAX_THREADS
MAX_WIDTH = 1 << 20
#: The most leading plies with quasi-random dice (36**8 trials make one full block).
MAX_QUASI_PLIES = 8
#: Luck is summed in units of 1 / LUCK_UNIT points per trial (exact integer sums).
LUCK_UNIT = 1 << 32


def _check_int(name: str, value: Any, low: int = 0, high: int | None = None) -> int:
    return _validate.integer(value, name, low, high)  # type: ignore[no-any-return]


def _from_core(v_name: str, policy: str, seed: int, first: int, d: dict[str, Any],
               seconds: float, threads: int, quasi_random: int = 0) -> RolloutResult:
    return RolloutResult(v_name, policy, seed, first, int(d["games"]), tuple(d["kinds"]),
                         tuple(tuple(int(x) for x in row) for row in d["wins"]),  # type: ignore[arg-type]
                         int(d["draws"]), int(d["unfinished"]), int(d["points"]),
                         int(d["points_sq"]), int(d["plies"]), seconds, threads, 1,
                         quasi_random)


def rollout(position: Position | Any, games: int, policy: PolicyLike = "random", *,
            seed: int = 0, threads: int = 0, first_trial: int = 0, max_plies: int = 10000,
            features: str | None = None, width: int = 512,
            cancel: _core.CancelToken | None = None, plies: int | tuple[int, int] = 0,
            progress: Callable[[int, int], None] | None = None,
            max_seconds: float | None = None, quasi_random: int = 0,
            variance_reduction: bool = False) -> RolloutResult:
    """Plays trials ``[first_trial, first_trial + games)`` from ``position`` (a Position, or a
    variant / name for its starting position) to the end and returns the counts.

    Built-in policies (``"random"``, ``"greedy"``) run entirely in C++ on ``threads`` threads
    (0: all cores) with the GIL released. A callable policy (see the module docstring) runs
    ``width`` games in lockstep and is called on this thread; ``features`` (an encoding name
    of :mod:`nardy.batch`) hands it feature matrices instead of int8 boards. A game still
    running after ``max_plies`` plies is counted as unfinished. Evaluators and pairs of
    policies: see the module docstring, with ``plies`` (0 or 1, or one per side) for the
    search depth. ``progress(done, total)`` and ``max_seconds``: see "Budgets".
    ``quasi_random``: how many leading plies (0..8) roll quasi-random dice, a variance
    reduction (see "Quasi-random dice"). ``variance_reduction``: subtract each roll's luck
    (evaluator policies; see "Variance reduction").

    ``games`` is at most :data:`MAX_GAMES`. Ctrl-C stops a run within milliseconds
    (KeyboardInterrupt, no partial result); so does ``cancel.cancel()`` from another thread
    given a ``nardy._core.CancelToken`` (for callable and evaluator policies: at the next game
    step in C++ or the next return from the policy).
    """
    if progress is not None or max_seconds is not None:
        return _budgeted(position, games, policy, progress, max_seconds, seed=seed,
                         threads=threads, first_trial=first_trial, max_plies=max_plies,
                         features=features, width=width, plies=plies, cancel=cancel,
                         quasi_random=quasi_random, variance_reduction=variance_reduction)
    if cancel is not None and not isinstance(cancel, _core.CancelToken):
        raise InvalidArgumentError(f"cancel must be a nardy._core.CancelToken or None, not "
                                   f"{type(cancel).__name__}")
    pos = _start(position)
    games = _check_int("games", games, 0, MAX_GAMES)
    seed = _validate.seed(seed)
    first_trial = _check_int("first_trial", first_trial, 0, _validate.U64_MAX - games)
    threads = _check_int("threads", threads, 0, MAX_THREADS)
    max_plies = _check_int("max_plies", max_plies, 1, _validate.C_INT_MAX)
    quasi_random = _check_int("quasi_random", quasi_random, 0, MAX_QUASI_PLIES)
    if not isinstance(variance_reduction, (bool, np.bool_)):
        raise Error(f"variance_reduction must be True or False, not {variance_reduction!r}")
    reduce = bool(variance_reduction)
    engine = pos.variant.engine
    name = pos.variant.name
    label = None
    if _is_search_policy(policy):
        if features is not None:
            raise Error("features= only applies to callable policies")
        label = _label(policy, plies)
        sided: _SearchPolicy | None = _SearchPolicy(pos, policy, plies)
    else:
        sided = None
        if plies != 0:
            raise Error("plies= applies to evaluator policies (an evaluator, its name, or a "
                        "pair)")
    if reduce and (sided is None or sided.luck is None):
        raise Error("variance_reduction needs an evaluator policy (an evaluator, its name, or "
                    "a pair with at least one evaluator)")
    if not pos.variant.listable_turns and (sided is not None or callable(policy)):
        raise Error(f"{pos.variant.name}: one turn can have tens of millions of moves (a doubles "
                    "cascade), too many for callable and evaluator policies to choose among; "
                    "use 'random' or 'greedy', which choose a cascade group by group")
    if pos.variant.sequence_turns and sided is not None:
        # (the search looks ahead over one roll's moves, not over whole turns)
        if any(k for _, k in sided.sides):
            raise Error(f"{pos.variant.name}: a turn can be several rolls, which the search's "
                        "look-ahead does not list; evaluator policies play these turns at "
                        "plies=0")
        if reduce:
            raise Error(f"{pos.variant.name}: a turn can be several rolls, whose luck the "
                        "search does not measure; variance_reduction is not available here")
    if isinstance(policy, str) and sided is None:
        p = policy.strip().lower()
        if p not in BUILTIN_POLICIES:
            raise Error(f"unknown policy {policy!r}; built in: {', '.join(BUILTIN_POLICIES)}, "
                        f"or pass a callable")
        if features is not None:
            raise Error("features= only applies to callable policies")
        d = _core.rollout(engine, pos.key, games, p, seed, first_trial, threads, max_plies,
                          cancel, quasi_random)
        return _from_core(name, p, seed, first_trial, d, float(d["seconds"]), int(d["threads"]),
                          quasi_random)
    if not callable(policy) and sided is None:
        raise Error(f"policy must be 'random', 'greedy', an evaluator or a callable, "
                    f"not {policy!r}")
    kind = None
    if features is not None:
        from nardy.batch import _kind

        kind = _kind(features)
    width = _check_int("width", width, 1, MAX_WIDTH)
    t0 = time.perf_counter()
    lock = _core.LockstepRollout(engine, pos.key, games, seed, first_trial, max_plies, width,
                                 quasi_random, reduce)
    luck = _LuckSums()
    while lock.advance(cancel):
        offsets = lock.offsets()
        if reduce:
            assert sided is not None
            choices, lucks = sided.choose_with_luck(lock, offsets)
            lock.choose(choices, lucks)
            luck.add(lock.take_finished())
            continue
        if sided is not None:
            lock.choose(sided.choose(lock.candidates(), offsets, lock.movers(),
                                     lock.continues()))
            continue
        assert callable(policy)
        cand = lock.features(kind) if kind is not None else lock.candidates()
        lock.choose(_choices(policy(cand, offsets), offsets))
    secs = time.perf_counter() - t0
    if label is None:
        label = "callable:" + getattr(policy, "__name__", type(policy).__name__)
    result = _from_core(name, label, seed, first_trial, lock.counts(), secs, 1, quasi_random)
    if not reduce:
        return result
    luck.add(lock.take_finished())
    if luck.games != result.games:
        raise Error("internal: luck recorded for a different number of trials")
    return replace(result, variance_reduction=True, luck=luck.luck, adjusted_sq=luck.sq)


class _LuckSums:
    """Exact sums over finished trials of the luck and of the squared adjusted points, in
    fixed point, so that any split of a run adds up to the same integers."""

    def __init__(self) -> None:
        self.games = 0
        self.luck = 0
        self.sq = 0

    def add(self, finished: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        _, points, luck = finished
        if not len(points):
            return
        q = np.rint(luck * LUCK_UNIT).astype(np.int64)
        adjusted = points.astype(np.int64) * LUCK_UNIT - q
        self.games += len(points)
        self.luck += int(q.sum())
        self.sq += sum(a * a for a in adjusted.tolist())


# -- evaluator policies ----------------------------------------------------------------------
def _is_evaluator(p: Any) -> bool:
    from nardy.evaluators import BUILTIN

    if isinstance(p, str):
        return p.strip().lower().replace("-", "_") in BUILTIN
    return callable(p) and hasattr(p, "output")


def _is_search_policy(policy: Any) -> bool:
    return _is_evaluator(policy) or (isinstance(policy, (tuple, list)) and len(policy) == 2)


def _label(policy: Any, plies: Any) -> str:
    def one(p: Any, k: Any) -> str:
        if isinstance(p, str):
            return f"{p.strip().lower()}@{k}"
        if _is_evaluator(p):
            return f"{getattr(p, 'name', type(p).__name__)}@{k}"
        return "callable:" + getattr(p, "__name__", type(p).__name__)

    if isinstance(policy, (tuple, list)):
        ks = plies if isinstance(plies, (tuple, list)) else (plies, plies)
        return f"{one(policy[0], ks[0])} vs {one(policy[1], ks[1])}"
    return one(policy, plies)


class _SearchPolicy:
    """Chooses the moves of the waiting games side by side: an evaluator searched at 0 or 1
    plies (one batched search for all games of that side), or a callable policy."""

    def __init__(self, pos: Position, policy: Any, plies: Any) -> None:
        from nardy.search import _Search

        pair = tuple(policy) if isinstance(policy, (tuple, list)) else (policy, policy)
        ks = tuple(plies) if isinstance(plies, (tuple, list)) else (plies, plies)
        if len(ks) != 2:
            raise Error(f"plies must be 0, 1 or one per side, got {plies!r}")
        self.sides: list[tuple[Any, int]] = []
        #: the search whose 0-ply values measure the luck of the rolls
        self.luck: Any = None
        for p, k in zip(pair, ks):
            if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k not in (0, 1):
                raise Error(f"rollout plies must be 0 or 1, got {k!r}")
            if _is_evaluator(p):
                self.sides.append((_Search(pos.variant, p, None, 1 << 16, 1), int(k)))
                if self.luck is None:
                    self.luck = self.sides[-1][0]
            elif callable(p):
                if k:
                    raise Error("plies= applies to evaluator policies, not to callables")
                self.sides.append((p, 0))
            else:
                raise Error(f"each policy of a pair must be an evaluator or a callable, "
                            f"not {p!r}")

    def choose(self, cand: np.ndarray, offsets: np.ndarray, movers: np.ndarray,
               continues: np.ndarray | None = None) -> np.ndarray:
        # continues: per candidate, whether its mover stays on roll (then valued as a position
        # he is on roll in, at 0 plies)
        from nardy.search import best_of_groups

        k = len(offsets) - 1
        out = np.zeros(k, dtype=np.int64)
        counts = np.diff(offsets)
        for side, (chooser, plies) in enumerate(self.sides):
            games = np.flatnonzero(movers == side)
            if not len(games):
                continue
            rows = np.concatenate([np.arange(offsets[g], offsets[g + 1]) for g in games])
            sub_off = np.concatenate(([0], np.cumsum(counts[games])))
            sub = np.ascontiguousarray(cand[rows])
            if not hasattr(chooser, "after_value"):
                out[games] = _choices(chooser(sub, sub_off), sub_off)
                continue
            stays = None if continues is None else continues[rows]
            if stays is not None and stays.any():
                values = chooser._empty(len(sub))
                goes = ~stays
                if goes.any():
                    values[goes] = chooser.after_value(np.ascontiguousarray(sub[goes]), plies)
                values[stays] = chooser.static(np.ascontiguousarray(sub[stays]))
                eq = chooser.equities(values)
            else:
                eq = chooser.equities(chooser.after_value(sub, plies))
            group = np.repeat(np.arange(len(games)), counts[games])
            out[games] = best_of_groups(eq, group, len(games)) - sub_off[:-1]
        return out

    def choose_with_luck(self, lock: Any, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every-ply mode: the choice of each waiting game (0 for a forced move or a pass)
        and the luck of its roll from the view of the player on roll at the start."""
        from nardy.evaluators import invert
        from nardy.search import ROLL_INDEX, ROLL_WEIGHTS, ROLLS, first_best

        s = self.luck
        boards = lock.positions()
        dice = lock.dice().astype(np.int64)
        movers = lock.movers()
        k = len(boards)
        nr = len(ROLLS)
        nxt, starts = s.expand(boards)
        eq = s.equities(invert(s.static(nxt), s.output))
        chosen = first_best(eq, starts)
        per_roll = eq[chosen].reshape(k, nr)
        thrown = np.arange(k) * nr + ROLL_INDEX[dice[:, 0], dice[:, 1]]
        luck = per_roll[np.arange(k), ROLL_INDEX[dice[:, 0], dice[:, 1]]] - per_roll @ ROLL_WEIGHTS
        luck = np.where(movers == 0, luck, -luck)
        counts = np.diff(offsets)
        out = np.zeros(k, dtype=np.int64)
        multi = counts >= 2
        for side, (chooser, plies) in enumerate(self.sides):
            games = np.flatnonzero(multi & (movers == side))
            if not len(games):
                continue
            if chooser is s and plies == 0:  # the luck's own search already ranked the roll
                at = thrown[games]
                if not np.array_equal(starts[at + 1] - starts[at], counts[games]):
                    raise Error("internal: the roll's moves and the game's candidates differ")
                out[games] = chosen[at] - starts[at]
                continue
            sub_off = np.concatenate(([0], np.cumsum(counts[games])))
            rows_c = np.concatenate([np.arange(offsets[g], offsets[g + 1]) for g in games])
            cand = np.ascontiguousarray(lock.candidates()[rows_c])
            out[games] = self.choose(cand, sub_off, np.full(len(games), side, dtype=np.int8))
        return out, luck


def _budgeted(position: Any, games: int, policy: Any, progress: Any, max_seconds: Any,
              **kw: Any) -> RolloutResult:
    """The run in contiguous blocks of trials, with progress reports and a time budget."""
    games = _check_int("games", games)
    if max_seconds is not None and (not isinstance(max_seconds, (int, float))
                                    or isinstance(max_seconds, bool)
                                    or not max_seconds > 0):
        raise Error(f"max_seconds must be a number > 0, got {max_seconds!r}")
    if progress is not None and not callable(progress):
        raise Error(f"progress must be callable as progress(done, total), not {progress!r}")
    builtin = isinstance(policy, str) and not _is_search_policy(policy)
    # blocks short enough for a timely stop, long enough to keep the threads busy
    block = min(max(1000, games // 100), 50_000) if builtin else \
        2 * _check_int("width", kw["width"], 1)
    quasi = _check_int("quasi_random", kw.get("quasi_random", 0), 0, MAX_QUASI_PLIES)
    if quasi and 36**quasi <= 10**6:  # whole blocks of the quasi-random design
        block = -(-block // 36**quasi) * 36**quasi
    t0 = time.perf_counter()
    first = _check_int("first_trial", kw.pop("first_trial"))
    total: RolloutResult | None = None
    done = 0
    while True:
        n = min(block, games - done)
        part = rollout(position, n, policy, first_trial=first + done, **kw)
        total = part if total is None else total.merge(part)
        done += n
        if progress is not None:
            progress(done, games)
        if done >= games or (max_seconds is not None
                             and time.perf_counter() - t0 >= max_seconds):
            break
    return replace(total, seconds=time.perf_counter() - t0, shards=1)


def _choices(answer: Any, offsets: np.ndarray) -> np.ndarray:
    """One index per waiting game from a callable policy's answer (M scores or K indices)."""
    k = len(offsets) - 1
    m = int(offsets[-1])
    a = np.asarray(answer)
    if a.ndim == 2 and a.shape[1] == 1:
        a = a[:, 0]
    if a.ndim != 1 or len(a) not in (k, m):
        raise Error(f"a policy callback must return {m} scores (one per candidate) or {k} "
                    f"indices (one per game), got shape {a.shape}")
    starts = offsets[:-1]
    if len(a) == k:  # indices (m > k always: every waiting game has >= 2 candidates)
        if not np.issubdtype(a.dtype, np.integer):
            raise Error(f"policy indices must be integers, got dtype {a.dtype}")
        idx = a.astype(np.int64)
        counts = np.diff(offsets)
        if (idx < 0).any() or (idx >= counts).any():
            raise Error("a policy index is outside its game's candidates")
        return idx
    scores = a.astype(np.float64, copy=False)
    if np.isnan(scores).any():
        raise Error("policy scores contain NaN")
    best = np.maximum.reduceat(scores, starts)
    game = np.repeat(np.arange(k), np.diff(offsets))
    rows = np.arange(m)
    first = np.minimum.reduceat(np.where(scores == best[game], rows, m), starts)
    return (first - starts).astype(np.int64)


__all__ = ["BUILTIN_POLICIES", "MAX_QUASI_PLIES", "RolloutResult", "rollout"]
