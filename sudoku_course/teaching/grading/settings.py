"""Every limit of a grading run, in one object, printed at the start of the grading report.

Times bound the steps the grader waits for (a case also gets its exercise's own time limit, from the
registry, times `time_factor`); resources bound each runner process in the sandbox (`sandbox.apply_limits`)
and what the grader reads of its answers (`sandbox.RunnerProcess`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..exercises import Exercise


@dataclass(frozen=True)
class GradingSettings:
    """The limits of one grading run (seconds, megabytes, processes)."""

    time_factor: float = 2.0
    """Each case may take its exercise's time limit times this factor (the grader shares the machine)."""
    case_slack: float = 3.0
    """Seconds the grader waits beyond a case's limit, which the runner enforces itself."""
    setup_limit: float = 60.0
    """Reading the submission and building the cases, before any student code runs."""
    definition_limit: float = 30.0
    definitions_total: float = 120.0
    """All the definitions of a notebook, summed over the runner's restarts (each restart loads them again)."""
    cells_limit: float = 120.0
    """The cells of an exercise whose answer is a value."""
    notebook_limit: float = 600.0
    timeouts_per_exercise: int = 2
    """Cases of an exercise that may run out of time before its other cases are not run (counted as failed):
    an endless loop would otherwise cost each case its whole limit, as in the check cells (which stop at one)."""
    memory_mb: int = 2048
    """Address space of a runner process; also the memory of a job slot's cgroup, where cgroups are writable."""
    cpu_seconds: int = 900
    file_size_mb: int = 64
    scratch_mb: int = 256
    """The runner's private /tmp."""
    answer_mb: int = 2
    """One answer (one case, one step)."""
    output_mb: int = 32
    """Answers one notebook may send in all, across restarts."""
    processes: int = 32
    """Processes (threads count too) of the sandbox's own user, applied only when the grader runs as root;
    also the cgroup's pids limit where cgroups are writable."""

    def case_limit(self, item: Exercise) -> float:
        """Seconds a case of `item` may take (the runner stops it then)."""
        return item.time_limit * self.time_factor

    def describe(self, items: Sequence[Exercise] = ()) -> list[str]:
        """The limits as the report's first lines (the range of the exercises' own case limits when given)."""
        limits = sorted({item.time_limit for item in items})
        own = f"{limits[0]:g} to {limits[-1]:g} s" if limits else "its exercise's limit"
        return [
            f"time limits: each case {own} x {self.time_factor:g} (+{self.case_slack:g} s for the "
            f"runner to answer); setup {self.setup_limit:g} s; each definition {self.definition_limit:g}"
            f" s, all definitions of a notebook {self.definitions_total:g} s across restarts; value cells "
            f"{self.cells_limit:g} s; each notebook {self.notebook_limit:g} s; an exercise's other cases are not run "
            f"after {self.timeouts_per_exercise} of its cases ran out of time",
            f"runner limits: memory {self.memory_mb} MB, CPU {self.cpu_seconds} s, files written {self.file_size_mb}"
            f" MB, /tmp {self.scratch_mb} MB, answers {self.answer_mb} MB each and {self.output_mb} MB per notebook, "
            f"{self.processes} processes (a root grader)",
        ]
