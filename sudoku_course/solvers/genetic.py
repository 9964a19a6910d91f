"""Genetic algorithms: the course's GA on PyGAD, and the two GAs of the cross-study (lesson 04).

- GeneticSolver ("genetic"): PyGAD runs the evolution, we write the chromosome, the fitness and the
  operators (below).
- SpaceGA ("space-ga"): the cross-study's GA (lesson 04), one engine for every search space: tournament
  selection, crossover and mutation drawn from the space (`Space.crossover`, `Space.neighbour`),
  elitism, generational replacement.
- MealpyGA ("mealpy-ga"): mealpy's BaseGA on a continuous encoding ("continuous": one real per free
  cell, rounded down; "random-key": keys ranked per row), the cross-study's cross-check outside its design.

Both evaluate every candidate through the same instrumented cost (`base.CountedObjective`), and call
`observer(population)` after each generation when one is given.

GeneticSolver's chromosome is the candidate vector of a search space (see `spaces`): one
number per free cell. Three encodings are offered:

- "cells": one digit 1..n per free cell (nothing holds by construction);
- "rows": each row's free cells hold a permutation of the row's missing digits,
  so rows never conflict (the order itself is the gene: no list of permutations
  is ever built, so no permutation can be lost);
- "boxes": the same, box by box.

The fitness of a chromosome is minus the conflicts of the grid it decodes to;
it is computed for the whole population at once (PyGAD's `fitness_batch_size`).

The operators that keep permutations valid work segment by segment (a segment
is the candidate positions of one row, or of one box): order crossover (OX),
uniform segment crossover and swap mutation. They draw every random number from
the GA instance's own generator, so a seed reproduces a run.

GeneticSolver stops at zero conflicts, restarts with a doubled population (up to
`max_population`) after `stagnation` generations without progress, and never
spends more evaluations than its budget.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from functools import partial

import numpy as np
import pygad

from ..cost import conflicts_of_many
from ..grid import SudokuGrid
from ..propagation import propagated_candidates
from ..spaces import (
    CONTINUOUS_SPACES,
    BoxPermutationSpace,
    CellSpace,
    PermutationSpace,
    RowPermutationSpace,
    Space,
    space_class,
)
from .base import CountedObjective, Observer, RunLedger, Solver
from .mealpy_adapter import run_mealpy

ENCODINGS: dict[str, type[Space]] = {"cells": CellSpace, "rows": RowPermutationSpace, "boxes": BoxPermutationSpace}
"""Encoding name -> search space."""

UNLIMITED = 2**62
"""Evaluations allowed to a run bounded by time only."""
TOURNAMENT_SIZE = 3
MIN_POPULATION = 4
"""A GA run needs at least this many individuals (two parents and room for offspring)."""
MIN_MEALPY_GA_POPULATION = 10
"""mealpy's GA draws tournaments of 20 % and 10 % of its population: below 10 it fails."""

SILENT = logging.getLogger("sudoku_course.genetic.pygad")
"""The logger given to PyGAD: PyGAD logs an error before raising it; we only let it raise."""
SILENT.addHandler(logging.NullHandler())
SILENT.propagate = False


# ------------------------------------------------------------------ fitness
class PopulationFitness:
    """PyGAD batch fitness: minus the conflicts of the grid each chromosome decodes to.

    PyGAD calls it as fitness(ga_instance, solutions, indices) with a 2-D array
    of chromosomes (one per row) and expects one fitness per row.
    """

    def __init__(self, space: Space) -> None:
        puzzle = space.puzzle
        self.base = puzzle.cells.ravel()
        self.box_size = puzzle.box_size
        self.free_cells = space.free_cells

    def cells(self, chromosomes: np.ndarray) -> np.ndarray:
        """The flat grids (one per row) of integer chromosomes: the givens plus the genes."""
        grids = np.tile(self.base, (len(chromosomes), 1))
        grids[:, self.free_cells] = chromosomes
        return grids

    def conflicts(self, chromosomes: np.ndarray) -> np.ndarray:
        """Conflicts of each chromosome's grid: over its 3n units, n minus the number of distinct digits."""
        return conflicts_of_many(self.cells(np.asarray(chromosomes, dtype=np.int64)), self.box_size)

    def __call__(self, ga_instance: pygad.GA, solutions: np.ndarray, indices) -> np.ndarray:
        return -self.conflicts(solutions)


# ---------------------------------------------------------------- operators
def parent_pairs(parents: np.ndarray, count: int, random: np.random.RandomState) -> tuple[np.ndarray, np.ndarray]:
    """`count` pairs of two different parents drawn at random: (first parents, second parents)."""
    first = random.randint(0, len(parents), size=count)
    second = (first + random.randint(1, len(parents), size=count)) % len(parents)  # never equal to first
    return parents[first], parents[second]


def order_crossover(
    parents: np.ndarray, offspring_size: tuple[int, int], ga_instance: pygad.GA, segments: list[np.ndarray]
) -> np.ndarray:
    """Order crossover (OX), segment by segment: each child keeps a slice of its first parent's segment and
    fills the other positions with the missing digits in the order they have in the second parent."""
    random = ga_instance.numpy_random_generator
    first, second = parent_pairs(parents, offspring_size[0], random)
    children = first.copy()
    for segment in segments:
        if len(segment) >= 2:
            children[:, segment] = order_crossover_segment(first[:, segment], second[:, segment], random)
    return children


def order_crossover_segment(first: np.ndarray, second: np.ndarray, random: np.random.RandomState) -> np.ndarray:
    """OX on one segment for many children at once (one child per row of `first` and `second`)."""
    count, length = first.shape
    ends = np.sort(random.randint(0, length, size=(count, 2)), axis=1)
    positions = np.arange(length)
    kept = (positions >= ends[:, :1]) & (positions <= ends[:, 1:])  # the slice copied from `first`
    # digits of `second` that the slice already holds; the others fill the free positions in order
    taken = ((second[:, :, None] == first[:, None, :]) & kept[:, None, :]).any(axis=2)
    fill_from = np.argsort(taken, axis=1, kind="stable")  # untaken digits first, in `second`'s order
    fill_to = np.argsort(kept, axis=1, kind="stable")  # free positions first, left to right
    rows = np.arange(count)[:, None]
    filled = np.empty_like(first)
    filled[rows, fill_to] = second[rows, fill_from]
    return np.where(kept, first, filled)


def uniform_crossover(
    parents: np.ndarray, offspring_size: tuple[int, int], ga_instance: pygad.GA, segments: list[np.ndarray]
) -> np.ndarray:
    """Uniform segment crossover: each segment of a child comes whole from one parent or the other (p = 1/2)."""
    random = ga_instance.numpy_random_generator
    first, second = parent_pairs(parents, offspring_size[0], random)
    children = first.copy()
    from_second = random.random_sample((offspring_size[0], len(segments))) < 0.5
    for k, segment in enumerate(segments):
        chosen = np.ix_(from_second[:, k], segment)
        children[chosen] = second[chosen]
    return children


def swap_mutation(
    offspring: np.ndarray, ga_instance: pygad.GA, segments: list[np.ndarray], rate: float = 1.0
) -> np.ndarray:
    """With probability `rate`, a child swaps the genes of two positions of one segment (drawn among the
    segments with two free cells or more); each segment keeps its digits."""
    random = ga_instance.numpy_random_generator
    mutated = offspring.copy()
    swappable = [segment for segment in segments if len(segment) >= 2]
    if not swappable:
        return mutated
    children = np.flatnonzero(random.random_sample(len(offspring)) < rate)
    # all the draws at once: a segment per mutated child, then two distinct places in that segment
    chosen = random.randint(len(swappable), size=len(children))
    lengths = np.array([len(segment) for segment in swappable])[chosen]
    first = (random.random_sample(len(children)) * lengths).astype(int)
    second = (random.random_sample(len(children)) * (lengths - 1)).astype(int)  # one of the other places:
    second += second >= first  # skip the first one
    places = np.full((len(swappable), max(len(segment) for segment in swappable)), -1)
    for k, segment in enumerate(swappable):
        places[k, : len(segment)] = segment
    i, j = places[chosen, first], places[chosen, second]
    mutated[children, i], mutated[children, j] = offspring[children, j], offspring[children, i]
    return mutated


def cycle_mutation(offspring: np.ndarray, ga_instance: pygad.GA, space: PermutationSpace, rate: float = 1.0):
    """With probability `rate`, a child turns one cycle of cells of a unit started from a cell in conflict
    (`space.conflict_cycles`, the restricted annealer's move): in a restricted space, every cell keeps one of
    its candidates."""
    random = ga_instance.numpy_random_generator
    rng = np.random.default_rng(random.randint(2**32))  # conflict_cycles takes a Generator, drawn from PyGAD's
    mutated = offspring.copy()
    children = np.flatnonzero(random.random_sample(len(offspring)) < rate)
    mutated[children] = space.conflict_cycles(offspring[children], rng)
    return mutated


def repaired(operator: Callable, space: PermutationSpace) -> Callable:
    """A PyGAD crossover or mutation whose children are put back into a restricted `space` (`space.repair`):
    a unit whose cells left their candidates is re-matched, its cells keeping their digits where they can."""

    def operator_then_repair(*args):
        children = operator(*args)
        rng = np.random.default_rng(args[-1].numpy_random_generator.randint(2**32))  # ga_instance comes last
        return np.array([space.repair(child, rng) for child in children])

    return operator_then_repair


CROSSOVERS: dict[str, Callable] = {"order": order_crossover, "uniform": uniform_crossover}
MUTATIONS: dict[str, Callable] = {"swap": swap_mutation}
DEFAULT_OPERATORS = {
    "cells": ("two_points", "random"),
    "rows": ("uniform", "swap"),
    "boxes": ("uniform", "swap"),
}
"""Encoding -> (crossover, mutation) used when the solver is given none."""


def segments_of(space: Space) -> list[np.ndarray]:
    """Candidate positions grouped by segment: the space's units for a permutation space, else the rows."""
    if isinstance(space, PermutationSpace):
        return space.segments
    rows = space.free_cells // space.puzzle.size
    return [np.flatnonzero(rows == row) for row in range(space.puzzle.size)]


# ------------------------------------------------------------------- solver
class Evolution:
    """One PyGAD run (one population) of a GeneticSolver search: its bookkeeping between generations."""

    def __init__(self, solver: GeneticSolver, run: RunLedger, allowance: int, per_generation: int) -> None:
        self.solver = solver
        self.run = run
        self.allowance = allowance  # evaluations this search may spend in total
        self.per_generation = per_generation  # evaluations one more generation may cost
        self.counted = 0  # evaluations of this PyGAD run already added to `run`
        self.best_cost = math.inf
        self.best: np.ndarray | None = None
        self.stagnant = 0
        self.finished = False  # True: the search is over (solved, budget spent or stopped), no restart

    def count(self, ga: pygad.GA) -> None:
        """Add the fitness evaluations PyGAD made since the last call to the run's count."""
        self.run.count(ga.num_fitness_evaluations - self.counted)
        self.counted = ga.num_fitness_evaluations

    def on_generation(self, ga: pygad.GA) -> str | None:
        """PyGAD callback after each generation: count, keep the best, decide whether to stop."""
        self.count(ga)
        best_index = int(np.argmax(ga.last_generation_fitness))
        cost = -int(ga.last_generation_fitness[best_index])
        if cost < self.best_cost:
            self.best_cost, self.best, self.stagnant = cost, ga.population[best_index].copy(), 0
        else:
            self.stagnant += 1
        if self.run.record(cost) or self.allowance - self.run.evaluations < self.per_generation:
            self.finished = True
            return "stop"
        if self.stagnant >= self.solver.stagnation:
            return "stop"
        return None


class GeneticSolver(Solver):
    """A GA on PyGAD with a choice of encoding, crossover and mutation, and restarts.

    Lesson 01, sections 5 to 9 (le solveur, les approches par case, par ligne, par bloc).

    encoding: "cells", "rows" or "boxes" (see ENCODINGS).
    population_size: individuals of the first run; each restart doubles it, up to max_population.
    parents_share: share of the population selected to mate.
    selection: PyGAD's parent selection ("tournament": the best of 3 drawn at random, "sss": the best ones, ...).
    elitism: best individuals copied unchanged into the next generation.
    crossover, mutation: a name ("order", "uniform"; "swap"), a PyGAD built-in name (e.g. "two_points";
      "random"), or a function with PyGAD's signature plus a `segments` keyword argument, like
      `order_crossover` and `swap_mutation`. None: the encoding's default (DEFAULT_OPERATORS).
    mutation_rate: probability that a child is mutated ("swap"), or that a gene is redrawn (PyGAD's "random").
    stagnation: generations without a better best before a restart.
    max_evaluations: the evaluations a run may spend when solve() is given no budget (a budget of
      evaluations or seconds replaces it: the run uses its whole budget).
    parallel: None (sequential) or a number of worker processes that evaluate the fitness.
    restrict: the restricted representation ("rows" or "boxes" only): cells that naked and hidden singles
      fix become givens, the first population is drawn by random matchings within the candidates, the
      "swap" mutation turns a cycle of cells of a unit started from a cell in conflict, within the
      candidates (`cycle_mutation`), and children of any other operator are repaired (`repaired`).
      The uniform crossover copies whole units, so it needs no repair. On the hard bank (first 10 puzzles,
      10^6 evaluations), the cycles solve 10 where random swaps and rotations within the candidates solved 7.
    """

    name = "genetic"

    def __init__(
        self,
        encoding: str = "rows",
        population_size: int = 100,
        max_population: int = 200,
        parents_share: float = 0.5,
        selection: str = "tournament",
        elitism: int = 2,
        crossover: str | Callable | None = None,
        mutation: str | Callable | None = None,
        mutation_rate: float | None = None,
        stagnation: int = 50,
        max_evaluations: int = 500_000,
        parallel: int | None = None,
        restrict: bool = False,
    ) -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
        if restrict and encoding == "cells":
            raise ValueError("restrict needs a permutation encoding ('rows' or 'boxes'), not 'cells'")
        if not MIN_POPULATION <= population_size <= max_population:
            raise ValueError(
                f"population_size must be between {MIN_POPULATION} and max_population ({max_population}),"
                f" got {population_size}"
            )
        if not 0 < parents_share <= 1:
            raise ValueError(f"parents_share must be in (0, 1], got {parents_share}")
        if not 0 <= elitism < population_size:
            raise ValueError(f"elitism must be between 0 and population_size - 1, got {elitism}")
        if mutation_rate is not None and not 0 <= mutation_rate <= 1:
            raise ValueError(f"mutation_rate must be in [0, 1], got {mutation_rate}")
        if stagnation < 1 or max_evaluations < 1:
            raise ValueError("stagnation and max_evaluations must be positive")
        default_crossover, default_mutation = DEFAULT_OPERATORS[encoding]
        crossover = crossover or default_crossover
        if crossover == "order" and encoding == "cells":
            raise ValueError("order crossover needs a permutation encoding ('rows' or 'boxes'), not 'cells'")
        self.encoding = encoding
        self.population_size = population_size
        self.max_population = max_population
        self.parents_share = parents_share
        self.selection = selection
        self.elitism = elitism
        self.crossover = crossover
        self.mutation = mutation or default_mutation
        self.mutation_rate = mutation_rate
        self.stagnation = stagnation
        self.max_evaluations = max_evaluations
        self.parallel = parallel
        self.restrict = restrict
        for operator in (self.crossover, self.mutation):
            if restrict and isinstance(operator, str) and operator not in CROSSOVERS | MUTATIONS:
                raise ValueError(f"restrict needs the course's operators or functions, not PyGAD's {operator!r}")

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        candidates = propagated_candidates(puzzle) if self.restrict else None
        space = ENCODINGS[self.encoding](puzzle) if candidates is None else ENCODINGS[self.encoding](puzzle, candidates)
        if space.dimension == 0:  # nothing to search: the puzzle is full
            run.count()
            run.record(space.cost(np.zeros(0, dtype=np.int64)))
            return puzzle.with_cells(space.puzzle.cells)
        allowance = self._allowance(run)
        fitness = PopulationFitness(space)
        # a run needs its first population and one generation: at most twice its size in evaluations
        size = min(self.population_size, allowance // 2)
        if size < MIN_POPULATION:
            raise ValueError(f"a budget of {allowance} evaluations cannot pay for a population of {MIN_POPULATION}")
        best, best_cost = None, math.inf
        while True:
            evolution = self._evolve(space, fitness, size, rng, run, allowance)
            run.stats["population"] = size
            if evolution.best_cost < best_cost:
                best, best_cost = evolution.best, evolution.best_cost
            size = min(2 * size, self.max_population)
            if evolution.finished or run.exhausted() or 2 * size > allowance - run.evaluations:
                return puzzle.with_cells(space.decode(best).cells)  # the puzzle's own givens
            run.restarts += 1

    def _allowance(self, run: RunLedger) -> int:
        """Evaluations the run may spend: its budget's, max_evaluations without a budget, unlimited with
        only a time budget (the clock stops the run)."""
        if run.budget.evaluations is not None:
            return run.budget.evaluations
        return UNLIMITED if run.budget.limited else self.max_evaluations

    def _evolve(
        self,
        space: Space,
        fitness: PopulationFitness,
        size: int,
        rng: np.random.Generator,
        run: RunLedger,
        allowance: int,
    ) -> Evolution:
        """Run PyGAD once from a random population of `size` individuals."""
        elitism = min(self.elitism, size - 2)
        evolution = Evolution(self, run, allowance, per_generation=size - elitism)
        ga = pygad.GA(
            num_generations=max(1, (allowance - run.evaluations - size) // (size - elitism) + 1),
            num_parents_mating=max(2, round(self.parents_share * size)),
            fitness_func=fitness,
            fitness_batch_size=self._batch_size(size),
            initial_population=np.array([space.random(rng) for _ in range(size)]),
            gene_type=int,
            gene_space=list(range(1, space.puzzle.size + 1)),
            parent_selection_type=self.selection,
            K_tournament=TOURNAMENT_SIZE,
            keep_elitism=elitism,
            on_generation=evolution.on_generation,
            random_seed=int(rng.integers(2**32)),
            suppress_warnings=True,
            logger=SILENT,
            parallel_processing=None if self.parallel is None else ("process", self.parallel),
            **self._operators(space),
        )
        ga.run()
        evolution.count(ga)
        return evolution

    def _batch_size(self, size: int) -> int:
        """Chromosomes per fitness call: the whole population, or one share per worker process."""
        return size if self.parallel is None else math.ceil(size / self.parallel)

    def _operators(self, space: Space) -> dict:
        """PyGAD keyword arguments for the crossover and the mutation.

        Our operators (a name of CROSSOVERS or MUTATIONS, or a function) get the segments bound as a keyword;
        any other name is one of PyGAD's built-in operators and goes to PyGAD unchanged.
        """
        segments = segments_of(space)
        mutation_keywords = {"segments": segments}
        if self.mutation == "swap":
            mutation_keywords["rate"] = self._mutation_rate(1.0)
        keywords = {
            "crossover_type": _bind(self.crossover, CROSSOVERS, segments=segments),
            "mutation_type": _bind(self.mutation, MUTATIONS, **mutation_keywords),
        }
        if self.restrict:
            if self.crossover != "uniform":
                keywords["crossover_type"] = repaired(keywords["crossover_type"], space)
            if self.mutation == "swap":
                keywords["mutation_type"] = partial(cycle_mutation, space=space, rate=self._mutation_rate(1.0))
            else:
                keywords["mutation_type"] = repaired(keywords["mutation_type"], space)
        if isinstance(keywords["mutation_type"], str):  # a PyGAD built-in: redraw each gene with this probability
            keywords.update(mutation_probability=self._mutation_rate(0.1), mutation_by_replacement=True)
        return keywords

    def _mutation_rate(self, default: float) -> float:
        return default if self.mutation_rate is None else self.mutation_rate


def _bind(operator: str | Callable, ours: dict[str, Callable], **keywords) -> str | Callable:
    """Our operator (by name or as a function) with `keywords` bound, or a PyGAD built-in name unchanged."""
    if isinstance(operator, str):
        if operator not in ours:
            return operator
        operator = ours[operator]
    return partial(operator, **keywords)


# ======================================================================================
# The cross-study's GA: one engine for every space
# ======================================================================================
class SpaceGA(Solver):
    """A generational GA over any search space: the cross-study's GA engine.

    The algorithm fixes selection, replacement and their parameters; the space supplies the candidates
    and their variation operators.

    Lesson 04 (un moteur par algorithme).

    Each generation copies the `elitism` best candidates unchanged into the next population and breeds
    the rest of it, one child at a time:

    - selection: each parent is the best of `tournament_size` candidates drawn at random, with
      replacement (tournament selection; Goldberg & Deb 1991, Miller & Goldberg 1995);
    - crossover: with probability `crossover_rate`, the child is `space.crossover` of its two parents
      (whole units from one parent or the other in a permutation space, coordinates elsewhere), otherwise
      a copy of the first parent;
    - mutation: with probability `mutation_rate`, the child then makes one move, `space.neighbour`.

    Every child is evaluated once, so the first population costs `population_size` evaluations and each
    generation `population_size - elitism`. A run spends at most population_size x max_iterations
    evaluations (the design's budget), fewer if it solves the puzzle or is given a smaller budget; it
    stops at the end of the generation during which they run out. Each population, the first one
    included, is one iteration of the run; `observer` receives each of them. The defaults are the
    cross-study's values (`crossstudy.ENGINES`).
    """

    name = "space-ga"

    def __init__(
        self,
        space: str = "rows",
        population_size: int = 40,
        max_iterations: int = 200,
        tournament_size: int = TOURNAMENT_SIZE,
        crossover_rate: float = 0.9,
        mutation_rate: float = 1.0,
        elitism: int = 4,
        observer: Observer | None = None,
    ) -> None:
        space_class(space)
        if population_size < 2 or max_iterations < 1:
            raise ValueError(
                f"need population_size >= 2 and max_iterations >= 1, got {population_size}, {max_iterations}"
            )
        if not 0 <= elitism < population_size:
            raise ValueError(f"elitism must be between 0 and population_size - 1, got {elitism}")
        if tournament_size < 1:
            raise ValueError(f"tournament_size must be at least 1, got {tournament_size}")
        for label, rate in (("crossover_rate", crossover_rate), ("mutation_rate", mutation_rate)):
            if not 0 <= rate <= 1:
                raise ValueError(f"{label} must lie in [0, 1], got {rate}")
        self.space = space
        self.population_size = population_size
        self.max_iterations = max_iterations
        self.tournament_size = tournament_size
        self.crossover_rate = crossover_rate
        self.mutation_rate = mutation_rate
        self.elitism = elitism
        self.observer = observer

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        run.cap(self.population_size * self.max_iterations)
        space = space_class(self.space)(puzzle)
        cost = CountedObjective(space, run)
        population = [space.random(rng) for _ in range(self.population_size)]
        costs = _evaluated(population, cost, run)
        population = population[: len(costs)]
        while True:  # one iteration per population, the first one included
            if self.observer is not None:
                self.observer(np.array(population))
            if run.record(cost.best_cost):
                return cost.best_grid
            population, costs = self.generation(space, population, costs, cost, rng)

    def generation(
        self,
        space: Space,
        population: list[np.ndarray],
        costs: list[int],
        cost: CountedObjective,
        rng: np.random.Generator,
    ) -> tuple[list[np.ndarray], list[int]]:
        """The next population and its costs: the elite unchanged, then the children evaluated before the
        budget ran out or the puzzle was solved."""
        elite = np.argsort(costs, kind="stable")[: self.elitism]
        children = [self.child(space, population, costs, rng) for _ in range(self.population_size - len(elite))]
        child_costs = _evaluated(children, cost, cost.run)
        return (
            [population[k] for k in elite] + children[: len(child_costs)],
            [costs[k] for k in elite] + child_costs,
        )

    def child(
        self, space: Space, population: list[np.ndarray], costs: list[int], rng: np.random.Generator
    ) -> np.ndarray:
        """One child: two parents chosen by tournament, crossed with probability crossover_rate, then
        mutated (one move of the space) with probability mutation_rate."""
        first, second = (population[self.tournament(costs, rng)] for _ in range(2))
        child = space.crossover(first, second, rng) if rng.random() < self.crossover_rate else first.copy()
        if rng.random() < self.mutation_rate:
            child = space.neighbour(child, rng)
        return child

    def tournament(self, costs: list[int], rng: np.random.Generator) -> int:
        """The index of the best of `tournament_size` candidates drawn at random (the first drawn on ties)."""
        drawn = rng.integers(len(costs), size=self.tournament_size)
        return int(drawn[np.argmin(np.asarray(costs)[drawn])])


def _evaluated(candidates: list[np.ndarray], cost: CountedObjective, run: RunLedger) -> list[int]:
    """Costs of the candidates in order; stops early once the budget is spent or a solution is found."""
    costs = []
    for candidate in candidates:
        if run.exhausted() or cost.best_cost == 0:
            break
        costs.append(int(cost(candidate)))
    return costs


# ------------------------------------------------ the cross-study's GAs: mealpy's, continuous
class MealpyGA(Solver):
    """mealpy's BaseGA (tournament selection, uniform crossover, random-reset mutation) on a continuous encoding.

    Lesson 04, section 3 (quatre moteurs, un même budget).

    `space` is "continuous" (one real in [1, n + 1) per free cell, rounded
    down) or "random-key" (one key in [0, 1) per free cell, ranked per row).
    Each epoch breeds `population_size` children, all evaluated; `crossover_rate` is the crossover
    probability (mealpy's pc) and `mutation_rate` the probability that a gene is redrawn (mealpy's pm). mealpy is
    imported on first use and seeded through `solve(..., seed=...)`.
    """

    name = "mealpy-ga"

    def __init__(
        self,
        space: str = "continuous",
        population_size: int = 40,
        max_iterations: int = 200,
        crossover_rate: float = 0.95,
        mutation_rate: float = 0.025,
        observer: Observer | None = None,
    ) -> None:
        space_class(space, CONTINUOUS_SPACES)
        if population_size < MIN_MEALPY_GA_POPULATION or max_iterations < 1:
            raise ValueError(
                f"mealpy's GA needs population_size >= {MIN_MEALPY_GA_POPULATION} and max_iterations >= 1,"
                f" got {population_size} and {max_iterations}"
            )
        if not (0 < crossover_rate < 1 and 0 < mutation_rate < 1):
            raise ValueError(
                "crossover_rate and mutation_rate must lie strictly between 0 and 1,"
                f" got {crossover_rate} and {mutation_rate}"
            )
        self.space = space
        self.population_size = population_size
        self.max_iterations = max_iterations
        self.crossover_rate = crossover_rate
        self.mutation_rate = mutation_rate
        self.observer = observer

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        from mealpy.evolutionary_based.GA import BaseGA

        params = {
            "epoch": self.max_iterations,
            "pop_size": self.population_size,
            "pc": self.crossover_rate,
            "pm": self.mutation_rate,
        }
        return run_mealpy(BaseGA, params, space_class(self.space)(puzzle), run, rng, self.observer)
