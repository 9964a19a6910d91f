"""Grading: restoring checks, signed records, and one grading run over good, wrong and hostile submissions.

The grading run starts one kernel per notebook run (the master and three students).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import psutil
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from sudoku_course.teaching.authoring import exercise_notebook
from sudoku_course.teaching.checks import check_is_valid_solution, sign_record
from sudoku_course.teaching.grading import (
    CRASH,
    INVALID,
    MISSING,
    OK,
    PREAMBLE_ID,
    TIMEOUT,
    GradingError,
    _kill_tree,
    execute_isolated,
    grade,
    main,
    prepare,
    read_results,
    restore_checks,
)
from sudoku_course.teaching.notebooks import write_notebook

DEMO = Path(__file__).parent / "data" / "demo_solution.ipynb"

ROWS_ONLY = '''def is_valid_solution(grid, puzzle=None):
    """Looks at the rows only."""
    return all(sorted(row) == list(range(1, grid.size + 1)) for row in grid.cells.tolist())'''

FORGER = """import json
from sudoku_course.teaching import checks

print(json.dumps({"exercise": "double", "passed": 3, "total": 3}))
with open(checks._RECORD_PATH, "a") as record:
    fake = {"exercise": "is_valid_solution", "passed": 10, "total": 10}
    record.write(json.dumps({"payload": fake, "hmac": "0" * 64}) + "\\n")
    record.write(checks.sign_record({"exercise": "double", "passed": 3, "total": 3}, b"a guessed key") + "\\n")"""


def rows_only(grid, puzzle=None):
    return all(sorted(row) == list(range(1, grid.size + 1)) for row in grid.cells.tolist())


def cell(nb: nbformat.NotebookNode, cell_id: str) -> nbformat.NotebookNode:
    return next(c for c in nb.cells if c.id == cell_id)


def insert_after(nb: nbformat.NotebookNode, cell_id: str, source: str) -> None:
    index = next(i for i, c in enumerate(nb.cells) if c.id == cell_id)
    nb.cells.insert(index + 1, new_code_cell(source))


def exercise() -> nbformat.NotebookNode:
    return exercise_notebook(nbformat.read(DEMO, as_version=4))


def solved() -> nbformat.NotebookNode:
    """The exercise with every stub completed as in the solution."""
    master, nb = nbformat.read(DEMO, as_version=4), exercise()
    for cell_id in ("exercise-1", "answer", "exercise-2"):
        cell(nb, cell_id).source = cell(master, cell_id).source.replace("  # SOLUTION", "")
    return nb


def submissions(root: Path) -> Path:
    """alice: right; bob: wrong, raising, tampering with checks, forging records, then crashing the kernel;
    dave: an endless top-level loop; eve: not JSON; frank: nothing handed in."""
    folder = root / "rendus"
    notebooks = {"alice": solved()}

    bob = exercise()
    cell(bob, "exercise-1").source = ROWS_ONLY
    insert_after(bob, "imports", "1 / 0")
    bob.cells.remove(cell(bob, "check-1"))
    cell(bob, "check-2").source = 'print("double : bravo, les 3 cas sont réussis")'
    bob.cells.append(new_code_cell(FORGER))  # last: a forged line, if accepted, would win
    bob.cells.append(new_code_cell("import os\nos._exit(1)"))
    notebooks["bob"] = bob

    dave = solved()
    insert_after(dave, "check-1", "while True:\n    pass")
    notebooks["dave"] = dave

    for student, nb in notebooks.items():
        (folder / student).mkdir(parents=True)
        write_notebook(nb, folder / student / "00-demo.ipynb")
    (folder / "eve").mkdir()
    (folder / "eve" / "00-demo.ipynb").write_text('{"cells": [', encoding="utf-8")
    (folder / "frank").mkdir()
    (folder / "notes.txt").write_text("not a student", encoding="utf-8")
    return folder


@dataclass
class GradingRun:
    rows: dict[tuple[str, str], dict]  # (student, exercise) -> CSV row
    csv_text: str
    console: str


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> GradingRun:
    root = tmp_path_factory.mktemp("grading")
    (root / "solutions").mkdir()
    (root / "solutions" / "00-demo.ipynb").write_bytes(DEMO.read_bytes())
    # Nobody handed this one in, so it must not be run: it is not even a notebook.
    (root / "solutions" / "01-not-handed-in.ipynb").write_text("{broken", encoding="utf-8")
    folder = submissions(root)
    out = root / "grades.csv"
    arguments = [str(folder), "--master", str(root / "solutions"), "--out", str(out)]
    console = io.StringIO()
    with contextlib.redirect_stdout(console):
        assert main([*arguments, "--cell-timeout", "4", "--notebook-timeout", "120", "--jobs", "3"]) == 0
    with open(out, encoding="utf-8", newline="") as file:
        rows = {(row["student"], row["exercise"]): row for row in csv.DictReader(file)}
    return GradingRun(rows, out.read_text(encoding="utf-8"), console.getvalue())


def score(run: GradingRun, student: str) -> dict[str, tuple[int, int, str]]:
    return {
        exercise: (int(row["passed"]), int(row["total"]), row["status"])
        for (name, exercise), row in run.rows.items()
        if name == student
    }


def test_csv_has_one_row_per_student_and_exercise(graded):
    assert graded.csv_text.splitlines()[:2] == [
        "student,notebook,exercise,passed,total,status",
        "alice,00-demo.ipynb,is_valid_solution,10,10,ok",
    ]
    assert sorted(graded.rows) == [
        (student, exercise)
        for student in ("alice", "bob", "dave", "eve", "frank")
        for exercise in ("double", "is_valid_solution")
    ]
    assert "ignored" in graded.console and "notes.txt" in graded.console


def test_right_submission_gets_full_marks(graded):
    assert score(graded, "alice") == {"is_valid_solution": (10, 10, OK), "double": (3, 3, OK)}


def test_hostile_submission_gets_only_what_its_code_earns(graded):
    """Wrong answer, a stub, a raising cell, tampered and deleted checks, printed and forged records, a crash."""
    expected = check_is_valid_solution(rows_only).passed
    assert 0 < expected < 10
    assert score(graded, "bob") == {"is_valid_solution": (expected, 10, CRASH), "double": (0, 3, CRASH)}
    assert f"bob/00-demo.ipynb: crash, {expected}/13, 2 record line(s) rejected" in graded.console


def test_endless_cell_is_interrupted_and_later_checks_still_count(graded):
    assert score(graded, "dave") == {"is_valid_solution": (10, 10, TIMEOUT), "double": (3, 3, TIMEOUT)}


def test_invalid_and_missing_notebooks(graded):
    assert score(graded, "eve") == {"is_valid_solution": (0, 10, INVALID), "double": (0, 3, INVALID)}
    assert score(graded, "frank") == {"is_valid_solution": (0, 10, MISSING), "double": (0, 3, MISSING)}


def test_notebook_time_limit_stops_the_run():
    nb = new_notebook(cells=[new_code_cell("x = 1")])
    run = execute_isolated(nb, cell_timeout=5, notebook_timeout=0.5)
    assert run.status == TIMEOUT and run.results == {}


def test_kill_tree_reaches_a_grandchild_in_its_own_session():
    """As the kernel does: the grandchild runs in a session of its own, out of reach of a process-group kill."""
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    code = (
        f"import subprocess, time; p = subprocess.Popen({sleeper!r}, start_new_session=True)\n"
        "print(p.pid, flush=True)\ntime.sleep(60)"
    )
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    grandchild = int(process.stdout.readline())
    _kill_tree(process)
    process.stdout.close()
    assert process.returncode is not None
    assert not psutil.pid_exists(grandchild) or psutil.Process(grandchild).status() == psutil.STATUS_ZOMBIE


# ------------------------------------------------------- without a kernel
def master() -> nbformat.NotebookNode:
    return nbformat.read(DEMO, as_version=4)


def test_restore_checks_overwrites_and_reinserts_check_cells():
    submission = exercise()
    cell(submission, "check-2").source = "print('faux')"
    submission.cells.remove(cell(submission, "check-1"))
    restored = restore_checks(submission, master())
    ids = [c.id for c in restored.cells]
    assert ids.index("check-1") == ids.index("exercise-1") + 1
    assert cell(restored, "check-1").source == cell(master(), "check-1").source
    assert cell(restored, "check-2").source == cell(master(), "check-2").source


def test_deleted_check_goes_first_when_nothing_before_it_survives():
    submission = new_notebook(cells=[new_code_cell("x = 1")])
    restored = restore_checks(submission, master())
    assert [c.id for c in restored.cells[:2]] == ["check-1", "check-2"]


def test_prepare_accepts_old_notebooks_and_puts_the_preamble_first():
    old = exercise()
    old.nbformat_minor = 4
    for c in old.cells:
        del c["id"]
        if c.cell_type == "code":
            c.execution_count = 7
    prepared = prepare(old, master())
    assert prepared.cells[0].id == PREAMBLE_ID
    assert "import sudoku_course.teaching.checks" in prepared.cells[0].source
    assert {c.execution_count for c in prepared.cells if c.cell_type == "code"} == {None}
    assert sum(c.id in ("check-1", "check-2") for c in prepared.cells) == 2


def test_read_results_keeps_verified_lines_and_the_last_of_each(tmp_path):
    record = tmp_path / "record.jsonl"
    lines = [
        sign_record({"exercise": "double", "passed": 1, "total": 3}, b"key"),
        json.dumps({"exercise": "double", "passed": 3, "total": 3}),
        sign_record({"exercise": "double", "passed": 3, "total": 3}, b"other"),
        "garbage",
        sign_record({"exercise": "double", "passed": 2, "total": 3}, b"key"),
        sign_record({"exercise": "is_valid_solution", "passed": 0, "total": 10}, b"key"),
    ]
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert read_results(record, b"key") == ({"double": (2, 3), "is_valid_solution": (0, 10)}, 3)


def test_grading_needs_solutions_with_check_cells(tmp_path):
    (tmp_path / "rendus").mkdir()
    with pytest.raises(GradingError, match="no solution notebook"):
        grade(tmp_path / "rendus", tmp_path / "solutions", tmp_path / "grades.csv")
    (tmp_path / "solutions").mkdir()
    write_notebook(new_notebook(cells=[new_code_cell("x = 1")]), tmp_path / "solutions" / "00-x.ipynb")
    (tmp_path / "rendus" / "alice").mkdir()
    write_notebook(new_notebook(cells=[new_code_cell("x = 1")]), tmp_path / "rendus" / "alice" / "00-x.ipynb")
    with pytest.raises(GradingError, match="no cell is tagged 'check'"):
        grade(tmp_path / "rendus", tmp_path / "solutions", tmp_path / "grades.csv")


def test_only_notebooks_handed_in_are_graded(graded):
    assert {row["notebook"] for row in graded.rows.values()} == {"00-demo.ipynb"}


def test_no_submission_matching_a_master_is_an_error(tmp_path, capsys):
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "00-demo.ipynb").write_bytes(DEMO.read_bytes())
    (tmp_path / "rendus" / "alice").mkdir(parents=True)
    (tmp_path / "rendus" / "alice" / "07-other.ipynb").write_text("{}", encoding="utf-8")
    arguments = [str(tmp_path / "rendus"), "--master", str(tmp_path / "solutions"), "--out", str(tmp_path / "g.csv")]
    assert main(arguments) == 2
    assert "matches" in capsys.readouterr().err
