"""Lesson 01 benchmark: speed of the GA's fitness, then success and times of the GA on the banks.

Part 1 ("fitness") evaluates the same random row-permutation chromosomes of the témoin three ways and
prints evaluations per second side by side: our batch fitness (PopulationFitness, one call per
population, as the GA uses it), the package's per-grid count (cost.conflicts), and a straightforward
numpy recount (np.unique on each row, column and box of each grid, as the source lesson did). It also
prints the evaluations per second of a whole GA run, where PyGAD's own work is included.
Part 2 ("banks") runs the row-permutation GA at its default settings (default budget in evaluations, no
time limit) on the easy and medium banks, and the cells GA (default settings, but a time limit per puzzle,
since its default budget takes long and it fails anyway) on the first puzzles of each bank; it prints
success rates and median times.

    .venv/bin/python benchmarks/bench_genetic.py                     # everything (about 10 min with 2 jobs)
    .venv/bin/python benchmarks/bench_genetic.py --part fitness
    .venv/bin/python benchmarks/bench_genetic.py --part banks --puzzles 10 --jobs 1
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from sudoku_course.bench import benchmark, summarize
from sudoku_course.cost import conflicts
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers.genetic import GeneticSolver, PopulationFitness
from sudoku_course.spaces import RowPermutationSpace


def unique_recount(cells: np.ndarray) -> int:
    """Conflicts of a full 9 x 9 grid counted the straightforward way: 9 - distinct values, unit by unit."""
    rows = [cells[r, :] for r in range(9)]
    columns = [cells[:, c] for c in range(9)]
    boxes = [cells[r : r + 3, c : c + 3].ravel() for r in range(0, 9, 3) for c in range(0, 9, 3)]
    return sum(9 - len(np.unique(unit)) for unit in rows + columns + boxes)


def rate(count: int, work) -> float:
    """Evaluations per second of `work()`, which evaluates `count` chromosomes."""
    start = time.perf_counter()
    work()
    return count / (time.perf_counter() - start)


def fitness_speed(chromosomes: int, batch: int, seed: int) -> pd.DataFrame:
    """Evaluations per second of the three ways to count, on the same chromosomes, checked equal."""
    space = RowPermutationSpace(reference())
    rng = np.random.default_rng(seed)
    population = np.array([space.random(rng) for _ in range(chromosomes)])
    fitness = PopulationFitness(space)
    grids = [space.decode(chromosome) for chromosome in population]
    batches = [population[k : k + batch] for k in range(0, chromosomes, batch)]
    expected = fitness.conflicts(population).tolist()
    assert expected == [conflicts(g) for g in grids] == [unique_recount(g.cells) for g in grids]
    ga = GeneticSolver(stagnation=10**6)
    result = ga.solve(load_bank("medium")[0], seed=seed, budget=chromosomes * 10)
    speeds = {
        "batch fitness (PopulationFitness)": rate(chromosomes, lambda: [fitness(None, b, None) for b in batches]),
        "per grid, decode + cost.conflicts": rate(
            chromosomes, lambda: [conflicts(space.decode(p)) for p in population]
        ),
        "per grid, decode + np.unique recount": rate(
            chromosomes, lambda: [unique_recount(space.decode(p).cells) for p in population]
        ),
        "whole GA run (PyGAD included)": result.evaluations / result.seconds,
    }
    table = pd.DataFrame({"evaluations_per_s": speeds})
    table["ratio_to_np_unique"] = table["evaluations_per_s"] / speeds["per grid, decode + np.unique recount"]
    return table.round({"evaluations_per_s": 0, "ratio_to_np_unique": 1})


def banks(puzzles: int, cells_puzzles: int, cells_time_limit: float, seed: int, jobs: int) -> pd.DataFrame:
    """Success rate and median time of the row GA (default budget) and of the cells GA (time limit)."""
    rows = benchmark(
        {"genetic (rows)": GeneticSolver()},
        {name: load_bank(name)[:puzzles] for name in ("easy", "medium")},
        seeds=(seed,),
        time_limit=None,
        n_jobs=jobs,
    )
    cells = benchmark(
        {"genetic (cells)": GeneticSolver(encoding="cells")},
        {name: load_bank(name)[:cells_puzzles] for name in ("easy", "medium")},
        seeds=(seed,),
        time_limit=cells_time_limit,
        n_jobs=jobs,
    )
    runs = pd.concat([rows, cells], ignore_index=True)
    errors = runs[runs["error"] != ""]
    if len(errors):
        print(errors.to_string())
    columns = ["solver", "difficulty", "runs", "solved", "success_rate", "median_seconds", "median_evaluations"]
    return summarize(runs)[columns].round({"success_rate": 3, "median_seconds": 2})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["fitness", "banks", "all"], default="all")
    parser.add_argument("--chromosomes", type=int, default=4000, help="chromosomes evaluated per way (fitness)")
    parser.add_argument("--batch", type=int, default=100, help="chromosomes per batch call, as in the GA (fitness)")
    parser.add_argument("--puzzles", type=int, default=50, help="first puzzles of each bank, row GA (banks)")
    parser.add_argument("--cells-puzzles", type=int, default=10, help="first puzzles of each bank, cells GA")
    parser.add_argument("--cells-time-limit", type=float, default=5.0, help="seconds per puzzle, cells GA")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="puzzles run in parallel (banks)")
    args = parser.parse_args()
    pd.set_option("display.width", 160)
    if args.part in ("fitness", "all"):
        print("Fitness: evaluations per second on the same row-permutation chromosomes of the témoin")
        print(fitness_speed(args.chromosomes, args.batch, args.seed).to_string(), end="\n\n")
    if args.part in ("banks", "all"):
        print("Banks: row GA at its default budget (no time limit); cells GA with a time limit per puzzle")
        print(banks(args.puzzles, args.cells_puzzles, args.cells_time_limit, args.seed, args.jobs).to_string())


if __name__ == "__main__":
    main()
