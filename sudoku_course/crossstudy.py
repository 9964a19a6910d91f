"""Representation versus algorithm: a factorial design, its cross table and its preregistered verdict.

The design crosses representations (R1: one real per free cell, rounded down;
R2: each row a permutation of its missing digits; R3: random keys ranked per
row) with algorithms (PSO, GA, simulated annealing) and seeds, on one or more
puzzles, under ONE evaluation budget: a population of 40 over 200 generations,
so 8,000 evaluations of the same cost (total conflicts of the decoded grid),
counted by every engine's instrumented cost function.

    design = CrossDesign({"témoin": reference()})
    runs = run_design(design)        # one row per run
    table = cross_table(runs)        # one row per cell: median, min, max, solved, mean evaluations
    print(verdict(table).explain())  # the preregistered rule, applied by code

The verdict rule is stated in `verdict`'s docstring, before any data is seen.
The cause analysis helpers measure what a representation does to candidates:
`candidate_profile` (random candidates outside the admissible space, initial
conflicts) and `population_trace` with `distinct_grids` (how many distinct grids
a population really holds, generation by generation).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .bench import benchmark
from .cost import unit_conflicts
from .grid import SudokuGrid, as_grid
from .solvers import Solver, get_solver
from .solvers.engines import MIN_MEALPY_GA_POPULATION, Observer
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

OUTCOMES = {
    "representation dominates": "la représentation domine",
    "comparable": "effets comparables",
    "algorithm dominates": "l'algorithme domine",
    "inconclusive": "non concluant",
}
"""Verdict code -> French label."""

RUN_COLUMNS = ["puzzle", "representation", "algorithm", "seed", "cost", "solved", "evaluations", "seconds"]
TABLE_COLUMNS = ["puzzle", "representation", "algorithm", "runs", "median", "min", "max", "solved", "mean_evaluations"]


# ---------------------------------------------------------------- engines
def engine(
    representation: str,
    algorithm: str,
    population: int = POPULATION,
    generations: int = GENERATIONS,
    observer: Observer | None = None,
) -> Solver:
    """The solver of one cell of the design: `population` candidates per generation, `generations` generations.

    Simulated annealing has no population: its chains have `population` moves and
    it cools over `generations` temperatures, so it spends the same evaluations.
    `observer` (GA only) receives each generation's population.
    """
    space = _space_name(representation)
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; expected one of {list(ALGORITHMS)}")
    name = ENGINE_NAMES[algorithm, space]
    params = {
        "mealpy-pso": {"space": space, "pop_size": population, "epochs": generations},
        "mealpy-ga": {"space": space, "pop_size": population, "epochs": generations},
        "swap-pso": {"swarm_size": population, "max_iterations": generations},
        "perm-ga": {"space": space, "population_size": population, "generations": generations},
        "space-annealing": {"space": space, "chain_length": population, "temperatures": generations},
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
    population x generations evaluations.
    """

    puzzles: Mapping[str, SudokuGrid]
    representations: tuple[str, ...] = ("R1", "R2")
    algorithms: tuple[str, ...] = ("PSO", "GA")
    seeds: tuple[int, ...] = SEEDS
    population: int = POPULATION
    generations: int = GENERATIONS
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
        if self.population < MIN_POPULATION or self.generations < 1:
            raise ValueError(
                f"need population >= {MIN_POPULATION} and generations >= 1, got {self.population}, {self.generations}"
            )
        object.__setattr__(self, "grids", {str(label): as_grid(p) for label, p in self.puzzles.items()})

    @property
    def budget(self) -> int:
        """Evaluations of every run."""
        return self.population * self.generations

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
            _cell_label(rep, algo): engine(rep, algo, self.population, self.generations) for rep, algo in self.cells
        }


def _cell_label(representation: str, algorithm: str) -> str:
    return f"{representation} × {algorithm}"


def run_design(design: CrossDesign, n_jobs: int = 1, progress: bool | None = None) -> pd.DataFrame:
    """Every run of the design, one row each: puzzle, representation, algorithm, seed, cost, solved, evaluations,
    seconds. Runs are bounded by evaluations only (no time limit), so the table is reproducible.
    progress: a progress bar per puzzle (None: yes, unless SUDOKU_COURSE_PROGRESS=0)."""
    cells = {_cell_label(rep, algo): (rep, algo) for rep, algo in design.cells}
    frames = [
        benchmark(
            design.engines(),
            {label: [grid]},
            seeds=design.seeds,
            budget=design.budget,
            time_limit=None,
            n_jobs=n_jobs,
            progress=progress,
        )
        for label, grid in design.grids.items()
    ]
    runs = pd.concat(frames, ignore_index=True)
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


# ---------------------------------------------------------------- the verdict
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

    def describe(self) -> str:
        """One French line: the two medians, the gap, the ranges."""
        ranges = "se recouvrent" if self.overlap else "sont séparées"
        return (
            f"{self.within} : {self.worst} {_fr(self.worst_median)} → {self.best} {_fr(self.best_median)}, "
            f"écart {_fr(self.size)} ; les étendues {list(self.worst_range)} et {list(self.best_range)} {ranges}"
        )


@dataclass(frozen=True)
class Verdict:
    """The outcome of the preregistered rule and the gaps it compared."""

    outcome: str
    representation_gaps: dict[str, Gap]  # algorithm -> gap between representations in its column
    algorithm_gaps: dict[str, Gap]  # representation -> gap between algorithms in its row
    reason: str

    @property
    def label(self) -> str:
        """The outcome in French."""
        return OUTCOMES[self.outcome]

    @property
    def dominated_columns(self) -> dict[str, bool]:
        """Per algorithm column: does its representation gap exceed the algorithm gap of every row?"""
        largest = max(gap.size for gap in self.algorithm_gaps.values())
        return {algo: gap.size > largest for algo, gap in self.representation_gaps.items()}

    def explain(self) -> str:
        """The reasoning in French: the gaps compared, the rule applied, the verdict."""
        lines = ["Écarts de représentation (dans chaque colonne d'algorithme, entre médianes) :"]
        lines += [f"  {gap.describe()}" for gap in self.representation_gaps.values()]
        lines.append("Écarts d'algorithme (dans chaque ligne de représentation, entre médianes) :")
        lines += [f"  {gap.describe()}" for gap in self.algorithm_gaps.values()]
        columns = ", ".join(f"{algo} {'oui' if flag else 'non'}" for algo, flag in self.dominated_columns.items())
        lines.append(
            f"Colonne par colonne, l'écart de représentation dépasse-t-il tous les écarts d'algorithme ? {columns}"
        )
        lines.append(f"Verdict : {self.label} — {self.reason}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()


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
    """Apply the preregistered rule to the cross table of ONE puzzle (as given by `cross_table`).

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
    smallest = min(representation_gaps.values(), key=lambda gap: gap.size)
    largest = max(algorithm_gaps.values(), key=lambda gap: gap.size)
    overlapping = [algo for algo, gap in representation_gaps.items() if gap.overlap]
    if overlapping:
        outcome = "inconclusive"
        reason = f"les étendues des représentations se recouvrent dans la colonne {', '.join(overlapping)}"
    elif smallest.size > largest.size:
        outcome = "representation dominates"
        reason = (
            f"le plus petit écart de représentation ({smallest.within}, {_fr(smallest.size)}) dépasse "
            f"le plus grand écart d'algorithme ({largest.within}, {_fr(largest.size)})"
        )
    else:
        ratio = largest.size / smallest.size
        comparison = (
            f"le plus grand écart d'algorithme ({largest.within}, {_fr(largest.size)}) "
            f"vaut {_fr(round(ratio, 1))} fois le plus petit écart de représentation "
            f"({smallest.within}, {_fr(smallest.size)})"
        )
        if ratio <= SAME_ORDER:
            outcome, reason = "comparable", f"{comparison} : même ordre de grandeur (au plus {SAME_ORDER:g} fois)"
        else:
            outcome, reason = "algorithm dominates", f"{comparison} : plus d'un ordre de grandeur"
    return Verdict(outcome, representation_gaps, algorithm_gaps, reason)


def verdicts(table: pd.DataFrame) -> dict[str, Verdict]:
    """The verdict of each puzzle of a cross table, in table order."""
    return {str(p): verdict(table[table["puzzle"] == p]) for p in pd.unique(table["puzzle"])}


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
    return pd.DataFrame(rows, columns=["rows", "columns", "boxes", "conflicts", "outside"])


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
    return pd.DataFrame(rows)


def distinct_grids(space: Space, population) -> int:
    """Number of distinct grids the candidates of a population decode to."""
    return len({space.decode(candidate).to_string() for candidate in population})


def population_trace(
    representation: str,
    puzzle,
    seed: int = 0,
    population: int = POPULATION,
    generations: int = GENERATIONS,
) -> list[np.ndarray]:
    """The population of a GA run after each generation (one candidate per row), with the design's budget."""
    populations: list[np.ndarray] = []
    solver = engine(representation, "GA", population, generations, observer=populations.append)
    solver.solve(puzzle, seed=seed, budget=population * generations)
    return populations


def distinct_per_generation(representation: str, puzzle, populations: Sequence[np.ndarray]) -> list[int]:
    """Distinct decoded grids in each population of a trace (see `population_trace`)."""
    space = space_of(representation, puzzle)
    return [distinct_grids(space, candidates) for candidates in populations]


def _fr(number: float) -> str:
    """A number written the French way in the verdict's sentences: 43,5 rather than 43.5."""
    return f"{number:g}".replace(".", ",")
