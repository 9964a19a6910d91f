"""Grade a class: each submission runs sandboxed, its outputs are judged here, points and feedback are written.

    python -m sudoku_course.teaching.grading SUBMISSIONS --master solutions --jobs 2

(what `make grade SUBMISSIONS=dir/` calls; also `sudoku-course grade`)
grades `SUBMISSIONS/<student>/<NN-name>.ipynb` against the exercises that the
registry (`sudoku_course.teaching.exercises`) describes for lesson `NN-name`:

1. The solution notebooks are read and hashed once; each lesson handed in is
   first graded on its own solution (public cases), which must earn every
   point: a registry and solutions that disagree stop the run.
2. Each student's notebook runs in a sandbox (`sandbox`): a plain Python
   process (`runner`) executes its definitions only (`program`) and answers
   each case of each exercise with plain data. The grader times each step,
   computes the reference outputs and judges (`judging`). Hidden cases come
   from a seed per student: HMAC-SHA256(course secret, student folder name).
3. A submission whose code for an exercise uses the package's answer to it,
   or dynamic code (`exec`, `sys.modules`, frame walking...: see `scan`),
   earns no points for that exercise (flagged, for the instructor to review).
4. `grades.csv`, `gradebook.csv` and `feedback/<student>/<NN-name>.html` are
   written (`reports`), with a copy of the console report in
   `grading-report.txt`.

The course secret: `--secret-file FILE`, else the environment variable
`SUDOKU_COURSE_SECRET` (the secret itself) or `SUDOKU_COURSE_SECRET_FILE`,
else `~/.config/sudoku-course/grading-secret`, created on first use. Keep
it outside the course folder and the submissions: the same secret gives
every student the same cases again.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import multiprocessing
import os
import secrets
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from ...progress import progress_bar
from ..exercises import lesson_exercises
from .judging import (
    CRASHED,
    FLAGGED,
    INVALID,
    MISSING,
    OK,
    REJECTED,
    ExerciseResult,
    NotebookResult,
    Settings,
    grade_cells,
    ungraded,
)
from .program import CodeCell
from .reading import (
    Master,
    Rejected,
    Student,
    Unreadable,
    find_students,
    printable,
    read_master,
    read_submission,
    sha256,
)
from .reports import write_atomically, write_feedback, write_tables
from .sandbox import Limits, Sandbox, SandboxUnavailable, course_folder, probe, remove_cgroups, take_slot
from .view import package_view

SECRET_ENV = "SUDOKU_COURSE_SECRET"
SECRET_FILE_ENV = "SUDOKU_COURSE_SECRET_FILE"
DEFAULT_SECRET_FILE = Path("~/.config/sudoku-course/grading-secret")
MASTER_STUDENT = "(solutions)"
NO_SANDBOX_WARNING = (
    "WARNING: graded WITHOUT a sandbox (--no-sandbox): student code ran as this user, "
    "with access to every file this user can read or write; do not trust these grades blindly"
)


class GradingError(RuntimeError):
    """The grading cannot start: no solutions, no sandbox, a registry that its solutions do not pass."""


# ------------------------------------------------------------ the secret
def _inside_any(path: Path, folders: Iterable[Path]) -> bool:
    path = path.resolve()
    return any(path == f.resolve() or f.resolve() in path.parents for f in folders)


def course_secret(secret_file: Path | None, forbidden: Sequence[Path]) -> tuple[bytes, Path | None, str]:
    """The course secret, the file it comes from (None: the environment), and what to tell the instructor."""
    if secret_file is None and os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV].encode(), None, f"course secret: from {SECRET_ENV}"
    path = secret_file or Path(os.environ.get(SECRET_FILE_ENV) or DEFAULT_SECRET_FILE).expanduser()
    if _inside_any(path, forbidden):
        raise GradingError(f"the secret file {path} must be kept outside the course folder and the submissions")
    if path.is_file():
        secret = path.read_bytes().strip()
        if not secret:
            raise GradingError(f"the secret file {path} is empty")
        return secret, path, f"course secret: {path}"
    if secret_file is not None or os.environ.get(SECRET_FILE_ENV):
        raise GradingError(f"no secret file {path}")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="ascii") as file:
        file.write(secrets.token_hex(32) + "\n")
    return path.read_bytes().strip(), path, f"course secret: created {path} (keep it: it decides the hidden cases)"


def student_seed(secret: bytes, student: str) -> int:
    """The seed of a student's hidden cases: HMAC-SHA256(secret, folder name), as a 63-bit integer."""
    digest = hmac.new(secret, os.fsencode(student), hashlib.sha256).digest()  # a name that is not UTF-8 too
    return int.from_bytes(digest[:8], "big") >> 1


# ------------------------------------------------------------ the tasks
@dataclass(frozen=True)
class Task:
    """One notebook to grade."""

    student: str
    lesson: str
    cells: list[CodeCell]
    names: list[str]
    seed: int | None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Run:
    """How every task of this grading is run."""

    sandbox: Sandbox
    settings: Settings
    jobs: int = 1
    progress: bool | None = None


def grade_task(task: Task, sandbox: Sandbox, settings: Settings) -> NotebookResult:
    """Grade one notebook; an error of the grader itself is reported as a crash of that notebook only."""
    try:
        return grade_cells(task.student, task.lesson, task.cells, task.names, task.seed, sandbox, settings, task.notes)
    except Exception as error:  # the grader's own failure must not lose the other rows
        items = [item for item in lesson_exercises(task.lesson) if item.name in task.names]
        problem = f"grader error: {type(error).__name__}: {error}"
        return ungraded(task.student, task.lesson, items, CRASHED, problem, task.notes, task.seed)


def run_tasks(tasks: Sequence[Task], run: Run, report: Callable[[NotebookResult], None]) -> list[NotebookResult]:
    """Grade every task, `run.jobs` at a time, with a progress bar; results in the order of the tasks."""
    if not tasks:
        return []
    results: dict[int, NotebookResult] = {}
    if run.jobs <= 1:
        for index, task in progress_bar(enumerate(tasks), total=len(tasks), desc="correction", progress=run.progress):
            results[index] = grade_task(task, run.sandbox, run.settings)
            report(results[index])
    else:
        context = multiprocessing.get_context("spawn")
        slots = context.Queue()  # each worker takes a job slot: its own sandbox user and cgroup
        for slot in range(run.jobs):
            slots.put(slot)
        slots_of_this_run = (slots, os.getpid())
        with ProcessPoolExecutor(
            run.jobs, mp_context=context, initializer=take_slot, initargs=slots_of_this_run
        ) as pool:
            futures = {pool.submit(grade_task, task, run.sandbox, run.settings): i for i, task in enumerate(tasks)}
            for future in progress_bar(
                as_completed(futures), total=len(tasks), desc="correction", progress=run.progress
            ):
                results[futures[future]] = future.result()
                report(results[futures[future]])
    return [results[index] for index in range(len(tasks))]


def flag_reason(item: ExerciseResult) -> str:
    """Why an exercise is flagged, for the instructor: « box_index uses sudoku_course.grid.Layout.box_of »."""
    reasons = []
    if item.answers_used:
        reasons.append(f"uses {', '.join(item.answers_used)}")
    if item.dynamic:
        reasons.append(f"uses dynamic code ({', '.join(item.dynamic)}): to review")
    return f"{item.name} {'; '.join(reasons)}"


def describe(result: NotebookResult) -> str:
    """The console line of one graded notebook."""
    points = f"{result.points:g}/{result.max_points:g} points"
    line = f"{printable(result.student)}/{result.lesson}.ipynb: {result.status}, {points}"
    flagged = [flag_reason(item) for item in result.exercises if item.status == FLAGGED]
    if flagged:
        line += "; flagged: " + "; ".join(flagged)
    if result.problem:
        line += f" ({result.problem})"
    return line


# ------------------------------------------------------------ grading
@dataclass
class Outputs:
    """Where grading writes."""

    grades: Path
    gradebook: Path
    feedback: Path
    report: Path

    @classmethod
    def beside(cls, grades: Path, gradebook: Path | None = None, feedback: Path | None = None) -> Outputs:
        folder = grades.parent
        return cls(
            grades,
            gradebook or folder / "gradebook.csv",
            feedback or folder / "feedback",
            folder / "grading-report.txt",
        )

    def folders(self) -> list[Path]:
        return [self.grades.parent, self.gradebook.parent, self.feedback]


@dataclass
class Console:
    """The console report, kept for grading-report.txt."""

    lines: list[str] = field(default_factory=list)

    def __call__(self, line: str) -> None:
        from tqdm import tqdm  # write() keeps a progress bar below the lines

        line = line.encode("utf-8", "backslashreplace").decode("utf-8")  # never a character the console refuses
        self.lines.append(line)
        tqdm.write(line)


def _lessons_to_grade(masters: list[Path], students: list[Student], say: Console) -> list[Path]:
    handed_in = {lesson for student in students for lesson in student.notebooks}
    chosen = []
    for path in masters:
        if path.stem not in handed_in:
            continue
        if not lesson_exercises(path.stem):
            say(f"{path.name}: no exercise of this lesson in the registry, not graded")
            continue
        chosen.append(path)
    return chosen


def _check_masters(masters: list[Master], run: Run) -> None:
    """Grade each solution on its public cases; GradingError unless it earns every point, using no answer
    (a solution that uses what `Exercise.answers` lists would get every honest student flagged)."""
    tasks = [
        Task(MASTER_STUDENT, m.lesson, m.cells, [e.name for e in lesson_exercises(m.lesson)], None) for m in masters
    ]
    failures = []
    for result in run_tasks(tasks, Run(run.sandbox, run.settings, run.jobs, progress=False), lambda result: None):
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


def _student_tasks(
    student: Student, masters: list[Master], secret: bytes, expected: str
) -> list[Task | NotebookResult]:
    notes = tuple(
        f"fichier ignoré : « {printable(name)} » ne correspond à aucun notebook du cours (noms attendus : {expected})"
        for name in student.unknown
    )
    seed = student_seed(secret, student.name)
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
    settings: Settings | None = None,
    limits: Limits | None = None,
    progress: bool | None = None,
) -> list[NotebookResult]:
    """Grade every student folder of `submissions_dir` (see the module); the results, one per student and lesson."""
    submissions_dir, master_dir = Path(submissions_dir), Path(master_dir)
    outputs = Outputs.beside(Path(out_csv), gradebook and Path(gradebook), feedback and Path(feedback))
    say = Console()
    master_paths = sorted(master_dir.glob("*.ipynb"))
    if not master_paths:
        raise GradingError(f"no solution notebook in {master_dir}")
    if not submissions_dir.is_dir():
        raise GradingError(f"{submissions_dir} is not a folder")
    students, ignored = find_students(submissions_dir, [path.stem for path in master_paths])
    for name in ignored:
        say(f"ignored {printable(str(submissions_dir / name))}: expected {submissions_dir}/<student>/<NN-name>.ipynb")
    chosen = _lessons_to_grade(master_paths, students, say)
    if not chosen:
        raise GradingError(f"no submission in {submissions_dir} matches a graded notebook of {master_dir}")
    try:
        masters = [read_master(path) for path in chosen]
    except Unreadable as error:
        raise GradingError(str(error)) from None
    for master in masters:
        say(f"master {master.path.name}: sha256 {master.sha256}")

    secret, secret_path, message = course_secret(
        Path(secret_file) if secret_file else None, [course_folder(), submissions_dir, master_dir]
    )
    say(message)
    hidden = [course_folder(), submissions_dir, master_dir, *outputs.folders(), Path.cwd(), Path.home()]
    with package_view() as package:
        hidden += [secret_path] if secret_path else []
        sandbox = Sandbox(tuple(hidden), sandboxed, limits or Limits(), package)
        if sandboxed:
            try:
                probe(sandbox)
            except SandboxUnavailable as error:
                raise GradingError(f"{error}; to grade without a sandbox anyway, pass --no-sandbox") from None
        else:
            say(NO_SANDBOX_WARNING)
        run = Run(sandbox, settings or Settings(), max(1, jobs), progress)
        try:
            results = _grade_students(run, masters, students, secret, say)
        finally:
            remove_cgroups(os.getpid())
    _write(results, masters, students, outputs, say)
    if not sandboxed:
        say(NO_SANDBOX_WARNING)
    write_atomically(outputs.report, "\n".join(say.lines) + "\n")
    return results


def _grade_students(
    run: Run, masters: list[Master], students: list[Student], secret: bytes, say: Console
) -> list[NotebookResult]:
    """Check the masters, then grade every student's notebooks; the results, in the students' order."""
    _check_masters(masters, run)

    expected = ", ".join(f"{master.lesson}.ipynb" for master in masters)
    planned = [item for student in students for item in _student_tasks(student, masters, secret, expected)]
    tasks = [item for item in planned if isinstance(item, Task)]
    graded = iter(run_tasks(tasks, run, lambda result: say(describe(result))))
    results = [next(graded) if isinstance(item, Task) else item for item in planned]
    for result in results:
        if result.status in (MISSING, INVALID, REJECTED):
            say(describe(result))
    return results


def _write(
    results: list[NotebookResult], masters: list[Master], students: list[Student], outputs: Outputs, say
) -> None:
    exercises = [item.name for master in masters for item in lesson_exercises(master.lesson)]
    unknown = {student.name: student.unknown for student in students if student.unknown}
    for student in students:
        if printable(student.name) != student.name:
            say(f"{printable(student.name)}: the folder name is not printable UTF-8 text; shown escaped")
    for student, names in unknown.items():
        say(f"{printable(student)}: unknown file(s) {', '.join(map(printable, names))} (no lesson has that name)")
    grades, book = write_tables(results, exercises, unknown, outputs.grades, outputs.gradebook)
    pages = write_feedback(results, outputs.feedback)
    say(f"{len(results)} notebook(s) graded: {grades}, {book}, {len(pages)} feedback page(s) in {outputs.feedback}")
    changed = [master.path for master in masters if sha256(master.path) != master.sha256]
    if changed:
        say(f"WARNING: solution notebook(s) changed during grading: {', '.join(map(str, changed))}")
    ok = sum(result.status == OK for result in results)
    say(f"{ok} notebook(s) ran without a timeout or a crash")


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
    defaults, memory = Settings(), Limits().memory_mb
    parser.add_argument("--time-factor", type=float, default=defaults.time_factor, help="times each case's limit")
    parser.add_argument("--notebook-timeout", type=float, default=defaults.notebook_limit, help="seconds per notebook")
    parser.add_argument("--memory-mb", type=int, default=memory, help=f"memory per run (default: {memory})")
    return parser


def run(args: argparse.Namespace) -> int:
    """Grade with parsed options; 0 when everything is written, 2 if grading cannot start."""
    settings = Settings(time_factor=args.time_factor, notebook_limit=args.notebook_timeout)
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
            limits=Limits(memory_mb=args.memory_mb),
        )
    except GradingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: python -m sudoku_course.teaching.grading SUBMISSIONS [options]."""
    parser = argparse.ArgumentParser(
        prog="python -m sudoku_course.teaching.grading", description=__doc__.split("\n")[0]
    )
    return run(add_arguments(parser).parse_args(argv))
