"""Representation versus algorithm: a factorial design, its cross table, its effects and its preregistered verdict.

The design crosses representations (R1: one real per free cell, rounded down;
R2: each row a permutation of its missing digits; R3: random keys ranked per
row) with algorithms (PSO, GA, simulated annealing) and seeds, on one or more
puzzles, under ONE evaluation budget: a population of 40 over 200 generations,
so 8,000 evaluations of the same cost (total conflicts of the decoded grid),
counted by every engine's instrumented cost function.

    design = CrossDesign({"témoin": reference()})
    runs = run_design(design)                   # one row per run
    table = cross_table(runs)                   # one row per cell: median, min, max, solved, mean evaluations
    effects = bootstrap_effects(runs)           # main effects and interaction, with bootstrap intervals
    result = effects_verdict(effects)           # the course's preregistered rule, applied by code
    history = verdict(table)                    # the source's rule, kept as history

Both rules are stated in their docstrings, before any data is seen; `teaching.display` says them in French.
The cause analysis helpers measure what a representation does to candidates:
`candidate_profile` (random candidates outside the admissible space, initial
conflicts) and `population_trace` with `distinct_grids` (how many distinct grids
a population really holds, generation by generation).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from .bench import benchmark
from .cost import unit_conflicts
from .grid import SudokuGrid, as_grid
from .solvers import Solver, get_solver
from .solvers.base import Observer
from .solvers.genetic import MIN_MEALPY_GA_POPULATION
from .spaces import Space, space_class

POPULATION = 40
GENERATIONS = 200
BUDGET = POPULATION * GENERATIONS
"""Evaluations per run: the same for every cell of the design."""
MIN_POPULATION = MIN_MEALPY_GA_POPULATION
"""Smallest population every engine accepts."""
SEEDS = (0, 1, 7, 42)
REPRESENTATIONS: dict[str, str] = {"R1": "continuous", "R2": "rows", "R3": "random-key"}
"""Representation label -> space name (see `spaces.SPACES`)."""
ALGORITHMS = ("PSO", "GA", "SA")
SAME_ORDER = 10.0
"""The largest algorithm gap is of the same order as the smallest representation gap when it is at most
SAME_ORDER times that gap (the rule only needs this side: the other is ruled out before, see `verdict`)."""

ENGINE_NAMES: dict[tuple[str, str], str] = {
    ("PSO", "continuous"): "mealpy-pso",
    ("PSO", "random-key"): "mealpy-pso",
    ("PSO", "rows"): "swap-pso",
    ("GA", "continuous"): "mealpy-ga",
    ("GA", "random-key"): "mealpy-ga",
    ("GA", "rows"): "perm-ga",
    ("SA", "continuous"): "space-annealing",
    ("SA", "random-key"): "space-annealing",
    ("SA", "rows"): "space-annealing",
}
"""(algorithm, space) -> registered solver: mealpy where a library does the job, our code on permutations."""

OUTCOMES = ("representation dominates", "comparable", "algorithm dominates", "inconclusive")
"""The outcomes of a verdict (both rules)."""

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
TABLE_NAMES = tuple(
    dict.fromkeys(RUN_COLUMNS + TABLE_COLUMNS + SAMPLE_COLUMNS + PROFILE_COLUMNS + POSITION_COLUMNS + EFFECT_COLUMNS)
)
"""Every English column name the tables of this module hold (a notebook shows them in French)."""


# ---------------------------------------------------------------- engines
def engine(
    representation: str,
    algorithm: str,
    population_size: int = POPULATION,
    max_iterations: int = GENERATIONS,
    observer: Observer | None = None,
) -> Solver:
    """The solver of one cell of the design: `population_size` candidates per generation (epoch), for
    `max_iterations` generations.

    Simulated annealing has no population: its chains have `population_size` moves and
    it cools over `max_iterations` temperatures, so it spends the same evaluations.
    `observer` (GA only) receives each generation's population.
    """
    space = _space_name(representation)
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; expected one of {list(ALGORITHMS)}")
    name = ENGINE_NAMES[algorithm, space]
    params = {
        "mealpy-pso": {"space": space, "population_size": population_size, "max_iterations": max_iterations},
        "mealpy-ga": {"space": space, "population_size": population_size, "max_iterations": max_iterations},
        "swap-pso": {"population_size": population_size, "max_iterations": max_iterations},
        "perm-ga": {"space": space, "population_size": population_size, "max_iterations": max_iterations},
        "space-annealing": {"space": space, "chain_length": population_size, "max_iterations": max_iterations},
    }[name]
    if observer is not None:
        if algorithm != "GA":
            raise ValueError(f"only the GA engines report their populations, not {algorithm}")
        params["observer"] = observer
    return get_solver(name, **params)


def _space_name(representation: str) -> str:
    if representation not in REPRESENTATIONS:
        raise ValueError(f"unknown representation {representation!r}; expected one of {list(REPRESENTATIONS)}")
    return REPRESENTATIONS[representation]


def space_of(representation: str, puzzle) -> Space:
    """The search space of a representation for one puzzle."""
    return space_class(_space_name(representation))(as_grid(puzzle))


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
RESAMPLES = 10_000
"""Bootstrap resamples of each interval."""
CONFIDENCE = 0.95
BOOTSTRAP_SEED = 2024
"""Seed of the bootstrap's generator: the same runs give the same intervals."""


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
    tail = 100 * (1 - confidence) / 2
    intervals = {
        name: tuple(float(bound) for bound in np.percentile(samples, [tail, 100 - tail]))
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
