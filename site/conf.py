"""Sphinx configuration of the course website (`make site`; `make site SOLUTIONS=1` adds the solutions).

The source folder is the repository root; this folder only holds the configuration.
Pages: ACCUEIL.md (the home page), notebooks/ and exercises/, and solutions/ for
instructors. Notebooks are rendered from their committed outputs, never executed.
Everything the pages need is copied into the site, MathJax included: nothing is
fetched from the internet at build or view time.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import jupyter_server_mathjax
from docutils import nodes

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = os.environ.get("SUDOKU_COURSE_SOLUTIONS", "0") == "1"
MATHJAX_SOURCE = Path(jupyter_server_mathjax.__file__).parent / "static"
SECTIONS = [("notebooks", "Leçons"), ("exercises", "Exercices")] + ([("solutions", "Solutions")] if SOLUTIONS else [])

project = "Résoudre le Sudoku avec des métaheuristiques"
author = "sudoku_course"
copyright = "sudoku_course"
language = "fr"
root_doc = "ACCUEIL"

extensions = ["myst_nb", "sphinx.ext.mathjax"]
include_patterns = ["ACCUEIL.md"] + [f"{folder}/*.ipynb" for folder, _ in SECTIONS]
exclude_patterns = ["**/.ipynb_checkpoints"]
templates_path = ["_templates"]

nb_execution_mode = "off"  # the committed outputs are the course
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3

html_theme = "alabaster"
html_title = project
html_theme_options = {"show_relbars": True, "show_powered_by": False, "page_width": "1240px", "sidebar_width": "260px"}
html_sidebars = {"**": ["about.html", "navigation.html", "relations.html", "searchbox.html"]}
html_additional_pages = {"index": "redirect.html"}  # static hosts serve index.html first
html_static_path = ["_static"]  # custom.css (which alabaster always links) and the favicon
html_favicon = "_static/favicon.svg"
html_copy_source = False
html_show_sourcelink = False

# MathJax 2 from the locked jupyter-server-mathjax package, copied into the site (see copy_mathjax); it
# bundles the STIX web fonts only, which is what the configuration below asks for (as Jupyter does).
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
mathjax2_config = {
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processRefs": False,
        "processEnvironments": False,
        # MyST marks each page tex2jax_ignore so that only Sphinx's math nodes (and notebook outputs) are typeset.
        "processClass": "tex2jax_process|mathjax_process|math|output_area",
    },
    "HTML-CSS": {
        "availableFonts": [],
        "preferredFont": None,
        "webFont": "STIX-Web",
        "imageFont": None,
        # MathJax tests its web fonts against a "blank" font loaded from about:blank, which Chromium refuses with
        # a console error; a local() name that matches no font gives the same fallback without the error.
        "styles": {"@font-face": {"font-family": "MathJax_Blank", "src": "local('MathJax_Blank')"}},
    },
    "messageStyle": "none",
}


def toctree(caption: str, folder: str) -> str:
    """A hidden MyST toctree of every notebook of `folder`, in name order."""
    pages = "\n".join(f"{folder}/{path.stem}" for path in sorted((ROOT / folder).glob("*.ipynb")))
    return f"\n```{{toctree}}\n:hidden:\n:caption: {caption}\n\n{pages}\n```\n"


def solutions_section() -> str:
    """The home page's extra section in the instructors' site: a link to each solution notebook."""
    links = "\n".join(
        f"- [Solution {path.stem[:2]}]({path.relative_to(ROOT).as_posix()})"
        for path in sorted((ROOT / "solutions").glob("*.ipynb"))
    )
    return f"\n## Solutions (enseignants)\n\nCette version du site contient les exercices résolus.\n\n{links}\n"


def add_navigation(app, docname: str, source: list[str]) -> None:
    """Give the home page the site's table of contents (and, for instructors, the solutions)."""
    if docname == root_doc:
        extra = solutions_section() if SOLUTIONS else ""
        source[0] += extra + "".join(toctree(caption, folder) for folder, caption in SECTIONS)


def add_figure_alt_text(app, doctree, docname: str) -> None:
    """Give each figure without alternative text one made from its section title and its rank there."""
    ranks: Counter[str] = Counter()
    for image in doctree.findall(nodes.image):
        if not image.get("alt"):
            title = section_title(image)
            ranks[title] += 1
            image["alt"] = f"Figure {ranks[title]} de la section « {title} »"


def section_title(node: nodes.Node) -> str:
    """The title of the innermost section holding `node`."""
    while not isinstance(node, nodes.section):
        node = node.parent
    return node.next_node(nodes.title).astext()


def copy_mathjax(app, exception) -> None:
    """Copy the bundled MathJax 2 into the site's _static folder (once per output folder)."""
    target = Path(app.outdir) / "_static" / "mathjax"
    if exception is None and app.builder.format == "html" and not target.exists():
        shutil.copytree(MATHJAX_SOURCE, target)


def setup(app) -> None:
    app.connect("source-read", add_navigation)
    app.connect("doctree-resolved", add_figure_alt_text)
    app.connect("build-finished", copy_mathjax)
