"""Experiments that run a student's code in a notebook, bounded in time, skipped politely when the code fails.

In an exercise notebook, a cell after a check often runs the student's
function on real puzzles. Written as

    rows = experiment("la comparaison des refroidissements", lambda: compare(exponential_cooling))
    if rows is not None:
        display(pd.DataFrame(rows))

the computation runs in a child process that can be killed
(`isolation.run_call`), at most `time_limit` seconds; its result comes back
by pickle (plain data, arrays, data frames), and the cell shows it. When the
student's code raises anything (a stub's `NotImplementedError` included),
cannot return its result, or runs too long, `experiment` says in French that
the experiment is skipped and why, and returns None: Run All goes on.
Compute in the experiment, print and plot after it: what the child prints
is not shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .exercises.common import french
from .isolation import CRASH, TIMEOUT, VALUE, Outcome, run_call

DEFAULT_TIME_LIMIT = 60.0  # seconds
T = TypeVar("T")


def skipped_because(what: str, outcome: Outcome, time_limit: float) -> str:
    """The French sentence saying why the experiment `what` gave no result."""
    if outcome.not_implemented:
        reason = "une fonction de l'exercice n'est pas encore écrite (NotImplementedError)"
    elif outcome.kind == TIMEOUT:
        given_up = f"pas de résultat après {french(time_limit)} s (calcul trop long, ou sans fin)"
        return f"Expérience « {what} » abandonnée : {given_up}."
    elif outcome.kind == CRASH:
        reason = f"le calcul s'est arrêté brutalement (code de sortie {outcome.error})"
    else:
        reason = f"votre code a levé {outcome.error} : {outcome.message}"
    return f"Expérience « {what} » sautée : {reason}."


def experiment(what: str, compute: Callable[[], T], *, time_limit: float | None = None) -> T | None:
    """The result of compute(), run in a child process for at most `time_limit` seconds; None if it failed.

    The time limit defaults to DEFAULT_TIME_LIMIT, read at each call.
    `what` names the experiment in French for the message printed when it
    is skipped (an exception, a result that cannot come back) or given up
    (too long). Never raises.
    """
    time_limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
    outcome = run_call(compute, time_limit)
    if outcome.kind == VALUE:
        return outcome.value
    print(skipped_because(what, outcome, time_limit))
    return None
