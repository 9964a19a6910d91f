"""Progress bars for long loops, on by default and off when the environment says so.

In JupyterLab a long campaign shows a tqdm bar. Batch runs (`make run`,
`make test`, the grader) set `SUDOKU_COURSE_PROGRESS=0`, since a live kernel
cannot tell them from a student's session: their outputs (committed notebooks,
nbval comparisons) then hold no progress output.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import TypeVar

PROGRESS_SWITCH = "SUDOKU_COURSE_PROGRESS"

T = TypeVar("T")


def progress_enabled(progress: bool | None = None) -> bool:
    """`progress` when given; otherwise on, unless the environment sets SUDOKU_COURSE_PROGRESS=0."""
    if progress is not None:
        return progress
    return os.environ.get(PROGRESS_SWITCH, "1").strip() != "0"


def progress_bar(items: Iterable[T], *, total: int, desc: str, progress: bool | None = None) -> Iterator[T]:
    """`items` wrapped in a tqdm bar (a widget in Jupyter, text in a terminal) when progress is enabled."""
    from tqdm.auto import tqdm  # imported only by the loops that draw a bar

    return iter(tqdm(items, total=total, desc=desc, disable=not progress_enabled(progress)))
