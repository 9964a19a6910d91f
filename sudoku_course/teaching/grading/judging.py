"""Grading one notebook: plan the runner's steps, time each one, restart after a late step, judge the outputs.

The runner (in the sandbox) only computes; everything here runs in the
grader's process: the time limits, the restarts, the reference outputs
(`Case.call(*references)`), the verdicts (`checks.case_verdict`, each case
judged as its answer arrives, its data dropped then), the answers scan
(`scan`: answers and dynamic code, either flags the exercise) and the points.

A case runs in a child of the runner, stopped by the runner at its time
limit: an endless loop (even in C) or a crash costs that case only. A step
that is late anyway, or that kills the runner (a definition that loops, a
runner that stops answering), costs itself only too: the runner is killed,
and a fresh one loads the definitions again (without the definition at
fault, if it was one) and goes on with the next step. The notebook as a whole is bounded too
(`Settings.notebook_limit`), and so are its definitions summed over the restarts
(`Settings.definitions_total`): what is left when either is spent counts as too slow.
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..checks import ERRORED, TOO_SLOW, CaseResult, case_verdict
from ..exercises import Exercise, exercise
from ..exercises.common import french
from ..isolation import CRASH, ERROR, TIMEOUT, VALUE, Outcome
from .program import CodeCell, definitions, unreadable_cells
from .runner import MISSING_DEFINITION
from .sandbox import Sandbox
from .scan import Scan

# Status of a notebook, or of one exercise in it.
OK, TIMED_OUT, CRASHED, NOT_DONE, FLAGGED = "ok", "timeout", "crash", "not-done", "flagged"
INVALID, MISSING, REJECTED = "invalid-notebook", "missing", "rejected"
CASE_SLACK = 3.0  # seconds the grader waits beyond a case's limit, which the runner enforces itself


@dataclass(frozen=True)
class Settings:
    """Time limits of a grading run (seconds)."""

    time_factor: float = 2.0
    """Each case may take its exercise's time limit times this factor (the grader shares the machine)."""
    setup_limit: float = 60.0
    """Reading the submission and building the cases, before any student code runs."""
    definition_limit: float = 30.0
    definitions_total: float = 120.0
    """All the definitions of a notebook, summed over the runner's restarts (each restart loads them again)."""
    cells_limit: float = 120.0
    notebook_limit: float = 600.0


@dataclass
class ExerciseResult:
    """How one exercise of one notebook was graded."""

    name: str
    max_points: float
    status: str
    cases: list[CaseResult] = field(default_factory=list)
    total: int = 0
    points: float = 0.0
    answers_used: list[str] = field(default_factory=list)
    dynamic: list[str] = field(default_factory=list)
    """Dynamic code the exercise's code uses (`exec`, `sys.modules`...): flagged for the instructor to review."""

    @property
    def passed(self) -> int:
        """Number of cases passed."""
        return sum(result.passed for result in self.cases)


@dataclass
class NotebookResult:
    """How one student's notebook of one lesson was graded."""

    student: str
    lesson: str
    status: str
    exercises: list[ExerciseResult]
    notes: list[str] = field(default_factory=list)
    """French remarks for the student (definitions that failed, cells that are not Python, files ignored)."""
    problem: str = ""
    """For a notebook that could not be graded: why, in English for the instructor."""

    @property
    def points(self) -> float:
        return sum(item.points for item in self.exercises)

    @property
    def max_points(self) -> float:
        return sum(item.max_points for item in self.exercises)


def ungraded(
    student: str, lesson: str, items: list[Exercise], status: str, problem: str = "", notes=(), seed: int | None = None
) -> NotebookResult:
    """The result of a notebook that was not run (missing, invalid or rejected): no case passed of those of `seed`."""
    exercises = [ExerciseResult(item.name, item.points, status, total=len(item.cases(seed))) for item in items]
    return NotebookResult(student, lesson, status, exercises, list(notes), problem)


# ------------------------------------------------------------ the run
class _Plan:
    """The steps still to run for one notebook, the outcomes received, and the notes for the student."""

    def __init__(self, cells: list[CodeCell], items: list[Exercise], seed: int | None, settings: Settings) -> None:
        self.chunks = definitions(cells)
        self.items = {item.name: item for item in items}
        self.prepared = {item.name: item.prepared(seed) for item in items if item.prepare}
        """Data the cases of some exercises need and only a reference makes: computed here, sent to the runner."""
        self.cases = {item.name: item.cases(seed, self.prepared.get(item.name)) for item in items}
        self.settings = settings
        self.pending: list[tuple] = []
        for item in items:
            if item.cells:
                self.pending.append(("cells", item.name))
            self.pending += [("case", item.name, index) for index in range(len(self.cases[item.name]))]
        self.skipped: set[int] = set()
        self.outcomes: dict[tuple[str, int], Outcome] = {}
        """Each case's outcome, its answer dropped once judged (`record`)."""
        self.verdicts: dict[tuple[str, int], CaseResult] = {}
        self.judging = 0.0
        """Seconds spent judging (references included): not counted in the notebook's time."""
        self.defining = 0.0
        """Seconds the runners spent loading the definitions, restarts included (`Settings.definitions_total`)."""
        self.lost: set[str] = set()
        """TIMED_OUT and CRASHED, when a definition, value cells or the whole notebook hit them."""
        self.problem = ""
        self.notes: list[str] = [
            f"la cellule {cell.index + 1} n'est pas du Python valide : ses définitions sont ignorées"
            for cell in unreadable_cells(cells)
        ]

    def steps(self) -> list[tuple]:
        chunks = [("chunk", index) for index in range(len(self.chunks)) if index not in self.skipped]
        return [("setup",), *chunks, *self.pending]

    def case_limit(self, name: str) -> float:
        """Seconds a case of exercise `name` may take (the runner stops it then)."""
        return self.items[name].time_limit * self.settings.time_factor

    def request(self, step: tuple) -> list:
        """The step as the runner reads it: a case carries its time limit."""
        return [*step, self.case_limit(step[1])] if step[0] == "case" else list(step)

    def limit(self, step: tuple) -> float:
        """Seconds the grader waits for the runner's answer to `step`."""
        if step[0] == "case":
            return self.case_limit(step[1]) + CASE_SLACK
        if step[0] == "setup":
            return self.settings.setup_limit
        return self.settings.cells_limit if step[0] == "cells" else self.settings.definition_limit

    def record(self, name: str, index: int, outcome: Outcome) -> None:
        """Judge case `index` of exercise `name` as its outcome arrives, then keep the outcome without its
        answer: a notebook's answers never pile up in the grader's memory."""
        started = time.monotonic()
        case = self.cases[name][index]
        if outcome.kind == ERROR and outcome.error == MISSING_DEFINITION:
            verdict = _missing(case.label, outcome)
        else:
            verdict = case_verdict(case, outcome, self.items[name].references, self.case_limit(name))
        self.verdicts[(name, index)] = verdict
        self.outcomes[(name, index)] = replace(outcome, value=None)
        self.judging += time.monotonic() - started

    def give_up(self, outcome: Outcome, note: str) -> None:
        """Every step left gets `outcome`."""
        for step in self.pending:
            if step[0] == "case":
                self.record(step[1], step[2], outcome)
        self.pending = []
        self.notes.append(note)

    def receive(self, step: tuple, outcome: Outcome, lost: bool) -> bool:
        """Record the outcome of `step`; True if the runner must be restarted (`lost`: it was late or died)."""
        if lost and step[0] != "case":
            self.lost.add(TIMED_OUT if outcome.kind == TIMEOUT else CRASHED)
        kind = step[0]
        if kind == "setup":
            if outcome.kind != VALUE:
                self.lost.add(CRASHED)
                reason = Outcome(ERROR, error="Correction impossible", message="le notebook n'a pas pu être chargé")
                self.give_up(reason, "le notebook n'a pas pu être préparé pour la correction")
            return outcome.kind != VALUE
        if kind == "chunk":
            where = self.chunks[step[1]].where
            if lost:
                self.skipped.add(step[1])
                why = "a dépassé le temps accordé" if outcome.kind == TIMEOUT else "a arrêté Python brutalement"
                self.notes.append(f"la définition ({where}) {why} : elle est ignorée")
            elif outcome.kind == ERROR:
                self.notes.append(f"la définition ({where}) a levé {outcome.error} : {outcome.message}"[:300])
            return lost
        if kind == "cells":
            if lost:
                for index in range(len(self.cases[step[1]])):
                    self.record(step[1], index, outcome)
                self.pending = [other for other in self.pending if other[1] != step[1]]
                self.notes.append(f"les cellules de l'exercice {step[1]} ont dépassé le temps ou se sont arrêtées")
            elif outcome.kind == ERROR:
                self.notes.append(
                    f"les cellules de l'exercice {step[1]} ont levé {outcome.error} : {outcome.message}"[:300]
                )
            if step in self.pending:
                self.pending.remove(step)
            return lost
        self.record(step[1], step[2], outcome)
        self.pending.remove(step)
        return lost


def run_plan(plan: _Plan, cells: list[CodeCell], seed: int | None, sandbox: Sandbox) -> None:
    """Run the plan's steps in runners started one after the other, until every step has an outcome."""
    started, sent = time.monotonic(), 0
    with tempfile.TemporaryDirectory(prefix="sudoku-grading-") as scratch:
        cells_file, log = Path(scratch) / "submission.json", Path(scratch) / "runner.log"
        cells_file.write_text(json.dumps([cell.as_dict() for cell in cells]), encoding="utf-8")
        sandbox.own_scratch(Path(scratch), cells_file)  # readable by this slot's sandbox user only
        while plan.pending:
            budget = plan.settings.notebook_limit - (time.monotonic() - started - plan.judging)
            if budget <= 0:
                limit = french(plan.settings.notebook_limit)
                plan.lost.add(TIMED_OUT)
                plan.give_up(
                    Outcome(TIMEOUT), f"temps total du notebook ({limit} s) dépassé : la suite n'a pas été corrigée"
                )
                break
            steps = plan.steps()
            request = {"seed": seed, "prepared": plan.prepared, "steps": [plan.request(step) for step in steps]}
            runner = sandbox.start(cells_file, request, log, sent)
            try:
                for index, step in enumerate(steps):
                    budget = plan.settings.notebook_limit - (time.monotonic() - started - plan.judging)
                    if step[0] in ("setup", "chunk"):
                        budget = min(budget, plan.settings.definitions_total - plan.defining)
                    asked = time.monotonic()
                    outcome = runner.answer(index, max(0.0, min(plan.limit(step), budget)))
                    if step[0] in ("setup", "chunk"):
                        plan.defining += time.monotonic() - asked
                    if plan.defining >= plan.settings.definitions_total:
                        total = french(plan.settings.definitions_total)
                        plan.lost.add(TIMED_OUT)
                        plan.give_up(
                            Outcome(TIMEOUT),
                            f"les définitions ont pris plus de {total} s en tout (elles sont relancées après "
                            "chaque arrêt) : la suite n'a pas été corrigée",
                        )
                        break
                    if plan.receive(step, outcome, runner.lost):
                        break
            finally:
                runner.stop()
                sent += runner.received
        if plan.lost and log.exists():
            plan.problem = log.read_text(encoding="utf-8", errors="replace")[-300:].strip()


# ------------------------------------------------------------ judging
def _missing(case_label: str, outcome: Outcome) -> CaseResult:
    names = outcome.message
    return CaseResult(case_label, ERRORED, f"{names} : introuvable dans le notebook (pas de définition qui s'exécute)")


def judge_exercise(item: Exercise, scan: Scan, plan: _Plan) -> ExerciseResult:
    """Points and status of one exercise from the verdicts on its cases."""
    keys = [(item.name, index) for index in range(len(plan.cases[item.name]))]
    outcomes = [plan.outcomes.get(key, Outcome(TIMEOUT)) for key in keys]
    found = scan.findings(item)
    result = ExerciseResult(
        item.name, item.points, OK, total=len(keys), answers_used=found.answers, dynamic=found.dynamic
    )
    if any(outcome.not_implemented for outcome in outcomes):
        result.status = NOT_DONE
    else:
        for name, index in keys:
            if (name, index) not in plan.verdicts:  # never answered: too slow
                plan.record(name, index, Outcome(TIMEOUT))
        result.cases = [plan.verdicts[key] for key in keys]
        weights = sum(case.points for case in plan.cases[item.name])
        earned = sum(
            case.points for case, verdict in zip(plan.cases[item.name], result.cases, strict=True) if verdict.passed
        )
        result.points = round(item.points * earned / weights, 2) if weights else 0.0
        if any(outcome.kind == CRASH for outcome in outcomes):
            result.status = CRASHED
        if any(verdict.verdict == TOO_SLOW for verdict in result.cases):
            result.status = TIMED_OUT
    if found.answers or found.dynamic:
        result.status, result.points = FLAGGED, 0.0
    return result


def grade_cells(
    student: str,
    lesson: str,
    cells: list[CodeCell],
    names: list[str],
    seed: int | None,
    sandbox: Sandbox,
    settings: Settings,
    notes: tuple[str, ...] = (),
) -> NotebookResult:
    """Grade the exercises `names` of one submission (its code cells) on the cases drawn from `seed`."""
    items = [exercise(name) for name in names]
    plan = _Plan(cells, items, seed, settings)
    run_plan(plan, cells, seed, sandbox)
    scan = Scan(cells)
    exercises = [judge_exercise(item, scan, plan) for item in items]
    statuses = {item.status for item in exercises} | plan.lost
    status = next((s for s in (CRASHED, TIMED_OUT) if s in statuses), OK)
    problem = f"runner: {plan.problem}" if plan.problem else ""
    return NotebookResult(student, lesson, status, exercises, [*plan.notes, *notes], problem)
