"""Lesson 04 benchmark: the cross-study's cells side by side, and what the notebook's campaigns cost.

Runs every (representation, algorithm) cell of the design (R1, R2, R3 x PSO, GA, SA) on the témoin
with the protocol's budget (population 40 x 200 generations = 8,000 evaluations) and the protocol's
seeds, then prints per cell: median, min and max conflicts left, runs solved, mean evaluations,
mean seconds per run and evaluations per second, with each cell's time per evaluation as a ratio to
the fastest cell. Last, the time the lesson's campaigns would take at this speed: the 2 x 2 design,
the extension at its default and with 20 seeds.

    .venv/bin/python benchmarks/bench_crossstudy.py
    .venv/bin/python benchmarks/bench_crossstudy.py --seeds 10 --jobs 2
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from sudoku_course.crossstudy import ALGORITHMS, BUDGET, SEEDS, CrossDesign, cross_table, run_design
from sudoku_course.puzzles import reference


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=len(SEEDS), help="seeds per cell (default: the protocol's 4)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel worker processes (default 1)")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    seeds = SEEDS if args.seeds == len(SEEDS) else tuple(range(args.seeds))
    design = CrossDesign({"témoin": reference()}, ("R1", "R2", "R3"), ALGORITHMS, seeds)
    start = time.perf_counter()
    runs = run_design(design, n_jobs=args.jobs)
    wall = time.perf_counter() - start
    table = cross_table(runs)
    seconds = runs.groupby(["representation", "algorithm"], sort=False)[["seconds", "evaluations"]].sum()
    table = table.merge(
        (seconds["seconds"] / len(seeds)).rename("mean_seconds").reset_index(), on=["representation", "algorithm"]
    )
    table["evaluations_per_second"] = (seconds["evaluations"] / seconds["seconds"]).to_numpy()
    table["time_per_evaluation_ratio"] = table["evaluations_per_second"].max() / table["evaluations_per_second"]
    print(f"Témoin, {len(seeds)} seeds, budget {BUDGET} evaluations per run, {design.runs} runs in {wall:.1f} s\n")
    print(table.drop(columns=["puzzle"]).round(2).to_string(index=False))

    per_run = runs.set_index(["representation", "algorithm"])["seconds"].groupby(level=[0, 1]).mean()
    two_by_two = sum(per_run[rep, algo] for rep in ("R1", "R2") for algo in ("PSO", "GA"))
    extension_cell = sum(per_run[rep, algo] for rep in ("R1", "R2", "R3") for algo in ("PSO", "GA"))
    print("\nEstimated campaign times at this speed (one process, témoin-sized puzzles):")
    print(f"  2 x 2 design, 4 seeds:                                {4 * two_by_two:6.1f} s")
    print(f"  extension, 3 puzzles x 3 representations, 4 seeds:    {3 * 4 * extension_cell:6.1f} s")
    print(f"  extension, 3 puzzles x 3 representations, 20 seeds:   {3 * 20 * extension_cell:6.1f} s")


if __name__ == "__main__":
    main()
