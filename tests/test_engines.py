"""Engines of the cross-study: SpaceGA and MealpyGA (solvers/genetic.py), SpacePSO (swarm.py), SpaceAnnealing
(annealing.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_course.cost import conflicts, unit_conflicts
from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers import get_solver, solver_class
from sudoku_course.solvers.annealing import SpaceAnnealing
from sudoku_course.solvers.exact import solve_exact
from sudoku_course.solvers.genetic import MealpyGA, SpaceGA
from sudoku_course.solvers.swarm import SpacePSO
from sudoku_course.spaces import SPACES, RowPermutationSpace

SMALL = "1.3.3..22...4.21"  # a 4 x 4 puzzle with one solution
FAST = {  # label -> (solver, small settings): each run takes a fraction of a second
    "ga-rows": ("space-ga", {"population_size": 20, "max_iterations": 40}),
    "ga-boxes": ("space-ga", {"space": "boxes", "population_size": 20, "max_iterations": 40}),
    "ga-continuous": ("space-ga", {"space": "continuous", "population_size": 10, "max_iterations": 15}),
    "ga-keys": ("space-ga", {"space": "random-key", "population_size": 10, "max_iterations": 15}),
    "pso-rows": ("space-pso", {"population_size": 10, "max_iterations": 20}),
    "pso-cells": ("space-pso", {"space": "cells", "population_size": 10, "max_iterations": 15}),
    "pso-continuous": ("space-pso", {"space": "continuous", "population_size": 10, "max_iterations": 15}),
    "pso-keys": ("space-pso", {"space": "random-key", "population_size": 10, "max_iterations": 15}),
    "mealpy-ga": ("mealpy-ga", {"population_size": 10, "max_iterations": 15}),
    "annealing-rows": ("space-annealing", {"space": "rows", "chain_length": 20, "max_iterations": 40}),
    "annealing-continuous": ("space-annealing", {"space": "continuous", "chain_length": 20, "max_iterations": 20}),
    "annealing-keys": ("space-annealing", {"space": "random-key", "chain_length": 20, "max_iterations": 20}),
}
LABELS = list(FAST)
GENERIC = ("space-ga", "space-pso", "space-annealing")


def build(label: str, **extra):
    name, params = FAST[label]
    return get_solver(name, **params, **extra)


def test_registry_names():
    assert solver_class("space-ga") is SpaceGA
    assert solver_class("space-pso") is SpacePSO
    assert solver_class("space-annealing") is SpaceAnnealing
    assert solver_class("mealpy-ga") is MealpyGA


@pytest.mark.parametrize(
    ("cls", "params", "message"),
    [
        (SpaceGA, {"space": "diagonals"}, "unknown space 'diagonals'"),
        (SpaceGA, {"population_size": 1}, "population_size >= 2"),
        (SpaceGA, {"elitism": 40}, "elitism"),
        (SpaceGA, {"mutation_rate": 1.5}, "mutation_rate"),
        (SpaceGA, {"crossover_rate": -0.1}, "crossover_rate"),
        (SpaceGA, {"tournament_size": 0}, "tournament_size"),
        (SpacePSO, {"space": "diagonals"}, "unknown space 'diagonals'"),
        (SpacePSO, {"population_size": 0}, "at least 1"),
        (SpacePSO, {"c1": -1}, ">= 0"),
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


@pytest.mark.parametrize("name", GENERIC)
@pytest.mark.parametrize("space", list(SPACES))
def test_every_generic_engine_runs_in_every_space(name, space):
    size = {"chain_length" if name == "space-annealing" else "population_size": 6}
    puzzle = load_bank("easy")[2]
    result = get_solver(name, space=space, max_iterations=5, **size).solve(puzzle, seed=0)
    assert result.grid.is_complete() and (result.grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert result.solved or result.evaluations == 6 * 5


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


@pytest.mark.parametrize("label", ["ga-rows", "ga-boxes", "ga-keys", "pso-rows", "pso-keys", "annealing-rows"])
def test_row_or_box_valid_engines_never_leave_conflicts_in_their_units(label):
    result = build(label).solve(load_bank("easy")[2], seed=1)
    kind = "boxes" if label == "ga-boxes" else "rows"
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


@pytest.mark.parametrize("name", GENERIC)
def test_generic_engines_spend_their_own_budget_whatever_they_are_given(name):
    """population_size x max_iterations (chain_length x max_iterations): without a budget, or a larger one."""
    size = {"chain_length" if name == "space-annealing" else "population_size": 10}
    solver = get_solver(name, space="rows", max_iterations=12, **size)
    for budget in (None, 10_000):
        result = solver.solve(load_bank("hard")[0], seed=0, budget=budget)
        assert not result.solved and result.evaluations == 10 * 12


def test_each_ga_generation_costs_the_population_but_its_elite():
    """The first population, then population_size - elitism children per generation, one iteration each."""
    result = get_solver("space-ga", population_size=10, max_iterations=8, elitism=3).solve(load_bank("hard")[0], seed=0)
    generations = result.iterations - 1
    assert result.evaluations == 80 and generations == -(-(80 - 10) // 7)  # the last generation cut short


def test_ga_observer_sees_each_population_and_the_elite_keeps_the_best():
    seen: list[np.ndarray] = []
    puzzle = load_bank("medium")[0]
    result = get_solver("space-ga", population_size=10, max_iterations=30, observer=seen.append).solve(puzzle, seed=2)
    space = RowPermutationSpace(puzzle)
    assert len(seen) == result.iterations and seen[0].shape == (10, space.dimension)
    assert all(space.is_valid(candidate) for population in seen for candidate in population)
    best = [min(map(space.cost, population)) for population in seen]
    assert best == sorted(best, reverse=True) and best[-1] == result.cost


def test_a_tournament_of_the_whole_population_picks_the_best():
    ga = SpaceGA(population_size=5, tournament_size=200)
    costs = [7, 3, 9, 4, 8]
    assert {ga.tournament(costs, np.random.default_rng(seed)) for seed in range(10)} == {1}


def test_without_crossover_nor_mutation_the_ga_only_copies_candidates():
    puzzle = load_bank("medium")[0]
    seen: list[np.ndarray] = []
    solver = SpaceGA(population_size=8, max_iterations=6, crossover_rate=0, mutation_rate=0, observer=seen.append)
    solver.solve(puzzle, seed=4)
    first = {tuple(candidate) for candidate in seen[0]}
    assert all({tuple(candidate) for candidate in population} <= first for population in seen)


def test_pso_inertia_falls_from_start_to_end():
    pso = SpacePSO(inertia_start=0.9, inertia_end=0.4, max_iterations=6)
    assert [round(pso.inertia(t), 10) for t in range(1, 7)] == [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    assert SpacePSO(max_iterations=1).inertia(1) == 0.9


@pytest.mark.parametrize("space", ["rows", "continuous"])
def test_a_swarm_without_pulls_nor_inertia_stays_where_it_started(space):
    """With c1 = c2 = 0 and no inertia, every velocity is zero: each iteration re-evaluates the same swarm."""
    solver = SpacePSO(space=space, population_size=5, max_iterations=4, inertia_start=0, inertia_end=0, c1=0, c2=0)
    result = solver.solve(load_bank("hard")[0], seed=1)
    assert result.iterations == 4 and len(set(result.history)) == 1


def test_annealing_counts_its_initial_state_and_each_move():
    result = get_solver("space-annealing", chain_length=5, max_iterations=3).solve(load_bank("hard")[0], seed=0)
    assert result.iterations == 3 and result.evaluations == 5 * 3  # the first state, then 14 moves


def test_annealing_schedule_runs_from_t0_to_t_min():
    solver = SpaceAnnealing(t0=2.0, t_min=0.1, max_iterations=5)
    temperatures = [solver.temperature(step) for step in range(5)]
    assert temperatures[0] == pytest.approx(2.0) and temperatures[-1] == pytest.approx(0.1)
    assert all(a > b for a, b in zip(temperatures, temperatures[1:], strict=False))


def test_mealpy_observer_sees_each_generation_population():
    seen: list[np.ndarray] = []
    result = build("mealpy-ga", observer=seen.append).solve(load_bank("hard")[0], seed=0)
    assert len(seen) == result.iterations and all(population.shape[0] == 10 for population in seen)


def test_engines_whose_rows_or_boxes_stay_valid_solve_a_small_grid():
    puzzle = SudokuGrid.from_string(SMALL)
    for label in ("ga-rows", "ga-boxes", "ga-keys", "pso-rows", "annealing-rows", "annealing-keys"):
        result = build(label).solve(puzzle, seed=0)
        assert result.solved and result.grid == solve_exact(puzzle).grid, label


# ------------------------------------------------------------------ lesson targets on the témoin
def test_row_permutation_engines_solve_the_temoin_within_the_design_budget():
    puzzle, solution = reference(), solve_exact(reference()).grid
    for name in GENERIC:
        result = get_solver(name, space="rows").solve(puzzle, seed=0, budget=8000)
        assert result.solved and result.grid == solution and result.evaluations < 8000, name


def test_mealpy_ga_on_rounded_reals_leaves_conflicts_and_row_duplicates():
    result = get_solver("mealpy-ga", population_size=20, max_iterations=30).solve(reference(), seed=0)
    assert result.cost > 0 and result.evaluations == 20 + 30 * 20
    assert unit_conflicts(result.grid)["rows"] > 0


def test_a_budget_spent_by_the_first_population_still_records_one_iteration():
    result = get_solver("space-ga", population_size=20).solve(load_bank("hard")[0], seed=0, budget=15)
    assert result.evaluations == 15 and result.iterations == 1 and result.history == [result.cost]
