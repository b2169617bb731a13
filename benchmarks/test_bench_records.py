"""Replay speed of match records: figures reported, never asserted.

A corpus of random backgammon matches (1,000 with benchmarks enabled, 20 in smoke mode;
5-point matches with doubles, takes, drops and resignations, played by a seeded random
player) is written as .mat text; then, interleaved in batches so that both sides see the same
load on a shared machine:

* nardy: ``read_mat`` of every file (parse, replay every move against the legal moves, check
  every cube action and result), and ``read_record`` of the same matches as nardy records;
* gnubg: the PyPI ``gnubg`` module's ``import mat`` of the same files (its own parser and
  replay), with ``gnubg.match()`` to read the result back.

Rows: records/s in the ``enum/s`` column, checker plays/s in the ``positions/s`` column; ``x
gnubg`` is nardy's records/s over gnubg's on the same files. The assertions check that both
sides replayed the same number of checker plays, not how fast.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks.conftest import Figure, Figures
from nardy import Match
from nardy.formats import read_mat, read_record, write_mat, write_record
from nardy.game import Phase

MATCHES = (1000, 20)   # benchmarks enabled / smoke
BATCH = 50


def _random_match(seed: int) -> Match:
    rng = random.Random(seed)
    m = Match(5, "backgammon", seed=seed)
    while True:
        g = m.game
        while not g.is_game_over():
            p = g.phase
            if p is Phase.ROLL:
                if rng.random() < 0.05 and g.can_double():
                    g.double()
                elif rng.random() < 0.003:
                    g.resign(1)
                    g.accept()
                else:
                    g.roll()
            elif p is Phase.OPENING:
                g.roll()
            elif p is Phase.MOVE:
                n = g.move_count()
                if n:
                    g.play(rng.randrange(n))
                else:
                    g.pass_turn()
            else:  # doubled
                (g.take if rng.random() < 0.7 else g.drop)()
        if m.is_over():
            return m
        m.next_game()


def _plays(match: Match) -> int:
    """Rolls played, dances included (gnubg records a dance as a move without steps)."""
    return sum(1 for g in match.games for a in g.history if a.kind in ("move", "pass"))


@pytest.fixture(scope="module")
def corpus(enabled: bool, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    n = MATCHES[0] if enabled else MATCHES[1]
    folder = tmp_path_factory.mktemp("records")
    mats, recs, files, plays = [], [], [], 0
    for seed in range(n):
        m = _random_match(seed)
        plays += _plays(m)
        text = write_mat(m)
        path = folder / f"m{seed:04d}.mat"
        path.write_text(text)
        mats.append(text)
        recs.append(write_record(m))
        files.append(path)
    return {"mat": mats, "nardy": recs, "files": files, "plays": plays}


def _gnubg_import(path: Path, gnubg: Any) -> int:
    gnubg.command(f"import mat {path}")
    m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    return sum(1 for g in m["games"] for a in g["game"] if a.get("action") == "move")


def test_replay_speed(corpus: dict[str, Any], figures: Figures, capfd: pytest.CaptureFixture,
                      benchmark: Any) -> None:
    try:
        import gnubg
    except ImportError:
        gnubg = None
    n = len(corpus["mat"])
    spent = {"read_mat": 0.0, "read_record": 0.0, "gnubg": 0.0}
    plays = {"read_mat": 0, "read_record": 0, "gnubg": 0}
    for start in range(0, n, BATCH):   # interleaved: the same load on every side
        part = slice(start, start + BATCH)
        t0 = time.perf_counter()
        plays["read_mat"] += sum(_plays(read_mat(t).match) for t in corpus["mat"][part])
        t1 = time.perf_counter()
        plays["read_record"] += sum(_plays(read_record(t).match) for t in corpus["nardy"][part])
        t2 = time.perf_counter()
        if gnubg is not None:
            plays["gnubg"] += sum(_gnubg_import(p, gnubg) for p in corpus["files"][part])
        t3 = time.perf_counter()
        spent["read_mat"] += t1 - t0
        spent["read_record"] += t2 - t1
        spent["gnubg"] += t3 - t2
    capfd.readouterr()   # gnubg prints its board after every import
    work = f"{n} random 5-pt matches, {corpus['plays']} plays"
    if gnubg is not None:
        figures.add(Figure("records", "gnubg 'import mat' + gnubg.match()", work, n,
                           plays["gnubg"], spent["gnubg"], role="peer"))
    figures.add(Figure("records", "nardy read_mat (records/s, plays/s)", work, n,
                       plays["read_mat"], spent["read_mat"]), benchmark)
    figures.add(Figure("records", "nardy read_record, same matches", work, n,
                       plays["read_record"], spent["read_record"]))
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    assert plays["read_mat"] == plays["read_record"] == corpus["plays"]
    if gnubg is not None:
        assert plays["gnubg"] == corpus["plays"], "gnubg replayed another number of plays"
