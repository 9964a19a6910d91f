"""Lesson 04 (representation versus algorithm): the reference answers, and the inputs of the percentile cases
that only a reference can make. Never inside the grader's sandbox (see the registry)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ....crossstudy import (
    ALGORITHMS,
    GENERATIONS,
    POPULATION,
    SEEDS,
    CrossDesign,
    cross_table,
    protocol_verdict,
    run_design,
)
from ....spaces import Space
from .cases import SOURCE_COSTS, interval_draws


def effects_2x2(means: pd.DataFrame) -> tuple[float, float, float]:
    """Reference: (row effect, column effect, interaction) of a 2 x 2 table of cell means, levels in table order.

    row effect: second row minus first, averaged over the columns; column effect: second column minus first,
    averaged over the rows; interaction: the row effect in the second column minus the one in the first, not
    halved (the course's convention, as in `crossstudy.Effects`; Montgomery halves it to the main effects' scale).
    """
    cells = np.asarray(means, dtype=float)
    by_row = cells[1] - cells[0]
    by_column = cells[:, 1] - cells[:, 0]
    return float(by_row.mean()), float(by_column.mean()), float(by_row[1] - by_row[0])


def bootstrap_gap(first, second, rng: np.random.Generator, resamples: int = 2000) -> np.ndarray:
    """Reference: `resamples` gaps mean(second*) - mean(first*), each cell resampled within itself with
    replacement (as many draws as it has values)."""
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    first_means = rng.choice(first, size=(resamples, len(first))).mean(axis=1)
    second_means = rng.choice(second, size=(resamples, len(second))).mean(axis=1)
    return second_means - first_means


def percentile_interval(samples, confidence: float = 0.95) -> tuple[float, float]:
    """Reference: the bounds that leave (1 - confidence) / 2 of the samples on each side (percentile method)."""
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(samples, [tail, 100 - tail])
    return float(low), float(high)


def percentile_inputs(seed: int | None) -> list[float]:
    """The resampled gaps of the source's GA column that the percentile cases of `seed` take: made by the
    reference `bootstrap_gap`, so computed where the references are and handed to the cases as data."""
    *_, bootstrap_seed = interval_draws(seed)
    gaps = bootstrap_gap(SOURCE_COSTS["R1", "GA"], SOURCE_COSTS["R2", "GA"], np.random.default_rng(bootstrap_seed))
    return gaps.tolist()


def anneal_in_space(space: Space, rng: np.random.Generator, budget=8000, t0=1.0, t_min=0.1, chain_length=40):
    """Reference: simulated annealing through the Space interface only (random, neighbour, cost, decode): the
    decoded best candidate, its cost and the evaluations spent (the first candidate's included). Chain k of the
    budget // chain_length chains runs at t0 * (t_min / t0) ** (k / (chains - 1)); a move is accepted if it does
    not raise the cost, else with probability exp(-delta / T); the run stops at the budget or at cost 0. It draws
    from `rng` in the order of the course's engine (`solvers.annealing.SpaceAnnealing`), so it repeats its runs."""
    chains = budget // chain_length
    current = space.random(rng)
    current_cost = space.cost(current)
    best, best_cost, evaluations = current, current_cost, 1
    for k in range(chains):
        temperature = t0 * (t_min / t0) ** (k / (chains - 1))
        for _ in range(chain_length):
            if evaluations == budget or best_cost == 0:
                return space.decode(best), best_cost, evaluations
            candidate = space.neighbour(current, rng)
            candidate_cost = space.cost(candidate)
            evaluations += 1
            delta = candidate_cost - current_cost
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                current, current_cost = candidate, candidate_cost
                if current_cost < best_cost:
                    best, best_cost = current, current_cost
    return space.decode(best), best_cost, evaluations


def cross_study(puzzle, seeds=SEEDS, population_size=POPULATION, max_iterations=GENERATIONS):
    """Reference: the 2 x 3 design (R1, R2 x PSO, GA, SA) on one puzzle: its cross table and the protocol's
    verdict."""
    design = CrossDesign({"grille": puzzle}, ("R1", "R2"), ALGORITHMS, tuple(seeds), population_size, max_iterations)
    runs = run_design(design, progress=False)
    return cross_table(runs), protocol_verdict(runs)


def annealing_design(puzzle, seeds=SEEDS) -> CrossDesign:
    """Reference: the 2 x 3 design (R1, R2 x PSO, GA, SA) on one puzzle, with the protocol's budget."""
    return CrossDesign({"grille": puzzle}, ("R1", "R2"), ("PSO", "GA", "SA"), tuple(seeds))


def grid_change_rate(space: Space, seed: int, samples: int = 1000) -> float:
    """Reference: the share of `samples` moves, each from a fresh random candidate, that change the decoded grid."""
    rng = np.random.default_rng(seed)
    changed = 0
    for _ in range(samples):
        start = space.random(rng)
        changed += space.decode(space.neighbour(start, rng)) != space.decode(start)
    return changed / samples


def count_distinct_grids(space: Space, population) -> int:
    """Reference: the number of distinct grids the candidates of `population` decode to in `space`."""
    return len({space.decode(candidate).to_string() for candidate in population})
