"""Hill climbing by swaps inside rows or boxes (solvers/local_search.py)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.cost import ConflictTable, conflicts
from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import reference
from sudoku_course.solvers.base import Budget, RunLedger
from sudoku_course.solvers.exact import solve_exact
from sudoku_course.solvers.local_search import free_cell_groups, hill_climb
from sudoku_course.spaces import BoxPermutationSpace, RowPermutationSpace

SPACES = {"rows": RowPermutationSpace, "boxes": BoxPermutationSpace}


def random_start(kind: str, seed: int) -> tuple[SudokuGrid, SudokuGrid]:
    """The témoin and a random full grid whose rows (or boxes) are permutations."""
    puzzle = reference()
    space = SPACES[kind](puzzle)
    return puzzle, space.decode(space.random(np.random.default_rng(seed)))


@pytest.mark.parametrize("kind", ["rows", "boxes"])
def test_groups_hold_the_free_cells_of_each_unit(kind):
    puzzle = reference()
    groups = free_cell_groups(puzzle, kind)
    units = puzzle.layout.rows if kind == "rows" else puzzle.layout.boxes
    free = set(np.flatnonzero(~puzzle.givens.ravel()).tolist())
    expected = [[cell for cell in unit if cell in free] for unit in units]
    assert groups == [group for group in expected if len(group) >= 2]


def test_groups_leave_out_units_with_fewer_than_two_free_cells():
    solution = solve_exact(reference()).grid
    cells = solution.cells.copy()
    cells[0, 0] = 0  # a single free cell in row 1
    cells[4, 3:6] = 0  # three free cells in row 5
    groups = free_cell_groups(SudokuGrid(cells), "rows")
    assert groups == [[39, 40, 41]]


def test_unknown_group_kind_is_refused():
    with pytest.raises(ValueError, match="unknown group kind 'columns'"):
        free_cell_groups(reference(), "columns")


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(["rows", "boxes"]), seed=st.integers(0, 10_000))
def test_climb_ends_at_a_local_optimum_and_keeps_the_invariant(kind, seed):
    puzzle, start = random_start(kind, seed)
    table = ConflictTable(start)
    groups = free_cell_groups(puzzle, kind)
    swaps = hill_climb(table, groups)
    end = table.to_grid(puzzle)
    assert table.cost == conflicts(end) <= conflicts(start)
    assert swaps >= (conflicts(start) > table.cost)
    assert (end.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert SPACES[kind](puzzle).is_valid(SPACES[kind](puzzle).encode(end))
    if table.cost:  # no swap inside a group improves any more
        assert all(table.delta_swap_cells(i, j) >= 0 for group in groups for i, j in combinations(group, 2))


def test_climb_counts_each_swap_tried_and_respects_the_budget():
    puzzle, start = random_start("rows", 3)
    unlimited, limited = RunLedger(Budget()), RunLedger(Budget(evaluations=10))
    hill_climb(ConflictTable(start), free_cell_groups(puzzle, "rows"), unlimited)
    hill_climb(ConflictTable(start), free_cell_groups(puzzle, "rows"), limited)
    pairs = sum(len(g) * (len(g) - 1) // 2 for g in free_cell_groups(puzzle, "rows"))
    assert unlimited.evaluations >= pairs  # at least one full pass
    assert limited.evaluations == 10


def test_climb_on_a_solved_grid_does_nothing():
    puzzle = reference()
    table = ConflictTable(solve_exact(puzzle).grid)
    run = RunLedger(Budget())
    assert hill_climb(table, free_cell_groups(puzzle, "rows"), run) == 0
    assert run.evaluations == 0 and table.cost == 0


def test_climb_stops_as_soon_as_the_grid_is_solved():
    puzzle = reference()
    solution = solve_exact(puzzle).grid
    cells = solution.cells.copy()
    row = 1
    free = np.flatnonzero(~puzzle.givens[row])
    a, b = free[0], free[1]
    cells[row, a], cells[row, b] = cells[row, b], cells[row, a]  # one swap away from the solution
    table = ConflictTable(SudokuGrid(cells, 3, puzzle.givens))
    assert hill_climb(table, free_cell_groups(puzzle, "rows")) == 1
    assert table.to_grid(puzzle) == solution
