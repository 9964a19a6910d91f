"""Student checks: hidden cases run against a student's function, with a French verdict.

A check such as `check_is_valid_solution(is_valid_solution)` calls the
student's function on each hidden `Case` (on deep copies of the inputs, so a
function that modifies its arguments spoils nothing), with a time limit per
case, and shows one verdict per case: HTML in Jupyter, text elsewhere. The
cases test properties ("two digits swapped in a row is not a solution")
rather than printing answers. A function that still raises
`NotImplementedError` is reported as "pas encore fait".

A check never raises, so that an exercise notebook runs top to bottom, and
returns a `CheckReport` (name, passed, total, details). With the environment
variable `SUDOKU_COURSE_STRICT=1` (solutions in CI) a check that is not fully
passed raises `AssertionError`.

Writing a check for a lesson: build a list of `Case(label, args, judge)`,
where the label says in French what the case checks and the judge returns
None for a right result or a French sentence saying what is wrong
(`returns(value)` and `returns_bool(value)` build the usual judges), then call
`run_check(name, func, cases)`. In a solution notebook, the cell that calls a
check is tagged `check`, holds its own import, and calls the check on the
exercise's function, e.g.
`from sudoku_course.teaching.checks import check_is_valid_solution` then
`check_is_valid_solution(is_valid_solution)`. The grader puts these cells
back from the solutions before running a submission.

Runaway cases: a case runs in a daemon thread; after the time limit the check
gives up on it, asks the thread to stop (an asynchronous exception, which
interrupts pure-Python loops but not a long call into C), reports "trop lent"
and skips the remaining cases, since the runaway thread may still be using
the processor.

Grading record and its threat model. When the grader runs a submission it
sets `SUDOKU_COURSE_GRADING_KEYFILE` (a file holding a secret key drawn for
this one run) and `SUDOKU_COURSE_GRADING_RECORD` (a file). Importing this
module takes both variables out of the environment, reads the key and deletes
the key file; the grader imports this module in a first cell it adds before
any student code. Every check then appends to the record one JSON line with
its name, passed and total, signed with an HMAC-SHA256 of that content under
the key. The grader keeps only the lines whose HMAC verifies. So a `print`
that imitates a result, a line written by hand into the record, or a record
copied from another run is rejected. This is not a sandbox: student code runs
in the same process and can read the key from this module's memory, replace
the check functions, or call `run_check` with cases of its own. The record
stops casual forgery; a determined student can still cheat, which is why a
grader also reads the submitted code (`make diff`).
"""

from __future__ import annotations

import copy
import ctypes
import hashlib
import hmac
import html
import json
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..grid import SudokuGrid
from .output import show

STRICT_ENV = "SUDOKU_COURSE_STRICT"
KEY_FILE_ENV = "SUDOKU_COURSE_GRADING_KEYFILE"
RECORD_ENV = "SUDOKU_COURSE_GRADING_RECORD"
DEFAULT_TIME_LIMIT = 2.0  # seconds per case

PASSED = "réussi"
FAILED = "échoué"
ERROR = "erreur"
TOO_SLOW = "trop lent"
NOT_RUN = "non exécuté"
NOT_DONE = "pas encore fait"
SYMBOLS = {PASSED: "✔", FAILED: "✘", ERROR: "✘", TOO_SLOW: "⏱", NOT_RUN: "·"}
COLOURS = {PASSED: "#1a7f37", FAILED: "#cf222e", ERROR: "#cf222e", TOO_SLOW: "#bf8700", NOT_RUN: "#6e7781"}

Judge = Callable[[Any], "str | None"]
"""Looks at a result: None if it is right, otherwise a French sentence saying what is wrong."""


# --------------------------------------------------------------- the cases
@dataclass(frozen=True)
class Case:
    """One hidden case: what it checks (French), the arguments, and the judge of the result."""

    label: str
    args: tuple
    judge: Judge
    kwargs: Mapping[str, Any] = field(default_factory=dict)


def short_repr(value: Any, width: int = 80) -> str:
    """repr(value) cut to `width` characters."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def returns(expected: Any) -> Judge:
    """A judge accepting only results equal to `expected`."""

    def judge(result: Any) -> str | None:
        return None if bool(result == expected) else f"attendu {short_repr(expected)}, obtenu {short_repr(result)}"

    return judge


def returns_bool(expected: bool) -> Judge:
    """A judge accepting only the boolean `expected` (numpy booleans included)."""

    def judge(result: Any) -> str | None:
        if not isinstance(result, (bool, np.bool_)):
            return f"la fonction doit renvoyer True ou False, elle a renvoyé {short_repr(result)}"
        return None if bool(result) == expected else f"attendu {expected}, obtenu {bool(result)}"

    return judge


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
            return f"{self.name} : {NOT_DONE} (la fonction lève encore NotImplementedError)"
        if self.ok:
            return f"{self.name} : bravo, les {self.total} cas sont réussis"
        return f"{self.name} : {self.passed}/{self.total} cas réussis"

    def text(self) -> str:
        """The report as plain text, one line per case."""
        lines = [f"Vérification de {self.summary()}"]
        for result in self.details:
            detail = f" — {result.detail}" if result.detail else ""
            lines.append(f"  {SYMBOLS[result.verdict]} {result.verdict:<11} {result.label}{detail}")
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
        """Show nothing when a check ends a notebook cell: run_check has already displayed the verdict."""


# ---------------------------------------------------------------- running
class _CaseTimeout(BaseException):
    """Raised inside a runaway case's thread to stop it (BaseException: `except Exception` won't catch it)."""


def _stop_thread(thread: threading.Thread) -> None:
    """Ask a thread to stop by raising _CaseTimeout in it (takes effect between two Python instructions)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(_CaseTimeout))


def _call_with_time_limit(func: Callable, case: Case, seconds: float) -> tuple[str, Any]:
    """Call func on deep copies of the case's arguments: ('value', v), ('error', exception) or ('timeout', None)."""
    args, kwargs = copy.deepcopy(case.args), copy.deepcopy(dict(case.kwargs))
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = func(*args, **kwargs)
        except BaseException as error:  # the student's error is reported, never raised here
            outcome["error"] = error

    thread = threading.Thread(target=target, name="sudoku-course-check", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        _stop_thread(thread)
        return "timeout", None
    if "error" in outcome:
        return "error", outcome["error"]
    return "value", outcome.get("value")


def _judge(case: Case, result: Any) -> CaseResult:
    try:
        problem = case.judge(result)
    except Exception as error:  # a result so odd that judging it fails is a wrong result
        problem = f"résultat inutilisable ({type(error).__name__}: {error})"
    return CaseResult(case.label, FAILED if problem else PASSED, problem or "")


def _run_cases(func: Callable, cases: Sequence[Case], time_limit: float) -> tuple[list[CaseResult], bool]:
    """Results of every case, and whether the function is still a stub."""
    results: list[CaseResult] = []
    for index, case in enumerate(cases):
        kind, value = _call_with_time_limit(func, case, time_limit)
        if kind == "error" and isinstance(value, NotImplementedError):
            return [], True
        if kind == "timeout":
            results.append(CaseResult(case.label, TOO_SLOW, f"plus de {time_limit:g} s"))
            skipped = "un cas précédent est trop lent"
            results += [CaseResult(later.label, NOT_RUN, skipped) for later in cases[index + 1 :]]
            break
        if kind == "error":
            results.append(CaseResult(case.label, ERROR, f"{type(value).__name__}: {value}"))
        else:
            results.append(_judge(case, value))
    return results, False


def _show(report: CheckReport) -> None:
    """Display the report: HTML and text in IPython/Jupyter, text on a plain console."""
    show(report.text(), {"text/html": report.html()})


def strict_mode() -> bool:
    """True when SUDOKU_COURSE_STRICT=1: a check that is not fully passed raises."""
    return os.environ.get(STRICT_ENV) == "1"


def run_check(
    name: str,
    func: Callable,
    cases: Sequence[Case],
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    strict: bool | None = None,
) -> CheckReport:
    """Run `func` on every case, show the verdicts, record them for grading, and return the report.

    Never raises, unless strict (argument, or SUDOKU_COURSE_STRICT=1 when it is
    None) and some case is not passed: then AssertionError.
    """
    details, stub = _run_cases(func, cases, time_limit)
    report = CheckReport(name, len(cases), details, stub)
    _record(report)
    _show(report)
    if (strict_mode() if strict is None else strict) and not report.ok:
        raise AssertionError(f"vérification de {report.summary()}")
    return report


# ---------------------------------------------------------- grading record
def _payload_bytes(payload: Mapping[str, Any]) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sign_record(payload: Mapping[str, Any], key: bytes) -> str:
    """One JSON line holding the payload and its HMAC-SHA256 under `key`."""
    digest = hmac.new(key, _payload_bytes(payload), hashlib.sha256).hexdigest()
    return json.dumps({"payload": dict(payload), "hmac": digest}, sort_keys=True)


def verify_record(line: str, key: bytes) -> dict | None:
    """The payload of a record line if its HMAC is right under `key`, else None."""
    try:
        record = json.loads(line)
        payload, digest = record["payload"], record["hmac"]
        expected = hmac.new(key, _payload_bytes(payload), hashlib.sha256).hexdigest()
    except (ValueError, KeyError, TypeError):
        return None
    return payload if isinstance(digest, str) and hmac.compare_digest(digest, expected) else None


def _take_grading_setup() -> tuple[bytes | None, Path | None]:
    """Remove the grading variables from the environment; read, then delete, the key file."""
    key_file, record = os.environ.pop(KEY_FILE_ENV, None), os.environ.pop(RECORD_ENV, None)
    if not key_file or not record:
        return None, None
    try:
        key = Path(key_file).read_bytes()
        Path(key_file).unlink()
    except OSError:
        return None, None
    return key, Path(record)


_GRADING_KEY, _RECORD_PATH = _take_grading_setup()


def _record(report: CheckReport) -> None:
    """Append the signed result to the grading record, when the grader asked for one."""
    if _GRADING_KEY is None or _RECORD_PATH is None:
        return
    payload = {"exercise": report.name, "passed": report.passed, "total": report.total}
    with open(_RECORD_PATH, "a", encoding="utf-8") as file:
        file.write(sign_record(payload, _GRADING_KEY) + "\n")


# ------------------------------------------------------------ lesson 00
TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TEMOIN_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"
SMALL_SOLUTION = "1234341221434321"  # a solved 4 x 4 grid


def with_swap(grid: SudokuGrid, first: tuple[int, int], second: tuple[int, int]) -> SudokuGrid:
    """A copy of `grid` (same givens) whose cells `first` and `second` are swapped: handy to build hidden cases."""
    cells = grid.cells.copy()
    cells[first], cells[second] = cells[second], cells[first]
    return SudokuGrid(cells, grid.box_size, grid.givens)


def is_valid_solution_cases() -> list[Case]:
    """Hidden cases of `check_is_valid_solution`, built on the témoin and a few handmade grids."""
    puzzle = SudokuGrid.from_string(TEMOIN)
    solution = SudokuGrid(SudokuGrid.from_string(TEMOIN_SOLUTION).cells, 3, puzzle.givens)
    n = solution.size
    rows, cols = np.indices((n, n))
    emptied = solution.cells.copy()
    emptied[0, 1] = 0  # (0, 1) is not a given
    relabelled = SudokuGrid(solution.cells % n + 1)  # every digit d becomes d + 1 (9 becomes 1)
    return [
        Case("la solution du témoin, avec sa grille de départ", (solution, puzzle), returns_bool(True)),
        Case("la même solution, sans grille de départ", (solution,), returns_bool(True)),
        Case(
            "une grille 4 x 4 résolue (la taille se lit dans la grille)",
            (SudokuGrid.from_string(SMALL_SOLUTION),),
            returns_bool(True),
        ),
        Case(
            "deux chiffres échangés dans une ligne et un bloc (deux colonnes ont un doublon)",
            (with_swap(solution, (0, 3), (0, 4)),),
            returns_bool(False),
        ),
        Case(
            "deux chiffres échangés dans une colonne et un bloc (deux lignes ont un doublon)",
            (with_swap(solution, (0, 1), (1, 1)),),
            returns_bool(False),
        ),
        Case(
            "lignes et colonnes correctes, mais les blocs ont des doublons",
            (SudokuGrid((rows + cols) % n + 1),),
            returns_bool(False),
        ),
        Case(
            "chaque ligne, colonne et bloc a bien pour somme 45, avec des répétitions",
            (SudokuGrid(np.full((n, n), 5)),),
            returns_bool(False),
        ),
        Case("une case est restée vide", (SudokuGrid(emptied, 3, puzzle.givens), puzzle), returns_bool(False)),
        Case("une grille résolue qui ne respecte pas les chiffres donnés", (relabelled, puzzle), returns_bool(False)),
        Case("la même grille, sans grille de départ (elle est correcte)", (relabelled,), returns_bool(True)),
    ]


def check_is_valid_solution(
    is_valid_solution: Callable[..., bool], *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `is_valid_solution(grid, puzzle=None) -> bool`.

    Expected behaviour: True exactly when every row, column and box of `grid`
    holds each digit 1..n once, and, if `puzzle` is given, every given digit of
    `puzzle` is in the same cell of `grid`.
    """
    return run_check(
        "is_valid_solution", is_valid_solution, is_valid_solution_cases(), time_limit=time_limit, strict=strict
    )


def box_index_cases() -> list[Case]:
    """Hidden cases of `check_box_index`: corners and centres of 9 x 9, and a 4 x 4 and a 16 x 16 grid."""
    cases = [
        Case("case (0, 0) : le premier bloc", (0, 0), returns(0)),
        Case("case (0, 8) : dernier bloc de la première bande", (0, 8), returns(2)),
        Case("case (4, 4) : le bloc central", (4, 4), returns(4)),
        Case("case (8, 0) : premier bloc de la dernière bande", (8, 0), returns(6)),
        Case("case (5, 6) : les blocs se numérotent ligne de blocs par ligne de blocs", (5, 6), returns(5)),
        Case("case (8, 8) : le dernier bloc", (8, 8), returns(8)),
    ]
    cases += [
        Case("grille 4 x 4, case (3, 1)", (3, 1), returns(2), kwargs={"box_size": 2}),
        Case("grille 16 x 16, case (9, 13)", (9, 13), returns(11), kwargs={"box_size": 4}),
    ]
    return cases


def check_box_index(
    box_index: Callable[..., int], *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
):
    """Check `box_index(row, col, box_size=3) -> int`: boxes numbered from 0, left to right then top to bottom."""
    return run_check("box_index", box_index, box_index_cases(), time_limit=time_limit, strict=strict)
