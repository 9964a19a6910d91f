"""The English wording shared by the commands and the printed results: counted nouns and the error line.

Every command of `sudoku-course`, and the module commands it wraps (`python -m
sudoku_course.teaching.authoring`, `python -m sudoku_course.teaching.grading`), reports an
error the same way: `print_error(error)` writes one line, ERROR_PREFIX and the message, on stderr.
"""

from __future__ import annotations

import sys

ERROR_PREFIX = "sudoku-course: error: "


def counted(count: int, noun: str) -> str:
    """The count and its noun, singular for 1: "1 evaluation", "0 evaluations", "12,000 evaluations"."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def error_line(error: BaseException) -> str:
    """ERROR_PREFIX and the message on one line (its line breaks become spaces; no message: the error's type)."""
    message = " ".join(str(error).split()) or type(error).__name__
    return ERROR_PREFIX + message


def print_error(error: BaseException) -> None:
    """Write `error_line(error)` on stderr."""
    print(error_line(error), file=sys.stderr)
