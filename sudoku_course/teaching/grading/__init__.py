"""Grade a class: each submission runs sandboxed, its outputs are judged here, points and feedback are written.

    python -m sudoku_course.teaching.grading SUBMISSIONS --master solutions --jobs 2

(what `make grade SUBMISSIONS=dir/` calls; also `sudoku-course grade`)
grades `SUBMISSIONS/<student>/<NN-name>.ipynb` against the exercises that the
registry (`sudoku_course.teaching.exercises`) describes for lesson `NN-name`.

The pipeline, like a list of preprocessors: `grade` runs steps 1, 2 and 7 once
and `grade_notebook` steps 3 to 6 for each notebook, the solutions first.

1. read (`reading.read_class`): the student folders and the lessons handed
   in, trusting nothing (links, sizes, names, any nbformat);
2. hash masters (`reading.read_masters`): each solution notebook is read and
   hashed once, then graded like a submission on its public cases
   (`check_masters`): it must earn every point, or the run stops (registry
   and solutions out of step);
3. scan (`scan`): what each exercise's code uses; a package answer or
   dynamic code flags the exercise (no points, for the instructor to review);
4. sandbox run (`running`, `sandbox`, `runner`): a plain Python process in
   bubblewrap runs the submission's definitions only (`program`) and answers
   each case with plain data; the package it sees holds no reference answer
   (`view`). Hidden cases come from a seed per student (`secret`);
5. judge (`judging`): each answer is judged here, in the grader's process, as
   it arrives;
6. points (`points`): each exercise's points and status;
7. reports (`reports`): `grades.csv`, `gradebook.csv`,
   `feedback/<student>/<NN-name>.html`, and `grading-report.txt`.

Every limit of a run is in one object (`settings.GradingSettings`), printed at
the start of the report; `plan` runs the notebooks `jobs` at a time.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Sequence
from pathlib import Path

from ...messages import print_error
from ..exercises import Exercise, exercise
from ..exercises.common import french
from ..isolation import TIMEOUT, Outcome
from .judging import Judge
from .plan import GradingPlan, Task, master_tasks, run_tasks, student_tasks
from .points import notebook_result, score
from .reading import GradingError, Master, Student, passed_record, read_class, read_masters, student_labels
from .reports import Console, Outputs, flag_reason, notebook_line, write_reports
from .results import CRASHED, FLAGGED, INVALID, MISSING, REJECTED, TIMED_OUT, NotebookResult, ungraded
from .running import run_in_sandbox
from .sandbox import Sandbox, SandboxUnavailable, course_folder, probe
from .scan import scan_notebook
from .secret import SECRET_ENV, course_secret, student_seed
from .settings import GradingSettings
from .view import package_view

NO_SANDBOX_WARNING = (
    "WARNING: graded WITHOUT a sandbox (--no-sandbox): student code ran as this user, "
    "with access to every file this user can read or write; do not trust these grades blindly"
)


# ------------------------------------------------------------ the pipeline
def grade(
    submissions_dir: Path | str,
    master_dir: Path | str = "solutions",
    out_csv: Path | str = "grades.csv",
    *,
    gradebook: Path | str | None = None,
    feedback: Path | str | None = None,
    jobs: int = 1,
    sandboxed: bool = True,
    secret_file: Path | str | None = None,
    settings: GradingSettings | None = None,
    progress: bool | None = None,
) -> list[NotebookResult]:
    """Grade every student folder of `submissions_dir` (see the module); the results, one per student and lesson."""
    submissions_dir, master_dir = Path(submissions_dir), Path(master_dir)
    settings = settings or GradingSettings()
    outputs = Outputs.beside(Path(out_csv), gradebook and Path(gradebook), feedback and Path(feedback))
    say = Console()
    for line in settings.describe():
        say(line)
    students, lessons = read_class(submissions_dir, master_dir, say)  # 1. read
    labels, warnings = student_labels(students)
    for warning in warnings:
        say(f"WARNING: {warning}")
    masters = read_masters(lessons, say)  # 2. hash masters
    secret, secret_path, message = course_secret(
        Path(secret_file) if secret_file else None, [course_folder(), submissions_dir, master_dir]
    )
    say(message)
    hidden = [course_folder(), submissions_dir, master_dir, *outputs.folders(), Path.cwd(), Path.home(), secret_path]
    with package_view() as package:
        plan = GradingPlan(start_sandbox(hidden, sandboxed, settings, package, say), max(1, jobs), progress)
        check_masters(masters, plan, say)  # 2. the masters, graded like submissions
        results = grade_students(plan, masters, students, secret, labels, say)  # 3 to 6, per notebook
    write_reports(results, masters, students, labels, outputs, say)  # 7. reports
    if not sandboxed:
        say(NO_SANDBOX_WARNING)
    say.save(outputs.report)
    return results


def grade_notebook(task: Task, plan: GradingPlan) -> NotebookResult:
    """Steps 3 to 6 for one notebook: scan, sandbox run (each answer judged as it arrives), points."""
    items = [exercise(name) for name in task.names]
    started = time.monotonic()
    code = scan_notebook(task.cells, items, plan.settings.notebook_limit)  # 3. scan, in a child process
    if isinstance(code, Outcome):
        return unread(task, items, code, plan.settings)
    judge = Judge(items, task.seed, plan.settings)  # 5. judge, fed by the sandbox run
    session = run_in_sandbox(code, judge, task.seed, plan.sandbox, time.monotonic() - started)  # 4. sandbox run
    exercises = [score(item, judge, code.findings[item.name]) for item in items]  # 6. points
    return notebook_result(task.student, task.lesson, exercises, session, task.notes)


def unread(task: Task, items: list[Exercise], outcome: Outcome, settings: GradingSettings) -> NotebookResult:
    """The result of a notebook whose text could not be read within the notebook's time limit (or at all)."""
    if outcome.kind == TIMEOUT:
        limit = french(settings.notebook_limit)
        status, problem = TIMED_OUT, f"reading the notebook took more than {settings.notebook_limit:g} s"
        note = f"la lecture du notebook a dépassé le temps accordé ({limit} s) : il n'a pas été corrigé"
    else:
        status, problem = CRASHED, f"reading the notebook failed: {outcome.error} {outcome.message}".strip()
        note = "le notebook n'a pas pu être lu pour la correction : il n'a pas été corrigé"
    return ungraded(task.student, task.lesson, items, status, problem, (note, *task.notes), task.seed)


# ------------------------------------------------------------ the sandbox, the masters' self-check, the students
def start_sandbox(
    hidden: list[Path | None], sandboxed: bool, settings: GradingSettings, package: Path, say: Console
) -> Sandbox:
    """The sandbox of the run, hiding `hidden` and showing `package` (the copy without the references), checked
    to start here; without it (`--no-sandbox`), a plain child process, said on the console."""
    sandbox = Sandbox(tuple(path for path in hidden if path), sandboxed, settings, package)
    if not sandboxed:
        say(NO_SANDBOX_WARNING)
        return sandbox
    try:
        probe(sandbox)
    except SandboxUnavailable as error:
        raise GradingError(f"{error}; to grade without a sandbox anyway, pass --no-sandbox") from None
    return sandbox


def check_masters(masters: list[Master], plan: GradingPlan, say: Console) -> None:
    """Grade each solution on its public cases; GradingError unless it earns every point, using no answer
    (a solution that uses what `Exercise.answers` lists would get every honest student flagged).

    A solution that passed in an earlier run, the same notebook with the same course and limits
    (`reading.passed_record`), is not graded again."""
    limits = f"sandboxed={plan.sandbox.enabled} {plan.settings!r}"
    records = {master.lesson: passed_record(master, limits) for master in masters}
    checked = [master for master in masters if records[master.lesson].exists()]
    for master in checked:
        say(f"master {master.path.name}: passed its own cases in an earlier run (same notebook, course and limits)")
    unchecked = [master for master in masters if master not in checked]
    quiet = GradingPlan(plan.sandbox, plan.jobs, progress=False)
    failures = []
    for result in run_tasks(master_tasks(unchecked), quiet, grade_notebook, lambda result: None):
        for item in result.exercises:
            if item.status == FLAGGED:
                failures.append(f"{result.lesson} {flag_reason(item)}")
            elif item.points != item.max_points:
                failures.append(f"{result.lesson} {item.name}: {item.passed}/{item.total} cases, status {item.status}")
        if result.problem:
            failures.append(f"{result.lesson}: {result.problem}")
    if failures:
        raise GradingError(
            "the solution notebooks must pass their own cases, without using the answers:\n  " + "\n  ".join(failures)
        )
    for master in unchecked:
        with contextlib.suppress(OSError):  # without a writable cache, the next run checks them again
            records[master.lesson].parent.mkdir(parents=True, exist_ok=True)
            records[master.lesson].touch()


def grade_students(
    plan: GradingPlan,
    masters: list[Master],
    students: list[Student],
    secret: bytes,
    labels: dict[str, str],
    say: Console,
) -> list[NotebookResult]:
    """Grade every student's notebooks on their own hidden cases; the results, in the students' order."""
    planned = [item for s in students for item in student_tasks(s, masters, student_seed(secret, s.name))]
    tasks = [item for item in planned if isinstance(item, Task)]
    graded = iter(
        run_tasks(tasks, plan, grade_notebook, lambda result: say(notebook_line(result, labels[result.student])))
    )
    results = [next(graded) if isinstance(item, Task) else item for item in planned]
    for result in results:
        if result.status in (MISSING, INVALID, REJECTED):
            say(notebook_line(result, labels[result.student]))
    return results


# ------------------------------------------------------------ command line
def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the grader's options to `parser` (also used by `sudoku-course grade`)."""
    parser.add_argument("submissions", type=Path, help="folder holding one folder per student")
    parser.add_argument("--master", type=Path, default=Path("solutions"), help="solutions (default: solutions)")
    parser.add_argument("--out", type=Path, default=Path("grades.csv"), help="long CSV (default: grades.csv)")
    parser.add_argument("--gradebook", type=Path, help="one row per student (default: gradebook.csv beside --out)")
    parser.add_argument("--feedback", type=Path, help="feedback folder (default: feedback/ beside --out)")
    parser.add_argument("--jobs", type=int, default=1, help="notebooks graded at the same time (default: 1)")
    parser.add_argument("--secret-file", type=Path, help=f"course secret (default: ${SECRET_ENV}, ~/.config/...)")
    parser.add_argument("--no-sandbox", action="store_true", help="run student code without bubblewrap (unsafe)")
    defaults = GradingSettings()
    parser.add_argument("--time-factor", type=float, default=defaults.time_factor, help="times each case's limit")
    parser.add_argument("--notebook-timeout", type=float, default=defaults.notebook_limit, help="seconds per notebook")
    memory = defaults.memory_mb
    parser.add_argument("--memory-mb", type=int, default=memory, help=f"memory per run (default: {memory})")
    return parser


def run(args: argparse.Namespace) -> int:
    """Grade with parsed options; 0 when everything is written, 2 if grading cannot start."""
    settings = GradingSettings(
        time_factor=args.time_factor, notebook_limit=args.notebook_timeout, memory_mb=args.memory_mb
    )
    try:
        grade(
            args.submissions,
            args.master,
            args.out,
            gradebook=args.gradebook,
            feedback=args.feedback,
            jobs=args.jobs,
            sandboxed=not args.no_sandbox,
            secret_file=args.secret_file,
            settings=settings,
        )
    except GradingError as error:
        print_error(error)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: python -m sudoku_course.teaching.grading SUBMISSIONS [options]."""
    parser = argparse.ArgumentParser(
        prog="python -m sudoku_course.teaching.grading", description=__doc__.split("\n")[0]
    )
    return run(add_arguments(parser).parse_args(argv))
