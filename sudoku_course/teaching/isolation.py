"""Run a student's code in a child process that can be killed.

A thread cannot stop an endless loop inside numpy or another C extension (for
example `sum(itertools.count())`); a process can. `run_calls(calls,
time_limit)` runs zero-argument calls one after the other in a forked child
and yields one `Outcome` per call: the value it returned (sent back by
pickle), the exception it raised (its type name and message only), a
timeout (the child is killed and the next call starts in a fresh child), or
a crash (the child died, for example through `os._exit` or a segmentation
fault, or could not start: the student's code took every process). The child
inherits everything from this process by `fork`, so the calls need not be
picklable; only their results must be.

What the student's code prints in the child is dropped: the output streams
of a Jupyter kernel belong to the parent process.

Where `fork` does not exist (Windows), the calls run in this process, with
no time limit.
"""

from __future__ import annotations

import io
import multiprocessing
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

VALUE, ERROR, TIMEOUT, CRASH = "value", "error", "timeout", "crash"
MESSAGE_LENGTH = 200
NO_CHILD = "aucun processus n'a pu être lancé pour ce calcul (tous pris par le code rendu)"
CAN_FORK = "fork" in multiprocessing.get_all_start_methods()


@dataclass(frozen=True)
class Outcome:
    """What one call gave: `kind` is VALUE, ERROR, TIMEOUT or CRASH."""

    kind: str
    value: Any = None
    error: str = ""
    """For ERROR: the exception's type name (for CRASH: the child's exit code)."""
    message: str = ""
    where: str = ""
    """For ERROR: the name of the function the exception was raised in (a stub names itself)."""

    @property
    def not_implemented(self) -> bool:
        """True if the call raised NotImplementedError (a stub)."""
        return self.kind == ERROR and self.error == "NotImplementedError"


def _error_outcome(error: BaseException) -> Outcome:
    try:
        message = str(error)
    except Exception:  # an exception whose message cannot even be built
        message = ""
    return Outcome(ERROR, error=type(error).__name__, message=message[:MESSAGE_LENGTH], where=_raised_in(error))


def _raised_in(error: BaseException) -> str:
    """The name of the function whose code raised `error` (the innermost frame of its traceback)."""
    trace = error.__traceback__
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next
    return trace.tb_frame.f_code.co_name if trace is not None else ""


def run_here(call: Callable[[], Any]) -> Outcome:
    """Run `call` in this process: its value or its exception as an Outcome (never raises)."""
    try:
        return Outcome(VALUE, call())
    except BaseException as error:  # the student's error is reported, never raised here
        return _error_outcome(error)


def _child(calls: Sequence[Callable[[], Any]], connection: Connection) -> None:
    """In the child: run the call whose index the parent sends, send back its outcome; stop at EOF."""
    sys.stdout = sys.stderr = io.StringIO()
    while True:
        try:
            index = connection.recv()
        except EOFError:
            return
        outcome = run_here(calls[index])
        try:
            connection.send(outcome)
        except Exception as error:  # a result that pickle cannot send
            connection.send(_error_outcome(error))


class _Child:
    """A forked child running calls on request."""

    def __init__(self, calls: Sequence[Callable[[], Any]]) -> None:
        context = multiprocessing.get_context("fork")
        self.connection, child_end = context.Pipe()
        self.process = context.Process(target=_child, args=(calls, child_end), daemon=True)
        with warnings.catch_warnings():  # Python 3.12 warns when a process with threads (a kernel) forks
            warnings.simplefilter("ignore", DeprecationWarning)
            self.process.start()
        child_end.close()

    def run(self, index: int, time_limit: float) -> Outcome:
        """The outcome of calls[index], run in this child, or TIMEOUT / CRASH."""
        self.connection.send(index)
        ready = wait([self.connection, self.process.sentinel], timeout=time_limit)
        if self.connection.poll():
            try:
                return self.connection.recv()
            except EOFError:
                pass
        if not ready:
            return Outcome(TIMEOUT)
        self.process.join(1)
        return Outcome(CRASH, error=str(self.process.exitcode))

    def stop(self) -> None:
        """Kill the child and release its resources."""
        self.connection.close()
        self.process.kill()
        self.process.join()


def run_calls(calls: Sequence[Callable[[], Any]], time_limit: float) -> Iterator[Outcome]:
    """Run each call with at most `time_limit` seconds, in order, in a child process; yield each outcome.

    After a timeout or a crash the next call runs in a fresh child. Stopping
    the iteration early kills the child.
    """
    if not CAN_FORK:
        yield from (run_here(call) for call in calls)
        return
    child = None
    try:
        for index in range(len(calls)):
            try:
                child = child or _Child(calls)
            except OSError:  # no process or pipe left (the student's code used them up): this call only
                yield Outcome(CRASH, message=NO_CHILD)
                continue
            outcome = child.run(index, time_limit)
            if outcome.kind in (TIMEOUT, CRASH):
                child.stop()
                child = None
            yield outcome
    finally:
        if child is not None:
            child.stop()


def run_call(call: Callable[[], Any], time_limit: float) -> Outcome:
    """The outcome of one call run in a child process with a time limit."""
    return next(run_calls([call], time_limit))
