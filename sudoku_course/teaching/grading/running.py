"""The sandbox-run step: one notebook's steps sent to runners in the sandbox, each answer timed.

A runner (`runner`, in the sandbox) loads the submission's definitions and answers one step after the
other: setup, each definition, the value cells, each case. The grader waits for each answer within the
step's limit (`GradingSettings`), and hands each case's outcome to the judge as it arrives.

A case runs in a child of the runner, stopped by the runner at its time
limit: an endless loop (even in C) or a crash costs that case only. A step
that is late anyway, or that kills the runner (a definition that loops, a
runner that stops answering), costs itself only too: the runner is killed,
and a fresh one loads the definitions again (without the definition at
fault, if it was one) and goes on with the next step. The notebook as a whole is bounded too
(`notebook_limit`), and so are its definitions summed over the restarts
(`definitions_total`): what is left when either is spent counts as too slow.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import Counter
from pathlib import Path

from ..exercises.common import french
from ..isolation import CRASH, ERROR, TIMEOUT, VALUE, Outcome
from .judging import Judge
from .results import CRASHED, TIMED_OUT
from .sandbox import Sandbox
from .scan import Reading
from .settings import GradingSettings


class SandboxSession:
    """The steps still to run for one notebook, the restarts, and the notes for the student; each case's
    outcome goes to the judge as it arrives."""

    def __init__(self, code: Reading, judge: Judge, settings: GradingSettings) -> None:
        self.places = code.places
        self.judge = judge
        self.settings = settings
        self.pending: list[tuple] = []
        for item in judge.items.values():
            if item.cells:
                self.pending.append(("cells", item.name))
            self.pending += [("case", item.name, index) for index in range(len(judge.cases[item.name]))]
        self.skipped: set[int] = set()
        self.timeouts: Counter[str] = Counter()
        """Cases of each exercise that ran out of time."""
        self.setup_retried = False
        self.defining = 0.0
        """Seconds the runners spent loading the definitions, restarts included (`definitions_total`)."""
        self.lost: set[str] = set()
        """TIMED_OUT and CRASHED, when a definition, value cells or the whole notebook hit them."""
        self.problem = ""
        self.notes: list[str] = list(code.notes)

    def steps(self) -> list[tuple]:
        chunks = [("chunk", index) for index in range(len(self.places)) if index not in self.skipped]
        return [("setup",), *chunks, *self.pending]

    def request(self, step: tuple) -> list:
        """The step as the runner reads it: a case carries its time limit."""
        return [*step, self.judge.case_limit(step[1])] if step[0] == "case" else list(step)

    def limit(self, step: tuple) -> float:
        """Seconds the grader waits for the runner's answer to `step`."""
        if step[0] == "case":
            return self.judge.case_limit(step[1]) + self.settings.case_slack
        if step[0] == "setup":
            return self.settings.setup_limit
        return self.settings.cells_limit if step[0] == "cells" else self.settings.definition_limit

    def _set_up(self, outcome: Outcome) -> bool:
        """Record the outcome of the setup (no student code runs there); True if the runner must be restarted.

        A setup that crashed (the sandbox could not start: a fork that failed for want of processes, say) is
        tried once more, on a slot that the stop of the runner left clean; a second failure gives up."""
        if outcome.kind == VALUE:
            return False
        if outcome.kind == CRASH and not self.setup_retried:
            self.setup_retried = True
            return True
        self.lost.add(TIMED_OUT if outcome.kind == TIMEOUT else CRASHED)
        reason = Outcome(ERROR, error="Correction impossible", message="le notebook n'a pas pu être chargé")
        self.give_up(reason, "le notebook n'a pas pu être préparé pour la correction")
        return True

    def give_up(self, outcome: Outcome, note: str) -> None:
        """Every step left gets `outcome`."""
        for step in self.pending:
            if step[0] == "case":
                self.judge.record(step[1], step[2], outcome)
        self.pending = []
        self.notes.append(note)

    def receive(self, step: tuple, outcome: Outcome, lost: bool) -> bool:
        """Record the outcome of `step`; True if the runner must be restarted (`lost`: it was late or died)."""
        kind = step[0]
        if kind == "setup":
            return self._set_up(outcome)
        if lost and kind != "case":
            self.lost.add(TIMED_OUT if outcome.kind == TIMEOUT else CRASHED)
        if kind == "chunk":
            where = self.places[step[1]]
            if lost:
                self.skipped.add(step[1])
                why = "a dépassé le temps accordé" if outcome.kind == TIMEOUT else "a arrêté Python brutalement"
                self.notes.append(f"la définition ({where}) {why} : elle est ignorée")
            elif outcome.kind == ERROR:
                self.notes.append(f"la définition ({where}) a levé {outcome.error} : {outcome.message}"[:300])
            return lost
        if kind == "cells":
            if lost:
                for index in range(len(self.judge.cases[step[1]])):
                    self.judge.record(step[1], index, outcome)
                self.pending = [other for other in self.pending if other[1] != step[1]]
                self.notes.append(f"les cellules de l'exercice {step[1]} ont dépassé le temps ou se sont arrêtées")
            elif outcome.kind == ERROR:
                self.notes.append(
                    f"les cellules de l'exercice {step[1]} ont levé {outcome.error} : {outcome.message}"[:300]
                )
            if step in self.pending:
                self.pending.remove(step)
            return lost
        self.judge.record(step[1], step[2], outcome)
        self.pending.remove(step)
        too_slow = outcome.kind == TIMEOUT and self._too_slow(step[1])
        return lost or too_slow

    def _too_slow(self, name: str) -> bool:
        """After `timeouts_per_exercise` cases of exercise `name` ran out of time, its other cases are not run
        (each would likely wait its whole limit too): True if the runner must be restarted without them."""
        self.timeouts[name] += 1
        left = [step for step in self.pending if step[0] == "case" and step[1] == name]
        if self.timeouts[name] < self.settings.timeouts_per_exercise or not left:
            return False
        for step in left:
            self.judge.skip(name, step[2])
            self.pending.remove(step)
        self.notes.append(
            f"l'exercice {name} : {self.timeouts[name]} cas ont dépassé le temps accordé, ses {len(left)} autres cas "
            "n'ont pas été lancés (comptés comme échoués)"
        )
        return True


def run_in_sandbox(
    code: Reading, judge: Judge, seed: int | None, sandbox: Sandbox, spent: float = 0.0
) -> SandboxSession:
    """Run the notebook's steps in runners started one after the other, until every step has an outcome;
    `spent`: seconds of the notebook's time limit already spent (reading it)."""
    session = SandboxSession(code, judge, sandbox.settings)
    started, sent = time.monotonic() - spent, 0
    with tempfile.TemporaryDirectory(prefix="sudoku-grading-") as scratch:
        cells_file, log = Path(scratch) / "submission.json", Path(scratch) / "runner.log"
        cells_file.write_text(json.dumps([cell.as_dict() for cell in code.cells]), encoding="utf-8")
        sandbox.own_scratch(Path(scratch), cells_file)  # readable by this slot's sandbox user only
        while session.pending:
            budget = session.settings.notebook_limit - (time.monotonic() - started - session.judge.seconds)
            if budget <= 0:
                limit = french(session.settings.notebook_limit)
                session.lost.add(TIMED_OUT)
                session.give_up(
                    Outcome(TIMEOUT), f"temps total du notebook ({limit} s) dépassé : la suite n'a pas été corrigée"
                )
                break
            steps = session.steps()
            request = {
                "seed": seed,
                "prepared": judge.prepared,
                "lessons": judge.lessons,
                "steps": [session.request(step) for step in steps],
            }
            runner = sandbox.start(cells_file, request, log, sent)
            try:
                for index, step in enumerate(steps):
                    budget = session.settings.notebook_limit - (time.monotonic() - started - session.judge.seconds)
                    if step[0] in ("setup", "chunk"):
                        budget = min(budget, session.settings.definitions_total - session.defining)
                    asked = time.monotonic()
                    outcome = runner.answer(index, max(0.0, min(session.limit(step), budget)))
                    if step[0] in ("setup", "chunk"):
                        session.defining += time.monotonic() - asked
                    if session.defining >= session.settings.definitions_total:
                        total = french(session.settings.definitions_total)
                        session.lost.add(TIMED_OUT)
                        session.give_up(
                            Outcome(TIMEOUT),
                            f"les définitions ont pris plus de {total} s en tout (elles sont relancées après "
                            "chaque arrêt) : la suite n'a pas été corrigée",
                        )
                        break
                    if session.receive(step, outcome, runner.lost):
                        break
            finally:
                runner.stop()
                sent += runner.received
        if session.lost and log.exists():
            session.problem = log.read_text(encoding="utf-8", errors="replace")[-300:].strip()
    return session
