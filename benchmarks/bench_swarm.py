"""Lesson 03 benchmark: success rate, evaluations and times of each swarm, side by side in one run.

Runs the worker/explorer swarm, the swap PSO (pure and memetic) and mealpy's PSO (continuous and
random-key encodings), each with its default parameters, on the témoin over 10 seeds and on the first
puzzles of the easy bank, and prints per solver and puzzle set: success rate, median evaluations,
median and maximum seconds, and the median of the conflicts left. Then the ratios of median
evaluations and median times of the pure swap PSO to the memetic one.

    .venv/bin/python benchmarks/bench_swarm.py                   # témoin x 10 seeds, 10 easy puzzles x 1 seed
    .venv/bin/python benchmarks/bench_swarm.py --puzzles 50 --easy-seeds 3 --jobs 2
"""

from __future__ import annotations

import argparse

import pandas as pd

from sudoku_course.bench import benchmark, summarize
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers.swarm import MealpyPSO, SwapPSO, WorkerExplorerSwarm

SOLVERS = {
    "swarm (workers/explorers)": WorkerExplorerSwarm(),
    "swap-pso (pure)": SwapPSO(),
    "swap-pso (memetic, every 25)": SwapPSO(local_search_every=25),
    "mealpy-pso (continuous)": MealpyPSO(space="continuous"),
    "mealpy-pso (random keys)": MealpyPSO(space="random-key"),
}


def campaign(seeds: int, puzzles: int, easy_seeds: int, time_limit: float, jobs: int) -> pd.DataFrame:
    """One row per run: the témoin with `seeds` seeds, then `puzzles` easy puzzles with `easy_seeds` seeds."""
    on_reference = benchmark(SOLVERS, {"témoin": [reference()]}, range(seeds), time_limit=time_limit, n_jobs=jobs)
    on_easy = benchmark(
        SOLVERS, {"easy": load_bank("easy")[:puzzles]}, range(easy_seeds), time_limit=time_limit, n_jobs=jobs
    )
    return pd.concat([on_reference, on_easy], ignore_index=True)


def table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per solver and puzzle set: success rate, median evaluations, median and maximum seconds, median cost."""
    summary = summarize(runs)
    costs = runs.groupby(["solver", "difficulty"], sort=False)["cost"].median().rename("median_cost").reset_index()
    summary = summary.merge(costs, on=["solver", "difficulty"])
    columns = ["solver", "difficulty", "runs", "success_rate", "median_evaluations", "median_seconds", "max_seconds"]
    return summary[columns + ["median_cost"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=10, help="seeds on the témoin (default 10)")
    parser.add_argument("--puzzles", type=int, default=10, help="first puzzles of the easy bank (default 10)")
    parser.add_argument("--easy-seeds", type=int, default=1, help="seeds per easy puzzle (default 1)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run (default 60)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel worker processes (default 1)")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    runs = campaign(args.seeds, args.puzzles, args.easy_seeds, args.time_limit, args.jobs)
    failures = runs[runs["error"] != ""]
    if len(failures):
        print(failures.to_string())
    summary = table(runs)
    print(f"Témoin x {args.seeds} seeds, easy bank x {args.puzzles} puzzles x {args.easy_seeds} seed(s):")
    print(summary.round(3).to_string(index=False))
    medians = summary.set_index(["difficulty", "solver"])
    print("\nPure swap PSO / memetic swap PSO (medians):")
    for difficulty in medians.index.unique(level="difficulty"):
        pure, memetic = (medians.loc[(difficulty, label)] for label in list(SOLVERS)[1:3])
        evaluations = pure["median_evaluations"] / memetic["median_evaluations"]
        seconds = pure["median_seconds"] / memetic["median_seconds"]
        print(f"  {difficulty}: {evaluations:.1f} x the evaluations, {seconds:.1f} x the time")


if __name__ == "__main__":
    main()
