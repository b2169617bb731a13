"""perft with a transposition table: the same counts as the suites in tests/perft/ (published
or reference-computed figures), with a table small enough that nearly every entry is evicted
and with one that holds the tree; tables shared across calls, threads and chunks; a table is
refused by a variant, rule set or roll weighting other than the one that filled it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import nardy
from nardy import _core, parallel

try:
    from tests.test_perft_suite import CASES, build_position
except ImportError:
    from test_perft_suite import CASES, build_position  # type: ignore[no-redef]

# Lines of the suites small enough to count three more times here.
SMALL = [c for c in CASES if c.values[2] <= 3_000_000 and c.values[1] >= 2]


@pytest.mark.parametrize("block,depth,nodes,rolls", SMALL)
@pytest.mark.parametrize("table_mb", [1, 32])
def test_table_counts_match_the_suites(block, depth, nodes, rolls, table_mb):
    pos = build_position(block)
    assert nardy.perft(pos, depth, rolls, table_mb=table_mb) == nodes


def test_table_is_used_and_exact_in_deep_trees():
    # Long nardy has no hits, so moves commute across plies and transpositions abound: the
    # table turns perft 5 (325,347,436 leaves, published) into far fewer counted nodes.
    pos = nardy.Position(nardy.find_variant("long-nardy")(head_rule="classic"))
    assert nardy.perft(pos, 4, table_mb=8) == 2_411_418
    assert parallel.perft_threads(pos, 5, threads=2, table_mb=64) == 325_347_436


def test_a_table_shared_by_calls_of_different_depths_and_positions():
    pos = nardy.Position("backgammon")
    t = _core.PerftTable(1)
    e = pos.variant.engine
    assert e.perft(pos.key, 2, False, None, t) == 202_782
    assert e.perft(pos.key, 1, False, None, t) == 447
    assert e.perft(pos.key, 3, False, None, t) == 116_154_993
    others = [build_position(c.values[0]) for c in SMALL if "backgammon" in c.id]
    for other in others[:6]:
        assert e.perft(other.key, 2, False, None, t) == nardy.perft(other, 2)
    assert [n for _, n in nardy.divide(pos, 2, table_mb=1)] == \
        [n for _, n in nardy.divide(pos, 2)]


def test_threads_and_chunks_share_one_table():
    pos = nardy.Position("backgammon")
    assert parallel.perft_threads(pos, 3, threads=2, table_mb=4) == 116_154_993
    seen = []
    assert parallel.perft_threads(pos, 3, threads=2, table_mb=4, chunks=5,
                                  progress=lambda d, n: seen.append((d, n))) == 116_154_993
    assert seen[-1] == (5, 5)


def test_a_table_belongs_to_one_variant_rule_set_and_roll_weighting():
    bg, ln = nardy.Position("backgammon"), nardy.Position("long-nardy")
    t = _core.PerftTable(1)
    bg.variant.engine.perft(bg.key, 2, False, None, t)
    with pytest.raises(nardy.InvalidArgumentError, match="another variant"):
        ln.variant.engine.perft(ln.key, 2, False, None, t)
    with pytest.raises(nardy.InvalidArgumentError, match="roll weighting"):
        bg.variant.engine.perft(bg.key, 2, True, None, t)
    classic = nardy.Position(nardy.find_variant("long-nardy")(head_rule="classic"))
    t2 = _core.PerftTable(1)
    classic.variant.engine.perft(classic.key, 2, False, None, t2)
    with pytest.raises(nardy.InvalidArgumentError):
        ln.variant.engine.perft(ln.key, 2, False, None, t2)
    with pytest.raises(nardy.InvalidArgumentError):
        _core.perft_tasks(ln.variant.engine, [ln.key], [1], 2, False, 1, None, t2)
    assert classic.variant.engine.perft(classic.key, 4, False, None, t2) == 2_411_418


@pytest.mark.parametrize("bad", [-1, 1.5, "8", True, None, 2**20 + 1, 2**70])
def test_bad_table_sizes(bad):
    pos = nardy.Position("backgammon")
    with pytest.raises(nardy.InvalidArgumentError):
        nardy.perft(pos, 1, table_mb=bad)
    with pytest.raises(nardy.InvalidArgumentError):
        parallel.perft_threads(pos, 1, table_mb=bad)


def test_core_table_sizes():
    t = _core.PerftTable(3)
    assert 0 < t.bytes <= 3 << 20 and t.bytes > (3 << 20) - 200
    assert t.entries > 60_000
    for bad in (0, 2**20 + 1):
        with pytest.raises(nardy.InvalidArgumentError):
            _core.PerftTable(bad)


def test_cli_table_option():
    out = subprocess.run([sys.executable, "-m", "nardy", "perft", "long-nardy", "4",
                          "--table-mb", "2", "--threads", "2"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "2410395" in out.stdout.replace(",", "")
    bad = subprocess.run([sys.executable, "-m", "nardy", "perft", "backgammon", "2",
                          "--table-mb", "-3"], capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0 and "table-mb" in bad.stderr


def test_nardy_core_table_option():
    exe = Path(nardy.__file__).resolve().parent / "bin" / "nardy-core"
    if not exe.exists():
        pytest.skip("nardy-core not built beside the module")
    out = subprocess.run([str(exe), "perft", "backgammon", "3", "--table-mb", "8",
                          "--threads", "2"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "perft 3 = 116154993" in out.stdout
    bad = subprocess.run([str(exe), "perft", "backgammon", "2", "--table-mb", "x"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--table-mb" in bad.stderr
