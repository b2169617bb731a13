"""The package ships py.typed: its hints must type-check (mypy over python/nardy, with the
_core.pyi stub standing in for the compiled module)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_clean():
    pytest.importorskip("mypy")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", str(ROOT / "python" / "nardy"), "--ignore-missing-imports",
         "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache")],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
