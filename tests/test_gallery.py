"""The docs gallery is what docs/make_gallery.py writes (so it never goes stale), and each
of its pictures is an SVG document."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("make_gallery", DOCS / "make_gallery.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gallery_is_up_to_date() -> None:
    files = _script().write()
    assert len([p for p in files if p.suffix == ".svg"]) >= 10
    for path, text in files.items():
        assert path.exists(), f"{path.name} is missing: run python docs/make_gallery.py"
        assert path.read_text(encoding="utf-8") == text, \
            f"{path.name} is stale: run python docs/make_gallery.py"
        if path.suffix == ".svg":
            assert ET.fromstring(text).tag == "{http://www.w3.org/2000/svg}svg"
    md = files[DOCS / "gallery.md"]
    for path in files:
        if path.suffix == ".svg":
            assert f"(gallery/{path.name})" in md
