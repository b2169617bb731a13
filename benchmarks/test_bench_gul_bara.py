"""Gul bara's random rollouts, whose doubles cascade (up to 24 steps a turn, millions of
distinct results early in a game) is chosen group by group without listing the turn
(src/nardy/enumerator.hpp, pick_groups). Figures reported, never asserted:

* rollouts from the start on one thread, interleaved call by call with long nardy's (its
  closest relative: the same board and steps), the ratio of the medians in the label;
* one cascade turn chosen alone (Engine.turn_pick) against the whole turn listed and a move
  taken at the drawn index (Engine.turn_legal, what the random policy did before), on the same
  midgame cascade turns in the same run; the listing is measured only where it stays small
  (the early cascades it cannot list in a benchmark's time are left out, which favours it).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import nardy
from benchmarks.conftest import Figure, Figures
from nardy import _core

#: games per timed call (benchmarks enabled / smoke)
GAMES = (2000, 50)
LATE = 1 << 20
MAX_LISTED = 20000


def test_gul_bara_random_rollouts_against_long_nardy(benchmark: Any, figures: Figures,
                                                      enabled: bool) -> None:
    games = GAMES[0 if enabled else 1]
    rounds = 5 if enabled else 1
    starts = {name: nardy.Position(nardy.find_variant(name)()) for name in ("gul-bara", "long-nardy")}
    wall: dict[str, list[float]] = {k: [] for k in starts}
    plies: dict[str, float] = {}

    def one_round() -> None:
        for name, pos in starts.items():
            t0 = time.perf_counter()
            res = nardy.rollout(pos, games, "random", seed=len(wall[name]), threads=1)
            wall[name].append(time.perf_counter() - t0)
            assert res.games == games and res.unfinished == 0
            plies[name] = res.mean_plies

    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=1 if enabled else 0, iterations=1)
    secs = {k: statistics.median(v) for k, v in wall.items()}
    ratio = secs["long-nardy"] / secs["gul-bara"]
    figures.add(Figure("rollout-gul-bara",
                       f"random policy, threads=1, interleaved with long nardy (positions/s = "
                       f"games/s; {plies['gul-bara']:.0f} plies/game, x{ratio:.2f} long nardy's "
                       f"games/s)", f"{games} games from the start", None, games,
                       secs["gul-bara"]), benchmark)


def _cascade_turns(n_positions: int) -> list[tuple[bytes, int]]:
    """(position, die) of midgame cascade turns whose listing stays below MAX_LISTED."""
    engine = nardy.GulBara().engine
    rng = random.Random(8)
    out: list[tuple[bytes, int]] = []
    while len(out) < 6 * n_positions:
        key = _core.encode(*nardy.Position(nardy.GulBara()).sides())
        for ply in range(rng.randrange(40, 80)):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            got = engine.turn_pick(key, d1, d2, 1 + ply // 2, rng.getrandbits(64))
            key = _core.swap(got[0] if got else key)
        us, them = _core.decode(key)
        if us[25] or them[25]:
            continue
        for d in range(1, 7):
            if len(engine.turn_legal(key, d, d, LATE)) <= MAX_LISTED:
                out.append((key, d))
    return out


def test_cascade_pick_against_listing(benchmark: Any, figures: Figures, enabled: bool) -> None:
    engine = nardy.GulBara().engine
    turns = _cascade_turns(20 if enabled else 2)
    rounds = 5 if enabled else 1
    rng = random.Random(1)
    words = [rng.getrandbits(64) for _ in turns]
    wall: dict[str, list[float]] = {"pick": [], "list": []}
    results = sum(len(engine.turn_legal(k, d, d, LATE)) for k, d in turns)

    def one_round() -> None:
        t0 = time.perf_counter()
        for (key, d), w in zip(turns, words):
            engine.turn_pick(key, d, d, LATE, w)
        wall["pick"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for (key, d), w in zip(turns, words):
            moves = engine.turn_legal(key, d, d, LATE)
            if len(moves):
                moves.key(((w >> 32) * len(moves)) >> 32)
        wall["list"].append(time.perf_counter() - t0)

    benchmark.pedantic(one_round, rounds=rounds, warmup_rounds=1 if enabled else 0, iterations=1)
    secs = {k: statistics.median(v) for k, v in wall.items()}
    figures.add(Figure("gul-bara",
                       f"a cascade turn's random move made alone (turn_pick), x{secs['list'] / secs['pick']:.1f} "
                       f"listing the turn and taking the drawn index (interleaved; "
                       f"{results / len(turns):,.0f} results a turn listed)",
                       f"{len(turns)} midgame cascade turns of <= {MAX_LISTED} results",
                       len(turns), len(turns), secs["pick"]), benchmark)
