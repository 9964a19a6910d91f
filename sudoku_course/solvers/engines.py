"""Generic engines for the representation-versus-algorithm study (lesson 04): one algorithm, any space.

Each engine takes the representation as a parameter (a space name of `spaces.SPACES`) and
evaluates every candidate through the same instrumented cost: the conflicts of the
decoded grid, one evaluation counted in the run per call. So two engines given the
same budget spend the same number of evaluations, whatever the representation.

- `PermutationGA` ("perm-ga"): a small generational GA of our own on a permutation
  space (rows by default): segment-wise uniform crossover, swap mutation, elitism.
- `MealpyGA` ("mealpy-ga"): mealpy's BaseGA on a continuous encoding
  ("continuous": one real per free cell, rounded down; "random-key": keys ranked per row).
- `SpaceAnnealing` ("space-annealing"): simulated annealing whose move is the
  space's own `neighbour` (a swap in a permutation space, a gaussian step on one
  coordinate in the continuous space, a new key in the random-key space).

The population engines call `observer(population)` after each generation when one
is given (a 2-D array, one candidate per row): the cross-study uses it to measure
how many distinct grids a population really holds.
"""

from __future__ import annotations

import math

import numpy as np

from ..grid import SudokuGrid
from ..spaces import CONTINUOUS_SPACES, PERMUTATION_SPACES, PermutationSpace, space_class
from .base import Run, Solver
from .mealpy_adapter import CountedObjective, Observer, run_mealpy

MIN_MEALPY_GA_POPULATION = 10
"""mealpy's GA draws tournaments of 20 % and 10 % of its population: below 10 it fails."""


# ======================================================================================
# A generational GA on permutations (our code)
# ======================================================================================
class PermutationGA(Solver):
    """A generational GA on a permutation space: every row (or box) stays a permutation.

    Lesson 04, section 3 (quatre moteurs, un même budget).

    One generation breeds `population_size` children, each from two parents
    drawn among the better half of the population (truncation selection):

    - crossover: each segment (the free cells of one row, or of one box) is
      copied whole from one parent or the other, with probability 1/2;
    - mutation: with probability `mutation_rate`, a swap of two free cells of
      one segment (the space's `neighbour` move).

    The next population is the `elitism` best parents plus the best children.
    Every child is evaluated once: a generation costs `population_size`
    evaluations, like a generation of a PSO or of mealpy's GA.
    """

    name = "perm-ga"

    def __init__(
        self,
        space: str = "rows",
        population_size: int = 40,
        max_iterations: int = 200,
        elitism: int = 2,
        mutation_rate: float = 0.7,
        observer: Observer | None = None,
    ) -> None:
        space_class(space, PERMUTATION_SPACES)
        if population_size < 4 or max_iterations < 1:
            raise ValueError(
                f"need population_size >= 4 and max_iterations >= 1, got {population_size}, {max_iterations}"
            )
        if not 0 <= elitism < population_size:
            raise ValueError(f"elitism must be between 0 and population_size - 1, got {elitism}")
        if not 0 <= mutation_rate <= 1:
            raise ValueError(f"mutation_rate must lie in [0, 1], got {mutation_rate}")
        self.space = space
        self.population_size = population_size
        self.max_iterations = max_iterations
        self.elitism = elitism
        self.mutation_rate = mutation_rate
        self.observer = observer

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: Run) -> SudokuGrid:
        space = space_class(self.space, PERMUTATION_SPACES)(puzzle)
        cost = CountedObjective(space, run)
        population = [space.random(rng) for _ in range(self.population_size)]
        costs = _evaluate_all(cost, population, run)
        if cost.best_cost == 0 or run.exhausted():  # nothing left to evolve: the first population is the result
            run.record(cost.best_cost)
            return cost.best_grid
        for _ in range(self.max_iterations):
            order = np.argsort(costs, kind="stable")
            parents = [population[k] for k in order[: max(2, len(order) // 2)]]
            children = [self.child(space, parents, rng) for _ in range(self.population_size)]
            child_costs = _evaluate_all(cost, children, run)  # shorter if the budget runs out
            ranked = sorted(
                [(costs[k], 0, k) for k in order[: self.elitism]] + [(c, 1, k) for k, c in enumerate(child_costs)],
                key=lambda entry: entry[:2],  # by cost, parents first on ties
            )[: self.population_size]
            population = [population[k] if source == 0 else children[k] for _, source, k in ranked]
            costs = [c for c, _, _ in ranked]
            if self.observer is not None:
                self.observer(np.array(population))
            if run.record(cost.best_cost):
                break
        return cost.best_grid

    def child(self, space: PermutationSpace, parents: list[np.ndarray], rng: np.random.Generator) -> np.ndarray:
        """A child of two distinct parents: segment-wise uniform crossover, then maybe one swap."""
        first, second = rng.choice(len(parents), size=2, replace=False)
        child = parents[first].copy()
        for segment in space.segments:
            if rng.random() < 0.5:
                child[segment] = parents[second][segment]
        if rng.random() < self.mutation_rate:
            child = space.neighbour(child, rng)
        return child


def _evaluate_all(cost: CountedObjective, candidates: list[np.ndarray], run: Run) -> list[int]:
    """Costs of the candidates in order; stops early once the budget is spent or a solution is found."""
    costs = []
    for candidate in candidates:
        if run.exhausted() or cost.best_cost == 0:
            break
        costs.append(int(cost(candidate)))
    return costs


# ======================================================================================
# mealpy's GA on a continuous encoding
# ======================================================================================
class MealpyGA(Solver):
    """mealpy's BaseGA (tournament selection, uniform crossover, random-reset mutation) on a continuous encoding.

    Lesson 04, section 3 (quatre moteurs, un même budget).

    `space` is "continuous" (one real in [1, n + 1) per free cell, rounded
    down) or "random-key" (one key in [0, 1) per free cell, ranked per row).
    Each epoch breeds `population_size` children, all evaluated; `pc` is the crossover
    probability and `pm` the probability that a gene is redrawn. mealpy is
    imported on first use and seeded through `solve(..., seed=...)`.
    """

    name = "mealpy-ga"

    def __init__(
        self,
        space: str = "continuous",
        population_size: int = 40,
        max_iterations: int = 200,
        pc: float = 0.95,
        pm: float = 0.025,
        observer: Observer | None = None,
    ) -> None:
        space_class(space, CONTINUOUS_SPACES)
        if population_size < MIN_MEALPY_GA_POPULATION or max_iterations < 1:
            raise ValueError(
                f"mealpy's GA needs population_size >= {MIN_MEALPY_GA_POPULATION} and max_iterations >= 1,"
                f" got {population_size} and {max_iterations}"
            )
        if not (0 < pc < 1 and 0 < pm < 1):
            raise ValueError(f"pc and pm must lie strictly between 0 and 1, got {pc} and {pm}")
        self.space = space
        self.population_size = population_size
        self.max_iterations = max_iterations
        self.pc = pc
        self.pm = pm
        self.observer = observer

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: Run) -> SudokuGrid:
        from mealpy.evolutionary_based.GA import BaseGA

        params = {"epoch": self.max_iterations, "pop_size": self.population_size, "pc": self.pc, "pm": self.pm}
        return run_mealpy(BaseGA, params, space_class(self.space)(puzzle), run, rng, self.observer)


# ======================================================================================
# Simulated annealing over any space
# ======================================================================================
class SpaceAnnealing(Solver):
    """Simulated annealing whose move is `space.neighbour`, with the full cost evaluated at every move.

    Lesson 04, section 3 (quatre moteurs, un même budget).

    Geometric cooling from `t0` to `t_end` over `max_iterations` steps; at each
    temperature a chain of `chain_length` moves, each accepted by the
    Metropolis rule (always if it does not raise the cost, otherwise with
    probability exp(-delta / T)). One temperature is one iteration of the run.
    With chain_length = 40 and max_iterations = 200 a run costs the same 8,000
    evaluations as a population of 40 over 200 generations.

    Unlike the course's annealer (lesson 02), nothing here knows the space: no
    incremental delta, so any representation can be plugged in.
    """

    name = "space-annealing"

    def __init__(
        self,
        space: str = "rows",
        t0: float = 1.0,
        t_end: float = 0.05,
        chain_length: int = 40,
        max_iterations: int = 200,
    ) -> None:
        space_class(space)
        if not t0 > t_end > 0:
            raise ValueError(f"need t0 > t_end > 0, got t0={t0!r}, t_end={t_end!r}")
        if chain_length < 1 or max_iterations < 1:
            raise ValueError(
                f"chain_length and max_iterations must be at least 1, got {chain_length}, {max_iterations}"
            )
        self.space = space
        self.t0 = t0
        self.t_end = t_end
        self.chain_length = chain_length
        self.max_iterations = max_iterations

    def temperature(self, step: int) -> float:
        """T at temperature step `step` (0-based): t0 at the first step, t_end at the last."""
        if self.max_iterations == 1:
            return self.t0
        return self.t0 * (self.t_end / self.t0) ** (step / (self.max_iterations - 1))

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: Run) -> SudokuGrid:
        space = space_class(self.space)(puzzle)
        cost = CountedObjective(space, run)
        current = space.random(rng)
        current_cost = int(cost(current))
        accepted = 0
        for step in range(self.max_iterations):
            temperature = self.temperature(step)
            for _ in range(self.chain_length):
                if run.exhausted() or cost.best_cost == 0:
                    break
                candidate = space.neighbour(current, rng)
                delta = int(cost(candidate)) - current_cost
                if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                    current, current_cost = candidate, current_cost + delta
                    accepted += 1
            if run.record(cost.best_cost):
                break
        run.stats["accepted"] = accepted
        return cost.best_grid
