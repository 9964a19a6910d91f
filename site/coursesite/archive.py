"""The students' course as one archive, `sudoku-course.zip`, offered by the page DEMARRER.md.

The archive's only top folder, `sudoku-course/`, holds the lessons, the exercises, the puzzle banks, the
package as a wheel, the home page, DEMARRER.md (how to install and start JupyterLab) and the students' part
of requirements.lock: the exact versions of what `sudoku_course[notebooks]` needs, without the tools of the
course's developers (the site's builder, the browser tests, the linters). Never the solutions.

It is built before the pages are read, so that DEMARRER's download link can give its size.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib.metadata import requires
from pathlib import Path

from coursesite.pages import COURSE_FOLDER, ROOT, START_PAGE
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from sphinx.util import logging

ARCHIVE = f"{COURSE_FOLDER}.zip"
ARCHIVE_FILES = [
    "ACCUEIL.md",
    "DEMARRER.md",
    "GLOSSAIRE.md",
    "notebooks/*.ipynb",
    "exercises/*.ipynb",
    "puzzles/*.txt",
    "puzzles/*.md",
]
STUDENTS_NEED = "sudoku_course[notebooks]"
NOT_PACKAGED = (".git", ".venv", "_build", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis")
LOCK_HEADER = (
    "# The students' part of the course's requirements.lock: the exact versions that sudoku_course[notebooks]\n"
    "# needs. Install with: python -m pip install -r requirements.lock (see DEMARRER.md).\n"
)

logger = logging.getLogger(__name__)


def needed_by(requirement: str) -> set[str]:
    """The normalised names of the distributions `requirement` needs, read from the installed metadata."""
    needed: set[str] = set()
    seen: set[tuple[str, frozenset[str]]] = set()
    pending = [Requirement(requirement)]
    while pending:
        wanted = pending.pop()
        key = (canonicalize_name(wanted.name), frozenset(wanted.extras))
        if key in seen:
            continue
        seen.add(key)
        needed.add(key[0])
        for text in requires(wanted.name) or []:
            dependency = Requirement(text)
            extras = wanted.extras or {""}
            if dependency.marker is None or any(dependency.marker.evaluate({"extra": extra}) for extra in extras):
                pending.append(dependency)
    return needed


def students_lock(lock: str) -> str:
    """The lines of `lock` (name==version) that the students' install needs."""
    needed = needed_by(STUDENTS_NEED)
    pins = [line for line in lock.splitlines() if line and not line.startswith("#")]
    return LOCK_HEADER + "".join(f"{pin}\n" for pin in pins if canonicalize_name(pin.split("==")[0]) in needed)


def build_wheel(destination: Path) -> Path:
    """The package's wheel, built offline from a copy of the sources (the build leaves nothing in the tree)."""
    with tempfile.TemporaryDirectory() as scratch:
        sources = Path(scratch) / "sources"
        shutil.copytree(ROOT, sources, ignore=shutil.ignore_patterns(*NOT_PACKAGED))
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index"]
        done = subprocess.run([*command, "--wheel-dir", str(destination), str(sources)], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"building the package's wheel failed:\n{done.stdout}\n{done.stderr}")
    (wheel,) = destination.glob("*.whl")
    return wheel


def build_archive(folder: Path) -> Path:
    """Write the students' archive into `folder`; return its path."""
    archive = folder / ARCHIVE
    with tempfile.TemporaryDirectory() as scratch, zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for pattern in ARCHIVE_FILES:
            for path in sorted(ROOT.glob(pattern)):
                zipped.write(path, f"{COURSE_FOLDER}/{path.relative_to(ROOT).as_posix()}")
        lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
        zipped.writestr(f"{COURSE_FOLDER}/requirements.lock", students_lock(lock))
        wheel = build_wheel(Path(scratch))
        zipped.write(wheel, f"{COURSE_FOLDER}/{wheel.name}")
    return archive


def start_with_the_archive(app) -> None:
    if app.builder.format == "html":
        archive = build_archive(Path(app.outdir))
        logger.info(f"students' archive: {archive} ({archive.stat().st_size / 1e6:.1f} MB)")


def offer_the_archive(app, docname: str, source: list[str]) -> None:
    """Put the archive's download link, with its size, under the title of DEMARRER.md."""
    archive = Path(app.outdir) / ARCHIVE
    if docname == START_PAGE and archive.exists():
        size = f"{archive.stat().st_size / 1e6:.1f}".replace(".", ",")
        link = f'<a class="btn btn-primary" href="{ARCHIVE}" download>Télécharger le cours ({ARCHIVE}, {size} Mo)</a>'
        title, rest = source[0].split("\n", 1)
        source[0] = f'{title}\n\n<p class="download-course">{link}</p>\n{rest}'


def setup(app) -> dict:
    app.connect("builder-inited", start_with_the_archive)
    app.connect("source-read", offer_the_archive)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
