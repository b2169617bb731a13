"""Sphinx configuration of the nardy documentation (built with warnings as errors in CI)."""

from __future__ import annotations

import sys
from pathlib import Path

# The installed nardy is documented; a source tree whose compiled core was built in place
# (python/nardy/_core*.so) is used when nothing is installed.
try:
    import nardy
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
    import nardy

project = "nardy"
author = "The nardy authors"
copyright = "2026, The nardy authors"
release = nardy.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = True
nitpicky = False

intersphinx_mapping = {}

html_theme = "alabaster"
html_title = f"nardy {release}"
