"""Packaging facts a user relies on: one version everywhere, the licence shipped."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import pytest

import nardy

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"


def _installed_distribution():
    """The installed distribution nardy was imported from, or None (a source-tree run)."""
    try:
        dist = importlib.metadata.distribution("nardy")
    except importlib.metadata.PackageNotFoundError:
        return None
    init = Path(nardy.__file__).resolve()
    for f in dist.files or ():
        if f.name == "__init__.py" and f.parent.name == "nardy":
            if Path(dist.locate_file(f)).resolve() == init:
                return dist
    return None


def test_version_is_a_release_number():
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", nardy.__version__)


def test_build_reads_the_version_from_the_one_source():
    if not PYPROJECT.exists():
        pytest.skip("no source tree beside the tests")
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert "version" not in config["project"]
    assert "version" in config["project"]["dynamic"]
    provider = config["tool"]["scikit-build"]["metadata"]["version"]
    assert provider["provider"] == "scikit_build_core.metadata.regex"
    source = (ROOT / provider["input"]).read_text(encoding="utf-8")
    # scikit-build-core's default pattern for the regex provider
    found = re.findall(r"""(?i)^(__version__|VERSION)(?: ?: ?str)? *= *(['"])v?(?P<value>.+?)\2""",
                       source, re.MULTILINE)
    assert [m[2] for m in found] == [nardy.__version__]


def test_installed_metadata_matches_the_module():
    dist = _installed_distribution()
    if dist is None:
        pytest.skip("nardy runs from a source tree here, not from an installed package")
    assert dist.version == nardy.__version__
    meta = dist.metadata
    assert meta.get("License-Expression") == "MIT" or meta.get("License") == "MIT"
    assert any(Path(str(f)).name == "LICENSE" for f in dist.files or ())
    assert importlib.metadata.entry_points(group="console_scripts", name="nardy")


def test_licence_is_mit():
    licence = ROOT / "LICENSE"
    if not licence.exists():
        pytest.skip("no source tree beside the tests")
    text = licence.read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Permission is hereby granted, free of charge" in text
