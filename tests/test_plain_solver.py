"""The plain baseline solver of benchmarks/ solves the banks, and runs the same search as the exact solver."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import bank_names, load_bank
from sudoku_course.solvers.exact import search_effort

PLAIN_PATH = Path(__file__).parents[1] / "benchmarks" / "plain_solver.py"
TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
TEMOIN_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


def load_plain():
    """benchmarks/plain_solver.py as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("plain_solver", PLAIN_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


plain = load_plain()


@pytest.mark.parametrize("bank", bank_names())
def test_solves_every_bank_puzzle_keeping_its_givens(bank):
    for puzzle in load_bank(bank):
        solution, _ = plain.solve(puzzle.to_string())
        grid = SudokuGrid.from_string(solution)
        assert grid.is_solved(), puzzle.to_string()
        assert (grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()


@pytest.mark.parametrize("bank", bank_names())
def test_guesses_as_often_as_the_exact_solver(bank):
    # Same deductions and same choice of cell and digit order: the same number of guesses.
    for puzzle in load_bank(bank):
        _, guesses = plain.solve(puzzle.to_string())
        assert guesses == search_effort(puzzle)["guesses"], puzzle.to_string()


def test_solves_the_temoin_without_guessing_and_reads_dots_as_empty():
    assert plain.solve(TEMOIN) == (TEMOIN_SOLUTION, 0)
    assert plain.solve(TEMOIN.replace("0", ".")) == (TEMOIN_SOLUTION, 0)


def test_reports_no_solution_for_unsolvable_or_conflicting_puzzles():
    unsolvable = "123456780" + "000000009" + "0" * 63  # r1c9 can hold no digit
    assert plain.solve(unsolvable)[0] is None
    assert plain.solve("99" + "0" * 79)[0] is None
    assert plain.solve(TEMOIN_SOLUTION[:-1] + "1")[0] is None  # a full grid with a wrong last digit
