"""The targets of issue 12 side by side in one run: restricted solvers beside their plain versions.

Targets (restrict=True, default parameters otherwise, a time budget per run):
- annealing on the expert bank, 10 s a puzzle: >= 95 % with the python engine, 100 % with numba;
- annealing on the témoin: median time < 0.1 s over 10 seeds;
- the GA on the medium bank, 30 s a puzzle: >= 90 %;
- the swap PSO and the worker/explorer swarm on the medium bank, 30 s a puzzle: >= 80 %.
The plain versions (restrict=False) run alongside on the same puzzles and seeds, with the same budgets.

Quick mode (default): the first 3 puzzles of each bank and a fifth of the time budgets, for everyday use;
its rates are only a hint. --full: every puzzle of each bank and the budgets of the targets (hours of
runs at worst: --groups picks some of them, --puzzles takes the first puzzles of each bank).

    .venv/bin/python benchmarks/bench_targets.py
    .venv/bin/python benchmarks/bench_targets.py --full --groups annealing temoin
    .venv/bin/python benchmarks/bench_targets.py --full --groups genetic swarms --puzzles 20
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

import pandas as pd

from sudoku_course.bench import benchmark, summarize
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers import Solver
from sudoku_course.solvers.annealing import AnnealingSolver
from sudoku_course.solvers.genetic import GeneticSolver
from sudoku_course.solvers.swarm import SwapPSO, WorkerExplorerSwarm

QUICK_PUZZLES = 3
QUICK_TIME_SHARE = 0.2
TEMOIN_SEEDS = 10


@dataclass(frozen=True)
class Group:
    """Solvers run on the same puzzles with the same time budget; `goals`: label -> target."""

    bank: str
    seconds: float
    solvers: dict[str, Solver]
    goals: dict[str, str]


GROUPS = {
    "annealing": Group(
        "expert",
        10.0,
        {
            "annealing + candidates (python)": AnnealingSolver(restrict=True),
            "annealing + candidates (numba)": AnnealingSolver(restrict=True, engine="numba"),
            "annealing (python)": AnnealingSolver(),
        },
        {"annealing + candidates (python)": "success >= 0.95", "annealing + candidates (numba)": "success = 1"},
    ),
    "temoin": Group(
        "témoin",
        10.0,
        {"annealing + candidates (python)": AnnealingSolver(restrict=True), "annealing (python)": AnnealingSolver()},
        {"annealing + candidates (python)": "median < 0.1 s"},
    ),
    "genetic": Group(
        "medium",
        30.0,
        {"genetic + candidates": GeneticSolver(restrict=True), "genetic": GeneticSolver()},
        {"genetic + candidates": "success >= 0.9"},
    ),
    "swarms": Group(
        "medium",
        30.0,
        {
            "swap-pso + candidates": SwapPSO(restrict=True),
            "swap-pso": SwapPSO(),
            "swarm + candidates": WorkerExplorerSwarm(restrict=True),
            "swarm": WorkerExplorerSwarm(),
        },
        {"swap-pso + candidates": "success >= 0.8", "swarm + candidates": "success >= 0.8"},
    ),
}


def met(goal: str, row: pd.Series) -> bool:
    """Whether a summary row meets its goal (one of the forms used in GROUPS)."""
    if goal.startswith("median <"):
        return row["median_seconds"] < float(goal.split()[2])
    if goal == "success = 1":
        return row["success_rate"] == 1
    return row["success_rate"] >= float(goal.split()[-1])


def verdict(row: pd.Series) -> str:
    """ "yes" or "NO" for a row with a goal, "" for the others."""
    if not row["goal"]:
        return ""
    return "yes" if met(row["goal"], row) else "NO"


def run_group(group: Group, puzzles: int | None, time_share: float, jobs: int) -> pd.DataFrame:
    """The summary of one group, with its goals and whether each is met."""
    if group.bank == "témoin":
        sets, seeds = {"témoin": [reference()]}, range(TEMOIN_SEEDS)
    else:
        sets, seeds = {group.bank: load_bank(group.bank)[:puzzles]}, (0,)
    seconds = group.seconds * time_share
    for solver in group.solvers.values():  # compile the numba kernels (or load them) before the clock runs
        solver.solve(next(iter(sets.values()))[0], seed=0, budget=1_000)
    runs = benchmark(group.solvers, sets, seeds=seeds, time_limit=seconds, n_jobs=jobs, progress=False)
    failures = runs[runs["error"] != ""]
    if len(failures):
        print(failures.to_string())
    summary = summarize(runs)
    summary.insert(2, "seconds_per_run", seconds)
    summary["goal"] = summary["solver"].map(group.goals).fillna("")
    summary["met"] = [verdict(row) for _, row in summary.iterrows()]
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="every puzzle and the targets' budgets")
    parser.add_argument("--groups", nargs="+", choices=list(GROUPS), default=list(GROUPS))
    parser.add_argument("--puzzles", type=int, help="first puzzles of each bank (default: 3, or all with --full)")
    parser.add_argument("--jobs", type=int, default=1, help="runs in parallel (default 1: times less disturbed)")
    args = parser.parse_args()
    puzzles = args.puzzles or (None if args.full else QUICK_PUZZLES)
    time_share = 1.0 if args.full else QUICK_TIME_SHARE
    pd.set_option("display.width", 220)
    print(f"{'full' if args.full else 'quick'} mode; load average before: {os.getloadavg()[0]:.1f}")
    columns = ["solver", "difficulty", "seconds_per_run", "mean_open_cells", "runs", "solved", "success_rate"]
    columns += ["median_seconds", "max_seconds", "goal", "met"]
    for name in args.groups:
        summary = run_group(GROUPS[name], puzzles, time_share, args.jobs)
        print(f"\n{name} (load average after: {os.getloadavg()[0]:.1f})")
        print(summary[columns].round(3).to_string(index=False), flush=True)


if __name__ == "__main__":
    main()
