"""The student-check framework and the lesson 00 check, against right, wrong, stub and slow answers."""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest

from sudoku_course.grid import SudokuGrid
from sudoku_course.teaching import checks
from sudoku_course.teaching.checks import (
    ERROR,
    FAILED,
    NOT_RUN,
    PASSED,
    TOO_SLOW,
    Case,
    check_is_valid_solution,
    returns,
    returns_bool,
    run_check,
    sign_record,
    verify_record,
)


# ------------------------------------------------------- answers to check
def reference_answer(grid: SudokuGrid, puzzle: SudokuGrid | None = None) -> bool:
    """A from-scratch answer, as a student would write it."""
    n, b = grid.size, grid.box_size
    digits = set(range(1, n + 1))
    rows = [grid.cells[r, :] for r in range(n)]
    columns = [grid.cells[:, c] for c in range(n)]
    boxes = [grid.cells[r : r + b, c : c + b].ravel() for r in range(0, n, b) for c in range(0, n, b)]
    if any(set(unit.tolist()) != digits for unit in rows + columns + boxes):
        return False
    return puzzle is None or all(
        grid.cells[r, c] == puzzle.cells[r, c] for r in range(n) for c in range(n) if puzzle.givens[r, c]
    )


def answer_with_grid_methods(grid: SudokuGrid, puzzle: SudokuGrid | None = None) -> bool:
    return grid.is_solved() and (
        puzzle is None or bool((grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all())
    )


def rows_only(grid, puzzle=None):
    return all(set(row) == set(range(1, grid.size + 1)) for row in grid.cells.tolist())


def ignores_givens(grid, puzzle=None):
    return reference_answer(grid)


def sums_to_45(grid, puzzle=None):
    return all(sum(int(grid.cells[r, c]) for r, c in unit) == 45 for unit in grid.units)


def no_conflict_only(grid, puzzle=None):
    """Looks for repeated digits but forgets that a solution has no empty cell."""
    givens_kept = puzzle is None or bool((grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all())
    return not grid.conflicting_cells().any() and givens_kept


def assumes_nine(grid, puzzle=None):
    return grid.size == 9 and reference_answer(grid, puzzle)


def always_true(grid, puzzle=None):
    return True


def returns_an_int(grid, puzzle=None):
    return int(reference_answer(grid, puzzle))


def stub(grid, puzzle=None):
    raise NotImplementedError("À compléter")


def spins_forever(grid, puzzle=None):
    while True:
        pass


def scribbles_on_its_input(grid, puzzle=None):
    answer = reference_answer(grid, puzzle)
    grid.cells[:] = 0
    if puzzle is not None:
        puzzle.cells[:] = 0
    return answer


# ---------------------------------------------------------------- lesson 00
def test_temoin_solution_solves_the_temoin():
    puzzle = SudokuGrid.from_string(checks.TEMOIN)
    solution = SudokuGrid.from_string(checks.TEMOIN_SOLUTION)
    assert solution.is_solved()
    assert (solution.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()


@pytest.mark.parametrize("answer", [reference_answer, answer_with_grid_methods, scribbles_on_its_input])
def test_right_answers_pass_every_case(answer):
    report = check_is_valid_solution(answer)
    assert report.ok and not report.stub
    assert report.passed == report.total == len(checks.is_valid_solution_cases())


def test_cases_expect_what_the_reference_answers():
    for case in checks.is_valid_solution_cases():
        assert case.judge(reference_answer(*case.args)) is None, case.label


@pytest.mark.parametrize(
    ("wrong", "failing_case"),
    [
        (rows_only, "blocs ont des doublons"),
        (ignores_givens, "ne respecte pas les chiffres donnés"),
        (sums_to_45, "somme 45"),
        (no_conflict_only, "case est restée vide"),
        (assumes_nine, "4 x 4"),
        (always_true, "deux lignes ont un doublon"),
        (returns_an_int, "sans grille de départ"),
    ],
)
def test_wrong_answers_fail_the_case_they_get_wrong(wrong, failing_case):
    report = check_is_valid_solution(wrong)
    assert not report.ok and not report.stub
    assert report.passed < report.total
    failed = [result.label for result in report.details if result.verdict == FAILED]
    assert any(failing_case in label for label in failed), failed


def test_stub_is_reported_as_not_done(capsys):
    report = check_is_valid_solution(stub)
    assert report.stub and report.passed == 0 and not report.ok
    assert "pas encore fait" in capsys.readouterr().out


def test_runaway_case_is_reported_and_stopped():
    report = check_is_valid_solution(spins_forever, time_limit=0.2)
    assert [result.verdict for result in report.details] == [TOO_SLOW] + [NOT_RUN] * (report.total - 1)
    assert report.passed == 0
    for thread in threading.enumerate():
        if thread.name == "sudoku-course-check":
            thread.join(timeout=5)
            assert not thread.is_alive(), "the runaway case's thread was not stopped"


# ---------------------------------------------------------------- framework
def double(x):
    return 2 * x


DOUBLE_CASES = [Case("2 donne 4", (2,), returns(4)), Case("-3 donne -6", (-3,), returns(-6))]


def test_errors_are_reported_per_case_and_never_raised():
    def fragile(x):
        if x < 0:
            raise ValueError("négatif")
        return 2 * x

    report = run_check("double", fragile, DOUBLE_CASES)
    assert [r.verdict for r in report.details] == [PASSED, ERROR]
    assert "ValueError: négatif" in report.details[1].detail


def test_even_system_exit_is_reported_not_raised():
    def leaves(x):
        raise SystemExit(3)

    report = run_check("double", leaves, DOUBLE_CASES)
    assert {r.verdict for r in report.details} == {ERROR}


def test_odd_results_are_failures_not_crashes():
    report = run_check("double", lambda x: np.array([2 * x, 0]), DOUBLE_CASES)
    assert {r.verdict for r in report.details} == {FAILED}


def test_returns_bool_accepts_numpy_booleans_only_as_booleans():
    judge = returns_bool(True)
    assert judge(np.True_) is None and judge(True) is None
    assert "True ou False" in judge(1)
    assert "attendu True" in judge(False)


def test_strict_mode_raises_on_failure(monkeypatch):
    monkeypatch.setenv(checks.STRICT_ENV, "1")
    assert run_check("double", double, DOUBLE_CASES).ok
    with pytest.raises(AssertionError, match="double"):
        run_check("double", lambda x: x, DOUBLE_CASES)
    with pytest.raises(AssertionError, match="pas encore fait"):
        check_is_valid_solution(stub)


def test_strict_argument_overrides_the_environment(monkeypatch):
    monkeypatch.delenv(checks.STRICT_ENV, raising=False)
    assert not run_check("double", lambda x: x, DOUBLE_CASES).ok
    with pytest.raises(AssertionError):
        run_check("double", lambda x: x, DOUBLE_CASES, strict=True)


def test_text_and_html_reports(capsys):
    report = run_check("double", lambda x: 4, [*DOUBLE_CASES, Case("<b>balise</b>", (2,), returns(4))])
    printed = capsys.readouterr().out
    assert "double : 2/3 cas réussis" in printed
    assert "attendu -6, obtenu 4" in printed
    assert "&lt;b&gt;balise&lt;/b&gt;" in report.html() and "<b>balise" not in report.html()
    assert repr(report) == "<vérification double : 2/3 cas réussis>"


# ---------------------------------------------------------- grading record
def test_signed_records_verify_only_with_the_key():
    payload = {"exercise": "double", "passed": 2, "total": 2}
    line = sign_record(payload, b"key")
    assert verify_record(line, b"key") == payload
    assert verify_record(line, b"other key") is None
    assert verify_record(line.replace('"passed": 2', '"passed": 3'), b"key") is None
    assert verify_record('{"exercise": "double", "passed": 2, "total": 2}', b"key") is None
    assert verify_record("not json at all", b"key") is None


def test_grading_setup_takes_the_key_and_records_each_check(tmp_path, monkeypatch):
    key_file, record = tmp_path / "key", tmp_path / "record.jsonl"
    key_file.write_bytes(b"secret")
    monkeypatch.setenv(checks.KEY_FILE_ENV, str(key_file))
    monkeypatch.setenv(checks.RECORD_ENV, str(record))
    key, record_path = checks._take_grading_setup()
    assert key == b"secret" and record_path == record
    assert not key_file.exists()
    assert checks.KEY_FILE_ENV not in os.environ and checks.RECORD_ENV not in os.environ

    monkeypatch.setattr(checks, "_GRADING_KEY", key)
    monkeypatch.setattr(checks, "_RECORD_PATH", record_path)
    run_check("double", double, DOUBLE_CASES)
    check_is_valid_solution(stub)
    lines = record.read_text().splitlines()
    assert [verify_record(line, b"secret") for line in lines] == [
        {"exercise": "double", "passed": 2, "total": 2},
        {"exercise": "is_valid_solution", "passed": 0, "total": 10},
    ]


def test_no_record_outside_grading(tmp_path, monkeypatch):
    monkeypatch.delenv(checks.KEY_FILE_ENV, raising=False)
    assert checks._take_grading_setup() == (None, None)


def reference_box_index(row, col, box_size=3):
    return (row // box_size) * box_size + col // box_size


@pytest.mark.parametrize(
    "wrong",
    [
        lambda row, col, box_size=3: (col // box_size) * box_size + row // box_size,  # columns of boxes first
        lambda row, col, box_size=3: (row // 3) * 3 + col // 3,  # ignores box_size
        lambda row, col, box_size=3: row // box_size + col // box_size,  # forgets the width of a band
    ],
)
def test_check_box_index_rejects_wrong_answers(wrong):
    report = checks.check_box_index(wrong, strict=False)
    assert report.passed < report.total


def test_check_box_index_accepts_the_reference_and_reports_a_stub():
    report = checks.check_box_index(reference_box_index, strict=False)
    assert report.passed == report.total == len(checks.box_index_cases())

    def stub(row, col, box_size=3):
        raise NotImplementedError("À compléter")

    assert checks.check_box_index(stub, strict=False).stub
