"""Grading the real lessons whose cases load the puzzle banks (lessons 01 to 04 read `sudoku_course.banks`).

One sandboxed run per lesson would cost minutes: lesson 02 stands for them (its cases load the medium bank).
The solution, handed in as a student's notebook, passes the master self-check and earns every point of the
registry. Needs bubblewrap: skipped without it on a developer's machine, failed under CI=true.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

from sudoku_course.teaching.exercises import lesson_exercises
from sudoku_course.teaching.grading import grade

ROOT = Path(__file__).parent.parent
LESSON = "02-recuit-simule"


def test_a_lesson_that_loads_a_puzzle_bank_is_graded_in_the_sandbox(bubblewrap, tmp_path):
    (tmp_path / "rendus" / "alice").mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / f"{LESSON}.ipynb", tmp_path / "rendus" / "alice")
    secret = tmp_path / "secret"
    secret.write_bytes(b"a secret of the lesson test")
    grade(tmp_path / "rendus", ROOT / "solutions", tmp_path / "out" / "grades.csv", jobs=2, secret_file=secret)
    with open(tmp_path / "out" / "gradebook.csv", encoding="utf-8", newline="") as file:
        (row,) = csv.DictReader(file)
    maximum = sum(item.points for item in lesson_exercises(LESSON))
    assert float(row["maximum"]) == maximum
    assert float(row["total"]) == maximum, row
    assert row["flags"] == ""
