"""Lesson 01 (genetic algorithm): the reference answers. Never inside the grader's sandbox (see the registry)."""

from __future__ import annotations

import math

import numpy as np

from ....solvers.genetic import GeneticSolver


def weighted_fitness(cells: np.ndarray, w_row: float = 1.0, w_col: float = 1.0, w_box: float = 1.0) -> float:
    """Reference: the conflicts of each kind of unit of a full grid (n minus its distinct digits), weighted."""
    size = cells.shape[0]
    box_size = math.isqrt(size)
    boxes = [
        cells[top : top + box_size, left : left + box_size].ravel()
        for top in range(0, size, box_size)
        for left in range(0, size, box_size)
    ]

    def missing(units) -> int:
        return sum(size - len(set(unit.tolist())) for unit in units)

    return w_row * missing(cells) + w_col * missing(cells.T) + w_box * missing(boxes)


def swap_mutation(offspring: np.ndarray, ga_instance, segments: list[np.ndarray]) -> np.ndarray:
    """Reference: every child exchanges the genes of two positions of one segment (with two positions or more)."""
    random = ga_instance.numpy_random_generator
    swappable = [segment for segment in segments if len(segment) >= 2]
    mutated = offspring.copy()
    for child in range(len(mutated)):
        segment = swappable[random.randint(len(swappable))]
        i, j = random.choice(segment, size=2, replace=False)
        mutated[child, [i, j]] = mutated[child, [j, i]]
    return mutated


def uniform_crossover(parents: np.ndarray, offspring_size: tuple[int, int], ga_instance, segments) -> np.ndarray:
    """Reference: each child takes each segment whole from one of its two parents, with probability 1/2."""
    random = ga_instance.numpy_random_generator
    children = np.empty(offspring_size, dtype=parents.dtype)
    for k in range(offspring_size[0]):
        first, second = random.choice(len(parents), size=2, replace=False)
        children[k] = parents[first]
        for segment in segments:
            if random.random_sample() < 0.5:
                children[k, segment] = parents[second, segment]
    return children


def tournament_selection(
    costs: np.ndarray, count: int, rng: np.random.Generator, tournament_size: int = 3
) -> np.ndarray:
    """Reference: `count` indices, each the lowest-cost of `tournament_size` distinct individuals drawn at random."""
    # the first `tournament_size` individuals of a random order are as many distinct individuals drawn at random
    contestants = np.argsort(rng.random((count, len(costs))), axis=1)[:, :tournament_size]
    return contestants[np.arange(count), np.argmin(costs[contestants], axis=1)]


def next_generation(
    population: np.ndarray, costs: np.ndarray, givens: np.ndarray, rng: np.random.Generator, elitism: int = 2
) -> np.ndarray:
    """Reference: the `elitism` best grids unchanged, then children: two parents by tournament, each row from
    one of them (probability 1/2), then two free cells of one row swapped.

    Written with whole arrays rather than a loop over the children (the solution notebook shows the loop):
    the checks run it often.
    """
    size, n = population.shape[0], population.shape[1]
    count = size - elitism
    elites = population[np.argsort(costs, kind="stable")[:elitism]]
    first, second = tournament_selection(costs, 2 * count, rng).reshape(2, count)
    from_second = rng.random((count, n)) < 0.5
    children = np.where(from_second[:, :, None], population[second], population[first])
    swap_two_free_cells(children, givens, rng)
    return np.concatenate([elites, children])


def swap_two_free_cells(grids: np.ndarray, givens: np.ndarray, rng: np.random.Generator) -> None:
    """In place, in each grid: two free cells of one row (among the rows with two free cells or more) swapped."""
    free = [np.flatnonzero(~row) for row in givens]
    rows = rng.choice([row for row, cells in enumerate(free) if len(cells) >= 2], size=len(grids))
    lengths = np.array([len(free[row]) for row in rows])
    first = (rng.random(len(grids)) * lengths).astype(int)
    second = (rng.random(len(grids)) * (lengths - 1)).astype(int)  # one of the other free cells:
    second += second >= first  # skip the first one
    i = np.array([free[row][k] for row, k in zip(rows, first, strict=True)], dtype=np.int64)
    j = np.array([free[row][k] for row, k in zip(rows, second, strict=True)], dtype=np.int64)
    grid = np.arange(len(grids))
    grids[grid, rows, i], grids[grid, rows, j] = grids[grid, rows, j], grids[grid, rows, i]


def compare_encodings(puzzle, encodings, seeds, budget: int) -> dict[str, float]:
    """Reference: per encoding, the share of seeds for which GeneticSolver solves the puzzle within the budget."""
    rates = {}
    for encoding in encodings:
        solver = GeneticSolver(encoding=encoding)
        solved = [solver.solve(puzzle, seed=seed, budget=budget).solved for seed in seeds]
        rates[encoding] = sum(solved) / len(seeds)
    return rates


def time_ratio(seconds: list[float], solved: list[bool], baseline_seconds: list[float]):
    """Reference: (median time of the solved runs / median baseline time on the same runs, floor of its log10,
    failed runs); (None, None, failed runs) when no run is solved. baseline_seconds[k] goes with run k."""
    pairs = [(time, baseline) for time, ok, baseline in zip(seconds, solved, baseline_seconds, strict=True) if ok]
    failures = len(seconds) - len(pairs)
    if not pairs:
        return None, None, failures
    times, baselines = zip(*pairs, strict=True)
    ratio = float(np.median(times) / np.median(baselines))
    return ratio, math.floor(math.log10(ratio)), failures
