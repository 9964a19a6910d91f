"""Student checks: the exercise's cases run on a student's functions, with a French verdict per case.

One entry point for every exercise of the registry
(`sudoku_course.teaching.exercises`): in a check cell,
`from sudoku_course.teaching.checks import check` then `check("box_index")`:
the check finds the exercise's functions by name in the notebook (a function
not defined yet is a French message saying which cell to run first), or takes
them as arguments, `check("box_index", box_index)` (one per function of the
exercise, in the order of `Exercise.functions`). The check builds the exercise's public
cases, runs each case's `call` on the student's functions in a child process
that can be killed (`isolation.run_calls`: an endless loop, even inside numpy,
is stopped at the time limit; the check then stops there, the next cases
« non lancé », since each would wait its whole limit too), computes
the reference output here, then judges: `judge(output)` first, then
`agree(output, reference_output)`. A verdict is built from the case's label
and the student's output only, so it never shows a hidden expected value.

Verdicts: réussi, échoué (with the property that broke), erreur (the
function raised: the error in French, `display.french_message`, and the
case's inputs), trop lent (more than the exercise's time limit per case).
When a check fails and the student's function calls a function of another
exercise (`Exercise.calls`, such as next_generation calling
tournament_selection) that fails its own check, the report names that one
as the likely cause.
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
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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
CELL = "text-align:left;vertical-align:top;padding:0.1em 0.6em 0.1em 0"
"""Inline style of a table cell: JupyterLab right-aligns the cells of an HTML output."""


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
    undefined: str = ""
    """For a check run before its exercise cell: the function the notebook does not define yet."""
    suspects: list[tuple[str, CheckReport]] = field(default_factory=list)
    """Functions of other exercises that the student's functions call and that fail their own check."""

    @property
    def passed(self) -> int:
        """Number of cases passed."""
        return sum(result.passed for result in self.details)

    @property
    def ok(self) -> bool:
        """True if every case is passed (a function not defined yet passes nothing)."""
        return not self.undefined and self.passed == self.total

    def summary(self) -> str:
        """One French line: not defined yet, 'pas encore fait', all passed, or how many passed."""
        if self.undefined:
            return (
                f"{self.name} : la fonction {self.undefined} n'est pas encore définie ; exécutez d'abord la cellule "
                f"qui la définit (celle de l'exercice, au-dessus), puis cette vérification"
            )
        if self.stub:
            function = f"{self.missing} " if self.missing else ""
            return f"{self.name} : {NOT_DONE} (la fonction {function}lève encore NotImplementedError)"
        if self.ok:
            return f"{self.name} : bravo, les {self.total} cas sont réussis"
        return f"{self.name} : {self.passed}/{self.total} cas réussis"

    def warnings(self) -> list[str]:
        """One French sentence per function called by the student's functions that fails its own check."""
        return [
            f"Attention : votre {name}, que {self.name} appelle, ne passe pas sa propre vérification "
            f"({report.passed}/{report.total} cas réussis) : corrigez-la d'abord, les échecs ci-dessous viennent "
            "peut-être d'elle."
            for name, report in self.suspects
        ]

    def text(self) -> str:
        """The report as plain text, one line per case."""
        lines = [f"Vérification de {self.summary()}", *self.warnings()]
        for result in self.details:
            detail = f" — {result.detail}" if result.detail else ""
            lines.append(f"  {SYMBOLS[result.verdict]} {result.verdict:<9} {result.label}{detail}")
        return "\n".join(lines)

    def html(self) -> str:
        """The report as an HTML table, one row per case, left-aligned, each verdict on one line."""
        rows = "".join(
            f'<tr><td style="{CELL};white-space:nowrap;color:{COLOURS[r.verdict]}">{SYMBOLS[r.verdict]} {r.verdict}'
            f'</td><td style="{CELL}">{html.escape(r.label)}</td><td style="{CELL}">{html.escape(r.detail)}</td></tr>'
            for r in self.details
        )
        table = f'<table style="margin-top:0.3em">{rows}</table>' if rows else ""
        warnings = "".join(f'<div style="color:#bf8700">{html.escape(line)}</div>' for line in self.warnings())
        return f"<div><strong>Vérification de {html.escape(self.summary())}</strong>{warnings}{table}</div>"

    def __repr__(self) -> str:
        return f"<vérification {self.summary()}>"

    def _ipython_display_(self) -> None:
        """Show nothing when a check ends a notebook cell: the check has already displayed the verdict."""


# --------------------------------------------------------------- verdicts
def _unfinished(outcome: Outcome, case: ExerciseCase, time_limit: float) -> CaseResult:
    """The verdict on a case whose call gave no value: an error (in French, with the case's inputs), a timeout
    or a crash."""
    label = case.label
    if outcome.kind == TIMEOUT:
        return CaseResult(label, TOO_SLOW, f"plus de {french(time_limit)} s : le calcul a été arrêté")
    if outcome.kind == CRASH and outcome.message:  # stopped by the grader: a broken or oversized answer
        return CaseResult(label, ERRORED, f"le calcul a été arrêté : {outcome.message}")
    if outcome.kind == CRASH:
        return CaseResult(label, ERRORED, f"le calcul s'est arrêté brutalement (code de sortie {outcome.error})")
    if outcome.error == NotPlainError.__name__:
        kind = outcome.message.rpartition(": ")[2]
        return CaseResult(label, FAILED, f"résultat inutilisable : la fonction renvoie un objet de type {kind}")
    from .display import french_message  # the display layer imports pandas: only when an error is shown

    inputs = f" — entrées : {case.inputs}" if case.inputs else ""
    return CaseResult(label, ERRORED, shorten(f"{french_message(outcome.error, outcome.message)}{inputs}"))


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
        return _unfinished(outcome, case, time_limit)
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
    report = CheckReport(item.name, len(cases), details + skipped)
    if not report.ok:
        report.suspects = failing_helpers(item, functions)
    return report


def called_names(function: Callable) -> set[str]:
    """The global names the code of `function` uses (its nested functions' included)."""
    names, codes = set(), [getattr(function, "__code__", None)]
    while codes:
        code = codes.pop()
        if code is not None:
            names.update(code.co_names)
            codes += [const for const in code.co_consts if hasattr(const, "co_names")]
    return names


def failing_helpers(item: Exercise, functions: Sequence[Callable]) -> list[tuple[str, CheckReport]]:
    """The exercises of `item.calls` whose functions the student's functions call, found where those are defined
    (the notebook), and that fail their own public cases: (function names, report) of each."""
    suspects = []
    for name in item.calls:
        helper = exercise(name)
        for function in functions:
            namespace = getattr(function, "__globals__", {})
            found = [namespace.get(helper_name) for helper_name in helper.functions]
            if set(helper.functions) & called_names(function) and all(map(callable, found)):
                report = evaluate(helper, found)
                if not report.ok and not report.stub:
                    suspects.append((", ".join(helper.functions), report))
                break
    return suspects


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
    """Check the student's functions on the public cases of exercise `name`: the `functions` given (in the
    order of the exercise's `functions`), or, when none is given, the functions of those names defined where
    check is called (the notebook).

    Shows the verdicts and returns the report; a function not defined yet is
    reported in French (run its cell first), not raised.
    Never raises for the student's answer, unless strict (argument, or
    SUDOKU_COURSE_STRICT=1 when it is None) and some case is not passed:
    then AssertionError. An unknown name or a wrong number of functions is
    the notebook's mistake, not the student's: KeyError or TypeError.
    """
    item = exercise(name)
    if not functions:
        defined = sys._getframe(1).f_globals  # the namespace of the caller: the notebook's
        missing = [function for function in item.functions if not callable(defined.get(function))]
        if missing:
            return _conclude(CheckReport(item.name, 0, [], undefined=missing[0]), strict)
        functions = tuple(defined[function] for function in item.functions)
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
        f'<tr><td style="{CELL}"><code>{html.escape(names)}</code></td><td style="{CELL}">{level}</td>'
        f'<td style="{CELL};white-space:nowrap">{minutes} min</td></tr>'
        for names, level, minutes in rows
    )
    headers = "".join(f'<th style="{CELL}">{title}</th>' for title in ("À écrire", "Niveau", "Durée estimée"))
    table = (
        f"<table><tr>{headers}</tr>{cells}<tr><td colspan='2' style=\"{CELL}\"><strong>Total</strong></td>"
        f'<td style="{CELL};white-space:nowrap"><strong>{total} min</strong></td></tr></table>'
    )
    show(text, {"text/html": table})
