"""What the published folder holds besides the pages and the archive, once every page is written.

- MathJax 3 in one component, `tex-chtml.js` (the smallest that typesets TeX: 1.1 MB, its web fonts
  fetched from the site only as a page needs them), with its licence (Apache 2.0), from the locked
  `django-static-mathjax` package: a copy of MathJax 3.2.2, nothing fetched from the internet. Sphinx links it
  only from the pages that hold math.
- Each notebook beside its page (notebooks/00-environnement.ipynb), byte for byte, for the download links.
- What no page needs is removed: source maps, the theme's translation catalogues and launch-button logos,
  the copy button's unused icons, Sphinx's build record and inventory (the doctrees live outside the
  published folder: `make site` passes -d).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import mathjax
from coursesite.pages import ROOT

MATHJAX = Path(mathjax.__file__).parent / "static" / "mathjax"
MATHJAX_FILES = ["LICENSE", "es5/tex-chtml.js", "es5/output/chtml/fonts/woff-v2/*.woff"]
NOT_NEEDED = [
    ".buildinfo",
    "objects.inv",
    "_sources",
    "_static/**/*.map",
    "_static/locales",
    "_static/images",
    "_static/*webpack-macros.html",
    "_static/copybutton_funcs.js",
    "_static/check-solid.svg",
    "_static/copy-button.svg",
]


def matching(folder: Path, patterns: list[str]) -> list[Path]:
    """The paths of `folder` that match `patterns`, in pattern then name order."""
    return [path for pattern in patterns for path in sorted(folder.glob(pattern))]


def copy_mathjax(site: Path) -> None:
    """MathJax's single component, its fonts and its licence into _static/mathjax (es5/ folded away)."""
    for source in matching(MATHJAX, MATHJAX_FILES):
        target = site / "_static" / "mathjax" / source.relative_to(MATHJAX).as_posix().removeprefix("es5/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def copy_notebooks(site: Path, folders: list[str]) -> None:
    """Each notebook of `folders` beside its page, for the download links."""
    for folder in folders:
        for notebook in sorted((ROOT / folder).glob("*.ipynb")):
            shutil.copyfile(notebook, site / folder / notebook.name)


def remove_what_no_page_needs(site: Path) -> None:
    for path in matching(site, NOT_NEEDED):
        shutil.rmtree(path) if path.is_dir() else path.unlink()


def complete_the_site(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        site = Path(app.outdir)
        copy_mathjax(site)
        copy_notebooks(site, app.config.course_notebook_folders)
        remove_what_no_page_needs(site)


def setup(app) -> dict:
    app.connect("build-finished", complete_the_site)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
