"""Lesson 04 benchmark: the cross-study's cells side by side, what its campaigns cost, and how its engines were tuned.

Default: every (representation, algorithm) cell of the design (R1, R2, R3 x PSO, GA, SA) on the témoin with
the exploration's seeds and the protocol's budget (40 x 200 = 8,000 evaluations), then per cell: median, min
and max conflicts left, runs solved, mean evaluations, mean seconds per run and evaluations per second, with
each cell's time per evaluation as a ratio to the fastest cell.

--cost: the time of each declared campaign (`campaigns.CAMPAIGNS`) at this machine's speed. Each cell runs
--seeds seeds on one puzzle of each bank the campaign uses, never one of its own puzzles (the témoin stands
for itself: the exploration already ran on it), so that no confirmatory outcome is seen before its run; only
times are printed. The campaign's time is extrapolated from the mean seconds per run of each (cell, bank),
divided by --jobs cores.

--tune: the tuning of `crossstudy.ENGINES`, on the exploration's puzzle and seeds only: each algorithm's grid
of values (TUNING) in R1, R2 and R3, each run scored by its conflicts left plus the share of the budget it spent;
for each set of values, its mean score per representation as a ratio to the best set's in that representation,
and the worst of those ratios (the values kept have the smallest).

    .venv/bin/python benchmarks/bench_crossstudy.py
    .venv/bin/python benchmarks/bench_crossstudy.py --cost --jobs 2
    .venv/bin/python benchmarks/bench_crossstudy.py --tune --jobs 2
"""

from __future__ import annotations

import argparse
import itertools
import time

import pandas as pd
from joblib import Parallel, delayed

from sudoku_course.campaigns import TEMOIN, campaign_names, get_campaign
from sudoku_course.crossstudy import (
    ALGORITHMS,
    BUDGET,
    ENGINES,
    GENERATIONS,
    POPULATION,
    REPRESENTATIONS,
    SEEDS,
    CrossDesign,
    cross_table,
    engine_spec,
    run_design,
)
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers import get_solver

TUNING: dict[str, dict[str, list]] = {
    "PSO": {"inertia": [(0.9, 0.4), (0.9, 0.2), (0.7298, 0.7298)], "c": [1.49618, 2.0]},
    "GA": {"crossover_rate": [0.6, 0.9], "mutation_rate": [0.2, 0.5, 1.0], "elitism": [1, 2, 4]},
    "SA": {"t0": [0.5, 1.0, 2.0], "t_min": [0.02, 0.05, 0.1]},
}
"""The values tried per algorithm (PSO: inertia_start -> inertia_end, and c1 = c2 = c)."""
COST_PUZZLE = 0
"""The puzzle of each bank whose runs time a campaign's cells (never a confirmatory puzzle)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cost", action="store_true", help="time the declared campaigns")
    parser.add_argument("--tune", action="store_true", help="rerun the tuning of the engines' parameters")
    parser.add_argument("--seeds", type=int, default=2, help="seeds per cell and puzzle for --cost (default 2)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel worker processes (default 1)")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    if args.tune:
        tune(args.jobs)
    elif args.cost:
        cost(args.seeds, args.jobs)
    else:
        cells(args.jobs)


def cells(jobs: int) -> None:
    design = CrossDesign({"témoin": reference()}, tuple(REPRESENTATIONS), ALGORITHMS, SEEDS)
    start = time.perf_counter()
    runs = run_design(design, n_jobs=jobs)
    wall = time.perf_counter() - start
    table = cross_table(runs)
    seconds = runs.groupby(["representation", "algorithm"], sort=False)[["seconds", "evaluations"]].sum()
    table = table.merge(
        (seconds["seconds"] / len(SEEDS)).rename("mean_seconds").reset_index(), on=["representation", "algorithm"]
    )
    table["evaluations_per_second"] = (seconds["evaluations"] / seconds["seconds"]).to_numpy()
    table["time_per_evaluation_ratio"] = table["evaluations_per_second"].max() / table["evaluations_per_second"]
    print(f"Témoin, {len(SEEDS)} seeds, budget {BUDGET} evaluations per run, {design.runs} runs in {wall:.1f} s\n")
    print(table.drop(columns=["puzzle"]).round(2).to_string(index=False))


def cost(seeds: int, jobs: int) -> None:
    """Seconds per run of each (cell, bank), then each campaign's extrapolated time on `jobs` cores."""
    banks = sorted({puzzles.bank for name in campaign_names() for puzzles in get_campaign(name).puzzles})
    stand_ins = {bank: reference() if bank == TEMOIN else load_bank(bank)[COST_PUZZLE] for bank in banks}
    for name in campaign_names():
        for puzzles in get_campaign(name).puzzles:
            own = puzzles.grids().values()
            if puzzles.bank != TEMOIN and any(stand_ins[puzzles.bank] == grid for grid in own):
                raise SystemExit(f"{puzzles.bank}-{COST_PUZZLE:02d} is a puzzle of {name}: choose another")
    tasks = [
        (rep, algo, bank, seed)
        for rep in REPRESENTATIONS
        for algo in ALGORITHMS
        for bank in banks
        for seed in range(1000, 1000 + seeds)  # no exploration seed: only times are kept
    ]
    timed = Parallel(n_jobs=jobs)(delayed(_timed_run)(*task, stand_ins[task[2]]) for task in tasks)
    times = pd.DataFrame(timed, columns=["representation", "algorithm", "bank", "seconds"])
    per_run = times.groupby(["representation", "algorithm", "bank"], sort=False)["seconds"].mean()
    print(f"Seconds per run ({seeds} runs per cell and bank, stand-ins: {COST_PUZZLE} of each bank)\n")
    print(per_run.unstack("bank").round(2).to_string())
    print(f"\nCampaigns at this speed on {jobs} core(s):")
    total = 0.0
    for name in campaign_names():
        campaign = get_campaign(name)
        seconds = sum(
            per_run[c.factors["representation"], c.factors["algorithm"], puzzles.bank]
            * len(puzzles.grids())
            * len(campaign.seeds)
            for c in campaign.configurations
            for puzzles in campaign.puzzles
        )
        total += seconds / jobs
        print(f"  {name:<28} {campaign.runs:5d} runs  {seconds / jobs:7.0f} s")
    print(f"  {'all':<28} {'':5s}       {total:7.0f} s")


def _timed_run(rep: str, algo: str, bank: str, seed: int, puzzle) -> tuple[str, str, str, float]:
    name, params = engine_spec(rep, algo)
    start = time.perf_counter()
    get_solver(name, **params).solve(puzzle, seed=seed, budget=BUDGET)
    return rep, algo, bank, time.perf_counter() - start


def tune(jobs: int) -> None:
    """Each algorithm's grid of values in every representation, on the exploration's puzzle and seeds."""
    tasks = [
        (algo, values, rep, seed)
        for algo in ALGORITHMS
        for values in _grid(algo)
        for rep in REPRESENTATIONS
        for seed in SEEDS
    ]
    scores = Parallel(n_jobs=jobs)(delayed(_score)(*task) for task in tasks)
    runs = pd.DataFrame(scores, columns=["algorithm", "values", "representation", "score"])
    for algo in ALGORITHMS:
        means = runs[runs["algorithm"] == algo].pivot_table(
            index="values", columns="representation", values="score", sort=False
        )
        means["worst_ratio"] = (means / means.min()).max(axis=1)
        print(f"\n{algo} (kept: {ENGINES[algo][1]})")
        print(means.sort_values("worst_ratio").round(2).to_string())


def _grid(algo: str) -> list[dict]:
    """Every combination of the algorithm's TUNING values, as constructor parameters."""
    keys, values = zip(*TUNING[algo].items(), strict=True)
    combinations = [dict(zip(keys, chosen, strict=True)) for chosen in itertools.product(*values)]
    if algo != "PSO":
        return combinations
    return [
        {"inertia_start": start, "inertia_end": end, "c1": combination["c"], "c2": combination["c"]}
        for combination in combinations
        for start, end in [combination["inertia"]]
    ]


def _score(algo: str, values: dict, rep: str, seed: int) -> tuple[str, str, str, float]:
    """Conflicts left plus the share of the budget spent (below 1: solved) of one run."""
    name, params = engine_spec(rep, algo, POPULATION, GENERATIONS)
    result = get_solver(name, **{**params, **values}).solve(reference(), seed=seed, budget=BUDGET)
    return algo, str(values), rep, result.cost + result.evaluations / BUDGET


if __name__ == "__main__":
    main()
