"""How each restricted population solver's success falls with the depth of the puzzles, as run-time distributions.

The restricted GA, swap PSO and worker/explorer swarm (default parameters) run once (seed 0) on the first
puzzles of each bank, easiest first (easy, medium, hard, expert, then diabolique once it exists), with a
time budget per run. For each solver and bank the script prints the share of runs solved within a few
budgets of seconds and of evaluations (the points of the run-time distribution, an ECDF), then saves
the curves (share solved against seconds, one panel per solver, one curve per bank) to a figure outside
the repository. 10 puzzles per bank by default: enough to see the fall from bank to bank, too few for
differences of one or two runs.

    .venv/bin/python benchmarks/bench_depth.py                          # 10 puzzles a bank, 30 s a run
    .venv/bin/python benchmarks/bench_depth.py --puzzles 5 --seconds 10 --figure /tmp/depth.png
"""

from __future__ import annotations

import argparse
import os

import matplotlib

matplotlib.use("Agg")  # the figure goes to a file; no display needed
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sudoku_course.bench import benchmark
from sudoku_course.plots import use_course_style
from sudoku_course.puzzles import bank_names, load_bank
from sudoku_course.solvers.genetic import GeneticSolver
from sudoku_course.solvers.swarm import SwapPSO, WorkerExplorerSwarm

SOLVERS = {
    "genetic + candidates": GeneticSolver(restrict=True),
    "swap-pso + candidates": SwapPSO(restrict=True),
    "swarm + candidates": WorkerExplorerSwarm(restrict=True),
}
DEPTH_ORDER = ("easy", "medium", "hard", "expert", "diabolique")
SECONDS_POINTS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0)
EVALUATION_POINTS = (1_000, 10_000, 100_000, 1_000_000)


def banks(puzzles: int) -> dict:
    """The first `puzzles` of each bundled bank, in the order of depth (banks not made yet are left out)."""
    return {name: load_bank(name)[:puzzles] for name in DEPTH_ORDER if name in bank_names()}


def solved_within(runs: pd.DataFrame, column: str, points: tuple[float, ...]) -> pd.DataFrame:
    """Share of each (solver, bank)'s runs solved within each budget of `column` (seconds or evaluations)."""
    rows = []
    for (solver, bank), group in runs.groupby(["solver", "difficulty"], sort=False):
        spent = np.where(group["solved"], group[column].astype(float), np.inf)
        rows.append({"solver": solver, "bank": bank, **{f"<= {p:g}": float((spent <= p).mean()) for p in points}})
    return pd.DataFrame(rows)


def figure(runs: pd.DataFrame, seconds: float, path: str) -> None:
    """One panel per solver: the share of runs solved against seconds (log scale), one curve per bank."""
    use_course_style()
    fig, axes = plt.subplots(1, len(SOLVERS), figsize=(5 * len(SOLVERS), 4), sharey=True)
    times = np.logspace(-2, np.log10(seconds), 200)
    for ax, solver in zip(np.atleast_1d(axes), SOLVERS, strict=True):
        for bank, group in runs[runs["solver"] == solver].groupby("difficulty", sort=False):
            spent = np.where(group["solved"], group["seconds"], np.inf)
            ax.step(times, [(spent <= t).mean() for t in times], where="post", label=bank)
        ax.set(xscale="log", xlabel="seconds", title=solver, ylim=(0, 1.02))
        ax.legend(loc="lower right")
    np.atleast_1d(axes)[0].set_ylabel("share of runs solved")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--puzzles", type=int, default=10, help="first puzzles of each bank (default 10)")
    parser.add_argument("--seconds", type=float, default=30.0, help="time budget of a run (default 30)")
    parser.add_argument("--jobs", type=int, default=1, help="runs in parallel (default 1: times less disturbed)")
    parser.add_argument("--figure", default="/tmp/bench_depth.png", help="where to save the figure")
    args = parser.parse_args()
    print(f"{args.puzzles} puzzles a bank, {args.seconds:g} s a run; load average: {os.getloadavg()[0]:.1f}")
    runs = benchmark(SOLVERS, banks(args.puzzles), time_limit=args.seconds, n_jobs=args.jobs, progress=False)
    pd.set_option("display.width", 220)
    print("\nshare of runs solved within ... seconds")
    points = tuple(p for p in SECONDS_POINTS if p <= args.seconds)
    print(solved_within(runs, "seconds", points).round(2).to_string(index=False))
    print("\nshare of runs solved within ... evaluations")
    print(solved_within(runs, "evaluations", EVALUATION_POINTS).round(2).to_string(index=False))
    figure(runs, args.seconds, args.figure)
    print(f"\nfigure: {args.figure}; load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
