"""Lesson 01 (genetic algorithm): what the students import, the harness of the generation exercise.

`evolve` is the GA loop of the exercise: the solution notebook shows it and runs it on the student's
`next_generation`, exactly as the check does. `random_population` and `population_costs` are its parts.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ....cost import conflicts_of_many
from ....grid import SudokuGrid
from ..common import row_permuted_state

POPULATION_SIZE = 150


BUDGET = 15_000  # evaluations of one run of `evolve`: the first population and 99 generations


def random_population(puzzle: SudokuGrid, size: int, rng: np.random.Generator) -> np.ndarray:
    """`size` full grids of `puzzle` (shape size x n x n) whose rows hold a permutation of their missing digits."""
    return np.array([row_permuted_state(puzzle, rng) for _ in range(size)])


def population_costs(population: np.ndarray, box_size: int) -> np.ndarray:
    """The conflicts of each grid of the population (rows, columns and boxes)."""
    return conflicts_of_many(population, box_size)


def evolve(
    puzzle: SudokuGrid,
    next_generation: Callable,
    *,
    seed: int,
    population_size: int = POPULATION_SIZE,
    budget: int = BUDGET,
) -> dict:
    """The GA loop of the exercise: from a random population, call next_generation until a grid has no
    conflict left or the budget (evaluations of a grid's cost) cannot pay one more generation.

    Returns the best grid of the last population, its cost, the best cost of each generation (the first
    population included) and the evaluations spent.
    """
    rng = np.random.default_rng(seed)
    population = random_population(puzzle, population_size, rng)
    costs = population_costs(population, puzzle.box_size)
    evaluations, history = population_size, [int(costs.min())]
    while history[-1] > 0 and evaluations + population_size <= budget:
        population = np.asarray(next_generation(population, costs, puzzle.givens, rng))
        if population.shape != (population_size, puzzle.size, puzzle.size):
            raise ValueError(f"next_generation returned an array of shape {population.shape}")
        costs = population_costs(population, puzzle.box_size)
        evaluations += population_size
        history.append(int(costs.min()))
    return {
        "grid": population[int(np.argmin(costs))],
        "cost": history[-1],
        "history": history,
        "evaluations": evaluations,
    }
