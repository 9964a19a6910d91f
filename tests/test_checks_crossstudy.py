"""The lesson 04 checks: each passes the reference answer and fails deliberately wrong answers."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import stub

from sudoku_course.crossstudy import GENERATIONS, POPULATION, SEEDS, CrossDesign, cross_table, run_design, verdict
from sudoku_course.grid import InvalidPuzzleError, as_grid
from sudoku_course.puzzles import reference
from sudoku_course.teaching.checks_crossstudy import (
    check_annealing_design,
    check_count_distinct_grids,
    check_cross_study,
    check_grid_change_rate,
)

pytestmark = pytest.mark.usefixtures("not_strict")


# ------------------------------------------------------------ reference answers (as in the solutions)
def cross_study(puzzle, seeds=SEEDS, population=POPULATION, generations=GENERATIONS):
    design = CrossDesign({"grille": puzzle}, seeds=tuple(seeds), population=population, generations=generations)
    table = cross_table(run_design(design))
    return table, verdict(table)


def annealing_design(puzzle, seeds=SEEDS):
    return CrossDesign({"grille": puzzle}, algorithms=("PSO", "GA", "SA"), seeds=tuple(seeds))


def grid_change_rate(space, seed, samples=1000):
    rng = np.random.default_rng(seed)
    changed = 0
    for _ in range(samples):
        start = space.random(rng)
        changed += space.decode(space.neighbour(start, rng)) != space.decode(start)
    return changed / samples


def count_distinct_grids(space, population):
    return len({space.decode(candidate).to_string() for candidate in population})


# ------------------------------------------------------------ wrong answers
def cross_study_means(puzzle, seeds=SEEDS, population=POPULATION, generations=GENERATIONS):
    """Reads the table with means instead of medians."""
    design = CrossDesign({"grille": puzzle}, seeds=tuple(seeds), population=population, generations=generations)
    runs = run_design(design)
    table = cross_table(runs)
    table["median"] = runs.groupby(["representation", "algorithm"], sort=False)["cost"].mean().to_numpy()
    return table, verdict(table)


def cross_study_fixed_seeds(puzzle, seeds=SEEDS, population=POPULATION, generations=GENERATIONS):
    """Ignores the seeds it is given."""
    return cross_study(puzzle, SEEDS[:1], population, generations)


def cross_study_tolerant(puzzle, seeds=SEEDS, population=POPULATION, generations=GENERATIONS):
    """Swallows a reading error and silently studies the témoin instead."""
    try:
        grid = as_grid(puzzle)
    except InvalidPuzzleError:
        grid = reference()
    return cross_study(grid, seeds, population, generations)


def annealing_design_smaller_budget(puzzle, seeds=SEEDS):
    return CrossDesign({"grille": puzzle}, algorithms=("PSO", "GA", "SA"), seeds=tuple(seeds), generations=100)


def annealing_design_other_seeds(puzzle, seeds=SEEDS):
    return CrossDesign({"grille": puzzle}, algorithms=("PSO", "GA", "SA"))


def annealing_design_sa_only_on_r2(puzzle, seeds=SEEDS):
    return CrossDesign({"grille": puzzle}, representations=("R2",), algorithms=("PSO", "GA", "SA"), seeds=seeds)


def change_rate_of_the_candidate(space, seed, samples=1000):
    """Compares candidate vectors instead of decoded grids: every real step counts as a change."""
    rng = np.random.default_rng(seed)
    changed = 0
    for _ in range(samples):
        start = space.random(rng)
        changed += not np.array_equal(space.neighbour(start, rng), start)
    return changed / samples


def change_rate_count(space, seed, samples=1000):
    """Returns the number of changes, not the share."""
    return grid_change_rate(space, seed, samples) * samples


def distinct_vectors(space, population):
    """Counts distinct candidate vectors, not decoded grids."""
    return len({tuple(np.asarray(candidate).tolist()) for candidate in population})


def distinct_with_duplicates(space, population):
    """Forgets to remove duplicates."""
    return len(population)


# ------------------------------------------------------------ the checks
def test_cross_study_check():
    assert check_cross_study(cross_study).ok
    assert check_cross_study(stub).stub
    for wrong in (cross_study_means, cross_study_fixed_seeds, cross_study_tolerant):
        assert not check_cross_study(wrong).ok, wrong.__name__


def test_annealing_design_check():
    assert check_annealing_design(annealing_design).ok
    assert check_annealing_design(stub).stub
    for wrong in (annealing_design_smaller_budget, annealing_design_other_seeds, annealing_design_sa_only_on_r2):
        assert not check_annealing_design(wrong).ok, wrong.__name__


def test_grid_change_rate_check():
    assert check_grid_change_rate(grid_change_rate).ok
    assert check_grid_change_rate(stub).stub
    for wrong in (change_rate_of_the_candidate, change_rate_count):
        assert not check_grid_change_rate(wrong).ok, wrong.__name__


def test_count_distinct_grids_check():
    assert check_count_distinct_grids(count_distinct_grids).ok
    assert check_count_distinct_grids(stub).stub
    for wrong in (distinct_vectors, distinct_with_duplicates):
        assert not check_count_distinct_grids(wrong).ok, wrong.__name__


def test_a_failed_check_raises_in_strict_mode(monkeypatch):
    monkeypatch.setenv("SUDOKU_COURSE_STRICT", "1")
    with pytest.raises(AssertionError):
        check_count_distinct_grids(distinct_vectors)
