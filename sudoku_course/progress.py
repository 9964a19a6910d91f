"""Progress bars for long loops, on by default and off when the environment says so.

In JupyterLab a long campaign shows a tqdm bar. Batch runs (`make run`,
`make test`, the grader) set `SUDOKU_COURSE_PROGRESS=0`, since a live kernel
cannot tell them from a student's session: their outputs (committed notebooks,
nbval comparisons) then hold no progress output.

Only the process that imported this module draws bars. A process forked from
it (a check or an experiment of an exercise notebook runs the student's code
in one) must not touch the notebook's output: its loops stay quiet, or, inside
`relayed_progress`, send their progress through a pipe to this process, whose
thread draws the bars.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import TypeVar

PROGRESS_SWITCH = "SUDOKU_COURSE_PROGRESS"
RELAY_INTERVAL = 0.2  # seconds between two updates a child sends
DRAWER = os.getpid()
"""The process that draws the bars: the one that imported this module."""

T = TypeVar("T")
_relay: Connection | None = None
"""While `relayed_progress` runs: where a forked child sends its updates."""


def progress_enabled(progress: bool | None = None) -> bool:
    """`progress` when given; otherwise on, unless the environment sets SUDOKU_COURSE_PROGRESS=0."""
    if progress is not None:
        return progress
    return os.environ.get(PROGRESS_SWITCH, "1").strip() != "0"


def progress_bar(items: Iterable[T], *, total: int, desc: str, progress: bool | None = None) -> Iterator[T]:
    """`items` wrapped in a tqdm bar (a widget in Jupyter, text in a terminal) when progress is enabled; in a
    forked child, relayed to the drawing process (or quiet)."""
    if not progress_enabled(progress):
        return iter(items)
    if os.getpid() != DRAWER:
        return _relayed(items, total, desc, _relay) if _relay is not None else iter(items)
    from tqdm.auto import tqdm  # imported only by the loops that draw a bar

    return iter(tqdm(items, total=total, desc=desc))


def _relayed(items: Iterable[T], total: int, desc: str, relay: Connection) -> Iterator[T]:
    """`items`, sending (desc, done, total) through `relay` after each item (at most every RELAY_INTERVAL s)."""
    sent = 0.0
    for done, item in enumerate(items, 1):
        yield item
        if time.monotonic() - sent >= RELAY_INTERVAL or done == total:
            relay.send((desc, done, total))
            sent = time.monotonic()


@contextmanager
def relayed_progress(enabled: bool = True) -> Iterator[None]:
    """Within this block, the bars of a child forked from this process are drawn here (when `enabled`)."""
    global _relay
    if not enabled:
        yield
        return
    receiver, _relay = multiprocessing.get_context("fork").Pipe(duplex=False)
    drawer = threading.Thread(target=_draw, args=(receiver,), daemon=True)
    drawer.start()
    try:
        yield
    finally:
        sender, _relay = _relay, None
        sender.close()  # with the child's copy gone too, the drawer reads the end of the pipe
        drawer.join(timeout=1)


def _draw(receiver: Connection) -> None:
    """In a thread: one tqdm bar per description received, moved to each update, until the pipe ends."""
    from tqdm.auto import tqdm

    bars: dict[str, tqdm] = {}
    try:
        while True:
            desc, done, total = receiver.recv()
            bar = bars.get(desc) or bars.setdefault(desc, tqdm(total=total, desc=desc))
            bar.update(done - bar.n)
    except (EOFError, OSError):
        pass
    finally:
        receiver.close()
        for bar in bars.values():
            bar.close()
