"""The documentation's code examples run.

Every fenced ``python`` block of README.md and docs/ (recursively) is executed, the blocks of
one page in order and in one namespace, the way a reader would type them. A block with
``>>>`` prompts is a doctest: its printed results must match. A sketch that cannot run as it
stands (placeholders, files the reader has) is fenced as ``{code-block} python`` instead, which
renders the same.
"""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
SHELL = re.compile(r"^```(?:sh|bash|console)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def _pages() -> list[Path]:
    pages = [ROOT / "README.md"]
    if (ROOT / "docs").is_dir():
        pages += sorted((ROOT / "docs").rglob("*.md"))
    return [p for p in pages if p.exists() and FENCE.search(p.read_text(encoding="utf-8"))]


def _blocks(path: Path):
    text = path.read_text(encoding="utf-8")
    for m in FENCE.finditer(text):
        yield text.count("\n", 0, m.start()) + 2, m.group(1)


PAGES = _pages()


@pytest.mark.skipif(not PAGES, reason="no documentation beside the tests")
@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_page_examples_run(page: Path) -> None:
    namespace: dict = {"__name__": "__docs__"}
    parser = doctest.DocTestParser()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    rel = page.relative_to(ROOT)
    for line, code in _blocks(page):
        where = f"{rel}:{line}"
        if ">>>" in code:
            test = parser.get_doctest(code, namespace, where, str(rel), line - 1)
            runner = doctest.DocTestRunner(optionflags=flags)
            out: list[str] = []
            runner.run(test, out=out.append, clear_globs=False)
            namespace.update(test.globs)  # the DocTest ran on a copy of the namespace
            assert runner.failures == 0, f"example at {where} failed:\n" + "".join(out)
        else:
            exec(compile(code, where, "exec"), namespace)  # noqa: S102


def _commands() -> list[tuple[str, list[str]]]:
    """The `nardy ...` command lines of the shell blocks (comments dropped)."""
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        if not page.exists():
            continue
        text = page.read_text(encoding="utf-8")
        for m in SHELL.finditer(text):
            for n, line in enumerate(m.group(1).splitlines()):
                words = shlex.split(line, comments=True)
                if words[:1] == ["nardy"]:
                    where = f"{page.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 2 + n}"
                    found.append((where, words[1:]))
    return found


COMMANDS = _commands()


# Files the documented commands read, as a reader would have them: copies of test records.
FIXTURES = {"match.mat": ROOT / "tests" / "records" / "random_5pt_seed9.mat"}


@pytest.mark.skipif(not COMMANDS, reason="no documentation beside the tests")
@pytest.mark.parametrize("where,args", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_documented_commands_succeed(where: str, args: list[str], tmp_path: Path) -> None:
    for name, source in FIXTURES.items():
        if name in args:
            (tmp_path / name).write_bytes(source.read_bytes())
    done = subprocess.run([sys.executable, "-m", "nardy", *args], capture_output=True,
                          text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, f"{where}: nardy {' '.join(args)}\n{done.stderr}"


def test_examples_are_found() -> None:
    """The extraction itself: a page with a known example block yields it."""
    sample = "text\n```python\nx = 1\n```\n\n```text\nnot run\n```\n"
    assert [m.group(1) for m in FENCE.finditer(sample)] == ["x = 1\n"]


def _modules() -> list[str]:
    import pkgutil

    import nardy

    names = ["nardy"] + [m.name for m in pkgutil.walk_packages(nardy.__path__, "nardy.")]
    return [n for n in names if not n.endswith("__main__")]  # __main__ runs the CLI


_OPTIONAL_EXTRAS = {"gymnasium", "pettingzoo", "cairosvg", "onnxruntime", "gnubg", "torch"}


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples_run(name: str) -> None:
    """The ``>>>`` examples of the docstrings, which the API reference shows."""
    import importlib

    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        # Modules over an optional extra (nardy[rl] and the evaluator adapters) are skipped
        # where it is not installed; any other missing module is a failure.
        if e.name not in _OPTIONAL_EXTRAS:
            raise
        pytest.skip(f"{name} needs the optional {e.name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             report=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
