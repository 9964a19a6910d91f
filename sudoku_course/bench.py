"""Benchmark campaigns: run solvers on puzzles with several seeds, one table row per run.

`benchmark` runs every (solver, puzzle, seed) combination and returns a pandas
DataFrame; `summarize` condenses it per solver and difficulty, optionally with
the course's disqualification rule (a solver that fails one run of a
difficulty is disqualified for that difficulty). A campaign runs on this machine
(backend "local", in parallel with joblib) or on a Dask cluster (backend "dask");
every backend runs each task with the same function, `run_task`.

Run-time distributions, in the manner of COCO and IOHprofiler (Hansen et al.
2021; Doerr et al. 2018): `run_time_distribution` gives, for each configuration,
the share of its runs solved within each budget of evaluations (or seconds),
unsolved runs never counting, with a bootstrap band; `interval_summary` gives
per configuration the runs, the runs solved, the success rate and the median
conflicts left, each with its interval. Every interval is a percentile bootstrap
(RESAMPLES resamples, at least 2,000) that resamples the runs of each puzzle
within that puzzle.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from numbers import Integral

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from .grid import InvalidPuzzleError, SudokuGrid, as_grid
from .progress import progress_bar
from .puzzles import load_bank, open_cells
from .solvers import Budget, Solver, get_solver

COLUMNS = [
    "solver",
    "puzzle",
    "difficulty",
    "empty_cells",
    "open_cells",
    "seed",
    "solved",
    "cost",
    "evaluations",
    "seconds",
    "error",
]
"""One row per run; empty_cells and open_cells describe the puzzle (see `puzzles.open_cells`)."""
SUMMARY_COLUMNS = [
    "solver",
    "difficulty",
    "mean_empty_cells",
    "mean_open_cells",
    "runs",
    "solved",
    "success_rate",
    "median_seconds",
    "min_seconds",
    "max_seconds",
    "median_evaluations",
]
COLUMN_TYPES = {"empty_cells": int, "open_cells": "Int64", "cost": "Int64", "evaluations": "Int64"}
"""Column types of a run table; "Int64" columns may hold missing values (a run that raised, a puzzle with
no solution)."""
DISQUALIFIED = "disqualified"
"""Column added by `summarize(..., disqualify=True)`."""
RTD_COLUMNS = ["solved_share", "low", "high"]
"""Columns of a run-time distribution after the configuration and the budget (see `run_time_distribution`)."""
INTERVAL_SUMMARY_COLUMNS = [
    "runs",
    "solved",
    "success_rate",
    "success_low",
    "success_high",
    "median_cost",
    "median_low",
    "median_high",
]
"""Columns of `interval_summary` after the configuration."""
TABLE_NAMES = tuple(dict.fromkeys([*COLUMNS, *SUMMARY_COLUMNS, DISQUALIFIED, *RTD_COLUMNS, *INTERVAL_SUMMARY_COLUMNS]))
"""Every English column name the tables of this module hold (a notebook shows them in French)."""
MIN_PUZZLE_LENGTH = 16
"""Cells of the smallest grid (4 x 4): a shorter string is a bank name, not a puzzle."""
CUSTOM = "custom"
"""Difficulty given to puzzles passed as a plain list."""
BACKENDS = ("local", "dask")
"""Where a campaign runs: on this machine (joblib processes) or on a Dask cluster."""
RESAMPLES = 10_000
"""Bootstrap resamples of each interval (percentile method)."""
CONFIDENCE = 0.95
BOOTSTRAP_SEED = 2024
"""Seed of the bootstrap's generator: the same runs give the same intervals."""


@dataclass(frozen=True)
class Task:
    """One run of a campaign: a labelled solver on one puzzle with one seed."""

    label: str
    solver: Solver
    puzzle_id: str
    difficulty: str
    puzzle: SudokuGrid
    seed: int
    open_cells: int | None = None
    """Empty cells left open by naked and hidden singles (None: the puzzle has no solution)."""


def benchmark(
    solvers,
    puzzles,
    seeds: Iterable[int] = (0,),
    budget: int | None = None,
    time_limit: float | None = 10.0,
    n_jobs: int = 1,
    progress: bool | None = None,
    backend: str = "local",
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Run every solver on every puzzle with every seed; return one row per run.

    solvers: a registered name, a list of names or of Solver instances (labelled
    by their `name`), or a dict label -> Solver.
    puzzles: a bank name, a list of bank names, a dict difficulty -> puzzles, or
    a plain list of puzzles (difficulty "custom").
    budget: evaluations per run (None: unlimited); time_limit: seconds per run.
    backend: "local" runs on this machine, in n_jobs worker processes (1: in this
    process); "dask" runs on the Dask cluster whose scheduler listens at `scheduler`
    (such as "tcp://10.0.0.5:8786"; its workers set the parallelism), or on a new
    local cluster of n_jobs worker processes when `scheduler` is None (a script
    that starts one needs the `if __name__ == "__main__":` guard).
    A run that raises is recorded as failed with its error; the campaign goes on.
    progress: show a progress bar (None: yes, unless SUDOKU_COURSE_PROGRESS=0).
    Rows come in the same order whatever the backend and n_jobs (solver, then puzzle,
    then seed), and with an evaluation budget and no time limit they hold the same
    values (all but the times).
    """
    run_budget = replace(Budget.coerce(budget), seconds=_check_time_limit(time_limit))
    tasks = plan(solvers, puzzles, seeds)
    rows = run_tasks(tasks, run_budget, n_jobs, backend, scheduler)
    solvers_run = ", ".join(dict.fromkeys(task.label for task in tasks))
    # the bar names only the solvers: it reads the same in a French notebook and in the English command line
    rows = list(progress_bar(rows, total=len(tasks), desc=solvers_run, progress=progress))
    return pd.DataFrame(rows, columns=COLUMNS).astype(COLUMN_TYPES)


def plan(solvers, puzzles, seeds: Iterable[int]) -> list[Task]:
    """The runs of a campaign, in table order: solver, then puzzle, then seed."""
    labelled = labelled_solvers(solvers)
    puzzle_sets = puzzle_sets_of(puzzles)
    seed_list = _check_seeds(seeds)
    left = {id(puzzle): _open_cells_or_none(puzzle) for grids in puzzle_sets.values() for puzzle in grids}
    return [
        Task(label, solver, puzzle_id(difficulty, index), difficulty, puzzle, seed, left[id(puzzle)])
        for label, solver in labelled.items()
        for difficulty, grids in puzzle_sets.items()
        for index, puzzle in enumerate(grids)
        for seed in seed_list
    ]


def _open_cells_or_none(puzzle: SudokuGrid) -> int | None:
    """open_cells of the puzzle, or None when it has no solution (its runs will say so)."""
    try:
        return open_cells(puzzle)
    except InvalidPuzzleError:
        return None


def run_task(task: Task, budget: Budget) -> dict:
    """Run one task and return its table row; an exception becomes a failed row."""
    start = time.perf_counter()
    try:
        result = task.solver.solve(task.puzzle, seed=task.seed, budget=budget)
    except Exception as error:  # a failing run must not stop the campaign
        outcome = {"solved": False, "cost": None, "evaluations": None, "error": f"{type(error).__name__}: {error}"}
    else:
        outcome = {"solved": result.solved, "cost": result.cost, "evaluations": result.evaluations, "error": ""}
    return {
        "solver": task.label,
        "puzzle": task.puzzle_id,
        "difficulty": task.difficulty,
        "empty_cells": task.puzzle.empty_count,
        "open_cells": task.open_cells,
        "seed": task.seed,
        **outcome,
        "seconds": time.perf_counter() - start,
    }


def run_tasks(
    tasks: list[Task], budget: Budget, n_jobs: int = 1, backend: str = "local", scheduler: str | None = None
) -> Iterator[dict]:
    """The rows of `tasks`, in order, each computed by `run_task` on the chosen backend (see `benchmark`)."""
    if backend == "local":
        if scheduler is not None:
            raise ValueError("a scheduler address only applies to backend='dask'")
        parallel = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator")
        return parallel(delayed(run_task)(task, budget) for task in tasks)
    if backend == "dask":
        if n_jobs < 1:
            raise ValueError(f"n_jobs must be a positive number of Dask workers, got {n_jobs}")
        return _run_on_dask(tasks, budget, n_jobs, scheduler)
    raise ValueError(f"unknown backend {backend!r}; expected one of {list(BACKENDS)}")


def _run_on_dask(tasks: list[Task], budget: Budget, n_workers: int, scheduler: str | None) -> Iterator[dict]:
    """Submit every task to a Dask cluster, then yield the rows in order as they come back."""
    from distributed import Client, LocalCluster  # imported here: only this backend needs Dask

    with contextlib.ExitStack() as stack:
        if scheduler is None:
            cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, dashboard_address=":0")
            scheduler = stack.enter_context(cluster)
        client = stack.enter_context(Client(scheduler))
        for future in client.map(run_task, tasks, budget=budget, pure=False):
            yield future.result()


def summarize(df: pd.DataFrame, disqualify: bool = False) -> pd.DataFrame:
    """Per solver and difficulty (in order of first appearance): mean empty and open cells, runs, successes
    and times.

    With disqualify=True, a `disqualified` column is True for a solver that
    failed at least one run of that difficulty.
    """
    summary = (
        df.groupby(["solver", "difficulty"], sort=False)
        .agg(
            mean_empty_cells=("empty_cells", "mean"),
            mean_open_cells=("open_cells", "mean"),
            runs=("solved", "size"),
            solved=("solved", "sum"),
            median_seconds=("seconds", "median"),
            min_seconds=("seconds", "min"),
            max_seconds=("seconds", "max"),
            median_evaluations=("evaluations", "median"),
        )
        .reset_index()
    )
    summary = summary.astype(
        {"solved": int, "median_evaluations": float, "mean_empty_cells": float, "mean_open_cells": float}
    )
    summary["success_rate"] = summary["solved"] / summary["runs"]
    summary = summary[SUMMARY_COLUMNS]
    if disqualify:
        summary[DISQUALIFIED] = summary["solved"] < summary["runs"]
    return summary


# ---------------------------------------------------------------- run-time distributions and intervals
def run_time_distribution(
    runs: pd.DataFrame,
    by: str = "configuration",
    against: str = "evaluations",
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> pd.DataFrame:
    """The share of each configuration's runs solved within each budget, with a percentile bootstrap band.

    A run solved within a budget when it is solved and spent at most that budget (`against`: "evaluations",
    or "seconds", what a solved run spent until it stopped, at the solution). The share counts ALL the
    configuration's runs, so the curve stays below 1 when some run fails (the empirical cumulative
    distribution of the run times, unsolved runs at infinity). One row per budget where the share rises,
    plus the largest budget a run of the configuration spent: `by`, `against`, solved_share, low, high.
    The band resamples the runs of each puzzle within that puzzle, `resamples` times, and keeps the central
    `confidence` share of the resampled shares at each budget.
    """
    rng = np.random.default_rng(seed)
    parts = []
    for label, group in runs.groupby(by, sort=False):
        times = np.where(group["solved"].to_numpy(dtype=bool), group[against].to_numpy(dtype=float), np.inf)
        budgets = np.unique(np.append(times[np.isfinite(times)], group[against].max()))
        within = times[:, None] <= budgets[None, :]  # run x budget: solved within it
        drawn = np.zeros((resamples, len(times)))
        np.add.at(drawn, (np.arange(resamples)[:, None], _resampled(group, resamples, rng)), 1)
        resampled = drawn @ within / len(times)  # resample x budget: share solved
        low, high = percentile_bounds(resampled, confidence, axis=0)
        parts.append(
            pd.DataFrame({by: label, against: budgets, "solved_share": within.mean(axis=0), "low": low, "high": high})
        )
    return pd.concat(parts, ignore_index=True)


def interval_summary(
    runs: pd.DataFrame,
    by: str = "configuration",
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> pd.DataFrame:
    """Per configuration (in order of first appearance): runs, runs solved, success rate and median conflicts
    left (`cost`), each with its percentile bootstrap interval (the runs of each puzzle resampled within
    that puzzle, `resamples` times; the central `confidence` share)."""
    rng = np.random.default_rng(seed)
    rows = []
    for label, group in runs.groupby(by, sort=False):
        drawn = _resampled(group, resamples, rng)
        solved, cost = group["solved"].to_numpy(dtype=float), group["cost"].to_numpy(dtype=float)
        success = percentile_bounds(solved[drawn].mean(axis=1), confidence)
        median = percentile_bounds(np.median(cost[drawn], axis=1), confidence)
        rows.append(
            {
                by: label,
                "runs": len(group),
                "solved": int(solved.sum()),
                "success_rate": float(solved.mean()),
                "success_low": float(success[0]),
                "success_high": float(success[1]),
                "median_cost": float(np.median(cost)),
                "median_low": float(median[0]),
                "median_high": float(median[1]),
            }
        )
    return pd.DataFrame(rows, columns=[by, *INTERVAL_SUMMARY_COLUMNS])


def percentile_bounds(samples: np.ndarray, confidence: float = CONFIDENCE, axis: int | None = None) -> np.ndarray:
    """The percentile bootstrap interval of resampled values: the bounds that leave (1 - confidence) / 2 of
    them on each side ([low, high], along `axis`)."""
    tail = 100 * (1 - confidence) / 2
    return np.percentile(samples, [tail, 100 - tail], axis=axis)


def _resampled(runs: pd.DataFrame, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """(resamples x runs) positions into `runs`: each resample draws, within each puzzle, as many of its runs
    as it holds, with replacement."""
    puzzles = runs["puzzle"].to_numpy()
    draws = []
    for puzzle in pd.unique(puzzles):
        members = np.flatnonzero(puzzles == puzzle)
        draws.append(members[rng.integers(len(members), size=(resamples, len(members)))])
    return np.concatenate(draws, axis=1)


def labelled_solvers(solvers) -> dict[str, Solver]:
    """Turn the accepted forms of `solvers` into a dict label -> Solver."""
    if isinstance(solvers, (str, Solver)):
        solvers = [solvers]
    if isinstance(solvers, Mapping):
        pairs = list(solvers.items())
    else:
        pairs = [(item, get_solver(item)) if isinstance(item, str) else (_name_of(item), item) for item in solvers]
    if not pairs:
        raise ValueError("no solver to benchmark")
    labelled: dict[str, Solver] = {}
    for label, solver in pairs:
        if not isinstance(solver, Solver):
            raise TypeError(f"solver {label!r} is a {type(solver).__name__}, not a Solver")
        if label in labelled:
            raise ValueError(f"two solvers are labelled {label!r}; pass a dict label -> solver to tell them apart")
        labelled[label] = solver
    return labelled


def puzzle_sets_of(puzzles) -> dict[str, list[SudokuGrid]]:
    """Turn the accepted forms of `puzzles` into a dict difficulty -> list of grids."""
    if isinstance(puzzles, str):
        puzzles = [puzzles]
    if not isinstance(puzzles, Mapping):
        puzzles = list(puzzles)
        if puzzles and all(_is_bank_name(item) for item in puzzles):
            puzzles = {name: load_bank(name) for name in puzzles}
        else:
            puzzles = {CUSTOM: puzzles}
    sets = {str(difficulty): _grids(str(difficulty), items) for difficulty, items in puzzles.items()}
    if not any(sets.values()):
        raise ValueError("no puzzle to benchmark")
    return sets


def puzzle_id(difficulty: str, index: int) -> str:
    """Identifier of the index-th puzzle of a difficulty, such as "easy-00"."""
    return f"{difficulty}-{index:02d}"


def _is_bank_name(item) -> bool:
    """A string too short to be a puzzle (the smallest grid has 16 cells) names a bank."""
    return isinstance(item, str) and len(item) < MIN_PUZZLE_LENGTH


def _name_of(solver) -> str:
    """The label of a solver passed without one: its `name` attribute."""
    return getattr(solver, "name", type(solver).__name__)


def _grids(difficulty: str, items) -> list[SudokuGrid]:
    """Read each puzzle now, so that a bad one is reported by its id before any run."""
    grids = []
    for index, item in enumerate(items):
        try:
            grids.append(as_grid(item))
        except InvalidPuzzleError as error:
            raise error.within(puzzle=puzzle_id(difficulty, index)) from error
    return grids


def _check_seeds(seeds: Iterable[int]) -> list[int]:
    if isinstance(seeds, (Integral, str)):
        raise TypeError(f"seeds must be a sequence of integers such as range(3) or (42,), got {seeds!r}")
    seed_list = [int(seed) for seed in seeds]
    if not seed_list:
        raise ValueError("no seed given: pass at least one, such as seeds=(0,)")
    return seed_list


def _check_time_limit(time_limit: float | None) -> float | None:
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    return time_limit
