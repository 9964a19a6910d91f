"""Engines of the cross-study: PermutationGA and MealpyGA (solvers/genetic.py), SpaceAnnealing (annealing.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_course.cost import conflicts, unit_conflicts
from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers import get_solver, solver_class
from sudoku_course.solvers.annealing import SpaceAnnealing
from sudoku_course.solvers.exact import solve_exact
from sudoku_course.solvers.genetic import MealpyGA, PermutationGA
from sudoku_course.spaces import RowPermutationSpace

SMALL = "1.3.3..22...4.21"  # a 4 x 4 puzzle with one solution
FAST = {  # label -> (solver, small settings): each run takes a fraction of a second
    "perm-ga": ("perm-ga", {"population_size": 20, "max_iterations": 40}),
    "perm-ga-boxes": ("perm-ga", {"space": "boxes", "population_size": 20, "max_iterations": 40}),
    "mealpy-ga": ("mealpy-ga", {"population_size": 10, "max_iterations": 15}),
    "mealpy-ga-keys": ("mealpy-ga", {"space": "random-key", "population_size": 10, "max_iterations": 15}),
    "annealing-rows": ("space-annealing", {"space": "rows", "chain_length": 20, "max_iterations": 40}),
    "annealing-continuous": ("space-annealing", {"space": "continuous", "chain_length": 20, "max_iterations": 20}),
    "annealing-keys": ("space-annealing", {"space": "random-key", "chain_length": 20, "max_iterations": 20}),
}
LABELS = list(FAST)


def build(label: str, **extra):
    name, params = FAST[label]
    return get_solver(name, **params, **extra)


def test_registry_names():
    assert solver_class("perm-ga") is PermutationGA
    assert solver_class("mealpy-ga") is MealpyGA
    assert solver_class("space-annealing") is SpaceAnnealing


@pytest.mark.parametrize(
    ("cls", "params", "message"),
    [
        (PermutationGA, {"space": "continuous"}, "unknown space 'continuous'"),
        (PermutationGA, {"population_size": 3}, "population_size >= 4"),
        (PermutationGA, {"elitism": 40}, "elitism"),
        (PermutationGA, {"mutation_rate": 1.5}, "mutation_rate"),
        (MealpyGA, {"space": "rows"}, "unknown space 'rows'"),
        (MealpyGA, {"population_size": 9}, "population_size >= 10"),
        (MealpyGA, {"mutation_rate": 0}, "crossover_rate and mutation_rate"),
        (SpaceAnnealing, {"space": "diagonals"}, "unknown space 'diagonals'"),
        (SpaceAnnealing, {"t0": 0.01}, "t0 > t_min > 0"),
        (SpaceAnnealing, {"chain_length": 0}, "at least 1"),
    ],
)
def test_bad_parameters_are_refused(cls, params, message):
    with pytest.raises(ValueError, match=message):
        cls(**params)


@pytest.mark.parametrize("label", LABELS)
def test_result_is_a_full_grid_keeping_the_givens_and_the_input(label):
    puzzle = load_bank("easy")[2]
    before = puzzle.copy()
    result = build(label).solve(puzzle, seed=3)
    assert puzzle == before and (puzzle.givens == before.givens).all()
    assert result.grid.is_complete() and (result.grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert result.cost == conflicts(result.grid)
    assert result.history == sorted(result.history, reverse=True)  # the best cost never gets worse
    assert result.history[-1] == result.cost
    if result.solved:
        assert result.grid == solve_exact(puzzle).grid


@pytest.mark.parametrize("label", ["perm-ga", "perm-ga-boxes", "annealing-rows", "annealing-keys"])
def test_row_or_box_valid_engines_never_leave_conflicts_in_their_units(label):
    result = build(label).solve(load_bank("easy")[2], seed=1)
    kind = "boxes" if label == "perm-ga-boxes" else "rows"
    assert unit_conflicts(result.grid)[kind] == 0


@pytest.mark.parametrize("label", LABELS)
def test_same_seed_same_run(label):
    first = build(label).solve(load_bank("easy")[3], seed=11)
    second = build(label).solve(load_bank("easy")[3], seed=11)
    assert first.grid == second.grid
    assert (first.evaluations, first.iterations, first.history) == (
        second.evaluations,
        second.iterations,
        second.history,
    )


@pytest.mark.parametrize("label", LABELS)
def test_budget_is_spent_exactly_when_the_puzzle_is_not_solved(label):
    budget = 100  # below every engine's own limit in FAST
    result = build(label).solve(load_bank("hard")[0], seed=0, budget=budget)
    assert not result.solved and result.evaluations == budget


@pytest.mark.parametrize("label", ["perm-ga", "mealpy-ga", "annealing-rows"])
def test_a_generation_costs_one_population(label):
    """Without a budget: the initial population (or state) plus one population (or chain) per iteration."""
    result = build(label).solve(load_bank("hard")[0], seed=0)
    size = {"perm-ga": 20, "mealpy-ga": 10, "annealing-rows": 20}[label]
    assert result.evaluations == size + size * result.iterations - (label == "annealing-rows") * (size - 1)


def test_annealing_counts_its_initial_state_and_each_move():
    result = get_solver("space-annealing", chain_length=5, max_iterations=3).solve(load_bank("hard")[0], seed=0)
    assert result.iterations == 3 and result.evaluations == 1 + 5 * 3


def test_annealing_schedule_runs_from_t0_to_t_min():
    solver = SpaceAnnealing(t0=2.0, t_min=0.1, max_iterations=5)
    temperatures = [solver.temperature(step) for step in range(5)]
    assert temperatures[0] == pytest.approx(2.0) and temperatures[-1] == pytest.approx(0.1)
    assert all(a > b for a, b in zip(temperatures, temperatures[1:], strict=False))


@pytest.mark.parametrize("label", ["perm-ga", "mealpy-ga"])
def test_observer_sees_each_generation_population(label):
    seen: list[np.ndarray] = []
    result = build(label, observer=seen.append).solve(load_bank("hard")[0], seed=0)
    size = {"perm-ga": 20, "mealpy-ga": 10}[label]
    assert len(seen) == result.iterations
    assert all(population.shape[0] == size for population in seen)


def test_observed_permutation_populations_stay_row_valid():
    seen: list[np.ndarray] = []
    puzzle = load_bank("easy")[2]
    build("perm-ga", observer=seen.append).solve(puzzle, seed=0)
    space = RowPermutationSpace(puzzle)
    assert all(space.is_valid(candidate) for population in seen for candidate in population)


def test_elitism_keeps_the_best_population_cost_from_rising():
    costs: list[int] = []
    puzzle = load_bank("medium")[0]
    space = RowPermutationSpace(puzzle)
    solver = get_solver(
        "perm-ga", population_size=10, max_iterations=30, observer=lambda pop: costs.append(min(map(space.cost, pop)))
    )
    solver.solve(puzzle, seed=2)
    assert costs == sorted(costs, reverse=True)


def test_engines_whose_rows_or_boxes_stay_valid_solve_a_small_grid():
    puzzle = SudokuGrid.from_string(SMALL)
    for label in ("perm-ga", "perm-ga-boxes", "mealpy-ga-keys", "annealing-rows", "annealing-keys"):
        result = build(label).solve(puzzle, seed=0)
        assert result.solved and result.grid == solve_exact(puzzle).grid, label


# ------------------------------------------------------------------ lesson targets on the témoin
def test_row_permutation_engines_solve_the_temoin_within_the_design_budget():
    puzzle, solution = reference(), solve_exact(reference()).grid
    annealing = get_solver("space-annealing", space="rows").solve(puzzle, seed=0, budget=8000)
    genetic = get_solver("perm-ga").solve(puzzle, seed=42, budget=8000)
    for result in (annealing, genetic):
        assert result.solved and result.grid == solution and result.evaluations < 8000


def test_mealpy_ga_on_rounded_reals_leaves_conflicts_and_row_duplicates():
    result = get_solver("mealpy-ga", population_size=20, max_iterations=30).solve(reference(), seed=0)
    assert result.cost > 0 and result.evaluations == 20 + 30 * 20
    assert unit_conflicts(result.grid)["rows"] > 0


def test_a_budget_spent_by_the_first_population_still_records_one_iteration():
    result = get_solver("perm-ga", population_size=20).solve(load_bank("hard")[0], seed=0, budget=15)
    assert result.evaluations == 15 and result.iterations == 1 and result.history == [result.cost]
