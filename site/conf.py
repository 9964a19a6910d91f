"""Sphinx configuration of the course website (`make site`; `make site SOLUTIONS=1` adds the solutions).

The source folder is the repository root; this folder holds the configuration, the site's extensions
(coursesite/: code, typography, pages, archive, publish), its templates and its style sheet. Pages: ACCUEIL.md
(the home page), DEMARRER.md (getting the course and starting it), GLOSSAIRE.md (the course's terms),
notebooks/ and exercises/, and solutions/ for instructors. Notebooks are rendered from their committed outputs,
never executed. Everything the pages need is copied into the site: nothing is fetched from the internet at build
or view time.

Environment: SUDOKU_COURSE_SOLUTIONS=1 builds the instructors' site; SUDOKU_COURSE_JUPYTERHUB=https://hub...
adds « ouvrir dans JupyterHub » links (none by default).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the site's own extensions, coursesite/

project = "Résoudre le Sudoku avec des métaheuristiques"
author = "sudoku_course"
copyright = "sudoku_course"
language = "fr"
root_doc = "ACCUEIL"

extensions = [
    "myst_nb",
    "sphinx.ext.mathjax",
    "sphinx_copybutton",
    "coursesite.code",
    "coursesite.typography",
    "coursesite.pages",
    "coursesite.archive",
    "coursesite.publish",
]
course_notebook_folders = ["notebooks", "exercises"]
if os.environ.get("SUDOKU_COURSE_SOLUTIONS", "0") == "1":
    course_notebook_folders.append("solutions")
course_jupyterhub = os.environ.get("SUDOKU_COURSE_JUPYTERHUB", "")
include_patterns = ["ACCUEIL.md", "DEMARRER.md", "GLOSSAIRE.md"] + [
    f"{folder}/*.ipynb" for folder in course_notebook_folders
]
exclude_patterns = ["**/.ipynb_checkpoints"]
templates_path = ["_templates"]

nb_execution_mode = "off"  # the committed outputs are the course
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
# Smart quotes turn the apostrophe of « l'**état** » into a closing quote; keep dashes and ellipses only
# (coursesite.typography sets the apostrophes and the French spaces).
smartquotes_action = "De"

html_theme = "sphinx_book_theme"
html_title = project
html_theme_options = {
    "home_page_in_toc": True,
    "navbar_persistent": [],  # no header bar above the book: search is in the sidebar and the article's header
    "toc_title": "Sur cette page",
    "search_bar_text": "Rechercher dans le cours…",
    "show_toc_level": 2,
    "use_download_button": False,  # each notebook page has its own download link (coursesite.pages)
    "use_fullscreen_button": False,
}
html_context = {"default_mode": "auto"}  # light or dark, as the reader's system prefers
html_static_path = ["_static"]
html_css_files = ["course.css"]
html_favicon = "_static/favicon.svg"
html_copy_source = False
html_show_sourcelink = False
html_use_index = False
html_additional_pages = {"index": "redirect.html"}  # static hosts serve index.html first

# MathJax 3 in one component, copied into the site by coursesite.publish.
mathjax_path = "mathjax/tex-chtml.js"

# Copy buttons on code cells and code blocks, not on outputs.
copybutton_selector = "div.cell_input div.highlight pre, div.highlight:not(.output) pre"
