"""The targets of issues 12 and 24 side by side in one run: restricted solvers beside their plain versions.

Targets (restrict=True, default parameters otherwise, a time budget per run, one seed per puzzle):
- annealing, 10 s a puzzle, on the expert bank, the diabolique bank (once it exists) and every held-out set
  (--held-out FILE): >= 95 % with the python engine, 100 % with numba;
- annealing on the témoin: median time < 0.1 s over 10 seeds;
- the GA, 30 s a puzzle: >= 90 % of the medium bank, >= 60 % of the hard bank;
- the swap PSO, 30 s a puzzle: >= 45 of the 50 medium puzzles (also with a second job running on the machine:
  --second-job), >= 60 % of the hard bank;
- the worker/explorer swarm, 30 s a puzzle: >= 80 % of the medium bank, >= 60 % of the hard bank.
The plain versions (restrict=False) run alongside on the same puzzles and seeds, with the same budgets
(--no-plain leaves them out). Each group prints the load average before and after its runs, and the last
lines list every target with « met » or « not met ».

Quick mode (default): the first 3 puzzles of each set and a fifth of the time budgets, for everyday use;
its rates are only a hint. --full: every puzzle of each set and the budgets of the targets (hours of
runs at worst: --groups picks some of them, --puzzles takes the first puzzles of each set).

    .venv/bin/python benchmarks/bench_targets.py
    .venv/bin/python benchmarks/bench_targets.py --full --groups annealing temoin --held-out top95.txt
    .venv/bin/python benchmarks/bench_targets.py --full --groups swarms --no-plain --second-job
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sudoku_course.bench import benchmark, summarize
from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import load_bank, read_puzzles, reference
from sudoku_course.solvers import Solver
from sudoku_course.solvers.annealing import AnnealingSolver
from sudoku_course.solvers.genetic import GeneticSolver
from sudoku_course.solvers.swarm import SwapPSO, WorkerExplorerSwarm

QUICK_PUZZLES = 3
QUICK_TIME_SHARE = 0.2
TEMOIN_SEEDS = 10
EVERY_SET = "*"
"""A goal keyed by this set applies to every set of its group."""


@dataclass(frozen=True)
class Group:
    """Solvers run on the same puzzle sets with the same time budget.

    sets: bank names ("témoin" for the reference puzzle); held_out: the held-out files join these sets;
    solvers: label -> solver, the restricted ones first; goals: (label, set or EVERY_SET) -> target.
    """

    sets: tuple[str, ...]
    seconds: float
    solvers: dict[str, Solver]
    goals: dict[tuple[str, str], str]
    held_out: bool = False


GROUPS = {
    "annealing": Group(
        ("expert", "diabolique"),
        10.0,
        {
            "annealing + candidates (python)": AnnealingSolver(restrict=True),
            "annealing + candidates (numba)": AnnealingSolver(restrict=True, engine="numba"),
            "annealing (python)": AnnealingSolver(),
        },
        {
            ("annealing + candidates (python)", EVERY_SET): "success >= 0.95",
            ("annealing + candidates (numba)", EVERY_SET): "success = 1",
        },
        held_out=True,
    ),
    "temoin": Group(
        ("témoin",),
        10.0,
        {"annealing + candidates (python)": AnnealingSolver(restrict=True), "annealing (python)": AnnealingSolver()},
        {("annealing + candidates (python)", "témoin"): "median < 0.1 s"},
    ),
    "genetic": Group(
        ("medium", "hard"),
        30.0,
        {"genetic + candidates": GeneticSolver(restrict=True), "genetic": GeneticSolver()},
        {("genetic + candidates", "medium"): "success >= 0.9", ("genetic + candidates", "hard"): "success >= 0.6"},
    ),
    "swarms": Group(
        ("medium", "hard"),
        30.0,
        {
            "swap-pso + candidates": SwapPSO(restrict=True),
            "swarm + candidates": WorkerExplorerSwarm(restrict=True),
            "swap-pso": SwapPSO(),
            "swarm": WorkerExplorerSwarm(),
        },
        {
            ("swap-pso + candidates", "medium"): "success >= 0.9",
            ("swap-pso + candidates", "hard"): "success >= 0.6",
            ("swarm + candidates", "medium"): "success >= 0.8",
            ("swarm + candidates", "hard"): "success >= 0.6",
        },
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
    """ "met" or "not met" for a row with a goal, "" for the others."""
    if not row["goal"]:
        return ""
    return "met" if met(row["goal"], row) else "not met"


def puzzle_sets(group: Group, puzzles: int | None, held_out: list[str]) -> dict[str, list[SudokuGrid]]:
    """The group's sets that exist (the diabolique bank may not yet), then its held-out files."""
    sets = {}
    for name in group.sets:
        if name == "témoin":
            sets[name] = [reference()]
            continue
        try:
            sets[name] = load_bank(name)[:puzzles]
        except ValueError:
            print(f"(no {name} bank yet: left out)")
    if group.held_out:
        for path in held_out:
            sets[Path(path).stem] = read_puzzles(path)[:puzzles]
    return sets


def run_group(group: Group, puzzles: int | None, time_share: float, jobs: int, plain: bool, held_out: list[str]):
    """The summary of one group, with its goals and whether each is met."""
    sets = puzzle_sets(group, puzzles, held_out)
    seeds = range(TEMOIN_SEEDS) if group.sets == ("témoin",) else (0,)
    solvers = {label: solver for label, solver in group.solvers.items() if plain or solver.restrict}
    seconds = group.seconds * time_share
    for solver in solvers.values():  # compile the numba kernels (or load them) before the clock runs
        solver.solve(next(iter(sets.values()))[0], seed=0, budget=1_000)
    runs = benchmark(solvers, sets, seeds=seeds, time_limit=seconds, n_jobs=jobs, progress=False)
    failures = runs[runs["error"] != ""]
    if len(failures):
        print(failures.to_string())
    summary = summarize(runs)
    summary.insert(2, "seconds_per_run", seconds)
    goals = group.goals
    summary["goal"] = [
        goals.get((row.solver, row.difficulty), goals.get((row.solver, EVERY_SET), "")) for row in summary.itertuples()
    ]
    summary["met"] = [verdict(row) for _, row in summary.iterrows()]
    return summary


def busy() -> None:
    """A second job for the machine: compute until terminated."""
    while True:
        sum(i * i for i in range(100_000))


@contextmanager
def second_job(wanted: bool):
    """Run `busy` in another process while the block runs, if wanted."""
    if not wanted:
        yield
        return
    job = multiprocessing.Process(target=busy, daemon=True)
    job.start()
    try:
        yield
    finally:
        job.terminate()
        job.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="every puzzle and the targets' budgets")
    parser.add_argument("--groups", nargs="+", choices=list(GROUPS), default=list(GROUPS))
    parser.add_argument("--puzzles", type=int, help="first puzzles of each set (default: 3, or all with --full)")
    parser.add_argument("--jobs", type=int, default=1, help="runs in parallel (default 1: times less disturbed)")
    parser.add_argument("--held-out", action="append", default=[], metavar="FILE", help="a held-out puzzle file")
    parser.add_argument("--no-plain", action="store_true", help="leave out the plain (unrestricted) solvers")
    parser.add_argument("--second-job", action="store_true", help="keep a second busy process running meanwhile")
    args = parser.parse_args()
    puzzles = args.puzzles or (None if args.full else QUICK_PUZZLES)
    time_share = 1.0 if args.full else QUICK_TIME_SHARE
    pd.set_option("display.width", 220)
    mode = "full" if args.full else "quick"
    print(f"{mode} mode{', with a second job' if args.second_job else ''}; load average: {os.getloadavg()[0]:.1f}")
    columns = ["solver", "difficulty", "seconds_per_run", "mean_open_cells", "runs", "solved", "success_rate"]
    columns += ["median_seconds", "max_seconds", "goal", "met"]
    targets = []
    with second_job(args.second_job):
        for name in args.groups:
            print(f"\n{name} (load average before: {os.getloadavg()[0]:.1f})", flush=True)
            summary = run_group(GROUPS[name], puzzles, time_share, args.jobs, not args.no_plain, args.held_out)
            print(f"load average after: {os.getloadavg()[0]:.1f}")
            print(summary[columns].round(3).to_string(index=False), flush=True)
            for row in summary[summary["goal"] != ""].itertuples():
                rate = f"{row.solved}/{row.runs} solved, median {row.median_seconds:.2f} s"
                targets.append(f"{row.solver} on {row.difficulty} ({rate}): {row.goal}: {row.met}")
    print(f"\ntargets ({mode} mode; load average at the end: {os.getloadavg()[0]:.1f})")
    for line in targets:
        print(f"  {line}")


if __name__ == "__main__":
    main()
