"""The package as the sandbox sees it: a copy without the reference answers.

Each lesson of the registry keeps its answers in `references.py`
(`sudoku_course.teaching.exercises`). The grader copies the package once per
grading run, leaving out every `references.py` and every `__pycache__` (a
compiled reference could be read back), and bubblewrap mounts that copy
read-only where the package is (`Sandbox.package`). Inside the sandbox, no
import, `runpy`, `pkgutil`, file read or unpickling can reach a reference:
none is there. The cases and what the students import (`provided.py`) are
there, since the runner builds the cases and calls the provided loops.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sudoku_course

REFERENCES_FILE = "references.py"
LEFT_OUT = (REFERENCES_FILE, "__pycache__")


def package_folder() -> Path:
    """The folder of the installed `sudoku_course` package."""
    return Path(sudoku_course.__file__).resolve().parent


def copy_without_references(folder: Path) -> Path:
    """A copy of the package in `folder`, without any `references.py` nor `__pycache__`; the copy's path."""
    view = folder / package_folder().name
    shutil.copytree(package_folder(), view, ignore=shutil.ignore_patterns(*LEFT_OUT))
    return view


@contextmanager
def package_view() -> Iterator[Path]:
    """The sandbox's copy of the package for one grading run, removed at the end of the run."""
    with tempfile.TemporaryDirectory(prefix="sudoku-grading-package-") as folder:
        yield copy_without_references(Path(folder))
