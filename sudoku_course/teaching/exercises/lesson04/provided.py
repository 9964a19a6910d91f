"""Lesson 04 (representation versus algorithm): what the students import, the harness of the annealer exercise.

`anneal_in_design` runs the student's `anneal_in_space` in the cells of the design, exactly as the course's
engines ran there: the same spaces (`crossstudy.space_of`), a generator made from each seed, the design's
budget. The solution notebook shows it and puts its rows beside the confirmatory campaign's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from ....cost import conflicts
from ....crossstudy import BUDGET, ENGINES, POPULATION, RUN_COLUMNS, space_of
from ....grid import SudokuGrid
from ....progress import progress_bar
from ...experiments import UnusableResult, kind_of

ALGORITHM = "votre recuit"
"""The algorithm of the harness's rows."""
SETTINGS = {"budget": BUDGET, "chain_length": POPULATION, **ENGINES["SA"][1]}
"""The course's annealer in the design (`crossstudy.engine_spec`): BUDGET = POPULATION x GENERATIONS evaluations,
so chains of POPULATION moves over GENERATIONS temperatures, with the t0 and t_min of `crossstudy.ENGINES`."""


def anneal_in_design(
    anneal: Callable,
    puzzles: Mapping[str, SudokuGrid],
    representations: Sequence[str] = ("R1", "R2", "R3"),
    seeds: Sequence[int] = (0, 1, 7),
    progress: bool | None = None,
) -> pd.DataFrame:
    """Run anneal(space, rng, **SETTINGS) in each representation of each puzzle (label -> puzzle), once per seed,
    with rng = np.random.default_rng(seed) as every engine of the design gets it; one row per run, the columns
    of `crossstudy.run_design` (algorithm ALGORITHM). The conflicts and `solved` are those of the grid the
    annealer returns, counted here."""
    runs = [
        (label, puzzle, rep, seed) for label, puzzle in puzzles.items() for rep in representations for seed in seeds
    ]
    rows = []
    bar = progress_bar(runs, total=len(runs), desc=f"{ALGORITHM} dans le plan", progress=progress)
    for label, puzzle, rep, seed in bar:
        start = time.perf_counter()
        grid, evaluations = _checked(anneal(space_of(rep, puzzle), np.random.default_rng(seed), **SETTINGS), puzzle)
        cost = conflicts(grid)
        seconds = time.perf_counter() - start
        rows.append([label, rep, ALGORITHM, seed, cost, cost == 0, evaluations, seconds])
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def _checked(result, puzzle: SudokuGrid) -> tuple[SudokuGrid, int]:
    """The grid and the evaluations of what anneal_in_space returned, or UnusableResult saying in French why
    the harness cannot use it."""
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        wanted = "il faut un triplet : grille, coût, évaluations"
        raise UnusableResult(f"anneal_in_space a renvoyé {kind_of(result)} ({wanted})")
    grid, _, evaluations = result
    if not isinstance(grid, SudokuGrid) or grid.size != puzzle.size or not grid.is_complete():
        raise UnusableResult("anneal_in_space doit renvoyer en premier la grille décodée du meilleur candidat")
    if not isinstance(evaluations, (int, np.integer)) or not 0 < evaluations <= SETTINGS["budget"]:
        raise UnusableResult("anneal_in_space doit renvoyer en dernier le nombre d'évaluations dépensées")
    return grid, int(evaluations)
