"""The judge step: each case's verdict, computed in the grader's process as the runner's answer arrives.

The runner (in the sandbox) only computes. Here, away from the student's code, each case's plain output is
judged (`checks.case_verdict`: the case's judge, then the agreement with the reference output
`Case.call(*references)`), and the answer is dropped at once: a notebook's answers never pile up in the
grader's memory. The cases are built here from the student's seed, as the runner builds them; the data that
only a reference makes (`Exercise.prepare`) is computed here and sent to the runner with the request.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..checks import ERRORED, NOT_RUN, CaseResult, case_verdict
from ..exercises import Case, Exercise
from ..isolation import ERROR, TIMEOUT, Outcome
from .runner import MISSING_DEFINITION
from .settings import GradingSettings

SKIPPED_DETAIL = "non lancé : d'autres cas de cet exercice ont dépassé le temps accordé"


class Judge:
    """The cases of one notebook's exercises, and the verdict on each as its outcome arrives."""

    def __init__(self, items: list[Exercise], seed: int | None, settings: GradingSettings) -> None:
        self.items = {item.name: item for item in items}
        self.settings = settings
        self.prepared = {item.name: item.prepared(seed) for item in items if item.prepare}
        """Data the cases of some exercises need and only a reference makes: the runner receives it."""
        self.lessons = sorted({item.reference_module.rpartition(".")[0] for item in items})
        """The registry's packages holding these exercises (each lesson's package holds its `references`): the
        runner imports these only."""
        self.cases: dict[str, list[Case]] = {
            item.name: item.cases(seed, self.prepared.get(item.name)) for item in items
        }
        self.outcomes: dict[tuple[str, int], Outcome] = {}
        """Each case's outcome, its answer dropped once judged (`record`)."""
        self.verdicts: dict[tuple[str, int], CaseResult] = {}
        self.seconds = 0.0
        """Seconds spent judging (references included): not counted in the notebook's time."""

    def case_limit(self, name: str) -> float:
        """Seconds a case of exercise `name` may take (the runner stops it then)."""
        return self.settings.case_limit(self.items[name])

    def record(self, name: str, index: int, outcome: Outcome) -> None:
        """Judge case `index` of exercise `name` from its outcome, then keep the outcome without its answer."""
        started = time.monotonic()
        case = self.cases[name][index]
        if outcome.kind == ERROR and outcome.error == MISSING_DEFINITION:
            verdict = _missing(case.label, outcome)
        else:
            verdict = case_verdict(case, outcome, self.items[name].references, self.case_limit(name))
        self.verdicts[(name, index)] = verdict
        self.outcomes[(name, index)] = replace(outcome, value=None)
        self.seconds += time.monotonic() - started

    def skip(self, name: str, index: int) -> None:
        """Case `index` of exercise `name` is not run (earlier cases of the exercise ran out of time)."""
        case = self.cases[name][index]
        self.verdicts[(name, index)] = CaseResult(case.label, NOT_RUN, SKIPPED_DETAIL)
        self.outcomes[(name, index)] = Outcome(TIMEOUT)

    def outcomes_of(self, name: str) -> list[Outcome]:
        """The outcome of each case of exercise `name` (TIMEOUT for a case never answered)."""
        return [self.outcomes.get((name, index), Outcome(TIMEOUT)) for index in range(len(self.cases[name]))]

    def verdicts_of(self, name: str) -> list[CaseResult]:
        """The verdict on each case of exercise `name`; a case never answered is judged too slow."""
        for index in range(len(self.cases[name])):
            if (name, index) not in self.verdicts:
                self.record(name, index, Outcome(TIMEOUT))
        return [self.verdicts[(name, index)] for index in range(len(self.cases[name]))]


def _missing(case_label: str, outcome: Outcome) -> CaseResult:
    names = outcome.message
    return CaseResult(case_label, ERRORED, f"{names} : introuvable dans le notebook (pas de définition qui s'exécute)")
