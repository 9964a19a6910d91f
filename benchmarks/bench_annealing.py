"""Lesson 02 benchmark: moves per second of the annealers, then success and times on the banks.

Part 1 runs AnnealingSolver (python and numba engines), the simanneal adapter and NaiveAnnealer one
after the other on the same puzzles (the témoin and the first hard puzzles), each with a fixed budget
of moves, and prints moves per second and the ratios to NaiveAnnealer.
Part 2 runs AnnealingSolver on the easy, medium and hard banks, with and without candidate
restriction, with a time limit per puzzle, and prints success rates and median and maximum times.

    .venv/bin/python benchmarks/bench_annealing.py                      # everything (about 15 min)
    .venv/bin/python benchmarks/bench_annealing.py --part speed
    .venv/bin/python benchmarks/bench_annealing.py --part banks --restricted-only --seeds 3
    .venv/bin/python benchmarks/bench_annealing.py --part banks --engine numba
"""

from __future__ import annotations

import argparse

import pandas as pd

from sudoku_course.bench import benchmark, summarize
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers.annealing import AnnealingSolver, NaiveAnnealer, SimannealSolver

SPEED_BUDGETS = {  # moves per run: enough for a stable rate, short for the slow ones
    "annealing (python)": (AnnealingSolver(max_restarts=None), 1_000_000),
    "annealing (numba)": (AnnealingSolver(max_restarts=None, engine="numba"), 10_000_000),
    "simanneal": (SimannealSolver(max_moves=10**9), 200_000),
    "naive-annealing": (NaiveAnnealer(max_restarts=10**6), 10_000),
}


def speed(hard_puzzles: int, seed: int, repeats: int) -> pd.DataFrame:
    """Moves per second of each solver on the témoin and the first hard puzzles, side by side.

    Each rate is the best of `repeats` identical runs: the run least slowed down by other processes.
    """
    AnnealingSolver(engine="numba").solve(reference(), seed=seed)  # compile (or load) the kernel first
    puzzles = {"témoin": reference()} | {f"hard-{k:02d}": p for k, p in enumerate(load_bank("hard")[:hard_puzzles])}
    rows = []
    for label, puzzle in puzzles.items():
        for solver_label, (solver, budget) in SPEED_BUDGETS.items():
            results = [solver.solve(puzzle, seed=seed, budget=budget) for _ in range(repeats)]
            rate = max(result.evaluations / result.seconds for result in results)
            rows.append({"puzzle": label, "solver": solver_label, "moves_per_s": rate})
    table = pd.DataFrame(rows).pivot(index="puzzle", columns="solver", values="moves_per_s")[list(SPEED_BUDGETS)]
    for label in SPEED_BUDGETS:
        if label != "naive-annealing":
            table[f"{label} / naive"] = table[label] / table["naive-annealing"]
    return table.loc[list(puzzles)]


def banks(puzzles: int, seeds: int, time_limit: float, engine: str, restricted_only: bool) -> pd.DataFrame:
    """Success rate and median / maximum time per bank, with (and unless restricted_only, without) candidates."""
    solvers = {
        "annealing": AnnealingSolver(max_restarts=None, engine=engine),
        "annealing + candidats": AnnealingSolver(max_restarts=None, engine=engine, restrict=True),
    }
    if restricted_only:
        del solvers["annealing"]
    sets = {name: load_bank(name)[:puzzles] for name in ("easy", "medium", "hard")}
    runs = benchmark(solvers, sets, seeds=range(seeds), time_limit=time_limit, progress=True)
    failures = runs[runs["error"] != ""]
    if len(failures):
        print(failures.to_string())
    return summarize(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("all", "speed", "banks"), default="all")
    parser.add_argument("--hard-puzzles", type=int, default=3, help="hard puzzles in the speed part (default 3)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per rate in the speed part, best kept (default 3)")
    parser.add_argument("--puzzles", type=int, default=50, help="puzzles per bank in the bank part (default 50)")
    parser.add_argument("--seeds", type=int, default=1, help="seeds per puzzle in the bank part (default 1)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per run (default 10)")
    parser.add_argument("--engine", choices=("python", "numba"), default="python", help="engine of the bank part")
    parser.add_argument("--restricted-only", action="store_true", help="bank part: only with candidate restriction")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    if args.part in ("all", "speed"):
        print(f"Moves per second (same puzzles, run one after the other, best of {args.repeats}):")
        print(speed(args.hard_puzzles, seed=0, repeats=args.repeats).round(1).to_string())
    if args.part in ("all", "banks"):
        print(f"\nBanks, {args.time_limit:g} s per run, engine {args.engine}:")
        summary = banks(args.puzzles, args.seeds, args.time_limit, args.engine, args.restricted_only)
        print(summary.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
