"""The lesson 03 checks: each passes the reference answer and fails deliberately wrong answers."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from conftest import stub

from sudoku_course.cost import conflicts
from sudoku_course.grid import SudokuGrid
from sudoku_course.solvers.swarm import SwapPSO, WorkerExplorerSwarm
from sudoku_course.teaching.checks_swarm import (
    check_box_descent,
    check_grid_search,
    check_swarm_size_study,
    check_track_convergence,
)

pytestmark = pytest.mark.usefixtures("not_strict")


# ------------------------------------------------------------ reference answers (as in the solutions)
def outcomes(solver, puzzles, seeds, budget) -> dict:
    results = [solver.solve(puzzle, seed=seed, budget=budget) for puzzle in puzzles for seed in seeds]
    return {
        "success_rate": float(np.mean([r.solved for r in results])),
        "median_evaluations": float(np.median([r.evaluations for r in results])),
        "median_seconds": float(np.median([r.seconds for r in results])),
    }


def swarm_size_study(puzzles, sizes, seeds, budget):
    rows = [
        {"size": size, **outcomes(WorkerExplorerSwarm(population_size=size), puzzles, seeds, budget)} for size in sizes
    ]
    return pd.DataFrame(rows)


def track_convergence(puzzle, max_epochs, seed):
    costs = []
    solver = WorkerExplorerSwarm(population_size=100, max_iterations=max_epochs, max_attempts=1)
    solver.solve(puzzle, seed=seed, callback=lambda epoch, best: costs.append(best))
    return costs


def box_swaps(grid: SudokuGrid):
    """Pairs of free flat cells of the same box."""
    free = ~grid.givens.ravel()
    for box in grid.layout.boxes:
        yield from itertools.combinations([cell for cell in box if free[cell]], 2)


def swapped(grid: SudokuGrid, i: int, j: int) -> SudokuGrid:
    cells = grid.cells.ravel().copy()
    cells[i], cells[j] = cells[j], cells[i]
    return grid.with_cells(cells.reshape(grid.cells.shape))


def box_descent(grid):
    current = grid.copy()
    while True:
        neighbours = [swapped(current, i, j) for i, j in box_swaps(current)]
        best = min(neighbours, key=conflicts, default=current)
        if conflicts(best) >= conflicts(current):
            return current
        current = best


def grid_search(param_grid, puzzles, seeds, budget):
    rows = []
    for values in itertools.product(*param_grid.values()):
        params = dict(zip(param_grid, values, strict=True))
        rows.append({**params, **outcomes(SwapPSO(**params), puzzles, seeds, budget)})
    table = pd.DataFrame(rows)
    return table.sort_values(["success_rate", "median_evaluations"], ascending=[False, True], kind="stable")


# ------------------------------------------------------------ exercise 1
def test_swarm_size_study_reference_passes():
    assert check_swarm_size_study(swarm_size_study).ok


def test_swarm_size_study_stub_is_not_done():
    report = check_swarm_size_study(stub)
    assert report.stub and not report.ok


@pytest.mark.parametrize(
    "wrong",
    [
        lambda puzzles, sizes, seeds, budget: swarm_size_study(puzzles, sizes, seeds, budget * 2),  # other budget
        lambda puzzles, sizes, seeds, budget: swarm_size_study(puzzles, sizes, seeds[:1], budget),  # first seed only
        lambda puzzles, sizes, seeds, budget: swarm_size_study(puzzles, sorted(sizes), seeds, budget),  # reordered
        lambda puzzles, sizes, seeds, budget: swarm_size_study(puzzles, sizes, seeds, budget).to_dict(),  # not a table
    ],
    ids=["budget", "seeds", "order", "dict"],
)
def test_swarm_size_study_wrong_answers_fail(wrong):
    assert not check_swarm_size_study(wrong).ok


# ------------------------------------------------------------ exercise 2
def test_track_convergence_reference_passes():
    assert check_track_convergence(track_convergence).ok


@pytest.mark.parametrize(
    "wrong",
    [
        lambda puzzle, max_epochs, seed: (
            WorkerExplorerSwarm(max_iterations=max_epochs, max_attempts=1).solve(puzzle, seed=seed).history
        ),  # 200 organisms instead of 100
        lambda puzzle, max_epochs, seed: (track_convergence(puzzle, max_epochs, seed) + [0] * max_epochs)[:max_epochs],
        lambda puzzle, max_epochs, seed: track_convergence(puzzle, max_epochs, seed)[::-1],
    ],
    ids=["other-swarm", "padded", "reversed"],
)
def test_track_convergence_wrong_answers_fail(wrong):
    assert not check_track_convergence(wrong).ok


# ------------------------------------------------------------ exercise 3
def test_box_descent_reference_passes():
    assert check_box_descent(box_descent).ok


def one_step(grid):
    """Only the first improving swap: not a local optimum."""
    for i, j in box_swaps(grid):
        if conflicts(swapped(grid, i, j)) < conflicts(grid):
            return swapped(grid, i, j)
    return grid.copy()


def row_descent(grid):
    """Swaps inside rows: boxes lose their digits."""
    current, n = grid.copy(), grid.size
    free = ~grid.givens.ravel()
    pairs = [p for r in range(n) for p in itertools.combinations([r * n + c for c in range(n) if free[r * n + c]], 2)]
    improved = True
    while improved:
        improved = False
        for i, j in pairs:
            if conflicts(swapped(current, i, j)) < conflicts(current):
                current, improved = swapped(current, i, j), True
    return current


def givens_moved(grid):
    """Swaps a given with a free cell of its box."""
    cells = grid.cells.copy()
    cells[0, 0], cells[0, 1] = cells[0, 1], cells[0, 0]
    return SudokuGrid(cells, grid.box_size, grid.givens)


@pytest.mark.parametrize(
    "wrong",
    [lambda grid: grid.copy(), one_step, row_descent, givens_moved, lambda grid: grid.cells],
    ids=["unchanged", "one-step", "rows", "givens", "array"],
)
def test_box_descent_wrong_answers_fail(wrong):
    assert not check_box_descent(wrong).ok


# ------------------------------------------------------------ exercise 4
def test_grid_search_reference_passes():
    assert check_grid_search(grid_search).ok


@pytest.mark.parametrize(
    "wrong",
    [
        lambda *args: grid_search(*args).sort_index(ascending=False),  # not sorted best first
        lambda grid, puzzles, seeds, budget: grid_search(grid, puzzles, seeds[:1], budget),  # first seed only
        lambda *args: grid_search(*args).drop(columns=["success_rate"]),
        lambda grid, puzzles, seeds, budget: grid_search({**grid, "c2": [2.0]}, puzzles, seeds, budget),
    ],
    ids=["unsorted", "seeds", "column", "grid"],
)
def test_grid_search_wrong_answers_fail(wrong):
    assert not check_grid_search(wrong).ok


def test_a_failed_check_raises_in_strict_mode(monkeypatch):
    monkeypatch.setenv("SUDOKU_COURSE_STRICT", "1")
    with pytest.raises(AssertionError, match="box_descent"):
        check_box_descent(lambda grid: grid.copy())
