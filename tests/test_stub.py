"""python/nardy/_core.pyi must describe the compiled module: every public name of nardy._core
is in the stub and every name in the stub exists (regenerate with
`pybind11-stubgen nardy._core -o python` after changing src/bindings*.cpp)."""

from __future__ import annotations

import ast
from pathlib import Path

import nardy
from nardy import _core


def _stub_names() -> tuple[set[str], dict[str, set[str]]]:
    candidates = [Path(nardy.__file__).with_name("_core.pyi"),
                  Path(__file__).resolve().parents[1] / "python" / "nardy" / "_core.pyi"]
    stub = next(p for p in candidates if p.exists())
    tree = ast.parse(stub.read_text())
    top: set[str] = set()
    members: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return top, members


def test_stub_lists_every_public_name():
    top, members = _stub_names()
    public = {n for n in dir(_core) if not n.startswith("__")}
    assert public - top == set(), "names missing from _core.pyi"
    assert top - public == set(), "names in _core.pyi that the module lacks"
    for cls, names in members.items():
        real = {n for n in dir(getattr(_core, cls)) if not n.startswith("__")}
        stubbed = {n for n in names if not n.startswith("__")}
        assert real >= stubbed, f"{cls}: {stubbed - real} in the stub only"
        assert {n for n in real if callable(getattr(getattr(_core, cls), n, None))
                and not n.startswith("_")} <= stubbed | {
            n for n in real if not callable(getattr(getattr(_core, cls), n, None))}, cls
