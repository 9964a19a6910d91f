"""The course secret, and the seed of each student's hidden cases drawn from it.

The secret: `--secret-file FILE`, else the environment variable `SUDOKU_COURSE_SECRET` (the secret itself) or
`SUDOKU_COURSE_SECRET_FILE`, else `~/.config/sudoku-course/grading-secret`, created on first use. Keep it
outside the course folder and the submissions: the same secret gives every student the same cases again.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Iterable, Sequence
from pathlib import Path

from .reading import GradingError

SECRET_ENV = "SUDOKU_COURSE_SECRET"
SECRET_FILE_ENV = "SUDOKU_COURSE_SECRET_FILE"
DEFAULT_SECRET_FILE = Path("~/.config/sudoku-course/grading-secret")


def _inside_any(path: Path, folders: Iterable[Path]) -> bool:
    path = path.resolve()
    return any(path == f.resolve() or f.resolve() in path.parents for f in folders)


def course_secret(secret_file: Path | None, forbidden: Sequence[Path]) -> tuple[bytes, Path | None, str]:
    """The course secret, the file it comes from (None: the environment), and what to tell the instructor."""
    if secret_file is None and os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV].encode(), None, f"course secret: from {SECRET_ENV}"
    path = secret_file or Path(os.environ.get(SECRET_FILE_ENV) or DEFAULT_SECRET_FILE).expanduser()
    if _inside_any(path, forbidden):
        raise GradingError(f"the secret file {path} must be kept outside the course folder and the submissions")
    if path.is_file():
        secret = path.read_bytes().strip()
        if not secret:
            raise GradingError(f"the secret file {path} is empty")
        return secret, path, f"course secret: {path}"
    if secret_file is not None or os.environ.get(SECRET_FILE_ENV):
        raise GradingError(f"no secret file {path}")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="ascii") as file:
        file.write(secrets.token_hex(32) + "\n")
    return path.read_bytes().strip(), path, f"course secret: created {path} (keep it: it decides the hidden cases)"


def student_seed(secret: bytes, student: str) -> int:
    """The seed of a student's hidden cases: HMAC-SHA256(secret, folder name), as a 63-bit integer."""
    digest = hmac.new(secret, os.fsencode(student), hashlib.sha256).digest()  # a name that is not UTF-8 too
    return int.from_bytes(digest[:8], "big") >> 1
