"""How a grading run is carried out: its plan (sandbox, settings, jobs), its tasks (one per notebook), and the
workers that grade them, `jobs` at a time."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from ...progress import progress_bar
from ..exercises import lesson_exercises
from .program import CodeCell
from .reading import Master, Rejected, Student, Unreadable, printable, read_submission
from .results import CRASHED, INVALID, MISSING, REJECTED, NotebookResult, ungraded
from .sandbox import Sandbox
from .settings import GradingSettings

MASTER_STUDENT = "(solutions)"


@dataclass(frozen=True)
class Task:
    """One notebook to grade: whose, which lesson, its code cells, the exercises to grade, the seed of its cases."""

    student: str
    lesson: str
    cells: list[CodeCell]
    names: list[str]
    seed: int | None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class GradingPlan:
    """How every task of one grading run is carried out: in which sandbox, with which limits, how many at once."""

    sandbox: Sandbox
    jobs: int = 1
    progress: bool | None = None

    @property
    def settings(self) -> GradingSettings:
        """Every limit of the run (the sandbox's)."""
        return self.sandbox.settings


Grader = Callable[[Task, GradingPlan], NotebookResult]


def master_tasks(masters: Sequence[Master]) -> list[Task]:
    """Each solution notebook as a submission, graded on the public cases of every exercise of its lesson."""
    return [
        Task(MASTER_STUDENT, m.lesson, m.cells, [e.name for e in lesson_exercises(m.lesson)], None) for m in masters
    ]


def student_tasks(student: Student, masters: Sequence[Master], seed: int) -> list[Task | NotebookResult]:
    """A task per lesson handed in; for a lesson missing, rejected or unreadable, its result at once."""
    expected = ", ".join(f"{master.lesson}.ipynb" for master in masters)
    notes = tuple(
        f"fichier ignoré : « {printable(name)} » ne correspond à aucun notebook du cours (noms attendus : {expected})"
        for name in student.unknown
    )
    tasks: list[Task | NotebookResult] = []
    for master in masters:
        items = lesson_exercises(master.lesson)
        if master.lesson not in student.notebooks and student.rejected is None:
            tasks.append(ungraded(student.name, master.lesson, items, MISSING, notes=notes, seed=seed))
            continue
        try:
            cells = read_submission(student, master.lesson)
        except Rejected as error:
            status = INVALID if isinstance(error, Unreadable) else REJECTED
            reason = (error.raison, *notes)
            tasks.append(ungraded(student.name, master.lesson, items, status, str(error), reason, seed))
            continue
        tasks.append(Task(student.name, master.lesson, cells, [item.name for item in items], seed, notes))
    return tasks


def _graded(grade: Grader, task: Task, plan: GradingPlan) -> NotebookResult:
    """`grade(task, plan)`, timed; an error of the grader itself is reported as a crash of that notebook only."""
    started = time.monotonic()
    try:
        result = grade(task, plan)
    except Exception as error:  # the grader's own failure must not lose the other rows
        items = [item for item in lesson_exercises(task.lesson) if item.name in task.names]
        problem = f"grader error: {type(error).__name__}: {error}"
        result = ungraded(task.student, task.lesson, items, CRASHED, problem, task.notes, task.seed)
    result.seconds = time.monotonic() - started
    return result


def run_tasks(
    tasks: Sequence[Task], plan: GradingPlan, grade: Grader, report: Callable[[NotebookResult], None]
) -> list[NotebookResult]:
    """Grade every task with `grade`, `plan.jobs` at a time, with a progress bar; results in the order of the tasks."""
    if not tasks:
        return []
    results: dict[int, NotebookResult] = {}
    if plan.jobs <= 1:
        for index, task in progress_bar(enumerate(tasks), total=len(tasks), desc="correction", progress=plan.progress):
            results[index] = _graded(grade, task, plan)
            report(results[index])
    else:
        # each worker is a job slot: it grades one notebook at a time, as a sandbox user of its own (`sandbox_uid`)
        with ProcessPoolExecutor(plan.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = {pool.submit(_graded, grade, task, plan): i for i, task in enumerate(tasks)}
            for future in progress_bar(
                as_completed(futures), total=len(tasks), desc="correction", progress=plan.progress
            ):
                results[futures[future]] = future.result()
                report(results[futures[future]])
    return [results[index] for index in range(len(tasks))]
