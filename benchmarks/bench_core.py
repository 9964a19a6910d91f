"""Core speed figure: ConflictTable deltas vs a full recount (the exact solvers: bench_exact.py).

Run: .venv/bin/python benchmarks/bench_core.py [--repeats 5]
Target: a ConflictTable delta >= 20 times faster than recounting the whole grid.
Both sides of the ratio are measured in the same run, interleaved, best of several repeats.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sudoku_course.cost import ConflictTable, conflicts
from sudoku_course.puzzles import reference
from sudoku_course.spaces import RowPermutationSpace


def delta_vs_recount(repeats: int, moves: int = 2000) -> tuple[float, float]:
    """Best time per call (microseconds) of ConflictTable.delta_swap and of a full conflicts() recount."""
    puzzle = reference()
    space = RowPermutationSpace(puzzle)
    grid = space.decode(space.random(np.random.default_rng(0)))
    table = ConflictTable(grid)
    rng = np.random.default_rng(1)
    swaps = []
    for _ in range(moves):
        i, j = space.random_swap(rng)
        a, b = space.free_cells[i], space.free_cells[j]
        swaps.append((a // grid.size, a % grid.size, b % grid.size))
    best_delta = best_recount = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for r, c1, c2 in swaps:
            table.delta_swap(r, c1, c2)
        best_delta = min(best_delta, (time.perf_counter() - start) / moves * 1e6)
        start = time.perf_counter()
        for _ in swaps:
            conflicts(grid)
        best_recount = min(best_recount, (time.perf_counter() - start) / moves * 1e6)
    return best_delta, best_recount


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    delta, recount = delta_vs_recount(args.repeats)
    print("ConflictTable.delta_swap vs full conflicts() recount on the reference puzzle:")
    print(f"  delta {delta:.2f} us, recount {recount:.2f} us, ratio {recount / delta:.1f}x (target: >= 20x)")


if __name__ == "__main__":
    main()
