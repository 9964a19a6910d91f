"""The three swarms of lesson 03 (solvers/swarm.py) and the swap algebra of the swap PSO."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.cost import conflicts
from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers import get_solver, solver_class
from sudoku_course.solvers.exact import solve_exact
from sudoku_course.solvers.swarm import (
    MealpyPSO,
    RowSwap,
    SwapPSO,
    WorkerExplorerSwarm,
    apply_velocity,
    scale_velocity,
    velocity_difference,
)
from sudoku_course.spaces import RowPermutationSpace

SMALL = "1.3.3..22...4.21"  # a 4 x 4 puzzle with one solution
FAST = {  # small settings, so that each run takes a fraction of a second
    "swarm": {"population_size": 40, "max_iterations": 200, "max_restarts": 1},
    "swap-pso": {"population_size": 20, "max_iterations": 60},
    "memetic": {"population_size": 20, "max_iterations": 60, "local_search_every": 10},
    "mealpy-continuous": {"population_size": 10, "max_iterations": 15},
    "mealpy-random-key": {"space": "random-key", "population_size": 10, "max_iterations": 15},
}


def build(label: str):
    name = {"memetic": "swap-pso", "mealpy-continuous": "mealpy-pso", "mealpy-random-key": "mealpy-pso"}
    return get_solver(name.get(label, label), **FAST[label])


def row_grids(seed: int, count: int = 2) -> list[np.ndarray]:
    """Random grids of the témoin whose rows are permutations (positions of the swap PSO)."""
    space, rng = RowPermutationSpace(reference()), np.random.default_rng(seed)
    return [space.decode(space.random(rng)).cells for _ in range(count)]


# ------------------------------------------------------------------ registry and parameters
def test_registry_names():
    assert solver_class("swarm") is WorkerExplorerSwarm
    assert solver_class("swap-pso") is SwapPSO
    assert solver_class("mealpy-pso") is MealpyPSO


@pytest.mark.parametrize(
    ("cls", "params", "message"),
    [
        (WorkerExplorerSwarm, {"population_size": 10, "worker_ratio": 1.0}, "at least one worker and one explorer"),
        (WorkerExplorerSwarm, {"max_age": 0}, "max_age must be at least 1"),
        (WorkerExplorerSwarm, {"mutation_rate": 2}, "mutation_rate must lie in"),
        (WorkerExplorerSwarm, {"stagnation": 0}, "stagnation"),
        (WorkerExplorerSwarm, {"max_restarts": -1}, "max_restarts"),
        (SwapPSO, {"population_size": 0}, "at least 1"),
        (SwapPSO, {"c1": -1}, ">= 0"),
        (SwapPSO, {"local_search_every": -2}, "local_search_every"),
        (MealpyPSO, {"space": "cells"}, "unknown space 'cells'"),
        (MealpyPSO, {"population_size": 3}, "population_size >= 5"),
    ],
)
def test_bad_parameters_are_refused(cls, params, message):
    with pytest.raises(ValueError, match=message):
        cls(**params)


# ------------------------------------------------------------------ swap algebra
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), order_seed=st.integers(0, 10_000))
def test_position_plus_difference_reaches_the_target(seed, order_seed):
    x, p = row_grids(seed)
    order = np.random.default_rng(order_seed).permutation(9)
    for velocity in (velocity_difference(p, x), velocity_difference(p, x, order)):
        assert np.array_equal(apply_velocity(x, velocity), p)
        assert len(velocity) <= int((x != p).sum())  # at most one swap per misplaced cell
        touched = {(s.row, col) for s in velocity for col in (s.col_a, s.col_b)}
        assert not any(reference().givens[cell] for cell in touched)  # givens never move


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_difference_of_a_position_with_itself_is_empty(seed):
    (x,) = row_grids(seed, 1)
    assert velocity_difference(x, x) == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 60))
def test_applying_a_concatenation_applies_one_list_then_the_other(seed, cut):
    x, p, q = row_grids(seed, 3)
    velocity = velocity_difference(p, x) + velocity_difference(q, x)
    first, second = velocity[:cut], velocity[cut:]
    assert np.array_equal(apply_velocity(x, velocity), apply_velocity(apply_velocity(x, first), second))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_moves_keep_each_row_a_permutation_and_leave_the_input_alone(seed):
    x, p, q = row_grids(seed, 3)
    before = x.copy()
    moved = apply_velocity(x, velocity_difference(p, q))  # a velocity computed elsewhere still keeps rows valid
    assert np.array_equal(x, before)
    assert np.array_equal(np.sort(moved, axis=1), np.sort(x, axis=1))
    assert np.array_equal(moved[reference().givens], x[reference().givens])


@settings(max_examples=50, deadline=None)
@given(length=st.integers(0, 30), k=st.floats(0, 4, allow_nan=False))
def test_scaling_truncates_or_repeats(length, k):
    velocity = [RowSwap(i % 9, 0, 1 + i % 8) for i in range(length)]
    scaled = scale_velocity(k, velocity)
    assert len(scaled) == int(k * length)
    assert all(scaled[i] == velocity[i % length] for i in range(len(scaled)))
    if k <= 1:
        assert scaled == velocity[: len(scaled)]


def test_scaling_by_one_and_by_zero():
    velocity = [RowSwap(0, 1, 2), RowSwap(3, 4, 5), RowSwap(6, 7, 8)]
    assert scale_velocity(1, velocity) == velocity
    assert scale_velocity(0, velocity) == []
    assert scale_velocity(2, velocity) == velocity + velocity
    assert scale_velocity(0.5, []) == []
    with pytest.raises(ValueError, match="k >= 0"):
        scale_velocity(-0.5, velocity)


def test_difference_refuses_rows_with_other_digits():
    x, p = row_grids(1)
    p = p.copy()
    p[2, 0] = 0  # row 3 of p now holds a digit that x does not
    with pytest.raises(ValueError, match="row 3"):
        velocity_difference(p, x)


# ------------------------------------------------------------------ solver contract
@pytest.mark.parametrize("label", list(FAST))
def test_contract_on_the_small_puzzle(label):
    puzzle = SudokuGrid.from_string(SMALL)
    before = puzzle.copy()
    first = build(label).solve(puzzle, seed=4)
    second = build(label).solve(puzzle, seed=4)
    assert puzzle == before and (puzzle.givens == before.givens).all()  # input untouched
    assert (first.grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert first.grid.is_complete() and first.cost == conflicts(first.grid)
    assert first.grid == second.grid and first.evaluations == second.evaluations
    assert first.history == second.history
    if first.solved:
        assert first.grid == solve_exact(puzzle).grid


@pytest.mark.parametrize("label", ["swarm", "swap-pso", "memetic", "mealpy-random-key"])
def test_same_seed_same_run_on_the_temoin(label):
    first = build(label).solve(reference(), seed=11)
    second = build(label).solve(reference(), seed=11)
    assert first.grid == second.grid
    assert (first.evaluations, first.iterations, first.history) == (
        second.evaluations,
        second.iterations,
        second.history,
    )


@pytest.mark.parametrize(
    ("solver", "slack"),
    [
        (WorkerExplorerSwarm(population_size=40), 2 * 40 + 1),
        (SwapPSO(population_size=20), 0),
        (SwapPSO(population_size=20, local_search_every=2), 0),
        (MealpyPSO(population_size=10, max_iterations=100), 0),
    ],
    ids=["swarm", "swap-pso", "memetic", "mealpy"],
)
def test_budget_is_respected(solver, slack):
    """The swap PSO and mealpy stop exactly; the worker swarm may finish its last epoch."""
    budget = 500
    result = solver.solve(load_bank("easy")[1], seed=0, budget=budget)
    assert not result.solved
    assert budget <= result.evaluations <= budget + slack


@pytest.mark.parametrize("label", ["swarm", "swap-pso", "mealpy-continuous"])
def test_callback_sees_every_iteration_and_can_stop(label):
    seen = []
    result = build(label).solve(load_bank("easy")[1], seed=0, callback=lambda i, cost: seen.append(cost) or i == 3)
    assert result.iterations == 3 and seen == result.history
    assert seen == sorted(seen, reverse=True)  # the best cost never gets worse


# ------------------------------------------------------------------ lesson targets on small cases
def test_worker_swarm_solves_the_temoin():
    result = get_solver("swarm").solve(reference(), seed=0)
    assert result.solved and result.grid == solve_exact(reference()).grid


def test_worker_swarm_stagnates_at_a_few_conflicts():
    """Easy puzzle 4, one short attempt: the hive stalls two conflicts from a solution."""
    result = get_solver("swarm", max_iterations=600, max_restarts=0).solve(load_bank("easy")[4], seed=0)
    assert 1 <= result.cost <= 4
    assert result.history[-1] == result.history[-200]  # no progress over the last 200 epochs


def test_worker_swarm_restarts_and_polishes_on_stagnation():
    solver = get_solver("swarm", population_size=40, max_iterations=100, max_restarts=2, stagnation=20)
    result = solver.solve(load_bank("easy")[4], seed=0)
    assert result.restarts == 2 and result.stats["local_searches"] > 0


def test_memetic_swap_pso_solves_the_temoin_in_fewer_iterations_than_the_pure_one():
    puzzle, solution = reference(), solve_exact(reference()).grid
    for seed in (0, 1):
        memetic = get_solver("swap-pso", local_search_every=25).solve(puzzle, seed=seed)
        assert memetic.solved and memetic.grid == solution
        assert memetic.stats["local_searches"] >= 1
    pure = get_solver("swap-pso").solve(puzzle, seed=0)
    assert pure.solved and pure.grid == solution
    assert pure.stats["local_searches"] == 0 and pure.iterations > memetic.iterations


def test_mealpy_on_the_continuous_space_leaves_conflicts(capsys):
    for seed in (0, 1):
        result = get_solver("mealpy-pso", population_size=20, max_iterations=30).solve(reference(), seed=seed)
        assert result.cost > 0 and result.evaluations == 20 + 30 * 20
    assert capsys.readouterr().out == ""  # mealpy stays silent
