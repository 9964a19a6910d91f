"""Tests of sudoku_course.cost: conflict counts, weights, givens duplicates and the ConflictTable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.cost import (
    ConflictTable,
    conflicts,
    conflicts_of_many,
    givens_conflicts,
    unit_conflicts,
    weighted_conflicts,
)
from sudoku_course.grid import SudokuGrid

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
SIDES = (4, 9, 16)


def solved_grid(n: int) -> SudokuGrid:
    """A solved n x n grid from the classic shifting pattern."""
    b = int(round(n**0.5))
    return SudokuGrid([[(b * (r % b) + r // b + c) % n + 1 for c in range(n)] for r in range(n)])


def reference_conflicts(cells: np.ndarray) -> int:
    """conflicts() written the slow, obvious way: n - len(set(unit)) for every unit."""
    n = cells.shape[0]
    b = int(round(n**0.5))
    boxes = [cells[r : r + b, c : c + b].ravel() for r in range(0, n, b) for c in range(0, n, b)]
    units = list(cells) + list(cells.T) + boxes
    return sum(n - len(set(unit.tolist()) - {0}) for unit in units)


def row_permutation_grid(n: int, rng: np.random.Generator) -> SudokuGrid:
    """A full grid whose rows are random permutations of 1..n (no givens)."""
    cells = np.array([rng.permutation(n) + 1 for _ in range(n)])
    return SudokuGrid(cells, givens=np.zeros((n, n), dtype=bool))


def arbitrary_grid(n: int, rng: np.random.Generator) -> SudokuGrid:
    """A full grid of independent random digits (no givens)."""
    return SudokuGrid(rng.integers(1, n + 1, size=(n, n)), givens=np.zeros((n, n), dtype=bool))


def filled_temoin(rng: np.random.Generator) -> tuple[SudokuGrid, SudokuGrid]:
    """The témoin and a full grid keeping its givens, each row a permutation of its missing digits."""
    puzzle = SudokuGrid.from_string(TEMOIN)
    cells = puzzle.cells.copy()
    for row in cells:
        missing = sorted(set(range(1, 10)) - set(row.tolist()))
        row[row == 0] = rng.permutation(missing)
    return puzzle, puzzle.with_cells(cells)


def table_cost(table: ConflictTable) -> int:
    """Full recount of the table's current cells."""
    n = table.size
    return conflicts(SudokuGrid(np.reshape(table.cells, (n, n)), givens=np.zeros((n, n), dtype=bool)))


# ----------------------------------------------------------------- conflicts
@pytest.mark.parametrize("n", SIDES)
def test_solved_grid_has_no_conflict(n):
    grid = solved_grid(n)
    assert grid.is_solved()
    assert conflicts(grid) == 0
    assert unit_conflicts(grid) == {"rows": 0, "columns": 0, "boxes": 0}


@pytest.mark.parametrize("n", SIDES)
def test_empty_grid_misses_every_digit_of_every_unit(n):
    grid = SudokuGrid(np.zeros((n, n), dtype=int))
    assert unit_conflicts(grid) == {"rows": n * n, "columns": n * n, "boxes": n * n}


def test_conflicts_of_a_known_grid():
    # Rows all equal to 1..9: rows fine; every column holds one digit 9 times; each box holds 3 digits.
    grid = SudokuGrid([list(range(1, 10))] * 9, givens=np.zeros((9, 9), dtype=bool))
    assert unit_conflicts(grid) == {"rows": 0, "columns": 9 * 8, "boxes": 9 * 6}
    assert conflicts(grid) == 9 * 8 + 9 * 6


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from(SIDES))
def test_conflicts_match_the_obvious_count(seed, n):
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, n + 1, size=(n, n))
    grid = SudokuGrid(cells, givens=np.zeros((n, n), dtype=bool))
    assert conflicts(grid) == reference_conflicts(cells)


# ----------------------------------------------------------------- weights
def test_weighted_conflicts_without_weights_is_the_plain_cost():
    grid = arbitrary_grid(9, np.random.default_rng(1))
    assert weighted_conflicts(grid) == conflicts(grid)
    assert weighted_conflicts(grid, None) == conflicts(grid)
    assert weighted_conflicts(grid, {}) == conflicts(grid)


def test_weighted_conflicts_weighs_each_kind_and_defaults_to_one():
    grid = arbitrary_grid(9, np.random.default_rng(2))
    per_kind = unit_conflicts(grid)
    assert weighted_conflicts(grid, {"rows": 0}) == per_kind["columns"] + per_kind["boxes"]
    expected = 2.5 * per_kind["rows"] + per_kind["columns"] + 0.5 * per_kind["boxes"]
    assert weighted_conflicts(grid, {"rows": 2.5, "boxes": 0.5}) == pytest.approx(expected)


def test_weighted_conflicts_rejects_an_unknown_kind():
    grid = solved_grid(9)
    with pytest.raises(ValueError, match="cols"):
        weighted_conflicts(grid, {"cols": 2.0})


# ----------------------------------------------------------------- givens
def test_valid_puzzle_has_no_givens_conflict():
    assert givens_conflicts(SudokuGrid.from_string(TEMOIN)) == 0
    assert givens_conflicts(SudokuGrid(np.zeros((9, 9), dtype=int))) == 0


def test_givens_conflicts_counts_each_duplicate_once_per_unit():
    cells = np.zeros((9, 9), dtype=int)
    cells[0, 0] = cells[0, 8] = 5  # same row, different columns and boxes
    grid = SudokuGrid(cells)
    assert givens_conflicts(grid) == 1
    cells[0, 1] = 5  # a third 5 in the row, also in the box of (0, 0)
    assert givens_conflicts(SudokuGrid(cells)) == 2 + 1
    cells[4, 0] = 5  # same column as (0, 0)
    assert givens_conflicts(SudokuGrid(cells)) == 2 + 1 + 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from(SIDES))
def test_on_a_full_grid_duplicates_equal_conflicts(seed, n):
    grid = arbitrary_grid(n, np.random.default_rng(seed))
    assert givens_conflicts(grid) == conflicts(grid)


# ----------------------------------------------------------------- ConflictTable
def test_table_needs_a_full_grid():
    with pytest.raises(ValueError, match="36 empty cells"):
        ConflictTable(SudokuGrid.from_string(TEMOIN))


@pytest.mark.parametrize("n", SIDES)
def test_table_starts_with_the_grid_cost_and_cells(n):
    rng = np.random.default_rng(n)
    for grid in (solved_grid(n), row_permutation_grid(n, rng), arbitrary_grid(n, rng)):
        table = ConflictTable(grid)
        assert table.size == n
        assert table.cost == conflicts(grid)
        assert table.cells == grid.cells.ravel().tolist()


@pytest.mark.parametrize("n", SIDES)
def test_row_swap_deltas_match_a_full_recount(n):
    rng = np.random.default_rng(100 + n)
    for _ in range(3):
        table = ConflictTable(row_permutation_grid(n, rng))
        for _ in range(1000):
            r, c1, c2 = (int(v) for v in rng.integers(n, size=3))
            before = table.cost
            delta = table.delta_swap(r, c1, c2)
            assert table.cost == before  # a delta changes nothing
            table.swap(r, c1, c2)
            assert table.cost == before + delta
            assert table.cost == table_cost(table)


@pytest.mark.parametrize("n", SIDES)
def test_any_cell_swap_deltas_match_a_full_recount(n):
    rng = np.random.default_rng(200 + n)
    for _ in range(3):
        table = ConflictTable(arbitrary_grid(n, rng))
        for _ in range(1000):
            i, j = (int(v) for v in rng.integers(n * n, size=2))
            before = table.cost
            delta = table.delta_swap_cells(i, j)
            table.swap_cells(i, j)
            assert table.cost == before + delta == table_cost(table)


@pytest.mark.parametrize("n", SIDES)
def test_a_cell_is_in_conflict_when_its_digit_repeats_in_one_of_its_units(n):
    rng = np.random.default_rng(300 + n)
    for grid in (solved_grid(n), arbitrary_grid(n, rng)):
        table = ConflictTable(grid)
        cells, units = grid.cells.ravel(), grid.layout.units
        for cell in range(n * n):
            repeated = any(cell in unit and (cells[list(unit)] == cells[cell]).sum() > 1 for unit in units)
            assert table.in_conflict(cell) == repeated
    assert not any(ConflictTable(solved_grid(n)).in_conflict(cell) for cell in range(n * n))


def test_box_swap_deltas_match_a_full_recount():
    rng = np.random.default_rng(3)
    grid = solved_grid(9)
    table = ConflictTable(grid)
    boxes = grid.layout.boxes
    for _ in range(2000):
        box = boxes[rng.integers(9)]
        i, j = (int(box[k]) for k in rng.choice(9, size=2, replace=False))
        delta = table.delta_swap_cells(i, j)
        before = table.cost
        table.swap_cells(i, j)
        assert table.cost == before + delta == table_cost(table)
        assert unit_conflicts(SudokuGrid(np.reshape(table.cells, (9, 9))))["boxes"] == 0


def test_row_swap_is_the_same_as_a_cell_swap():
    rng = np.random.default_rng(4)
    table = ConflictTable(arbitrary_grid(9, rng))
    for r in range(9):
        for c1 in range(9):
            for c2 in range(9):
                assert table.delta_swap(r, c1, c2) == table.delta_swap_cells(9 * r + c1, 9 * r + c2)


def test_swapping_a_cell_with_itself_changes_nothing():
    table = ConflictTable(arbitrary_grid(9, np.random.default_rng(5)))
    cells, cost = list(table.cells), table.cost
    assert table.delta_swap_cells(10, 10) == 0
    table.swap_cells(10, 10)
    assert (table.cells, table.cost) == (cells, cost)


def test_swap_exchanges_the_two_values():
    grid = solved_grid(9)
    table = ConflictTable(grid)
    table.swap(0, 0, 4)
    assert table.cells[0] == grid.cells[0, 4]
    assert table.cells[4] == grid.cells[0, 0]
    assert table.cells[1:4] == grid.cells[0, 1:4].tolist()


def test_swap_and_swap_back_restores_the_table():
    rng = np.random.default_rng(6)
    table = ConflictTable(row_permutation_grid(9, rng))
    cells, cost = list(table.cells), table.cost
    table.swap(2, 1, 7)
    table.swap(2, 1, 7)
    assert (table.cells, table.cost) == (cells, cost)
    assert table.cost == table_cost(table)


def test_temoin_row_swaps_and_to_grid():
    rng = np.random.default_rng(7)
    puzzle, start = filled_temoin(rng)
    table = ConflictTable(start)
    assert table.cost == conflicts(start)
    free_by_row = [np.flatnonzero(~puzzle.givens[r]) for r in range(9)]
    for _ in range(500):
        r = int(rng.integers(9))
        c1, c2 = (int(c) for c in rng.choice(free_by_row[r], size=2, replace=False))
        delta = table.delta_swap(r, c1, c2)
        before = table.cost
        table.swap(r, c1, c2)
        grid = table.to_grid(puzzle)
        assert table.cost == before + delta == conflicts(grid)
        assert unit_conflicts(grid)["rows"] == 0
        assert (grid.givens == puzzle.givens).all()
        assert (grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()


def test_to_grid_of_a_solved_table_is_solved_and_keeps_the_givens():
    puzzle = solved_grid(9)
    grid = ConflictTable(puzzle).to_grid(puzzle)
    assert grid.is_solved() and grid == puzzle and grid is not puzzle


def test_to_grid_refuses_cells_that_change_a_given():
    puzzle, start = filled_temoin(np.random.default_rng(8))
    table = ConflictTable(start)
    table.swap(0, 0, 1)  # (0, 0) holds the given 9, (0, 1) is free
    with pytest.raises(ValueError, match="given"):
        table.to_grid(puzzle)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.sampled_from(SIDES),
    moves=st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255)), min_size=1, max_size=30),
)
def test_property_cost_always_equals_a_recount(seed, n, moves):
    rng = np.random.default_rng(seed)
    table = ConflictTable(arbitrary_grid(n, rng) if seed % 2 else row_permutation_grid(n, rng))
    for i, j in moves:
        i, j = i % (n * n), j % (n * n)
        expected = table.cost + table.delta_swap_cells(i, j)
        table.swap_cells(i, j)
        assert table.cost == expected == table_cost(table)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from(SIDES), r=st.integers(0, 15), c=st.integers(0, 15))
def test_property_delta_is_symmetric_and_undone_by_the_reverse_swap(seed, n, r, c):
    table = ConflictTable(row_permutation_grid(n, np.random.default_rng(seed)))
    r, c1, c2 = r % n, c % n, (c * 7 + 3) % n
    delta = table.delta_swap(r, c1, c2)
    assert table.delta_swap(r, c2, c1) == delta
    table.swap(r, c1, c2)
    assert table.delta_swap(r, c1, c2) == -delta


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), box_size=st.sampled_from([2, 3, 4]))
def test_conflicts_of_many_matches_conflicts(seed, box_size):
    n = box_size * box_size
    grids = np.random.default_rng(seed).integers(1, n + 1, size=(5, n, n))
    expected = [conflicts(SudokuGrid(grid, box_size)) for grid in grids]
    assert conflicts_of_many(grids, box_size).tolist() == expected
    assert conflicts_of_many(grids.reshape(5, n * n), box_size).tolist() == expected
