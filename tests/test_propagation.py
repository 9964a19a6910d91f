"""Constraint propagation (propagation.py): candidates, singles, propagated candidates; the layers under the solvers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sudoku_course import cost, propagation, spaces
from sudoku_course import grid as grid_module
from sudoku_course.grid import InvalidPuzzleError, SudokuGrid
from sudoku_course.propagation import Propagator, fixed_by_candidates, propagate, propagated_candidates
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers.exact import solve_exact

# No given conflicts, yet r1c9 can hold no digit: its row holds 1..8 and its column a 9.
UNSOLVABLE = "123456780" + "000000009" + "0" * 63


def test_propagate_gives_the_candidates_left_by_singles_or_none_on_a_contradiction():
    temoin = reference()
    solution = solve_exact(temoin).grid.cells.ravel().tolist()
    masks = propagate(temoin)
    assert masks == [1 << (digit - 1) for digit in solution]  # singles alone solve the témoin
    hard = load_bank("hard")[0]
    masks = propagate(hard)
    solved = solve_exact(hard).grid.cells.ravel().tolist()
    assert all(mask & (1 << (digit - 1)) for mask, digit in zip(masks, solved, strict=True))
    assert any(mask & (mask - 1) for mask in masks)  # some cells keep several candidates
    broken = temoin.cells.copy()
    broken[0, 1] = 7  # the solution has 6 here: a wrong clue that singles expose
    assert propagate(SudokuGrid(broken)) is None


def place(*clues: tuple[int, int, int]) -> SudokuGrid:
    """An empty 9 x 9 grid with the clues (row, column, digit), rows and columns from 1."""
    cells = [0] * 81
    for row, col, digit in clues:
        cells[(row - 1) * 9 + col - 1] = digit
    return SudokuGrid.from_array([cells[k : k + 9] for k in range(0, 81, 9)])


def test_a_naked_single_removes_its_digit_from_its_peers():
    grid = place((1, 1, 1))
    propagator = Propagator(grid.layout)
    candidates, fixed = propagator.initial(grid.cells.ravel().tolist())
    assert fixed == [0] and candidates[1] == propagator.full
    assert propagator.propagate(candidates, fixed)
    assert all(candidates[peer] == propagator.full ^ 1 for peer in grid.layout.peers[0])


def test_a_hidden_single_puts_a_digit_in_the_only_cell_of_a_unit_that_can_hold_it():
    # the 1s of r2c1, r3c4, r4c7 and r7c8 leave r1c9 as the only cell of row 1 that can hold a 1,
    # though r1c9 sees no clue at all (it keeps its nine candidates: no naked single there)
    grid = place((2, 1, 1), (3, 4, 1), (4, 7, 1), (7, 8, 1))
    propagator = Propagator(grid.layout)
    candidates, fixed = propagator.initial(grid.cells.ravel().tolist())
    assert propagator._naked_singles(candidates, fixed) and candidates[8] == propagator.full
    assert propagate(grid)[8] == 1


def test_propagated_candidates_shift_the_masks_to_bit_d_and_refuse_a_contradiction():
    puzzle = load_bank("hard")[1]
    assert propagated_candidates(puzzle) == [mask << 1 for mask in propagate(puzzle)]
    with pytest.raises(InvalidPuzzleError, match="no solution"):
        propagated_candidates(UNSOLVABLE)


def test_fixed_by_candidates_makes_every_single_a_given_and_keeps_the_others_empty():
    puzzle = load_bank("hard")[0]
    candidates = propagated_candidates(puzzle)
    fixed = fixed_by_candidates(puzzle, candidates)
    singles = [mask & (mask - 1) == 0 for mask in candidates]
    assert fixed.givens.ravel().tolist() == singles
    solution = solve_exact(puzzle).grid.cells.ravel()
    assert (fixed.cells.ravel()[singles] == solution[singles]).all()
    assert (fixed.cells.ravel()[[not single for single in singles]] == 0).all()


@pytest.mark.parametrize("module", [grid_module, propagation, cost, spaces])
def test_the_layers_under_the_solvers_know_nothing_of_them(module):
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert not [name for name in imported if "solvers" in name or "teaching" in name]
