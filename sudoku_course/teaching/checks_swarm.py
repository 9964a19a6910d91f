"""Checks of the lesson 03 exercises (particle swarms), built on the machinery of checks.py.

Each `check_*` function runs hidden cases against a student's function and shows a French verdict per
case; checks.py describes what every check shares (deep copies, time limit, stubs, strict mode,
grading record). The study functions (swarm size, grid search) are compared with runs made by the
check itself with the same seeds, since a seeded run is reproducible; the local search is judged on
properties only (cost not worse, givens and box contents kept, no improving swap left).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..cost import conflicts
from ..grid import SudokuGrid
from ..solvers.exact import solve_exact
from ..solvers.swarm import SwapPSO, WorkerExplorerSwarm
from ..spaces import BoxPermutationSpace
from .checks import TEMOIN, Case, CheckReport, Judge, run_check, with_swap

STUDY_TIME_LIMIT = 30.0  # seconds per case for the checks that run solvers
EASY_STAGNATING = "700018650586207100000506200038000400000964020060000015805179360070020081002000040"
"""Easy puzzle 4 of the bank: a short swarm run stalls a few conflicts away from its solution."""
SMALL = "1.3.3..22...4.21"  # a 4 x 4 puzzle with one solution

SIZE_COLUMNS = ("size", "success_rate", "median_evaluations", "median_seconds")
SEARCH_COLUMNS = ("success_rate", "median_evaluations")


# ------------------------------------------------------------ shared judges
def _frame_problem(result: Any, columns: Sequence[str], rows: int) -> str | None:
    """What is wrong with the shape of a result table, or None."""
    if not isinstance(result, pd.DataFrame):
        return f"la fonction doit renvoyer un DataFrame pandas, elle a renvoyé un {type(result).__name__}"
    missing = [column for column in columns if column not in result.columns]
    if missing:
        return f"colonnes manquantes : {missing} (colonnes présentes : {list(result.columns)})"
    if len(result) != rows:
        return f"attendu {rows} ligne(s), obtenu {len(result)}"
    return None


def _same_numbers(label: str, got: Sequence, expected: Sequence) -> str | None:
    """A French complaint if two sequences of numbers differ, or None."""
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    if not np.allclose(got, expected):
        return f"{label} : attendu {np.round(expected, 4).tolist()}, obtenu {np.round(got, 4).tolist()}"
    return None


def _outcomes(
    solver_of: Callable[[], Any], puzzles: Sequence, seeds: Sequence[int], budget: int
) -> tuple[float, float]:
    """Success rate and median evaluations of one solver over every puzzle and seed."""
    results = [solver_of().solve(puzzle, seed=seed, budget=budget) for puzzle in puzzles for seed in seeds]
    return float(np.mean([r.solved for r in results])), float(np.median([r.evaluations for r in results]))


# ------------------------------------------------------------ exercise 1: swarm size
def _size_judge(puzzles: list[SudokuGrid], sizes: tuple[int, ...], seeds: tuple[int, ...], budget: int) -> Judge:
    def judge(result: Any) -> str | None:
        problem = _frame_problem(result, SIZE_COLUMNS, len(sizes))
        if problem:
            return problem
        if [int(size) for size in result["size"]] != list(sizes):
            return f"la colonne size doit suivre l'ordre des tailles {list(sizes)}, obtenu {list(result['size'])}"
        if (np.asarray(result["median_seconds"], dtype=float) < 0).any():
            return "un temps médian est négatif"
        expected = [
            _outcomes(lambda size=size: WorkerExplorerSwarm(population_size=size), puzzles, seeds, budget)
            for size in sizes
        ]
        return _same_numbers("taux de succès", result["success_rate"], [e[0] for e in expected]) or _same_numbers(
            "évaluations médianes", result["median_evaluations"], [e[1] for e in expected]
        )

    return judge


def swarm_size_cases() -> list[Case]:
    temoin, stalling = SudokuGrid.from_string(TEMOIN), SudokuGrid.from_string(EASY_STAGNATING)
    small = SudokuGrid.from_string(SMALL)
    return [
        Case(
            "le témoin, deux tailles, trois graines",
            ([temoin], (10, 40), (0, 1, 2), 10_000),
            _size_judge([temoin], (10, 40), (0, 1, 2), 10_000),
        ),
        Case(
            "trois tailles données dans le désordre, une graine, un petit budget",
            ([stalling], (30, 10, 20), (3,), 5_000),
            _size_judge([stalling], (30, 10, 20), (3,), 5_000),
        ),
        Case(
            "une seule taille, une grille 4 x 4",
            ([small], (12,), (0, 1, 2), 1_000),
            _size_judge([small], (12,), (0, 1, 2), 1_000),
        ),
    ]


def check_swarm_size_study(
    swarm_size_study: Callable, *, time_limit: float = STUDY_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `swarm_size_study(puzzles, sizes, seeds, budget) -> DataFrame`.

    Expected: one row per size, in the order of `sizes`, with columns size,
    success_rate, median_evaluations and median_seconds; each size runs
    `WorkerExplorerSwarm(population_size=size)` on every puzzle with every seed
    and a budget of `budget` evaluations.
    """
    return run_check("swarm_size_study", swarm_size_study, swarm_size_cases(), time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 2: convergence
def _convergence_judge(puzzle: SudokuGrid, max_epochs: int, seed: int) -> Judge:
    def judge(result: Any) -> str | None:
        if not isinstance(result, list) or not all(isinstance(cost, (int, np.integer)) for cost in result):
            return f"la fonction doit renvoyer une liste d'entiers, elle a renvoyé {type(result).__name__}"
        if len(result) > max_epochs:
            return f"{len(result)} valeurs pour au plus {max_epochs} époques"
        if (np.diff(np.asarray(result, dtype=np.int64)) > 0).any():
            return "le meilleur coût ne doit jamais remonter d'une époque à la suivante"
        solver = WorkerExplorerSwarm(population_size=100, max_iterations=max_epochs, max_attempts=1)
        expected = solver.solve(puzzle, seed=seed).history
        if list(map(int, result)) != expected:
            return (
                f"attendu {len(expected)} valeurs finissant par {expected[-3:]}, "
                f"obtenu {len(result)} valeurs finissant par {list(map(int, result[-3:]))}"
            )
        return None

    return judge


def convergence_cases() -> list[Case]:
    temoin, stalling = SudokuGrid.from_string(TEMOIN), SudokuGrid.from_string(EASY_STAGNATING)
    return [
        Case(
            "le témoin, résolu avant la fin : la liste s'arrête à 0",
            (temoin, 300, 0),
            _convergence_judge(temoin, 300, 0),
        ),
        Case("une grille qui stagne : une valeur par époque", (stalling, 150, 1), _convergence_judge(stalling, 150, 1)),
        Case("une autre graine", (stalling, 80, 7), _convergence_judge(stalling, 80, 7)),
    ]


def check_track_convergence(
    track_convergence: Callable, *, time_limit: float = STUDY_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `track_convergence(puzzle, max_epochs, seed) -> list[int]`.

    Expected: the best cost after each epoch of one attempt of
    `WorkerExplorerSwarm(population_size=100, max_iterations=max_epochs, max_attempts=1)`
    run with `seed` (the list stops early when the puzzle is solved).
    """
    return run_check("track_convergence", track_convergence, convergence_cases(), time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 3: box descent
def _box_digits(grid: SudokuGrid) -> list[list[int]]:
    return [sorted(box) for box in grid.box_array().tolist()]


def _improving_box_swap(grid: SudokuGrid) -> tuple[int, int] | None:
    """Two free flat cells of one box whose swap lowers the conflicts, or None at a local optimum."""
    cost, flat = conflicts(grid), grid.cells.ravel()
    givens = grid.givens.ravel()
    for box in grid.layout.boxes:
        free = [cell for cell in box if not givens[cell]]
        for i, j in itertools.combinations(free, 2):
            cells = flat.copy()
            cells[i], cells[j] = cells[j], cells[i]
            if conflicts(grid.with_cells(cells.reshape(grid.cells.shape))) < cost:
                return i, j
    return None


def _descent_judge(start: SudokuGrid, expected: SudokuGrid | None = None) -> Judge:
    def judge(result: Any) -> str | None:
        if not isinstance(result, SudokuGrid):
            return f"la fonction doit renvoyer une SudokuGrid, elle a renvoyé un {type(result).__name__}"
        if result.size != start.size or not result.is_complete():
            return "la grille renvoyée doit être complète et de la même taille"
        if not (result.cells[start.givens] == start.cells[start.givens]).all():
            return "un chiffre donné a changé"
        if _box_digits(result) != _box_digits(start):
            return "un bloc ne contient plus les mêmes chiffres : les échanges doivent rester dans un bloc"
        if conflicts(result) > conflicts(start):
            return f"le coût a augmenté : {conflicts(start)} avant, {conflicts(result)} après"
        swap = _improving_box_swap(SudokuGrid(result.cells, start.box_size, start.givens))
        if swap is not None:
            n = start.size
            (r1, c1), (r2, c2) = divmod(swap[0], n), divmod(swap[1], n)
            cells = f"({r1 + 1}, {c1 + 1}) et ({r2 + 1}, {c2 + 1})"
            return f"pas un optimum local : échanger les cases {cells} (ligne, colonne) améliore encore"
        if expected is not None and result != expected:
            return "attendu la solution de la grille"
        return None

    return judge


def box_descent_cases() -> list[Case]:
    puzzle = SudokuGrid.from_string(TEMOIN)
    space = BoxPermutationSpace(puzzle)
    starts = [space.decode(space.random(np.random.default_rng(seed))) for seed in (1, 2, 3)]
    solution = solve_exact(puzzle).grid
    solution = SudokuGrid(solution.cells, 3, puzzle.givens)
    near = with_swap(solution, (0, 1), (1, 2))  # two free cells of box 1
    small = SudokuGrid.from_string(SMALL)
    small_space = BoxPermutationSpace(small)
    small_start = small_space.decode(small_space.random(np.random.default_rng(5)))
    cases = [
        Case(f"une grille aléatoire valide par bloc (tirage {k + 1})", (start,), _descent_judge(start))
        for k, start in enumerate(starts)
    ]
    return cases + [
        Case("une grille à un échange de la solution : la descente la trouve", (near,), _descent_judge(near, solution)),
        Case("une grille déjà résolue reste telle quelle", (solution,), _descent_judge(solution, solution)),
        Case("une grille 4 x 4", (small_start,), _descent_judge(small_start)),
    ]


def check_box_descent(
    box_descent: Callable[[SudokuGrid], SudokuGrid], *, time_limit: float = STUDY_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `box_descent(grid) -> SudokuGrid`.

    Expected: from a full grid whose boxes are permutations, swap two free
    cells of one box while some swap lowers the conflicts; return a new grid
    at a local optimum, with the same givens and the same digits in each box,
    and a cost no higher than at the start.
    """
    return run_check("box_descent", box_descent, box_descent_cases(), time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 4: grid search
def _search_judge(param_grid: dict[str, list], puzzles: list[SudokuGrid], seeds: tuple[int, ...], budget: int) -> Judge:
    names = list(param_grid)
    combinations = [dict(zip(names, values, strict=True)) for values in itertools.product(*param_grid.values())]

    def judge(result: Any) -> str | None:
        problem = _frame_problem(result, [*names, *SEARCH_COLUMNS], len(combinations))
        if problem:
            return problem
        expected = {
            tuple(params.values()): _outcomes(lambda params=params: SwapPSO(**params), puzzles, seeds, budget)
            for params in combinations
        }
        got = {tuple(row[name] for name in names): row for _, row in result.iterrows()}
        if set(got) != set(expected):
            return f"combinaisons attendues {sorted(expected)}, obtenues {sorted(got)}"
        for key, (rate, evaluations) in expected.items():
            values = (got[key]["success_rate"], got[key]["median_evaluations"])
            problem = _same_numbers(f"combinaison {dict(zip(names, key, strict=True))}", values, (rate, evaluations))
            if problem:
                return problem
        rates, evaluations = result["success_rate"].to_numpy(float), result["median_evaluations"].to_numpy(float)
        for k in range(1, len(result)):
            if rates[k] > rates[k - 1] or (rates[k] == rates[k - 1] and evaluations[k] < evaluations[k - 1]):
                return "le tableau doit être trié : meilleur taux de succès d'abord, puis moins d'évaluations"
        return None

    return judge


def grid_search_cases() -> list[Case]:
    temoin, small = SudokuGrid.from_string(TEMOIN), SudokuGrid.from_string(SMALL)
    fast = {"population_size": [10], "max_iterations": [40]}
    two_by_two = {"c1": [1.0, 2.0], "c2": [0.5, 2.0], **fast}
    inertia = {"inertia_end": [0.1, 0.6], "local_search_every": [0, 10], **fast}
    return [
        Case(
            "c1 et c2, deux valeurs chacun, sur le témoin",
            (two_by_two, [temoin], (0, 1), 2_000),
            _search_judge(two_by_two, [temoin], (0, 1), 2_000),
        ),
        Case(
            "inertie et recherche locale",
            (inertia, [temoin], (2,), 1_500),
            _search_judge(inertia, [temoin], (2,), 1_500),
        ),
        Case(
            "une seule combinaison, une grille 4 x 4",
            ({"c1": [1.5]}, [small], (0, 1), 300),
            _search_judge({"c1": [1.5]}, [small], (0, 1), 300),
        ),
    ]


def check_grid_search(
    grid_search: Callable, *, time_limit: float = STUDY_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `grid_search(param_grid, puzzles, seeds, budget) -> DataFrame`.

    Expected: one row per combination of the values of `param_grid` (a dict
    parameter name -> list of values for `SwapPSO`), with one column per
    parameter plus success_rate and median_evaluations over every puzzle and
    seed with `budget` evaluations, sorted best first (highest success rate,
    then fewest evaluations).
    """
    return run_check("grid_search", grid_search, grid_search_cases(), time_limit=time_limit, strict=strict)
