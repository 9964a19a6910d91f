"""What grading a notebook gives: the status and points of each exercise, and of the notebook."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..checks import CaseResult
from ..exercises import Exercise

# Status of a notebook, or of one exercise in it.
OK, TIMED_OUT, CRASHED, NOT_DONE, FLAGGED = "ok", "timeout", "crash", "not-done", "flagged"
INVALID, MISSING, REJECTED = "invalid-notebook", "missing", "rejected"


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
    seconds: float = 0.0
    """Wall time spent grading it (0 for a notebook not run)."""

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
