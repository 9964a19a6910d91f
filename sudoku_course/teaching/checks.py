"""Student checks: the exercise's cases run on a student's functions, with a French verdict per case.

One entry point for every exercise of the registry
(`sudoku_course.teaching.exercises`): in a check cell,
`from sudoku_course.teaching.checks import check` then
`check("box_index", box_index)` (one argument per function of the exercise,
in the order of `Exercise.functions`). The check builds the exercise's public
cases, runs each case's `call` on the student's functions in a child process
that can be killed (`isolation.run_calls`: an endless loop, even inside numpy,
is stopped at the time limit; the check then stops there, the next cases
« non lancé », since each would wait its whole limit too), computes
the reference output here, then judges: `judge(output)` first, then
`agree(output, reference_output)`. A verdict is built from the case's label
and the student's output only, so it never shows a hidden expected value.

Verdicts: réussi, échoué (with the property that broke), erreur (the
function raised), trop lent (more than the exercise's time limit per case).
A function that still raises `NotImplementedError` makes the whole check
« pas encore fait », naming that function (it may be another exercise's, which
this one calls). The report is shown as HTML in Jupyter and as text
elsewhere, and returned as a `CheckReport`.

A check never raises for the student's answer, so that an exercise notebook
runs top to bottom. With `SUDOKU_COURSE_STRICT=1` (solutions in CI), or
`strict=True`, a check that is not fully passed raises `AssertionError`.

In a solution notebook, a cell that calls a check is tagged `check` and holds
its own import. The grader (`sudoku_course.teaching.grading`) does not run
these cells: it calls the same cases on the submission's functions in a
sandbox and judges their plain outputs with `case_verdict`, in its own process.

"""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from .exercises import Case as ExerciseCase
from .exercises import Exercise, NotPlainError, exercise, lesson_exercises
from .exercises.common import french
from .isolation import CRASH, TIMEOUT, VALUE, Outcome, run_calls
from .output import show

STRICT_ENV = "SUDOKU_COURSE_STRICT"
DEFAULT_TIME_LIMIT = 2.0  # seconds per case
DETAIL_LENGTH = 300  # characters of a verdict's explanation, at most

PASSED = "réussi"
FAILED = "échoué"
ERRORED = "erreur"
TOO_SLOW = "trop lent"
NOT_RUN = "non lancé"
NOT_RUN_DETAIL = "un cas précédent a dépassé le temps limite : corrigez-le d'abord"
NOT_DONE = "pas encore fait"
SYMBOLS = {PASSED: "✔", FAILED: "✘", ERRORED: "✘", TOO_SLOW: "⏱", NOT_RUN: "·"}
COLOURS = {PASSED: "#1a7f37", FAILED: "#cf222e", ERRORED: "#cf222e", TOO_SLOW: "#bf8700", NOT_RUN: "#6e7781"}


def shorten(text: str, width: int = DETAIL_LENGTH) -> str:
    """`text` cut to `width` characters."""
    return text if len(text) <= width else text[: width - 1] + "…"


# --------------------------------------------------------------- the report
@dataclass(frozen=True)
class CaseResult:
    """The verdict on one case, with what went wrong if anything."""

    label: str
    verdict: str
    detail: str = ""

    @property
    def passed(self) -> bool:
        """True if the case is passed."""
        return self.verdict == PASSED


@dataclass
class CheckReport:
    """The result of one check: how many cases passed out of how many, and why."""

    name: str
    total: int
    details: list[CaseResult]
    stub: bool = False
    missing: str = ""
    """For a stub: the function that still raises NotImplementedError (maybe one the exercise calls)."""

    @property
    def passed(self) -> int:
        """Number of cases passed."""
        return sum(result.passed for result in self.details)

    @property
    def ok(self) -> bool:
        """True if every case is passed."""
        return self.passed == self.total

    def summary(self) -> str:
        """One French line: 'pas encore fait', all passed, or how many passed."""
        if self.stub:
            function = f"{self.missing} " if self.missing else ""
            return f"{self.name} : {NOT_DONE} (la fonction {function}lève encore NotImplementedError)"
        if self.ok:
            return f"{self.name} : bravo, les {self.total} cas sont réussis"
        return f"{self.name} : {self.passed}/{self.total} cas réussis"

    def text(self) -> str:
        """The report as plain text, one line per case."""
        lines = [f"Vérification de {self.summary()}"]
        for result in self.details:
            detail = f" — {result.detail}" if result.detail else ""
            lines.append(f"  {SYMBOLS[result.verdict]} {result.verdict:<9} {result.label}{detail}")
        return "\n".join(lines)

    def html(self) -> str:
        """The report as an HTML table, one row per case."""
        rows = "".join(
            f'<tr><td style="color:{COLOURS[r.verdict]}">{SYMBOLS[r.verdict]} {r.verdict}</td>'
            f"<td>{html.escape(r.label)}</td><td>{html.escape(r.detail)}</td></tr>"
            for r in self.details
        )
        table = f'<table style="margin-top:0.3em">{rows}</table>' if rows else ""
        return f"<div><strong>Vérification de {html.escape(self.summary())}</strong>{table}</div>"

    def __repr__(self) -> str:
        return f"<vérification {self.summary()}>"

    def _ipython_display_(self) -> None:
        """Show nothing when a check ends a notebook cell: the check has already displayed the verdict."""


# --------------------------------------------------------------- verdicts
def _unfinished(outcome: Outcome, label: str, time_limit: float) -> CaseResult:
    """The verdict on a case whose call gave no value: an error, a timeout or a crash."""
    if outcome.kind == TIMEOUT:
        return CaseResult(label, TOO_SLOW, f"plus de {french(time_limit)} s : le calcul a été arrêté")
    if outcome.kind == CRASH and outcome.message:  # stopped by the grader: a broken or oversized answer
        return CaseResult(label, ERRORED, f"le calcul a été arrêté : {outcome.message}")
    if outcome.kind == CRASH:
        return CaseResult(label, ERRORED, f"le calcul s'est arrêté brutalement (code de sortie {outcome.error})")
    if outcome.error == NotPlainError.__name__:
        kind = outcome.message.rpartition(": ")[2]
        return CaseResult(label, FAILED, f"résultat inutilisable : la fonction renvoie un objet de type {kind}")
    return CaseResult(label, ERRORED, shorten(f"{outcome.error} : {outcome.message}"))


def _problem(judge: Callable[[Any], str | None], output: Any) -> str | None:
    """What the judge finds wrong with output (a judge that fails on an odd output means: unusable)."""
    try:
        return judge(output)
    except Exception as error:
        return f"résultat inutilisable ({type(error).__name__})"


def _verdict(case: ExerciseCase, output: Any, references: Sequence[Callable]) -> CaseResult:
    """Judge the student's plain output: properties first, then agreement with the reference's output."""
    problem = _problem(case.judge, output)
    if problem is None and case.agree is not None:
        reference = case.call(*references)
        try:
            agrees = bool(case.agree(output, reference))
        except Exception:  # an output too odd to compare does not agree
            agrees = False
        problem = None if agrees else case.disagree
    status = FAILED if problem else PASSED
    return CaseResult(case.label, status, shorten(problem or ""))


def _run_case(case: ExerciseCase, functions: Sequence[Callable]) -> Any:
    """In the child: the case's plain output (NotPlainError if it is not plain data)."""
    return case.call(*functions)


def case_verdict(case: ExerciseCase, outcome: Outcome, references: Sequence[Callable], time_limit: float) -> CaseResult:
    """The verdict on one case from the outcome of the student's call (a value, an error, a timeout, a crash)."""
    if outcome.kind != VALUE:
        return _unfinished(outcome, case.label, time_limit)
    return _verdict(case, outcome.value, references)


def evaluate(item: Exercise, functions: Sequence[Callable], seed: int | None = None) -> CheckReport:
    """Run the cases of `item` (public when seed is None, hidden otherwise) on `functions`; never raises."""
    cases = item.cases(seed)
    calls = [partial(_run_case, case, tuple(functions)) for case in cases]
    details = []
    for case, outcome in zip(cases, run_calls(calls, item.time_limit), strict=False):
        if outcome.not_implemented:
            return CheckReport(item.name, len(cases), [], stub=True, missing=outcome.where)
        details.append(case_verdict(case, outcome, item.references, item.time_limit))
        if outcome.kind == TIMEOUT:
            break  # one endless loop is enough: the next cases would each wait their whole limit too
    skipped = [CaseResult(case.label, NOT_RUN, NOT_RUN_DETAIL) for case in cases[len(details) :]]
    return CheckReport(item.name, len(cases), details + skipped)


def _show(report: CheckReport) -> None:
    """Display the report: HTML and text in IPython/Jupyter, text on a plain console."""
    show(report.text(), {"text/html": report.html()})


def strict_mode() -> bool:
    """True when SUDOKU_COURSE_STRICT=1: a check that is not fully passed raises."""
    return os.environ.get(STRICT_ENV) == "1"


def _conclude(report: CheckReport, strict: bool | None) -> CheckReport:
    """Show, and in strict mode raise if not every case is passed."""
    _show(report)
    if (strict_mode() if strict is None else strict) and not report.ok:
        raise AssertionError(f"vérification de {report.summary()}")
    return report


def check(name: str, *functions: Callable, strict: bool | None = None) -> CheckReport:
    """Check the student's `functions` (in the order of the exercise's `functions`) on the public cases of `name`.

    Shows the verdicts and returns the report.
    Never raises for the student's answer, unless strict (argument, or
    SUDOKU_COURSE_STRICT=1 when it is None) and some case is not passed:
    then AssertionError. An unknown name or a wrong number of functions is
    the notebook's mistake, not the student's: KeyError or TypeError.
    """
    item = exercise(name)
    if len(functions) != len(item.functions):
        expected = ", ".join(item.functions)
        raise TypeError(f"check({name!r}, ...) takes {len(item.functions)} function(s): {expected}")
    return _conclude(evaluate(item, functions), strict)


# ------------------------------------------------------------ the plan
def plan_rows(lesson: str) -> list[tuple[str, str, int]]:
    """(function names, level, minutes) of each exercise of `lesson`, in order."""
    return [(", ".join(item.functions), item.level, item.minutes) for item in lesson_exercises(lesson)]


def show_plan(lesson: str) -> None:
    """Show the exercises of `lesson` (notebook stem) with their level and estimated time, and the total."""
    rows = plan_rows(lesson)
    total = sum(minutes for _, _, minutes in rows)
    lines = [f"- {names} : {level}, {minutes} min" for names, level, minutes in rows]
    text = "\n".join([*lines, f"Total : {total} min"])
    cells = "".join(
        f"<tr><td><code>{html.escape(names)}</code></td><td>{level}</td><td>{minutes} min</td></tr>"
        for names, level, minutes in rows
    )
    table = (
        "<table><tr><th>À écrire</th><th>Niveau</th><th>Durée estimée</th></tr>"
        f"{cells}<tr><td colspan='2'><strong>Total</strong></td><td><strong>{total} min</strong></td></tr></table>"
    )
    show(text, {"text/html": table})
