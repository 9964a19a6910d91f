"""Grade student submissions: run each one in its own kernel and read its signed check results.

Layout: one folder per student, holding the exercise notebooks under the
names of the solution notebooks,

    SUBMISSIONS/<student>/<NN-name>.ipynb      e.g. rendus/dupont/00-environnement.ipynb

`python -m sudoku_course.teaching.grading SUBMISSIONS` (what `make grade
SUBMISSIONS=dir/` calls) writes `grades.csv` with one row per student,
notebook and exercise: student, notebook, exercise, passed, total, status.

How a submission is graded:

1. The solution notebook (the master) runs first, to learn its exercises (one
   per check) and their numbers of cases; every check must pass there.
2. In the submission, each master cell tagged `check` is put back: a cell
   with the same id is overwritten, a deleted one is re-inserted after the
   cell it followed in the master. A first cell importing
   `sudoku_course.teaching.checks` is added, so that the module takes the
   grading key before any student code runs (see the threat model there).
3. The notebook runs in a fresh kernel, from a child process, with a time
   limit per cell (the kernel is interrupted and the next cells still run)
   and per notebook (the child process and its kernel are killed).
4. Only the record lines whose HMAC verifies under this run's key count; the
   last one of each exercise wins. An exercise without a valid record gets 0.

Status of a notebook: `ok`, `timeout` (a cell or the notebook hit its limit),
`crash` (the kernel died), `invalid-notebook` (not readable as a notebook),
`missing` (no file of that name). Results recorded before a timeout or crash
still count.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import astuple, dataclass, field, fields
from pathlib import Path

import nbformat

from .authoring import CHECK_TAG
from .checks import KEY_FILE_ENV, RECORD_ENV, STRICT_ENV, verify_record
from .notebooks import KERNEL_NAME, normalise, tags, write_notebook

OK, TIMEOUT, CRASH, INVALID, MISSING = "ok", "timeout", "crash", "invalid-notebook", "missing"
EXIT_TIMEOUT, EXIT_CRASH = 3, 4  # exit codes of the child process
PREAMBLE_ID = "grading-preamble"
PREAMBLE = "import sudoku_course.teaching.checks  # added by the grader, before any student code"
CHILD_CODE = "from sudoku_course.teaching.grading import _child_main; _child_main()"


class GradingError(RuntimeError):
    """The grading cannot start: no solution notebook, or a solution notebook whose checks fail."""


@dataclass(frozen=True)
class GradeRow:
    """One line of grades.csv."""

    student: str
    notebook: str
    exercise: str
    passed: int
    total: int
    status: str


@dataclass
class Execution:
    """What running one notebook gave: status, verified results per exercise, and the log's end."""

    status: str
    results: dict[str, tuple[int, int]] = field(default_factory=dict)
    rejected: int = 0
    log: str = ""


# ------------------------------------------------------------- preparing
def restore_checks(submission: nbformat.NotebookNode, master: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The submission with every master cell tagged `check` put back (matched by cell id)."""
    checks = {cell.id: cell for cell in master.cells if CHECK_TAG in tags(cell)}
    cells = [nbformat.from_dict(checks.get(cell.id, cell)) for cell in submission.cells]
    present = {cell.id for cell in cells}
    for index, cell in enumerate(master.cells):
        if cell.id in checks and cell.id not in present:
            before = {c.id for c in master.cells[:index]}
            positions = [i + 1 for i, c in enumerate(cells) if c.id in before]
            cells.insert(max(positions, default=0), nbformat.from_dict(cell))
            present.add(cell.id)
    submission.cells = cells
    return submission


def prepare(submission: nbformat.NotebookNode, master: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook the grader runs: normalised, outputs cleared, checks restored, preamble first."""
    nb = restore_checks(normalise(submission), normalise(master))
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb = with_preamble(nb)
    nbformat.validate(nb)
    return nb


def with_preamble(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook with the grader's first cell, which imports the checks module."""
    preamble = nbformat.v4.new_code_cell(PREAMBLE)
    preamble.id = PREAMBLE_ID
    nb.cells.insert(0, preamble)
    return nb


# ------------------------------------------------------------- executing
def _child_main() -> None:
    """In the child process: execute a notebook in a fresh kernel; the exit code tells the status.

    argv: notebook, kernel folder, cell timeout, key file, record file. The
    last two reach the kernel through its environment only (this process has
    already imported the checks module, which would otherwise take them).
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    path, workdir, cell_timeout, key_file, record = sys.argv[1:6]
    os.environ.update({KEY_FILE_ENV: key_file, RECORD_ENV: record, "PYTHONHASHSEED": "0"})
    os.environ.pop(STRICT_ENV, None)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=int(cell_timeout),
        interrupt_on_timeout=True,
        allow_errors=True,
        kernel_name=KERNEL_NAME,
        resources={"metadata": {"path": workdir}},
    )
    try:
        client.execute()
    except DeadKernelError:
        sys.exit(EXIT_CRASH)
    interrupted = any(
        output.get("ename") == "KeyboardInterrupt" for cell in nb.cells for output in cell.get("outputs", [])
    )
    sys.exit(EXIT_TIMEOUT if interrupted else 0)


def _kill_tree(process: subprocess.Popen) -> None:
    """Kill the child process and everything it started (the kernel runs in its own session)."""
    import psutil  # installed with ipykernel

    try:
        family = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        family = []
    process.kill()
    for member in family:
        with contextlib.suppress(psutil.NoSuchProcess):
            member.kill()
    psutil.wait_procs(family, timeout=5)
    process.wait()


def read_results(record: Path, key: bytes) -> tuple[dict[str, tuple[int, int]], int]:
    """Verified (passed, total) per exercise (last line wins), and the number of lines rejected."""
    results: dict[str, tuple[int, int]] = {}
    rejected = 0
    for line in record.read_text(encoding="utf-8", errors="replace").splitlines():
        payload = verify_record(line, key)
        if payload is None:
            rejected += 1
            continue
        results[str(payload["exercise"])] = (int(payload["passed"]), int(payload["total"]))
    return results, rejected


def execute_isolated(nb: nbformat.NotebookNode, *, cell_timeout: int, notebook_timeout: float) -> Execution:
    """Run a notebook (with its preamble) in a child process and a fresh kernel; read its signed records."""
    key = secrets.token_hex(32).encode()
    with tempfile.TemporaryDirectory(prefix="sudoku-grading-") as scratch:
        folder = Path(scratch)
        (folder / "work").mkdir()
        key_file, record, notebook, log = (folder / name for name in ("key", "record.jsonl", "nb.ipynb", "log.txt"))
        with open(os.open(key_file, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as file:
            file.write(key)
        record.touch()
        write_notebook(nb, notebook)
        arguments = [notebook, folder / "work", cell_timeout, key_file, record]
        command = [sys.executable, "-c", CHILD_CODE, *map(str, arguments)]
        with open(log, "wb") as log_file:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT)
            try:
                status = {0: OK, EXIT_TIMEOUT: TIMEOUT}.get(process.wait(timeout=notebook_timeout), CRASH)
            except subprocess.TimeoutExpired:
                _kill_tree(process)
                status = TIMEOUT
        results, rejected = read_results(record, key)
        return Execution(status, results, rejected, log.read_text(errors="replace")[-2000:])


# --------------------------------------------------------------- grading
def _master_exercises(path: Path, cell_timeout: int, notebook_timeout: float) -> dict[str, int]:
    """Exercise name -> number of cases, from running the solution notebook; GradingError if it is not clean."""
    master = nbformat.read(path, as_version=4)
    if not any(CHECK_TAG in tags(cell) for cell in master.cells):
        raise GradingError(f"{path}: no cell is tagged {CHECK_TAG!r}, so there is nothing to grade")
    run = execute_isolated(
        with_preamble(normalise(master)), cell_timeout=cell_timeout, notebook_timeout=notebook_timeout
    )
    failing = [f"{name} {passed}/{total}" for name, (passed, total) in run.results.items() if passed != total]
    if run.status != OK or not run.results or failing:
        raise GradingError(
            f"{path}: the solution notebook must run cleanly and pass its checks; "
            f"status {run.status}, checks {run.results or 'none'}, failing {failing}\n{run.log}"
        )
    return {name: total for name, (_, total) in run.results.items()}


def grade_submission(
    student: str, path: Path, master_path: Path, exercises: dict[str, int], cell_timeout: int, notebook_timeout: float
) -> tuple[list[GradeRow], Execution]:
    """The rows of one student's notebook (every exercise of the master), and how its run went."""
    if not path.is_file():
        run = Execution(MISSING)
    else:
        try:
            prepared = prepare(nbformat.read(path, as_version=4), nbformat.read(master_path, as_version=4))
        except Exception as error:  # anything unreadable is an invalid notebook, whatever the reason
            run = Execution(INVALID, log=f"{type(error).__name__}: {error}")
        else:
            run = execute_isolated(prepared, cell_timeout=cell_timeout, notebook_timeout=notebook_timeout)
    rows = []
    for exercise, total in exercises.items():
        passed, recorded_total = run.results.get(exercise, (0, total))
        valid = recorded_total == total and 0 <= passed <= total
        rows.append(GradeRow(student, master_path.name, exercise, passed if valid else 0, total, run.status))
    return rows, run


def _report_line(rows: list[GradeRow], run: Execution) -> str:
    passed, total = sum(row.passed for row in rows), sum(row.total for row in rows)
    line = f"{rows[0].student}/{rows[0].notebook}: {run.status}, {passed}/{total}"
    if run.rejected:
        line += f", {run.rejected} record line(s) rejected (bad signature)"
    if run.status == INVALID:
        line += f"\n    {run.log}"
    return line


def write_csv(rows: Sequence[GradeRow], path: Path) -> None:
    """Write the rows with a header line."""
    with open(path, "w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file)
        writer.writerow([f.name for f in fields(GradeRow)])
        writer.writerows(astuple(row) for row in rows)


def grade(
    submissions_dir: Path | str,
    master_dir: Path | str = "solutions",
    out_csv: Path | str = "grades.csv",
    *,
    cell_timeout: int = 60,
    notebook_timeout: float = 600,
    jobs: int = 1,
) -> list[GradeRow]:
    """Grade every student folder of `submissions_dir` against the notebooks of `master_dir`; write `out_csv`."""
    submissions_dir, master_dir = Path(submissions_dir), Path(master_dir)
    masters = sorted(master_dir.glob("*.ipynb"))
    if not masters:
        raise GradingError(f"no solution notebook in {master_dir}")
    if not submissions_dir.is_dir():
        raise GradingError(f"{submissions_dir} is not a folder")
    students = sorted(p for p in submissions_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
    for stray in sorted(p for p in submissions_dir.iterdir() if p.is_file()):
        print(f"ignored {stray}: expected {submissions_dir}/<student>/<NN-name>.ipynb")
    # Only the notebooks somebody handed in are graded (and their masters run): a class that has done
    # lesson 00 is not graded "missing" on every later lesson.
    submitted = {path.name for student in students for path in student.glob("*.ipynb")}
    masters = [master for master in masters if master.name in submitted]
    if not masters:
        raise GradingError(f"no submission in {submissions_dir} matches a notebook of {master_dir}")
    limits = {"cell_timeout": cell_timeout, "notebook_timeout": notebook_timeout}

    def grade_one(task: tuple[Path, Path]) -> tuple[list[GradeRow], Execution]:
        student, master = task
        return grade_submission(student.name, student / master.name, master, expected[master], **limits)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        totals = pool.map(lambda master: _master_exercises(master, **limits), masters)
        expected = dict(zip(masters, totals, strict=True))
        rows = []
        for student_rows, run in pool.map(grade_one, [(s, m) for s in students for m in masters]):
            print(_report_line(student_rows, run), flush=True)
            rows += student_rows
    write_csv(rows, Path(out_csv))
    print(f"{len(rows)} rows written to {out_csv}")
    return rows


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the grader's options to `parser` (also used by `sudoku-course grade`)."""
    parser.add_argument("submissions", type=Path, help="folder holding one folder per student")
    parser.add_argument("--master", type=Path, default=Path("solutions"), help="solutions (default: solutions)")
    parser.add_argument("--out", type=Path, default=Path("grades.csv"), help="CSV to write (default: grades.csv)")
    parser.add_argument("--cell-timeout", type=int, default=60, help="seconds per cell (default: 60)")
    parser.add_argument("--notebook-timeout", type=float, default=600, help="seconds per notebook (default: 600)")
    parser.add_argument("--jobs", type=int, default=1, help="notebooks graded at the same time (default: 1)")
    return parser


def run(args: argparse.Namespace) -> int:
    """Grade with parsed options; 0 when grades.csv is written, 2 if grading cannot start."""
    try:
        grade(
            args.submissions,
            args.master,
            args.out,
            cell_timeout=args.cell_timeout,
            notebook_timeout=args.notebook_timeout,
            jobs=args.jobs,
        )
    except GradingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: `python -m sudoku_course.teaching.grading SUBMISSIONS [options]`."""
    parser = argparse.ArgumentParser(
        prog="python -m sudoku_course.teaching.grading", description=__doc__.split("\n")[0]
    )
    return run(add_arguments(parser).parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
