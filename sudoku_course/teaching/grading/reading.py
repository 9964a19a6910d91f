"""Reading the submissions folder and the solution notebooks, trusting nothing that a student handed in.

Layout: `SUBMISSIONS/<student>/<NN-name>.ipynb`, one folder per student,
notebooks named as in `solutions/`.

- A student folder, or a notebook, that is a symbolic link is rejected (it
  could point at `solutions/` or at another student); so is a notebook that
  is not a regular file, has other hard links, or is larger than
  `MAX_NOTEBOOK_BYTES`. Files are opened relative to the student's folder
  without following links, so nothing outside it is ever read.
- A file of a student's folder whose name matches no lesson is reported.
- A name that is not printable UTF-8 (a Windows zip's bytes, a newline) is
  graded as it is and shown escaped (`printable`) in every report.
- A notebook of any nbformat version is read (3 and 4.0 to 4.5, with or
  without cell ids): only its code cells matter, found by position.
- Masters (the solution notebooks) are read and hashed once, before any
  submission runs.

Steps 1 and 2 of the grading pipeline: `read_class` (the folders, the lessons
handed in that the registry grades) and `read_masters` (hash masters).
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

import sudoku_course.banks

from ..exercises import lesson_exercises
from .program import CodeCell, code_cells
from .view import package_folder

MAX_NOTEBOOK_BYTES = 20 * (1 << 20)
NOTEBOOK_SUFFIX = ".ipynb"


class GradingError(RuntimeError):
    """The grading cannot start: no solutions, no sandbox, a registry that its solutions do not pass."""


class Rejected(ValueError):
    """A submission that is not read: the reason in English (instructor) and in French (student)."""

    def __init__(self, reason: str, raison: str) -> None:
        super().__init__(reason)
        self.raison = raison


class Unreadable(Rejected):
    """A regular file that is not a notebook."""


@dataclass(frozen=True)
class Master:
    """A solution notebook: its lesson (file stem), code cells and SHA-256, read once."""

    lesson: str
    path: Path
    cells: list[CodeCell]
    sha256: str


@dataclass
class Student:
    """One folder of the submissions: its notebooks by lesson, and what is wrong with it."""

    name: str
    folder: Path
    notebooks: dict[str, str] = field(default_factory=dict)
    """lesson -> file name in the folder."""
    unknown: list[str] = field(default_factory=list)
    rejected: Rejected | None = None


def printable(name: str) -> str:
    """A file or folder name as it may be shown on one line of a report: itself if it is printable UTF-8;
    else escaped (bytes that are not UTF-8, as from a Windows zip, as \\xNN; newlines and control characters
    as in Python's repr). Names are read as the system gives them (undecodable bytes kept by
    surrogateescape), so no name stops the run."""
    text = os.fsencode(name).decode("utf-8", "backslashreplace")
    return text if text.isprintable() else repr(text)


def notebook_cells(data: bytes) -> list[CodeCell]:
    """The code cells of a notebook file's content; Unreadable if it is not a notebook."""
    import nbformat  # slow to import: only the grader's process needs it

    try:
        notebook = nbformat.reads(data.decode("utf-8"), as_version=4)
        return code_cells(notebook)
    except Exception as error:  # any malformed content (JSON, nbformat, encoding, nesting) is unreadable
        raise Unreadable(
            f"not a readable notebook ({type(error).__name__})",
            "le fichier n'est pas un notebook lisible (JSON ou format nbformat invalide)",
        ) from None


def _read_regular(folder_fd: int, name: str) -> bytes:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder_fd)
    except OSError as error:
        if os.path.islink(f"/proc/self/fd/{folder_fd}/{name}"):
            raise Rejected("a symbolic link", "le fichier rendu est un lien symbolique, pas un notebook") from None
        raise Rejected(f"cannot be opened ({error.strerror})", "le fichier rendu ne peut pas être ouvert") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Rejected("not a regular file", "le rendu n'est pas un fichier ordinaire")
        if info.st_nlink > 1:
            raise Rejected("a hard link to another file", "le fichier rendu est un lien vers un autre fichier")
        if info.st_size > MAX_NOTEBOOK_BYTES:
            raise Rejected("larger than 20 MB", "le fichier rendu dépasse 20 Mo")
        chunks, size = [], 0
        while size <= MAX_NOTEBOOK_BYTES and (chunk := os.read(fd, 1 << 20)):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_submission(student: Student, lesson: str) -> list[CodeCell]:
    """The code cells of the student's notebook of `lesson`; Rejected (or Unreadable) if it cannot be graded."""
    if student.rejected is not None:
        raise student.rejected
    try:
        folder_fd = os.open(student.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        raise Rejected("the student folder cannot be opened", "le dossier rendu ne peut pas être ouvert") from None
    try:
        data = _read_regular(folder_fd, student.notebooks[lesson])
    finally:
        os.close(folder_fd)
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise Rejected("larger than 20 MB", "le fichier rendu dépasse 20 Mo")
    return notebook_cells(data)


def find_students(root: Path, lessons: list[str]) -> tuple[list[Student], dict[str, str]]:
    """The student folders of `root` (sorted), and the entries skipped, with why (English)."""
    students, skipped = [], {}
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        if entry.name.startswith("."):
            skipped[entry.name] = "a hidden entry (its name starts with a dot), not a student folder"
        elif entry.is_symlink():
            reason = Rejected("the folder is a symbolic link", "le dossier rendu est un lien symbolique")
            students.append(Student(entry.name, Path(entry.path), rejected=reason))
        elif entry.is_dir(follow_symlinks=False):
            students.append(_student(entry.name, Path(entry.path), lessons))
        else:
            skipped[entry.name] = f"not a folder (expected {root}/<student>/<NN-name>.ipynb)"
    return students, skipped


def student_labels(students: list[Student]) -> tuple[dict[str, str], list[str]]:
    """How each student is shown in the reports (folder name -> `printable` text), and the warnings.

    Two folder names may be shown alike (`caf\\xe9` typed as text, and a name holding the byte 0xE9): the
    later one gets a suffix (« (2) »), so every student has a row and a page of their own, and a warning
    says which folders were renamed.
    """
    labels: dict[str, str] = {}
    warnings = []
    for student in students:
        shown = label = printable(student.name)
        copy = 1
        while label in labels.values():
            copy += 1
            label = f"{shown} ({copy})"
        labels[student.name] = label
        if copy > 1:
            warnings.append(f"{label}: another folder's name is shown as {shown} too; this one is shown as {label}")
    return labels, warnings


def _student(name: str, folder: Path, lessons: list[str]) -> Student:
    student = Student(name, folder)
    files = {f"{lesson}{NOTEBOOK_SUFFIX}": lesson for lesson in lessons}
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        if entry.name in files:
            student.notebooks[files[entry.name]] = entry.name
        else:
            student.unknown.append(entry.name)
    return student


def read_master(path: Path) -> Master:
    """A solution notebook, read and hashed once; Unreadable if it is not a notebook."""
    data = path.read_bytes()
    try:
        cells = notebook_cells(data)
    except Unreadable as error:
        raise Unreadable(f"{path}: {error}", error.raison) from None
    return Master(path.stem, path, cells, hashlib.sha256(data).hexdigest())


def sha256(path: Path) -> str:
    """The SHA-256 of a file's content."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ------------------------------------------------------------ the read step and the hash-masters step
def read_class(submissions_dir: Path, master_dir: Path, say: Callable[[str], None]) -> tuple[list[Student], list[Path]]:
    """The student folders, and the solution notebooks of the lessons handed in that the registry grades."""
    masters = sorted(master_dir.glob("*.ipynb"))
    if not masters:
        raise GradingError(f"no solution notebook in {master_dir}")
    if not submissions_dir.is_dir():
        raise GradingError(f"{submissions_dir} is not a folder")
    students, skipped = find_students(submissions_dir, [path.stem for path in masters])
    for name, reason in skipped.items():
        say(f"skipped {printable(str(submissions_dir / name))}: {reason}")
    handed_in = {lesson for student in students for lesson in student.notebooks}
    chosen = []
    for path in masters:
        if path.stem not in handed_in:
            continue
        if not lesson_exercises(path.stem):
            say(f"{path.name}: no exercise of this lesson in the registry, not graded")
            continue
        chosen.append(path)
    if not chosen:
        raise GradingError(f"no submission in {submissions_dir} matches a graded notebook of {master_dir}")
    return students, chosen


@cache
def course_digest() -> str:
    """A digest of what a solution's self-check depends on besides the notebook: the package's files (registry,
    cases, references, sandbox, runner), the puzzle banks, and the versions of Python and numpy."""
    digest = hashlib.sha256(f"{sys.version} {np.__version__}".encode())
    for folder in (package_folder(), *map(Path, sudoku_course.banks.__path__)):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def passed_record(master: Master, limits: str) -> Path:
    """The file that records that `master` passed its own cases under `limits` (the run's settings) with this
    course (`course_digest`): named by a digest of the three, in the user's cache folder."""
    key = hashlib.sha256(f"{master.sha256} {course_digest()} {limits}".encode()).hexdigest()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sudoku-course" / "masters-passed" / key


def read_masters(paths: list[Path], say: Callable[[str], None]) -> list[Master]:
    """The solution notebooks, read and hashed once (their SHA-256 said on the console)."""
    try:
        masters = [read_master(path) for path in paths]
    except Unreadable as error:
        raise GradingError(str(error)) from None
    for master in masters:
        say(f"master {master.path.name}: sha256 {master.sha256}")
    return masters
