"""Speed of the Position ID and XGID codecs: figures reported, never asserted.

The 2,000 shared backgammon positions (as Position IDs and as XGIDs), interleaved round by
round so that every side sees the same load on a shared machine:

* nardy's C++ batch calls (``batch.to_position_ids``, ``from_position_ids``, ``to_xgids``,
  ``from_xgids``) on the set repeated 50 times (100,000 IDs a call, 5 repeats in smoke mode);
* the pure-Python codecs the C++ replaced (tests/reference/gnubg_ids_ref.py) and one
  ``Position.from_position_id`` / ``to_position_id`` call per ID;
* the PyPI gnubg package's ``positionid`` and ``positionfromid``, one call per ID.

The ``enum/s`` column holds IDs per second, ``x gnubg`` the ratio to gnubg's call doing the same
direction (encode or decode). The assertions check that every side produced the same IDs and
boards, not how fast.
"""

from __future__ import annotations

import importlib.util
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nardy
from benchmarks.conftest import Figure, Figures
from nardy import batch


def _reference() -> Any:
    """The pure-Python codecs of tests/reference, loaded by path (tests/ is no package)."""
    path = Path(__file__).resolve().parents[1] / "tests" / "reference" / "gnubg_ids_ref.py"
    spec = importlib.util.spec_from_file_location("gnubg_ids_ref", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


R = _reference()

REPEAT = (50, 5)  # the set repeated, benchmarks enabled / smoke
ROUNDS = (7, 1)


def _rate(fn: Callable[[], Any], rounds: list[float]) -> Any:
    t0 = time.perf_counter()
    out = fn()
    rounds.append(time.perf_counter() - t0)
    return out


def test_codec_speed(backgammon_ids: list[str], backgammon_array: np.ndarray, enabled: bool,
                     figures: Figures, benchmark: Any) -> None:
    try:
        import gnubg
    except ImportError:
        gnubg = None
    rep = REPEAT[0] if enabled else REPEAT[1]
    rows = np.ascontiguousarray(np.tile(backgammon_array, (rep, 1, 1)))
    ids = np.array(backgammon_ids * rep)
    n_set = len(backgammon_ids)
    sides = [(tuple(m), tuple(o)) for m, o in backgammon_array.tolist()]
    boards = [(o[:25], m[:25]) for m, o in sides]
    xgids = [R.encode_xgid(m, o) for m, o in sides]
    xgid_array = np.array(xgids * rep)
    v = nardy.Backgammon()
    positions = [nardy.Position.from_sides(v, m, o) for m, o in sides]

    sides_of: dict[str, Callable[[], Any]] = {
        "batch.to_position_ids": lambda: batch.to_position_ids(rows),
        "batch.from_position_ids": lambda: batch.from_position_ids(ids),
        "batch.to_xgids": lambda: batch.to_xgids(rows),
        "batch.from_xgids": lambda: batch.from_xgids(xgid_array),
        "Python encode_position_id": lambda: [R.encode_position_id(m, o) for m, o in sides],
        "Python decode_position_id": lambda: [R.decode_position_id(s) for s in backgammon_ids],
        "Python encode_xgid": lambda: [R.encode_xgid(m, o) for m, o in sides],
        "Python decode_xgid": lambda: [R.decode_xgid_position(s) for s in xgids],
        "Position.to_position_id": lambda: [p.to_position_id() for p in positions],
        "Position.from_position_id": lambda: [nardy.Position.from_position_id(s, v)
                                              for s in backgammon_ids],
    }
    if gnubg is not None:
        sides_of["gnubg.positionid"] = lambda: [gnubg.positionid(b) for b in boards]
        sides_of["gnubg.positionfromid"] = lambda: [gnubg.positionfromid(s)
                                                    for s in backgammon_ids]
    times: dict[str, list[float]] = {k: [] for k in sides_of}
    last: dict[str, Any] = {}
    for _ in range(ROUNDS[0] if enabled else ROUNDS[1]):  # interleaved
        for name, fn in sides_of.items():
            last[name] = _rate(fn, times[name])
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)

    work = f"IDs of the {n_set} shared positions"
    for name in sides_of:
        secs = statistics.median(times[name])
        n = len(rows) if name.startswith("batch.") else n_set
        direction = "decode" if ("from" in name or "decode" in name) else "encode"
        fmt = "XGID" if "xgid" in name else "Position ID"
        figures.add(Figure(f"{fmt} {direction}", name, work, n, n, secs,
                           role="peer" if name.startswith("gnubg.") else ""),
                    benchmark if name == "batch.from_position_ids" else None)

    # every side did the same work
    want_ids = last["Python encode_position_id"]
    assert last["batch.to_position_ids"][:n_set].tolist() == want_ids
    assert last["Position.to_position_id"] == want_ids
    assert np.array_equal(last["batch.from_position_ids"][:n_set], backgammon_array)
    assert last["batch.to_xgids"][:n_set].tolist() == xgids
    assert np.array_equal(last["batch.from_xgids"][0][:n_set], backgammon_array)
    assert [(tuple(m), tuple(o)) for m, o in last["Python decode_position_id"]] == sides
    if gnubg is not None:
        assert last["gnubg.positionid"] == want_ids
