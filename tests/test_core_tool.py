"""The stand-alone nardy-core tool: it knows the variants by the names nardy.find_variant
knows, checks its arguments (a message and a non-zero exit, never an abort), fails on a file it
cannot read, and counts what the Python module counts."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import nardy
from nardy import _core
from nardy.variants import VARIANTS, _normalise


def _tool() -> Path:
    path = Path(nardy.__file__).with_name("bin") / "nardy-core"
    if not path.exists():
        pytest.skip(f"nardy-core not built beside the package ({path})")
    return path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(_tool()), *args], capture_output=True, text=True, timeout=120)


def _tool_names() -> dict[str, str]:
    out = run("variants")
    assert out.returncode == 0, out.stderr
    names = {}
    for line in out.stdout.splitlines():
        key, *aliases = line.split("\t")
        for a in aliases:
            names[_normalise(a)] = key
    return names


def test_tool_knows_every_python_name_and_alias():
    tool = _tool_names()
    for cls in VARIANTS:
        for name in (cls.name, *cls.aliases):
            assert tool.get(_normalise(name)) == cls.core_variant.name, (cls.__name__, name)


def test_tool_knows_no_name_python_does_not():
    python = {_normalise(n) for cls in VARIANTS for n in (cls.name, *cls.aliases)}
    assert set(_tool_names()) <= python


@pytest.mark.parametrize("cls", VARIANTS, ids=lambda c: c.name)
def test_perft_matches_python(cls):
    if cls.name == "shlem":
        depth = 1  # depth 2 is a billion leaves
    else:
        depth = 2
    variant = cls()  # the rules its name implies, as the tool must read them too
    # nardy.perft counts a variant whose turns depend on the turn number from turn 1
    want = nardy.perft(nardy.Position.start(variant), depth)
    out = run("perft", cls.name, str(depth))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"perft {depth} = {want} "), out.stdout


@pytest.mark.parametrize("args", [
    ("perft", "backgammon", "-5"),
    ("perft", "backgammon", "x"),
    ("perft", "backgammon", "3x"),
    ("perft", "backgammon", "99999999999999999999999"),
    ("perft", "backgammon", "21"),
    ("perft", "backgammon"),
    ("perft", "backgammon", "1", "--head", "nonsense"),
    ("perft", "backgammon", "1", "--bogus"),
    ("perft", "chess", "1"),
    ("bench", "backgammon"),
    ("rollout", "backgammon", "-1"),
    ("rollout", "backgammon", "0"),
    ("rollout", "backgammon", "10", "smart"),
    ("rollout", "backgammon", "10", "random", "-3"),
    ("rollout", "backgammon", "10", "random", "1", "-2"),
    ("nonsense",),
    (),
])
def test_bad_arguments_exit_2_with_a_message(args):
    out = run(*args)
    assert out.returncode == 2, (args, out)
    assert out.stderr.startswith("nardy-core: "), out.stderr
    assert "usage:" in out.stderr


def test_bench_fails_on_a_missing_file(tmp_path):
    out = run("bench", "backgammon", str(tmp_path / "absent.txt"))
    assert out.returncode == 1
    assert "cannot read" in out.stderr


def test_bench_fails_on_an_empty_file(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing here\n")
    out = run("bench", "backgammon", str(path))
    assert out.returncode == 1
    assert "no positions" in out.stderr


def test_bench_fails_on_a_bad_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("1 2 3 | 4 5\n")
    out = run("bench", "backgammon", str(path))
    assert out.returncode == 1
    assert "line 1" in out.stderr


def test_bench_reads_a_position(tmp_path):
    side = nardy.Backgammon().initial_side()
    path = tmp_path / "one.txt"
    path.write_text(" ".join(map(str, side)) + " | " + " ".join(map(str, side)) + "\n")
    out = run("bench", "bg", str(path), "1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("1 positions x 21 rolls x 1: ")


def test_selftest_passes():
    out = run("selftest")
    assert out.returncode == 0, out.stdout
    assert "0 failed" in out.stdout
