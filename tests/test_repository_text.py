"""The repository speaks to its users: no paths of a development machine, no work-log talk.

Files are read from git's index when the tests run in a checkout (otherwise from the tree
beside the tests); the perft suites and binary files are skipped.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# An absolute path of two or more levels under a top folder of a development machine (a home,
# work or temporary folder) outside a URL; work-log wording about who did what when.
MACHINE_PATH = re.compile(r"(^|[\s`(\"'=])/(home|work|tmp|root|Users|mnt|opt|srv)/[\w.-]+/")
WORK_LOG = re.compile(
    r"\b((first|second|third|fourth|fifth|this|last|next|previous) session"
    r"|sessio[n] notes?|issu[e] [0-9]+|issues? #[0-9]+)\b",
    re.IGNORECASE,
)
SKIP_PARTS = {"tests/perft"}
TEXT_SUFFIXES = {".py", ".pyi", ".md", ".txt", ".toml", ".cfg", ".cpp", ".hpp", ".h", ".cmake",
                 ".rst", ".yml", ".yaml", ".json", ".sh", ""}
THIS_FILE = Path(__file__).resolve()


def _files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode()
        names = [n for n in out.split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        return []
    files = []
    for name in names:
        if any(name.startswith(p) for p in SKIP_PARTS):
            continue
        path = ROOT / name
        if path.suffix in TEXT_SUFFIXES and path.is_file() and path.resolve() != THIS_FILE:
            files.append(path)
    return files


FILES = _files()


def _offending(pattern: re.Pattern[str]) -> list[str]:
    found = []
    for path in FILES:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            scrubbed = re.sub(r"https?://\S+", "", line)
            if pattern.search(scrubbed):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    return found


needs_checkout = pytest.mark.skipif(not FILES, reason="not a git checkout")


@needs_checkout
def test_no_machine_paths() -> None:
    assert _offending(MACHINE_PATH) == []


@needs_checkout
def test_no_work_log_wording() -> None:
    assert _offending(WORK_LOG) == []


# The examples are assembled from pieces so that this file does not match its own patterns.
@pytest.mark.parametrize("line", [
    "the seeds in " + "/work" + "/shared" + "/seeds/ say", "see `" + "/home" + "/me" + "/nardy/x`",
    "third " + "session figures", "as in " + "iss" + "ue 6", "sess" + "ion notes",
])
def test_patterns_catch_examples(line: str) -> None:
    assert MACHINE_PATH.search(line) or WORK_LOG.search(line)


@pytest.mark.parametrize("line", [
    "https://example.org/work/a/b", "src/nardy/engine.hpp", "a game session of two players",
    "python/nardy/_version.py",
])
def test_patterns_spare_user_text(line: str) -> None:
    scrubbed = re.sub(r"https?://\S+", "", line)
    assert not (MACHINE_PATH.search(scrubbed) or WORK_LOG.search(scrubbed))
