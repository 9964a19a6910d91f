"""Experiments that run a student's code in a notebook, bounded in time, skipped politely when the code fails.

In an exercise notebook, a cell after a check often runs the student's
function on real puzzles. Written as

    def cooling_runs():
        return [returned("compare", compare(exponential_cooling), list) for ...]

    def show_runs(rows):
        display(pd.DataFrame(rows))

    experiment("la comparaison des refroidissements", cooling_runs, show=show_runs)

the computation runs in a child process that can be killed
(`isolation.run_call`), at most `time_limit` seconds; its result comes back
by pickle (plain data, arrays, data frames), and `show` displays it here.
`returned` checks what a student's function gave before the experiment uses
it. When the student's code raises anything (a stub's `NotImplementedError`
included), returns what the experiment cannot use, cannot return its result,
or runs too long, or when showing the result fails, `experiment` says in
French that the experiment is not done and why, and returns None: Run All
goes on. Compute in the experiment, print and plot in `show`: what the child
prints is not shown. The progress bars of the package's loops that run in
the child (`progress.progress_bar`) are drawn here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

from ..progress import progress_enabled, relayed_progress
from .exercises.common import french
from .isolation import CRASH, TIMEOUT, VALUE, Outcome, run_call

DEFAULT_TIME_LIMIT = 60.0  # seconds
T = TypeVar("T")

KINDS = {
    "list": "une liste",
    "tuple": "un n-uplet",
    "dict": "un dictionnaire",
    "int": "un entier",
    "float": "un nombre décimal",
    "Real": "un nombre",
    "bool": "un booléen",
    "str": "un texte",
    "ndarray": "un tableau numpy",
    "DataFrame": "un tableau pandas",
    "SudokuGrid": "une SudokuGrid",
    "CrossDesign": "un CrossDesign",
    "Integral": "un entier",
    "NoneType": "None",
}
"""Type name -> the French words for a value of that type, in the sentences of `returned`."""


class UnusableResult(Exception):
    """A student's function returned what an experiment cannot use; the message says it in French."""


def kind_of(value: Any) -> str:
    """The French words for the type of `value`: « une liste », « None »..."""
    name = type(value).__name__
    return KINDS.get(name, f"un objet de type {name}")


def returned(name: str, value: T, kind: type | tuple[type, ...], length: int | None = None) -> T:
    """`value`, the result of the student's function `name`, if it is a `kind` (of `length` items when given);
    otherwise UnusableResult, whose French message the experiment shows: « compare_encodings a renvoyé None
    (il faut un dictionnaire) »."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    expected = " ou ".join(dict.fromkeys(KINDS.get(option.__name__, option.__name__) for option in kinds))
    if not isinstance(value, kinds):
        raise UnusableResult(f"{name} a renvoyé {kind_of(value)} (il faut {expected})")
    if length is not None and len(value) != length:
        raise UnusableResult(f"{name} a renvoyé {kind_of(value)} de {len(value)} élément(s) (il en faut {length})")
    return value


def skipped_because(what: str, outcome: Outcome, time_limit: float) -> str:
    """The French sentence saying why the experiment `what` gave no result."""
    from .display import french_message  # the display layer imports pandas: only when a message is shown

    if outcome.not_implemented:
        reason = "une fonction de l'exercice n'est pas encore écrite (NotImplementedError)"
    elif outcome.kind == TIMEOUT:
        given_up = f"pas de résultat après {french(time_limit)} s (calcul trop long, ou sans fin)"
        return f"Expérience « {what} » abandonnée : {given_up}."
    elif outcome.kind == CRASH:
        reason = f"le calcul s'est arrêté brutalement (code de sortie {outcome.error})"
    elif outcome.error == UnusableResult.__name__:
        return f"Expérience « {what} » non faite : {outcome.message}."
    else:
        reason = f"votre code a levé {french_message(outcome.error, outcome.message)}"
    return f"Expérience « {what} » sautée : {reason.rstrip('.')}."


def experiment(
    what: str,
    compute: Callable[[], T],
    *,
    show: Callable[[T], object] | None = None,
    time_limit: float | None = None,
) -> T | None:
    """The result of compute(), run in a child process for at most `time_limit` seconds, then shown here by
    show(result); None if either failed.

    The time limit defaults to DEFAULT_TIME_LIMIT, read at each call.
    `what` names the experiment in French for the message printed when it
    is skipped (an exception, a result the experiment cannot use, a result
    that cannot come back, a failed display) or given up (too long). Never
    raises.
    """
    time_limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
    with relayed_progress(progress_enabled()):
        outcome = run_call(compute, time_limit)
    if outcome.kind != VALUE:
        print(skipped_because(what, outcome, time_limit))
        return None
    if show is not None:
        try:
            show(outcome.value)
        except Exception as error:  # the student's result broke the display: say so, Run All goes on
            from .display import french_exception  # imports pandas: only when a message is shown

            _close_figures()
            print(
                f"Expérience « {what} » non faite : son résultat n'a pas pu être affiché "
                f"({french_exception(error)}) ; vérifiez ce que renvoient vos fonctions."
            )
            return None
    return outcome.value


def _close_figures() -> None:
    """Close the figures a failed display left open (the notebook would show them half drawn)."""
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
