"""Representation versus algorithm: a factorial design, its campaigns, its effects and its preregistered verdict.

The design crosses representations (R1: one real per free cell, rounded down;
R2: each row a permutation of its missing digits; R3: random keys ranked per
row) with algorithms (PSO, GA, simulated annealing) and seeds, on one or more
puzzles, under ONE evaluation budget: a population of 40 over 200 iterations,
so 8,000 evaluations of the same cost (total conflicts of the decoded grid),
counted by every engine's instrumented cost function.

One engine per algorithm: each algorithm runs the same class with the same
parameters in every representation (`ENGINES`); the algorithm fixes selection,
replacement, elitism, acceptance and their parameters, the representation (a
`spaces.Space`) supplies only sampling, decoding and the variation operators.
`factor_roles()` tabulates what belongs to which.

    design = CrossDesign({"témoin": reference()})
    runs = run_design(design)                   # one row per run
    table = cross_table(runs)                   # one row per cell: median, min, max, solved, mean evaluations
    effects = simple_effects(runs)              # each factor's effect within each level of the other
    result = protocol_verdict(runs)             # the confirmatory protocol's rule, applied by code

The runs the lesson concludes from are campaigns (`campaigns`): EXPLORATION
(the témoin, the source's seeds) and CONFIRMATORY (three grids, 30 seeds per
cell, preregistered in studies/crossstudy-protocol.md). The rules of earlier
versions stay as history: `bootstrap_effects` and `effects_verdict` (2 x 2 main
effects, the interaction set aside) and `verdict` (the source's rule on ranges).
The cause analysis helpers measure what a representation does to candidates:
`candidate_profile` (random candidates outside the admissible space, initial
conflicts) and `population_trace` with `distinct_grids` (how many distinct grids
a population really holds, generation by generation).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np
import pandas as pd

from .bench import BOOTSTRAP_SEED, CONFIDENCE, RESAMPLES, benchmark, percentile_bounds
from .campaigns import TEMOIN, Campaign, Configuration, PuzzleSet, Slice
from .cost import unit_conflicts
from .grid import SudokuGrid, as_grid
from .solvers import Solver, get_solver
from .solvers.base import Observer
from .spaces import Space, space_class

POPULATION = 40
GENERATIONS = 200
"""Iterations of a run (generations, swarm iterations, temperatures): max_iterations of every engine."""
BUDGET = POPULATION * GENERATIONS
"""Evaluations per run: the same for every cell of the design."""
SEEDS = (0, 1, 7, 42)
"""The source's seeds: those of the exploration."""
REPRESENTATIONS: dict[str, str] = {"R1": "continuous", "R2": "rows", "R3": "random-key"}
"""Representation label -> space name (see `spaces.SPACES`)."""
ALGORITHMS = ("PSO", "GA", "SA")
SAME_ORDER = 10.0
"""The largest algorithm gap is of the same order as the smallest representation gap when it is at most
SAME_ORDER times that gap (the rule only needs this side: the other is ruled out before, see `verdict`)."""

ENGINES: dict[str, tuple[str, dict[str, float]]] = {
    "PSO": ("space-pso", {"inertia_start": 0.9, "inertia_end": 0.4, "c1": 2.0, "c2": 2.0}),
    "GA": ("space-ga", {"tournament_size": 3, "crossover_rate": 0.9, "mutation_rate": 1.0, "elitism": 4}),
    "SA": ("space-annealing", {"t0": 1.0, "t_min": 0.1}),
}
"""Algorithm -> its registered engine and parameters, the same in every representation.

Tuned once, before any confirmatory run, on the exploration's puzzle and seeds only (the témoin, seeds
0, 1, 7 and 42, the design's budget), by `benchmarks/bench_crossstudy.py --tune`: each algorithm ran a
small grid of values (GA: crossover_rate 0.6 or 0.9, mutation_rate 0.2, 0.5 or 1, elitism 1, 2 or 4;
PSO: inertia 0.9 -> 0.4, 0.9 -> 0.2 or a constant 0.7298, c1 = c2 = 1.49618 or 2; SA: t0 0.5, 1 or 2,
t_min 0.02, 0.05 or 0.1) in each of R1, R2 and R3, each run scored by its conflicts left plus the share
of the budget it spent (a solved run scores below 1). The values kept are those whose mean score, in the
representation where they do worst against the best values of that representation, is the least worse
(the smallest worst ratio): reasonable in every space, never tuned for one. The tournament size (3) and
the velocity limit of the real spaces (`spaces.VELOCITY_LIMIT`) were fixed, not tuned."""

MIN_POPULATION = ENGINES["GA"][1]["elitism"] + 1
"""Smallest population every engine accepts: the GA's elite and one child."""

OUTCOMES = ("representation dominates", "comparable", "algorithm dominates", "inconclusive")
"""The outcomes of a verdict (every rule)."""

RUN_COLUMNS = ["puzzle", "representation", "algorithm", "seed", "cost", "solved", "evaluations", "seconds"]
TABLE_COLUMNS = ["puzzle", "representation", "algorithm", "runs", "median", "min", "max", "solved", "mean_evaluations"]
SAMPLE_COLUMNS = ["rows", "columns", "boxes", "conflicts", "outside"]
PROFILE_COLUMNS = [
    "representation",
    "candidates",
    "outside",
    "outside_share",
    "mean_conflicts",
    "min_conflicts",
    "max_conflicts",
    "mean_row_conflicts",
]
POSITION_COLUMNS = ["puzzle", "algorithm", "share"]
EFFECT_COLUMNS = ["effect", "estimate", "low", "high", "excludes_zero"]
ROLE_COLUMNS = ["component", "role", *ALGORITHMS]
SIMPLE_EFFECT_COLUMNS = ["puzzle", "factor", "within", "first", "second", "estimate", "low", "high", "excludes_zero"]
POOLED = "all"
"""The `puzzle` of an effect estimated on every puzzle of the runs together."""
TABLE_NAMES = tuple(
    dict.fromkeys(
        RUN_COLUMNS
        + TABLE_COLUMNS
        + SAMPLE_COLUMNS
        + PROFILE_COLUMNS
        + POSITION_COLUMNS
        + EFFECT_COLUMNS
        + ROLE_COLUMNS[:2]  # the others are the algorithms' names
        + SIMPLE_EFFECT_COLUMNS
    )
)
"""Every English column name the tables of this module hold (a notebook shows them in French)."""


# ---------------------------------------------------------------- engines
def engine_spec(
    representation: str, algorithm: str, population_size: int = POPULATION, max_iterations: int = GENERATIONS
) -> tuple[str, dict]:
    """The registered name and constructor parameters of the engine of one cell: the algorithm's engine and
    parameters (`ENGINES`), the representation's space, and the budget's sizes.

    Simulated annealing has no population: its chains have `population_size` moves and it cools over
    `max_iterations` temperatures, so it spends the same evaluations.
    """
    space = _space_name(representation)
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; expected one of {list(ALGORITHMS)}")
    name, params = ENGINES[algorithm]
    size = "chain_length" if algorithm == "SA" else "population_size"
    return name, {"space": space, size: population_size, "max_iterations": max_iterations, **params}


def engine(
    representation: str,
    algorithm: str,
    population_size: int = POPULATION,
    max_iterations: int = GENERATIONS,
    observer: Observer | None = None,
) -> Solver:
    """The solver of one cell of the design (see `engine_spec`): the same class with the same parameters in
    every representation, only `space` differs. `observer` (GA only) receives each generation's population."""
    name, params = engine_spec(representation, algorithm, population_size, max_iterations)
    if observer is not None:
        if algorithm != "GA":
            raise ValueError(f"only the GA engine reports its populations, not {algorithm}")
        params["observer"] = observer
    return get_solver(name, **params)


def _space_name(representation: str) -> str:
    if representation not in REPRESENTATIONS:
        raise ValueError(f"unknown representation {representation!r}; expected one of {list(REPRESENTATIONS)}")
    return REPRESENTATIONS[representation]


def space_of(representation: str, puzzle) -> Space:
    """The search space of a representation for one puzzle."""
    return space_class(_space_name(representation))(as_grid(puzzle))


def factor_roles() -> pd.DataFrame:
    """What, in each cell of the design, belongs to the algorithm and what to the representation: one row per
    component of an engine (role "representation", "algorithm", or "design" for the budget), one column per
    algorithm, each entry the code, formula or parameters that do it (the same in every representation).
    Entries are code and formulas, readable in any language; components and roles are English words that
    `teaching.display.french_table` translates."""
    pso, ga, sa = (ENGINES[algorithm][1] for algorithm in ALGORITHMS)
    budget = f"{POPULATION} × {GENERATIONS}"
    rows = [
        ("sampling", "representation", *["space.random(rng)"] * len(ALGORITHMS)),
        ("decoding", "representation", *["conflicts(space.decode(x))"] * len(ALGORITHMS)),
        (
            "variation",
            "representation",
            "space.difference, space.scale, space.add, space.move, space.clamp",
            "space.crossover, space.neighbour",
            "space.neighbour",
        ),
        ("selection", "algorithm", "g = argmin f(p)", f"tournament_size = {ga['tournament_size']}", "exp(−Δ/T)"),
        ("replacement", "algorithm", "f(x) ≤ f(p) ⇒ p ← x", f"elitism = {ga['elitism']}", "x ← x′"),
        (
            "parameters",
            "algorithm",
            f"inertia_start = {pso['inertia_start']:g}, inertia_end = {pso['inertia_end']:g}, "
            f"c1 = {pso['c1']:g}, c2 = {pso['c2']:g}",
            f"crossover_rate = {ga['crossover_rate']:g}, mutation_rate = {ga['mutation_rate']:g}",
            f"t0 = {sa['t0']:g}, t_min = {sa['t_min']:g}",
        ),
        (
            "budget",
            "design",
            f"population_size × max_iterations = {budget}",
            f"population_size × max_iterations = {budget}",
            f"chain_length × max_iterations = {budget}",
        ),
    ]
    return pd.DataFrame(rows, columns=ROLE_COLUMNS)


def mealpy_cross_check(
    puzzles: Mapping[str, SudokuGrid],
    seeds: Sequence[int] = SEEDS,
    population_size: int = POPULATION,
    max_iterations: int = GENERATIONS,
) -> pd.DataFrame:
    """Outside the design: mealpy's PSO and GA on R1 with the design's budget, one row per run (the columns of
    `run_design`, algorithm "PSO" or "GA"), to compare our engines with a library's on the same puzzles
    (label -> puzzle)."""
    sizes = {"space": "continuous", "population_size": population_size, "max_iterations": max_iterations}
    engines = {"PSO": get_solver("mealpy-pso", **sizes), "GA": get_solver("mealpy-ga", **sizes)}
    grids = {str(label): [as_grid(puzzle)] for label, puzzle in puzzles.items()}
    runs = benchmark(engines, grids, seeds=seeds, budget=population_size * max_iterations, time_limit=None)
    runs = runs.assign(puzzle=runs["difficulty"], representation="R1", algorithm=runs["solver"])
    return runs[RUN_COLUMNS].astype({"cost": int, "evaluations": int, "solved": bool})


# ---------------------------------------------------------------- the design
@dataclass(frozen=True)
class CrossDesign:
    """Representations x algorithms x seeds on some puzzles, every run with the same evaluation budget.

    puzzles: label -> puzzle (a grid or a string). The budget of every run is
    population_size x max_iterations evaluations.
    """

    puzzles: Mapping[str, SudokuGrid]
    representations: tuple[str, ...] = ("R1", "R2")
    algorithms: tuple[str, ...] = ("PSO", "GA")
    seeds: tuple[int, ...] = SEEDS
    population_size: int = POPULATION
    max_iterations: int = GENERATIONS
    grids: dict[str, SudokuGrid] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.puzzles:
            raise ValueError("the design needs at least one puzzle")
        for label in self.representations:
            _space_name(label)
        for label in self.algorithms:
            if label not in ALGORITHMS:
                raise ValueError(f"unknown algorithm {label!r}; expected one of {list(ALGORITHMS)}")
        if not self.seeds:
            raise ValueError("the design needs at least one seed")
        if self.population_size < MIN_POPULATION or self.max_iterations < 1:
            raise ValueError(
                f"need population_size >= {MIN_POPULATION} and max_iterations >= 1,"
                f" got {self.population_size}, {self.max_iterations}"
            )
        object.__setattr__(self, "grids", {str(label): as_grid(p) for label, p in self.puzzles.items()})

    @property
    def budget(self) -> int:
        """Evaluations of every run."""
        return self.population_size * self.max_iterations

    @property
    def cells(self) -> list[tuple[str, str]]:
        """The (representation, algorithm) pairs, row by row."""
        return [(rep, algo) for rep in self.representations for algo in self.algorithms]

    @property
    def runs(self) -> int:
        """Number of runs: puzzles x cells x seeds."""
        return len(self.grids) * len(self.cells) * len(self.seeds)

    def engines(self) -> dict[str, Solver]:
        """Cell label ("R1 × PSO") -> its engine."""
        return {
            _cell_label(rep, algo): engine(rep, algo, self.population_size, self.max_iterations)
            for rep, algo in self.cells
        }


def _cell_label(representation: str, algorithm: str) -> str:
    return f"{representation} × {algorithm}"


def run_design(
    design: CrossDesign,
    n_jobs: int = 1,
    progress: bool | None = None,
    backend: str = "local",
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Every run of the design, one row each: puzzle, representation, algorithm, seed, cost, solved, evaluations,
    seconds. Runs are bounded by evaluations only (no time limit), so the table is reproducible.
    progress: a progress bar (None: yes, unless SUDOKU_COURSE_PROGRESS=0).

    n_jobs, backend and scheduler say where the runs go (see `bench.benchmark`): for example
    backend="dask", scheduler="tcp://10.0.0.5:8786" spreads a large campaign over a Dask cluster.
    """
    cells = {_cell_label(rep, algo): (rep, algo) for rep, algo in design.cells}
    runs = benchmark(
        design.engines(),
        {label: [grid] for label, grid in design.grids.items()},
        seeds=design.seeds,
        budget=design.budget,
        time_limit=None,
        n_jobs=n_jobs,
        progress=progress,
        backend=backend,
        scheduler=scheduler,
    )
    runs = _puzzle_by_puzzle(runs, list(design.grids))
    failed = runs[runs["error"] != ""]
    if len(failed):
        first = failed.iloc[0]
        raise RuntimeError(
            f"{len(failed)} run(s) failed; first: {first['solver']}, seed {first['seed']}: {first['error']}"
        )
    runs["puzzle"] = runs["difficulty"]
    runs["representation"] = [cells[label][0] for label in runs["solver"]]
    runs["algorithm"] = [cells[label][1] for label in runs["solver"]]
    return runs[RUN_COLUMNS].astype({"cost": int, "evaluations": int, "solved": bool})


def _puzzle_by_puzzle(runs: pd.DataFrame, puzzles: list[str]) -> pd.DataFrame:
    """The runs of one campaign (solver, then puzzle, then seed) reordered puzzle by puzzle, in design order."""
    rank = {label: index for index, label in enumerate(puzzles)}
    return runs.sort_values("difficulty", key=lambda labels: labels.map(rank), kind="stable", ignore_index=True)


# ---------------------------------------------------------------- the table
def cross_table(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (puzzle, representation, algorithm), in the order of the runs: runs, median, min and max of
    the conflicts left, runs solved, mean evaluations."""
    missing = [
        column
        for column in ("puzzle", "representation", "algorithm", "cost", "solved", "evaluations")
        if column not in runs.columns
    ]
    if missing:
        raise ValueError(f"the runs table lacks the column(s) {missing}; build it with run_design")
    groups = runs.groupby(["puzzle", "representation", "algorithm"], sort=False)
    table = groups.agg(
        runs=("cost", "size"),
        median=("cost", "median"),
        min=("cost", "min"),
        max=("cost", "max"),
        solved=("solved", "sum"),
        mean_evaluations=("evaluations", "mean"),
    ).reset_index()
    return table.astype({"median": float, "min": int, "max": int, "solved": int, "mean_evaluations": float})[
        TABLE_COLUMNS
    ]


# ---------------------------------------------------------------- the source's verdict (history)
@dataclass(frozen=True)
class Gap:
    """The gap between the best and the worst median of a column (or a row) of the table."""

    factor: str  # "representation" (within one algorithm column) or "algorithm" (within one representation row)
    within: str  # the algorithm of the column, or the representation of the row
    best: str  # level with the lowest median
    worst: str  # level with the highest median
    best_median: float
    worst_median: float
    best_range: tuple[int, int]
    worst_range: tuple[int, int]

    @property
    def size(self) -> float:
        """Worst median minus best median (conflicts)."""
        return self.worst_median - self.best_median

    @property
    def overlap(self) -> bool:
        """True if the seed ranges [min, max] of the best and the worst level share at least one value."""
        return self.best_range[0] <= self.worst_range[1] and self.worst_range[0] <= self.best_range[1]


@dataclass(frozen=True)
class Verdict:
    """The outcome of the source's rule and the gaps it compared."""

    outcome: str
    representation_gaps: dict[str, Gap]  # algorithm -> gap between representations in its column
    algorithm_gaps: dict[str, Gap]  # representation -> gap between algorithms in its row

    @property
    def smallest_representation_gap(self) -> Gap:
        """The smallest representation gap over the algorithm columns."""
        return min(self.representation_gaps.values(), key=lambda gap: gap.size)

    @property
    def largest_algorithm_gap(self) -> Gap:
        """The largest algorithm gap over the representation rows."""
        return max(self.algorithm_gaps.values(), key=lambda gap: gap.size)

    @property
    def ratio(self) -> float:
        """Largest algorithm gap / smallest representation gap (inf when the latter is 0)."""
        smallest = self.smallest_representation_gap.size
        return self.largest_algorithm_gap.size / smallest if smallest else math.inf

    @property
    def overlapping_columns(self) -> list[str]:
        """The algorithm columns whose representation gap has overlapping dispersions."""
        return [algo for algo, gap in self.representation_gaps.items() if gap.overlap]

    @property
    def dominated_columns(self) -> dict[str, bool]:
        """Per algorithm column: does its representation gap exceed the algorithm gap of every row?"""
        largest = self.largest_algorithm_gap.size
        return {algo: gap.size > largest for algo, gap in self.representation_gaps.items()}


def _gap(table: pd.DataFrame, factor: str, within: str) -> Gap:
    ranked = table.sort_values("median", kind="stable")
    best, worst = ranked.iloc[0], ranked.iloc[-1]
    return Gap(
        factor=factor,
        within=within,
        best=str(best[factor]),
        worst=str(worst[factor]),
        best_median=float(best["median"]),
        worst_median=float(worst["median"]),
        best_range=(int(best["min"]), int(best["max"])),
        worst_range=(int(worst["min"]), int(worst["max"])),
    )


def verdict(table: pd.DataFrame) -> Verdict:
    """Apply the source's preregistered rule to the cross table of ONE puzzle (as given by `cross_table`).

    Kept as history: this rule reads min-max ranges, which widen as seeds are added, and treats the two
    factors asymmetrically. The course's rule is `effects_verdict`.

    The rule, fixed before the runs (lesson 04):
    "the representation dominates if, in every algorithm column, the R1 -> R2
    gap exceeds the algorithm gap of every row; the effects are comparable if
    both gaps are of the same order; inconclusive if the dispersions overlap."

    How it is computed, every quantity on the conflicts left after the run:

    - representation gap of an algorithm column: highest minus lowest median of
      the representations in that column (with two representations, |R1 - R2|);
    - algorithm gap of a representation row: highest minus lowest median of the
      algorithms in that row;
    - dispersion of a cell: its range [min, max] over the seeds. The dispersions
      of a gap overlap when the ranges of its two cells (lowest and highest
      median) share at least one value.

    The outcomes, tested in this order (the first that applies is the verdict):

    1. "inconclusive": in some algorithm column the dispersions of the
       representation gap overlap: the representation effect is not separated
       from the seed-to-seed spread there, so it cannot be ranked.
    2. "representation dominates": the smallest representation gap is larger
       than the largest algorithm gap (in every column, it exceeds every row's).
    3. "comparable": otherwise, if the two are of the same order: the largest
       algorithm gap is at most SAME_ORDER (10) times the smallest
       representation gap, that is, less than one order of magnitude apart.
    4. "algorithm dominates": otherwise. The source's rule does not name this
       case; it is stated here, before the data, so that every table gets a
       verdict.

    Medians, not means, since runs that solve the puzzle stop at 0 while the
    others keep their conflicts (see `cross_table`).
    """
    puzzles = list(pd.unique(table["puzzle"]))
    if len(puzzles) != 1:
        raise ValueError(f"verdict needs the table of one puzzle, this one holds {len(puzzles)}: {puzzles}")
    representations = list(pd.unique(table["representation"]))
    algorithms = list(pd.unique(table["algorithm"]))
    if len(representations) < 2 or len(algorithms) < 2:
        raise ValueError("verdict needs at least two representations and two algorithms")
    if len(table) != len(representations) * len(algorithms):
        raise ValueError("the table must hold each (representation, algorithm) cell exactly once")
    representation_gaps = {algo: _gap(table[table["algorithm"] == algo], "representation", algo) for algo in algorithms}
    algorithm_gaps = {rep: _gap(table[table["representation"] == rep], "algorithm", rep) for rep in representations}
    result = Verdict("", representation_gaps, algorithm_gaps)
    if result.overlapping_columns:
        outcome = "inconclusive"
    elif result.smallest_representation_gap.size > result.largest_algorithm_gap.size:
        outcome = "representation dominates"
    elif result.ratio <= SAME_ORDER:
        outcome = "comparable"
    else:
        outcome = "algorithm dominates"
    return replace(result, outcome=outcome)


def verdicts(table: pd.DataFrame) -> dict[str, Verdict]:
    """The verdict of each puzzle of a cross table, in table order."""
    return {str(p): verdict(table[table["puzzle"] == p]) for p in pd.unique(table["puzzle"])}


# ---------------------------------------------------------------- effects, intervals and the course's verdict
EFFECTS = ("representation", "algorithm", "interaction")


@dataclass(frozen=True)
class Effects:
    """Main effects and interaction of a 2 x 2 design on one puzzle, with percentile bootstrap intervals.

    With representations (r1, r2) and algorithms (a1, a2) in table order, and m[r, a] the mean of the
    per-seed conflicts left in a cell:

    - representation effect = mean over a of (m[r2, a] - m[r1, a]): what changing r1 to r2 does, on average
      over the algorithms (negative: r2 leaves fewer conflicts);
    - algorithm effect = mean over r of (m[r, a2] - m[r, a1]);
    - interaction = (m[r2, a2] - m[r1, a2]) - (m[r2, a1] - m[r1, a1]): how much the representation effect
      differs between the algorithms (by symmetry, how much the algorithm effect differs between the
      representations). 0 when the effects simply add up. It is the whole difference of differences, not
      halved as in Montgomery's convention, so its size is not on the scale of the main effects.

    Means, not medians, because these effects decompose the table exactly (each cell mean is the grand mean
    plus or minus half of each effect and a quarter of the interaction); the medians stay in the cross table.
    """

    puzzle: str
    representations: tuple[str, str]
    algorithms: tuple[str, str]
    cell_means: dict[tuple[str, str], float]  # (representation, algorithm) -> mean conflicts left
    seeds: dict[tuple[str, str], int]  # (representation, algorithm) -> runs in that cell
    estimates: dict[str, float]  # effect name (EFFECTS) -> value on the runs
    intervals: dict[str, tuple[float, float]]  # effect name -> percentile bootstrap interval
    resamples: int
    confidence: float

    def excludes_zero(self, effect: str) -> bool:
        """True if the interval of `effect` lies entirely above or below 0."""
        low, high = self.intervals[effect]
        return low > 0 or high < 0

    def magnitude(self, effect: str) -> tuple[float, float]:
        """The interval of |effect|: [distance of the interval to 0, largest absolute bound]."""
        low, high = self.intervals[effect]
        nearest = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
        return nearest, max(abs(low), abs(high))

    def table(self) -> pd.DataFrame:
        """One row per effect: estimate, low, high, excludes_zero."""
        rows = [
            {
                "effect": name,
                "estimate": self.estimates[name],
                "low": self.intervals[name][0],
                "high": self.intervals[name][1],
                "excludes_zero": self.excludes_zero(name),
            }
            for name in EFFECTS
        ]
        return pd.DataFrame(rows, columns=EFFECT_COLUMNS)


def _design_effects(means: np.ndarray) -> dict[str, np.ndarray]:
    """The effects of 2 x 2 cell means indexed [..., representation, algorithm] (any leading axes)."""
    by_representation = means[..., 1, :] - means[..., 0, :]  # representation effect within each algorithm
    by_algorithm = means[..., :, 1] - means[..., :, 0]  # algorithm effect within each representation
    return {
        "representation": by_representation.mean(axis=-1),
        "algorithm": by_algorithm.mean(axis=-1),
        "interaction": by_representation[..., 1] - by_representation[..., 0],
    }


def bootstrap_effects(
    runs: pd.DataFrame,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> Effects:
    """Main effects and interaction of the 2 x 2 design of ONE puzzle (runs as given by `run_design`), each
    with its percentile bootstrap interval (see `Effects` for the definitions).

    The bootstrap resamples the seeds of each cell with replacement, independently from cell to cell and
    in the order of the runs table (`resamples` times, all at once), recomputes the three effects on every
    resample, and keeps the central `confidence` share of each: the interval narrows as seeds are added.
    Same runs and seed, same intervals.
    """
    if resamples < 1 or not 0 < confidence < 1:
        raise ValueError(f"need resamples >= 1 and 0 < confidence < 1, got {resamples}, {confidence}")
    puzzles = list(pd.unique(runs["puzzle"]))
    if len(puzzles) != 1:
        raise ValueError(f"bootstrap_effects needs the runs of one puzzle, these hold {len(puzzles)}: {puzzles}")
    representations = tuple(str(label) for label in pd.unique(runs["representation"]))
    algorithms = tuple(str(label) for label in pd.unique(runs["algorithm"]))
    if len(representations) != 2 or len(algorithms) != 2:
        raise ValueError(
            f"bootstrap_effects needs a 2 x 2 design, got representations {list(representations)} "
            f"and algorithms {list(algorithms)}"
        )
    rng = np.random.default_rng(seed)
    means = np.empty((resamples, 2, 2))
    observed = np.empty((2, 2))
    seeds = {}
    for (rep, algo), group in runs.groupby(["representation", "algorithm"], sort=False):  # draws in table order
        values = group["cost"].to_numpy(dtype=float)
        i, j = representations.index(rep), algorithms.index(algo)
        observed[i, j] = values.mean()
        means[:, i, j] = values[rng.integers(0, len(values), size=(resamples, len(values)))].mean(axis=1)
        seeds[rep, algo] = len(values)
    if len(seeds) != 4:
        raise ValueError("bootstrap_effects needs runs in each of the four cells")
    intervals = {
        name: tuple(float(bound) for bound in percentile_bounds(samples, confidence))
        for name, samples in _design_effects(means).items()
    }
    return Effects(
        puzzle=str(puzzles[0]),
        representations=representations,
        algorithms=algorithms,
        cell_means={
            (rep, algo): float(observed[i, j])
            for i, rep in enumerate(representations)
            for j, algo in enumerate(algorithms)
        },
        seeds=seeds,
        estimates={name: float(value) for name, value in _design_effects(observed).items()},
        intervals=intervals,
        resamples=resamples,
        confidence=confidence,
    )


@dataclass(frozen=True)
class EffectsVerdict:
    """The outcome of the course's rule and the numbers it compared."""

    outcome: str
    effects: Effects
    representation: tuple[float, float]  # interval of |representation effect|
    algorithm: tuple[float, float]  # interval of |algorithm effect|

    @property
    def interaction_excludes_zero(self) -> bool:
        """True if the interaction's interval excludes 0: one factor's effect depends on the other."""
        return self.effects.excludes_zero("interaction")


def effects_verdict(effects: Effects) -> EffectsVerdict:
    """Apply the course's preregistered rule to the bootstrap intervals of the main effects (`bootstrap_effects`).

    The rule is symmetric in the two factors. For a factor F, let [lo, hi] be the 95 % interval of its main
    effect and |F| = [d, M] the interval of its size: M = max(|lo|, |hi|), d = 0 if the interval contains 0,
    else min(|lo|, |hi|). The outcomes, tested in this order:

    1. "representation dominates": the representation interval excludes 0 and its size lies entirely above
       the algorithm's: d(representation) > M(algorithm).
    2. "algorithm dominates": the same with the two factors swapped.
    3. "comparable": both intervals exclude 0 and their sizes overlap: both factors matter, and the data
       cannot rank them.
    4. "inconclusive": otherwise; some main effect is not separated from 0 and not dominated either, so
       more seeds are needed.

    Swapping the factors swaps outcomes 1 and 2 and keeps 3 and 4. The interaction does not enter the
    outcome; when its interval excludes 0 (`interaction_excludes_zero`), a main effect is an average of
    different effects and must be read together with the interaction.
    """
    representation, algorithm = effects.magnitude("representation"), effects.magnitude("algorithm")
    if effects.excludes_zero("representation") and representation[0] > algorithm[1]:
        outcome = "representation dominates"
    elif effects.excludes_zero("algorithm") and algorithm[0] > representation[1]:
        outcome = "algorithm dominates"
    elif effects.excludes_zero("representation") and effects.excludes_zero("algorithm"):
        outcome = "comparable"
    else:
        outcome = "inconclusive"
    return EffectsVerdict(outcome, effects, representation, algorithm)


def effects_verdicts(runs: pd.DataFrame, **bootstrap) -> dict[str, EffectsVerdict]:
    """The course's verdict for each puzzle of a runs table, in table order (`bootstrap`: see `bootstrap_effects`)."""
    return {
        str(p): effects_verdict(bootstrap_effects(runs[runs["puzzle"] == p], **bootstrap))
        for p in pd.unique(runs["puzzle"])
    }


# ---------------------------------------------------------------- simple effects and the protocol's verdict
def simple_effects(
    runs: pd.DataFrame,
    outcome: str = "cost",
    per_puzzle: bool = True,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> pd.DataFrame:
    """Each factor's effect within each level of the other, with percentile bootstrap intervals.

    One row per (puzzle, factor, within, first, second): the mean of `outcome` ("cost": conflicts left;
    "solved": the success rate; "evaluations": evaluations spent) over the runs of (second, within) minus
    that of (first, within), for every pair first < second of the factor's levels in table order:
    representation within each algorithm, then algorithm within each representation. `puzzle` is POOLED
    ("all": every run of the cell, each puzzle counting for its runs), then each puzzle (`per_puzzle`).

    The bootstrap resamples the seeds of each cell within each puzzle, with replacement and independently
    (`resamples` times, at least 2,000 for the protocol), recomputes every effect on each resample, and
    keeps the central `confidence` share (percentile method). Same runs and seed, same intervals.
    """
    samples = _resampled_means(runs, outcome, resamples, seed)
    labels = [POOLED, *(list(samples.puzzles) if per_puzzle else [])]
    rows = []
    for label in labels:
        observed, resampled = samples.means(None if label == POOLED else label)
        for contrast in samples.simple_contrasts():
            rows.append({"puzzle": label, **contrast.describe(observed, resampled, confidence)})
    return pd.DataFrame(rows, columns=SIMPLE_EFFECT_COLUMNS)


@dataclass(frozen=True)
class _Contrast:
    """A difference of cell means: factor, the level of the other factor it is within, and the two levels."""

    factor: str
    within: str
    first: str
    second: str
    weights: np.ndarray  # on the cell means [representation, algorithm]: +1 on second, -1 on first

    def value(self, means: np.ndarray) -> np.ndarray:
        """The contrast of cell means of shape (..., representations, algorithms)."""
        return (means * self.weights).sum(axis=(-2, -1))

    def describe(self, observed: np.ndarray, resampled: np.ndarray, confidence: float) -> dict:
        low, high = (float(bound) for bound in percentile_bounds(self.value(resampled), confidence))
        return {
            "factor": self.factor,
            "within": self.within,
            "first": self.first,
            "second": self.second,
            "estimate": float(self.value(observed)),
            "low": low,
            "high": high,
            "excludes_zero": low > 0 or high < 0,
        }


@dataclass(frozen=True)
class _Resampled:
    """Per puzzle, the observed and bootstrap sums and counts of an outcome in each cell of the design."""

    representations: tuple[str, ...]
    algorithms: tuple[str, ...]
    puzzles: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]  # puzzle -> (sums, resampled sums, counts)

    def means(self, puzzle: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Observed cell means (representations x algorithms) and resampled ones (resamples x ...), of one
        puzzle or, with None, of every puzzle's runs together."""
        chosen = list(self.puzzles.values()) if puzzle is None else [self.puzzles[puzzle]]
        sums, resampled, counts = (sum(parts) for parts in zip(*chosen, strict=True))
        return sums / counts, resampled / counts

    def simple_contrasts(self) -> list[_Contrast]:
        """Representation within each algorithm, then algorithm within each representation, every pair."""
        contrasts = []
        shape = (len(self.representations), len(self.algorithms))
        for j, algorithm in enumerate(self.algorithms):
            for (a, first), (b, second) in combinations(enumerate(self.representations), 2):
                weights = np.zeros(shape)
                weights[b, j], weights[a, j] = 1, -1
                contrasts.append(_Contrast("representation", algorithm, first, second, weights))
        for i, representation in enumerate(self.representations):
            for (a, first), (b, second) in combinations(enumerate(self.algorithms), 2):
                weights = np.zeros(shape)
                weights[i, b], weights[i, a] = 1, -1
                contrasts.append(_Contrast("algorithm", representation, first, second, weights))
        return contrasts


def _resampled_means(runs: pd.DataFrame, outcome: str, resamples: int, seed: int) -> _Resampled:
    """Resample the runs of each (puzzle, representation, algorithm) cell with replacement, in table order."""
    if resamples < 1:
        raise ValueError(f"need resamples >= 1, got {resamples}")
    missing = {"puzzle", "representation", "algorithm", outcome} - set(runs.columns)
    if missing:
        raise ValueError(f"the runs table lacks the column(s) {sorted(missing)}")
    representations = tuple(str(label) for label in pd.unique(runs["representation"]))
    algorithms = tuple(str(label) for label in pd.unique(runs["algorithm"]))
    if len(representations) < 2 or len(algorithms) < 2:
        raise ValueError("the effects need at least two representations and two algorithms")
    rng = np.random.default_rng(seed)
    shape = (len(representations), len(algorithms))
    puzzles = {}
    for puzzle, runs_of_puzzle in runs.groupby("puzzle", sort=False):
        sums, resampled, counts = np.zeros(shape), np.zeros((resamples, *shape)), np.zeros(shape)
        for (rep, algo), group in runs_of_puzzle.groupby(["representation", "algorithm"], sort=False):
            values = group[outcome].to_numpy(dtype=float)
            i, j = representations.index(rep), algorithms.index(algo)
            sums[i, j], counts[i, j] = values.sum(), len(values)
            resampled[:, i, j] = values[rng.integers(0, len(values), size=(resamples, len(values)))].sum(axis=1)
        if not counts.all():
            raise ValueError(f"puzzle {puzzle!r} lacks runs in some cell of the design")
        puzzles[str(puzzle)] = (sums, resampled, counts)
    return _Resampled(representations, algorithms, puzzles)


@dataclass(frozen=True)
class ProtocolVerdict:
    """The outcome of the confirmatory protocol's rule and the numbers it read.

    `by_cell`: the largest interaction exceeds the smaller of the two factors' main effects, so the verdict
    reads the gaps column by column (representation within each algorithm) and row by row (algorithm within
    each representation); otherwise it reads each factor's main effect (the average over the other factor).
    `gaps`: the gaps compared, one row per gap (the columns of `simple_effects`; within "mean" for a main
    effect): for each column or row, its largest effect.
    """

    outcome: str
    by_cell: bool
    interaction: float  # the largest |interaction| estimate
    main_effects: dict[str, float]  # factor -> its largest |main effect| estimate
    gaps: pd.DataFrame
    effects: pd.DataFrame  # every simple effect, pooled (`simple_effects`)


def protocol_verdict(
    runs: pd.DataFrame,
    outcome: str = "cost",
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> ProtocolVerdict:
    """Apply the confirmatory protocol's decision rule (studies/crossstudy-protocol.md) to the runs of a
    representations x algorithms design, pooled over its puzzles.

    For two levels of a factor, an effect is a difference of cell means of `outcome`; a main effect averages
    a simple effect over the levels of the other factor; an interaction is the difference of differences
    (m[r', a'] - m[r, a']) - (m[r', a] - m[r, a]), not halved. Intervals: percentile bootstrap over the seeds
    of each cell and puzzle (see `simple_effects`).

    1. If the largest |interaction| exceeds the smaller of the two factors' largest |main effect|, the
       averages hide opposite or unequal effects: the gaps are read by cell. A representation gap is, in
       each algorithm column, the largest representation effect (by |estimate|); an algorithm gap, in each
       representation row, the largest algorithm effect. Otherwise each factor has one gap: its largest
       main effect.
    2. With [d, M] the interval of a gap's size (d = 0 if its interval contains 0, else its bound nearest
       to 0; M its bound farthest from 0), the outcomes, tested in this order:
       "representation dominates": the smallest d of the representation gaps exceeds the largest M of the
       algorithm gaps; "algorithm dominates": the same with the factors swapped; "comparable": some gap of
       each factor excludes 0 (both matter somewhere, neither everywhere more); "inconclusive": otherwise.
    """
    samples = _resampled_means(runs, outcome, resamples, seed)
    observed, resampled = samples.means()
    simple = samples.simple_contrasts()
    effects = pd.DataFrame(
        [{"puzzle": POOLED, **c.describe(observed, resampled, confidence)} for c in simple],
        columns=SIMPLE_EFFECT_COLUMNS,
    )
    mains = _main_contrasts(simple)
    main_sizes = {
        factor: max(abs(float(c.value(observed))) for c in mains if c.factor == factor)
        for factor in ("representation", "algorithm")
    }
    interaction = max(abs(float(value)) for value in _interactions(observed, samples))
    by_cell = interaction > min(main_sizes.values())
    contrasts = simple if by_cell else mains
    described = pd.DataFrame(
        [{"puzzle": POOLED, **c.describe(observed, resampled, confidence)} for c in contrasts],
        columns=SIMPLE_EFFECT_COLUMNS,
    )
    largest = described.loc[described["estimate"].abs().groupby([described["factor"], described["within"]]).idxmax()]
    gaps = described.loc[sorted(largest.index)].reset_index(drop=True)
    return ProtocolVerdict(_gap_outcome(gaps), by_cell, interaction, main_sizes, gaps, effects)


def _main_contrasts(simple: list[_Contrast]) -> list[_Contrast]:
    """Each simple contrast averaged over the levels of the other factor (within "mean")."""
    grouped: dict[tuple[str, str, str], list[_Contrast]] = {}
    for contrast in simple:
        grouped.setdefault((contrast.factor, contrast.first, contrast.second), []).append(contrast)
    return [
        _Contrast(factor, "mean", first, second, sum(c.weights for c in group) / len(group))
        for (factor, first, second), group in grouped.items()
    ]


def _interactions(means: np.ndarray, samples: _Resampled) -> list[float]:
    """Every interaction (m[r', a'] - m[r, a']) - (m[r', a] - m[r, a]) of the cell means."""
    return [
        (means[b, d] - means[a, d]) - (means[b, c] - means[a, c])
        for a, b in combinations(range(len(samples.representations)), 2)
        for c, d in combinations(range(len(samples.algorithms)), 2)
    ]


def _size(low: float, high: float) -> tuple[float, float]:
    """The interval of |effect| from the interval of the effect: [d, M]."""
    nearest = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
    return nearest, max(abs(low), abs(high))


def _gap_outcome(gaps: pd.DataFrame) -> str:
    """The protocol's outcome from the gaps of each factor (rule step 2 of `protocol_verdict`)."""
    sizes = {
        factor: [_size(row.low, row.high) for row in gaps[gaps["factor"] == factor].itertuples()]
        for factor in ("representation", "algorithm")
    }
    representation, algorithm = sizes["representation"], sizes["algorithm"]
    if min(d for d, _ in representation) > max(m for _, m in algorithm):
        return "representation dominates"
    if min(d for d, _ in algorithm) > max(m for _, m in representation):
        return "algorithm dominates"
    if any(d > 0 for d, _ in representation) and any(d > 0 for d, _ in algorithm):
        return "comparable"
    return "inconclusive"


def position_between(table: pd.DataFrame, representation: str, low: str = "R1", high: str = "R2") -> pd.DataFrame:
    """Where a representation falls between two others, per puzzle and algorithm, on the medians.

    Column `share`: (median of low - median of it) / (median of low - median of high):
    0 means as good as `low`, 1 as good as `high`, NaN when low and high tie.
    """
    medians = table.pivot_table(index=["puzzle", "algorithm"], columns="representation", values="median", sort=False)
    for label in (representation, low, high):
        if label not in medians.columns:
            raise ValueError(f"the table has no representation {label!r}")
    result = medians[[low, representation, high]].copy()
    span = result[low] - result[high]
    result["share"] = (result[low] - result[representation]) / span.where(span != 0)
    return result.reset_index()


# ---------------------------------------------------------------- cause analysis
def sample_candidates(space: Space, count: int = 200, seed: int = 7) -> pd.DataFrame:
    """`count` random candidates of a space, decoded: conflicts per kind of unit, total, and whether the
    candidate lies outside the admissible space (some row is not a permutation of 1..n)."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(count):
        by_kind = unit_conflicts(space.decode(space.random(rng)))
        rows.append({**by_kind, "conflicts": sum(by_kind.values()), "outside": by_kind["rows"] > 0})
    return pd.DataFrame(rows, columns=SAMPLE_COLUMNS)


def candidate_profile(puzzle, representations: Sequence[str] = ("R1", "R2"), count: int = 200, seed: int = 7):
    """Per representation, over `count` random candidates (same seed for each): how many fall outside the
    admissible space, and their initial conflicts (mean, min, max) and row conflicts (mean)."""
    rows = []
    for label in representations:
        sample = sample_candidates(space_of(label, puzzle), count, seed)
        rows.append(
            {
                "representation": label,
                "candidates": count,
                "outside": int(sample["outside"].sum()),
                "outside_share": float(sample["outside"].mean()),
                "mean_conflicts": float(sample["conflicts"].mean()),
                "min_conflicts": int(sample["conflicts"].min()),
                "max_conflicts": int(sample["conflicts"].max()),
                "mean_row_conflicts": float(sample["rows"].mean()),
            }
        )
    return pd.DataFrame(rows, columns=PROFILE_COLUMNS)


def distinct_grids(space: Space, population) -> int:
    """Number of distinct grids the candidates of a population decode to."""
    return len({space.decode(candidate).to_string() for candidate in population})


def population_trace(
    representation: str,
    puzzle,
    seed: int = 0,
    population_size: int = POPULATION,
    max_iterations: int = GENERATIONS,
) -> list[np.ndarray]:
    """The population of a GA run after each generation (one candidate per row), with the design's budget."""
    populations: list[np.ndarray] = []
    solver = engine(representation, "GA", population_size, max_iterations, observer=populations.append)
    solver.solve(puzzle, seed=seed, budget=population_size * max_iterations)
    return populations


def distinct_per_generation(representation: str, puzzle, populations: Sequence[np.ndarray]) -> list[int]:
    """Distinct decoded grids in each population of a trace (see `population_trace`)."""
    space = space_of(representation, puzzle)
    return [distinct_grids(space, candidates) for candidates in populations]


# ---------------------------------------------------------------- the campaigns
def design_configurations(
    representations: Sequence[str] = ("R1", "R2", "R3"), algorithms: Sequence[str] = ALGORITHMS
) -> tuple[Configuration, ...]:
    """One campaign configuration per cell ("R1 × PSO"...), its engine given by `engine_spec`."""
    return tuple(
        Configuration(_cell_label(rep, algo), *engine_spec(rep, algo), {"representation": rep, "algorithm": algo})
        for rep in representations
        for algo in algorithms
    )


CONFIRMATORY_PUZZLES = (PuzzleSet(TEMOIN), PuzzleSet("medium", (47,)), PuzzleSet("hard", (49,)))
"""The témoin, then the medium and the hard puzzle of median difficulty (`median_puzzle`)."""
CONFIRMATORY_SEED_COUNT = 30
SEED_RULE = "sudoku-course crossstudy confirmatory seed {k}"
"""The text whose SHA-256 gives the k-th confirmatory seed (`confirmatory_seeds`)."""


def median_puzzle(bank: str) -> int:
    """The index of the bank's puzzle of median difficulty: the bank sorted by open cells after naked and
    hidden singles (`puzzles.open_cells`), ties in bank order, the puzzle at rank ceil(count / 2) (the lower
    median). The rule that chose the confirmatory grids."""
    from .puzzles import load_bank, open_cells

    ranked = sorted(range(len(load_bank(bank))), key=lambda index: open_cells(load_bank(bank)[index]))
    return ranked[(len(ranked) - 1) // 2]


def confirmatory_seeds() -> tuple[int, ...]:
    """The seeds of the confirmatory campaign: for k = 0, 1, ..., the first 31 bits of the SHA-256 of
    SEED_RULE with k, until CONFIRMATORY_SEED_COUNT distinct seeds (a rule no earlier run used)."""
    seeds: list[int] = []
    k = 0
    while len(seeds) < CONFIRMATORY_SEED_COUNT:
        digest = hashlib.sha256(SEED_RULE.format(k=k).encode()).digest()
        seed = int.from_bytes(digest[:4], "big") >> 1
        if seed not in seeds:
            seeds.append(seed)
        k += 1
    return tuple(seeds)


EXPLORATION = Campaign(
    name="crossstudy-exploration",
    description="Lesson 04's exploration: the témoin with the source's seeds, R1, R2 and R3 x PSO, GA and SA, "
    "one engine per algorithm, 40 x 200 = 8,000 evaluations per run.",
    configurations=design_configurations(),
    puzzles=(PuzzleSet(TEMOIN),),
    seeds=SEEDS,
    budget=BUDGET,
    slice=Slice(("R1 × SA", "R2 × GA"), (0, 1, 7)),
)
CONFIRMATORY = Campaign(
    name="crossstudy-confirmatory",
    description="Lesson 04's confirmatory study (studies/crossstudy-protocol.md): the témoin, medium-47 and "
    "hard-49, 30 seeds per cell, R1, R2 and R3 x PSO, GA and SA, 8,000 evaluations per run.",
    configurations=design_configurations(),
    puzzles=CONFIRMATORY_PUZZLES,
    seeds=confirmatory_seeds(),
    budget=BUDGET,
    slice=Slice(("R1 × SA", "R2 × GA"), confirmatory_seeds()[:3], (TEMOIN,)),
    protocol="studies/crossstudy-protocol.md",
)
