"""The points step: each exercise's points and status from the verdicts on its cases and the scan's findings.

A student earns an exercise's points (those of its public cases) times the share of the hidden cases'
points passed; an exercise still a stub is not done; a case that crashed or ran too long marks the exercise;
an exercise whose code uses an answer or dynamic code is flagged and earns nothing.
"""

from __future__ import annotations

from ..checks import TOO_SLOW
from ..exercises import Exercise
from ..isolation import CRASH
from .judging import Judge
from .results import CRASHED, FLAGGED, NOT_DONE, OK, TIMED_OUT, ExerciseResult, NotebookResult
from .running import SandboxSession
from .scan import Findings


def score(item: Exercise, judge: Judge, found: Findings) -> ExerciseResult:
    """Points and status of one exercise."""
    outcomes = judge.outcomes_of(item.name)
    result = ExerciseResult(
        item.name, item.points, OK, total=len(outcomes), answers_used=found.answers, dynamic=found.dynamic
    )
    if any(outcome.not_implemented for outcome in outcomes):
        result.status = NOT_DONE
    else:
        result.cases = judge.verdicts_of(item.name)
        cases = judge.cases[item.name]
        weights = sum(case.points for case in cases)
        earned = sum(case.points for case, verdict in zip(cases, result.cases, strict=True) if verdict.passed)
        result.points = round(item.points * earned / weights, 2) if weights else 0.0
        if any(outcome.kind == CRASH for outcome in outcomes):
            result.status = CRASHED
        if any(verdict.verdict == TOO_SLOW for verdict in result.cases):
            result.status = TIMED_OUT
    if found.answers or found.dynamic:
        result.status, result.points = FLAGGED, 0.0
    return result


def notebook_result(
    student: str, lesson: str, exercises: list[ExerciseResult], session: SandboxSession, notes: tuple[str, ...] = ()
) -> NotebookResult:
    """The notebook's result: its exercises, a crash or a timeout if any step or exercise had one, the notes."""
    statuses = {item.status for item in exercises} | session.lost
    status = next((s for s in (CRASHED, TIMED_OUT) if s in statuses), OK)
    problem = f"runner: {session.problem}" if session.problem else ""
    return NotebookResult(student, lesson, status, exercises, [*session.notes, *notes], problem)
