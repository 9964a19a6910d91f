"""Lesson 03 (particle swarms): the cases of the swap-PSO algebra and update and of four swarm studies, and
their judges.

The core exercises rebuild the swap PSO on plain numpy grids (n x n arrays whose rows are
permutations) and swaps `(row, column_a, column_b)`:

- `apply_swaps(position, swaps)` is x + v, `swap_difference(target, position, rows)` is p - x,
  `scale_swaps(k, swaps)` is k * v;
- `swap_pso_step(...)` is one step of the recurrence for one particle, and `provided.swarm_loop` runs a
  whole swarm of such steps on a puzzle.

The studies: `swarm_size_study` (hive size against success and effort), `track_convergence`
(best cost per iteration), `box_descent` (the local search of the hybrid swarm) and `grid_search`
(parameters ranked by a stated rule, ties included).

Each make_cases(seed) gives the public cases for seed None and cases drawn from the seed
otherwise. A case judges properties of the student's output against the case's inputs; where a
run of the package must be reproduced, `agree` compares with the reference and answers only
True or False.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ....cost import conflicts
from ....grid import SudokuGrid
from ....puzzles import load_bank
from ....spaces import BoxPermutationSpace
from .. import Case, Plain, plain
from ..common import (
    calling,
    case_rng,
    close,
    french,
    inputs_after,
    kind_of,
    row_permuted_state,
    seed_global_generators,
    temoin,
    temoin_solution,
    unchanged,
)
from .provided import Swap, swarm_loop

EASY_STAGNATING = "700018650586207100000506200038000400000964020060000015805179360070020081002000040"
"""Easy puzzle 4 of the bank: a short swarm run stalls a few conflicts away from its solution."""


SMALL = "1.3.3..22...4.21"  # a 4 x 4 puzzle with one solution


PINNED_SEEDS = (0, 1, 2, 3, 4)
"""Seeds of the outcome case of swap_pso_step: the reference loop solves the témoin with each."""


NEEDED = 4  # runs out of len(PINNED_SEEDS) that the student's swarm must solve


# ====================================================================== shared judges
def _swap_list_problem(swaps: Plain, size: int, what: str = "la liste renvoyée") -> str | None:
    """What is wrong with a plain list of swaps on an n x n grid, or None."""
    if not isinstance(swaps, list):
        return f"{what} doit être une liste d'échanges (ligne, a, b), pas {kind_of(swaps)}"
    for index, swap in enumerate(swaps, 1):
        if not (isinstance(swap, list) and len(swap) == 3 and all(isinstance(x, int) for x in swap)):
            return f"l'élément n° {index} de {what} n'est pas un échange (ligne, a, b) de trois entiers"
        if not all(0 <= x < size for x in swap):
            return f"l'échange n° {index} {tuple(swap)} sort d'une grille {size} x {size}"
    return None


def _grid_problem(cells: Plain, size: int) -> str | None:
    """What is wrong with a plain grid that should be n x n, or None."""
    shape = np.shape(cells) if isinstance(cells, list) else None
    if shape != (size, size):
        return f"il faut renvoyer une grille {size} x {size} (tableau numpy), pas {kind_of(cells)} de forme {shape}"
    return None


def _first_difference(got: np.ndarray, expected: np.ndarray) -> str:
    row, col = np.argwhere(got != expected)[0]
    return f"premier écart à la case d'indices ({row}, {col})"


def _row_digits_problem(cells: np.ndarray, start: np.ndarray) -> str | None:
    for row in range(len(start)):
        if sorted(cells[row].tolist()) != sorted(start[row].tolist()):
            return f"la ligne d'indice {row} ne contient plus les mêmes chiffres : un échange ne change que leur ordre"
    return None


def _random_swaps(free: np.ndarray, count: int, rng: np.random.Generator) -> list[Swap]:
    """`count` random swaps of two free cells of one row (free: the boolean mask of free cells)."""
    rows = [row for row in range(len(free)) if free[row].sum() >= 2]
    swaps = []
    for _ in range(count):
        row = int(rng.choice(rows))
        a, b = (int(c) for c in rng.choice(np.flatnonzero(free[row]), size=2, replace=False))
        swaps.append((row, a, b))
    return swaps


def _small() -> SudokuGrid:
    return SudokuGrid.from_string(SMALL)


# ====================================================================== 1: hive size
STUDY_KEYS = ("population_size", "success_rate", "median_evaluations", "median_seconds")


def _records(table) -> Plain:
    """The rows of a result table as plain data: a list of dicts as it is, a pandas DataFrame row by row."""
    if hasattr(table, "columns") and hasattr(table, "to_dict"):
        table = table.to_dict(orient="records")
    return plain(table)


def _rows_problem(rows: Plain, keys: Sequence[str], count: int) -> str | None:
    """What is wrong with the shape of a list of result rows, or None."""
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        return f"la fonction doit renvoyer une liste de dictionnaires (une ligne par résultat), pas {kind_of(rows)}"
    if len(rows) != count:
        unit = "taille" if "population_size" in keys else "combinaison"
        return f"il faut {count} ligne(s), une par {unit} : la liste en a {len(rows)}"
    for index, row in enumerate(rows, 1):
        missing = [key for key in keys if key not in row]
        if missing:
            return f"il manque la clé {missing[0]!r} dans la ligne {index} (clés attendues : {', '.join(keys)})"
    return None


def _share_problem(share: Plain, runs: int, where: str) -> str | None:
    if not isinstance(share, (int, float)) or isinstance(share, bool) or not 0 <= share <= 1:
        return f"{where} : success_rate doit être une part entre 0 et 1 (pas un pourcentage)"
    if not math.isclose(share * runs, round(share * runs), abs_tol=1e-9):
        return f"{where} : success_rate doit être la part des {runs} exécutions qui ont résolu leur grille"
    return None


def _timed(*args) -> Callable[..., Plain]:
    """A call: the student's function on copies of args, its rows as plain data and the wall time it took."""

    def call(function: Callable) -> Plain:
        start = time.perf_counter()
        rows = function(*copy.deepcopy(args))
        return {"rows": _records(rows), "seconds": time.perf_counter() - start}

    return call


def _size_judge(sizes: list[int], runs: int) -> Callable[[Plain], str | None]:
    def judge(output: Plain) -> str | None:
        rows = output["rows"]
        problem = _rows_problem(rows, STUDY_KEYS, len(sizes))
        if problem:
            return problem
        if [row["population_size"] for row in rows] != list(sizes):
            return f"les lignes doivent suivre l'ordre de sizes = {list(sizes)}"
        for row in rows:
            where = f"taille {row['population_size']}"
            problem = _share_problem(row["success_rate"], runs, where)
            if problem:
                return problem
            seconds = row["median_seconds"]
            if not isinstance(seconds, (int, float)) or not 0 <= seconds <= output["seconds"]:
                return (
                    f"{where} : median_seconds doit être la médiane des durées result.seconds, en secondes ; "
                    "elle dépasse ici la durée de l'appel entier"
                )
        return None

    return judge


def _same_study(output: Plain, reference: Plain) -> bool:
    keys = ("success_rate", "median_evaluations")
    return close(
        [[row[k] for k in keys] for row in output["rows"]], [[row[k] for k in keys] for row in reference["rows"]]
    )


def swarm_size_cases(seed: int | None) -> list[Case]:
    """Tiny budgets: the runs are repeated by the reference to compare success rates and median evaluations."""
    stalling, small = SudokuGrid.from_string(EASY_STAGNATING), _small()
    settings = [
        ("le témoin, deux tailles, trois graines", [temoin()], [10, 40], [0, 1, 2], 3_000),
        ("trois tailles données dans le désordre, une grille qui stagne", [stalling], [30, 10, 20], [3], 2_000),
        ("une seule taille, une grille 4 x 4, trois graines", [small], [12], [0, 1, 2], 500),
        ("deux grilles : chaque taille sur chaque grille", [temoin(), stalling], [20], [5], 2_000),
    ]
    if seed is not None:
        rng = case_rng(seed, 34)
        sizes = [int(size) for size in rng.choice([10, 20, 30, 40, 50], size=3, replace=False)]
        seeds = [int(s) for s in rng.integers(1000, size=2)]
        settings.append((f"tailles {sizes}, graines {seeds}", [stalling], sizes, seeds, 2_000))
    return [
        Case(
            label,
            _timed(puzzles, sizes, seeds, budget),
            _size_judge(sizes, len(puzzles) * len(seeds)),
            agree=_same_study,
            disagree=(
                "les taux de succès ou les évaluations médianes ne sont pas ceux des exécutions demandées "
                "(chaque taille sur chaque grille avec chaque graine et le budget donné ; une médiane, pas une moyenne)"
            ),
        )
        for label, puzzles, sizes, seeds, budget in settings
    ]


# ====================================================================== 2: convergence
def _convergence_judge(max_iterations: int) -> Callable[[Plain], str | None]:
    def judge(costs: Plain) -> str | None:
        if not isinstance(costs, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in costs):
            return (
                f"la fonction doit renvoyer une liste d'entiers (un meilleur coût par itération), pas {kind_of(costs)}"
            )
        if len(costs) > max_iterations:
            return (
                "la liste a plus de valeurs que d'itérations demandées : une seule tentative (max_restarts=0), "
                "une valeur après chaque itération"
            )
        rising = next((k for k in range(1, len(costs)) if costs[k] > costs[k - 1]), None)
        if rising is not None:
            return f"le meilleur coût remonte de l'itération {rising} à la suivante : il ne doit jamais remonter"
        if 0 in costs[:-1]:
            return "la grille est résolue avant la fin de la liste : l'essaim s'arrête dès le coût 0"
        if costs[-1] > 0 and len(costs) < max_iterations:
            return f"la liste s'arrête après {len(costs)} itérations alors que la grille n'est pas résolue"
        return None

    return judge


def convergence_cases(seed: int | None) -> list[Case]:
    stalling = SudokuGrid.from_string(EASY_STAGNATING)
    settings = [
        ("le témoin, résolu avant la fin : la liste s'arrête à 0", temoin(), 300, 0),
        ("une grille qui stagne : une valeur par itération", stalling, 150, 1),
        ("la même grille, une autre graine", stalling, 80, 7),
        ("une grille difficile", load_bank("hard")[0], 60, 3),
    ]
    if seed is not None:
        rng = case_rng(seed, 35)
        drawn = int(rng.integers(1000))
        settings.append((f"une grille qui stagne, graine {drawn}", stalling, int(rng.integers(40, 120)), drawn))
    return [
        Case(
            label,
            calling(puzzle, iterations, run_seed),
            _convergence_judge(iterations),
            agree=close,
            disagree=(
                "ce ne sont pas les meilleurs coûts de cet essaim (100 organismes, une tentative, la graine donnée)"
            ),
        )
        for label, puzzle, iterations, run_seed in settings
    ]


# ====================================================================== 3: box descent
def box_pairs(grid: SudokuGrid) -> list[tuple[int, int]]:
    """Pairs of free flat cells of the same box."""
    free = ~grid.givens.ravel()
    return [pair for box in grid.layout.boxes for pair in itertools.combinations([c for c in box if free[c]], 2)]


def swapped(grid: SudokuGrid, i: int, j: int) -> SudokuGrid:
    """A copy of `grid` whose flat cells i and j are swapped."""
    cells = grid.cells.ravel().copy()
    cells[i], cells[j] = cells[j], cells[i]
    return grid.with_cells(cells.reshape(grid.cells.shape))


def _descending(start: SudokuGrid) -> Callable[..., Plain]:
    def call(function: Callable) -> Plain:
        grid = start.copy()
        result = function(grid)
        cells = plain(result.cells) if isinstance(result, SudokuGrid) else None
        return {"cells": cells, "type": type(result).__name__, "after": inputs_after(grid)}

    return call


def _descent_judge(start: SudokuGrid, solution: SudokuGrid | None = None) -> Callable[[Plain], str | None]:
    def judge(output: Plain) -> str | None:
        if not unchanged(output["after"], start):
            return "la grille reçue a été modifiée : la descente doit travailler sur une copie"
        if output["cells"] is None:
            return f"la fonction doit renvoyer une SudokuGrid, pas un objet de type {output['type']}"
        cells = np.array(output["cells"])
        if cells.shape != start.cells.shape or (cells == 0).any():
            return "la grille renvoyée doit être complète et de la même taille que la grille reçue"
        moved = np.argwhere(start.givens & (cells != start.cells))
        if len(moved):
            return f"la case donnée en ligne {moved[0][0] + 1}, colonne {moved[0][1] + 1} a changé"
        result = SudokuGrid(cells, start.box_size, start.givens)
        before = [sorted(box) for box in start.box_array().tolist()]
        after = [sorted(box) for box in result.box_array().tolist()]
        box = next((k for k in range(len(before)) if before[k] != after[k]), None)
        if box is not None:
            return f"le bloc {box + 1} ne contient plus les mêmes chiffres : les échanges doivent rester dans un bloc"
        if conflicts(result) > conflicts(start):
            return f"le coût a augmenté : {conflicts(start)} conflits avant, {conflicts(result)} après"
        cost = conflicts(result)
        improving = next(((i, j) for i, j in box_pairs(result) if conflicts(swapped(result, i, j)) < cost), None)
        if improving is not None:
            (r1, c1), (r2, c2) = (divmod(cell, start.size) for cell in improving)
            return (
                f"pas un optimum local : échanger les cases (ligne {r1 + 1}, colonne {c1 + 1}) et "
                f"(ligne {r2 + 1}, colonne {c2 + 1}) diminue encore les conflits"
            )
        if solution is not None and result != solution:
            return "cette grille est à un échange de sa solution : la descente doit la trouver"
        return None

    return judge


NOT_THE_BEST = (
    "la grille renvoyée est un optimum local, mais pas celui d'une descente qui applique à chaque pas le meilleur "
    "échange (celui qui diminue le plus les conflits) : prendre le premier échange qui améliore mène ailleurs"
)


def _best_descent_judge(start: SudokuGrid) -> Callable[[Plain], str | None]:
    """The descent's judge, then: the grid is one where a best-improvement descent can end."""
    properties = _descent_judge(start)

    def judge(output: Plain) -> str | None:
        from .references import best_descent_ends  # a judge runs where the references are, never in the sandbox

        problem = properties(output)
        if problem:
            return problem
        result = SudokuGrid(np.array(output["cells"]), start.box_size, start.givens)
        return None if result.to_string() in (best_descent_ends(start) or ()) else NOT_THE_BEST

    return judge


def box_descent_cases(seed: int | None, starts_first_is_not_best: list[str]) -> list[Case]:
    """Random box-valid grids of the témoin and of a 4 x 4 puzzle, grids where the first improving swap is not
    the best one (prepared: `references.descent_starts`), a grid one swap from its solution, a solution."""
    rng = case_rng(seed, 36)
    puzzle, small = temoin(), _small()
    space, small_space = BoxPermutationSpace(puzzle), BoxPermutationSpace(small)
    starts = [space.decode(space.random(rng)) for _ in range(3)]
    solution = temoin_solution()
    pairs = box_pairs(solution)
    near = swapped(solution, *pairs[0 if seed is None else int(rng.integers(len(pairs)))])
    cases = [
        Case(f"une grille aléatoire valide par bloc (tirage {k + 1})", _descending(start), _descent_judge(start))
        for k, start in enumerate(starts)
    ]
    givens = puzzle.givens
    for k, text in enumerate(starts_first_is_not_best):
        start = SudokuGrid(np.array([int(digit) for digit in text]).reshape(9, 9), 3, givens)
        label = f"une grille où le premier échange qui améliore n'est pas le meilleur (tirage {k + 1})"
        cases.append(Case(label, _descending(start), _best_descent_judge(start)))
    small_start = small_space.decode(small_space.random(rng))
    return cases + [
        Case(
            "une grille à un échange de sa solution : la descente la trouve",
            _descending(near),
            _descent_judge(near, solution),
        ),
        Case("une grille déjà résolue reste telle quelle", _descending(solution), _descent_judge(solution, solution)),
        Case("une grille 4 x 4", _descending(small_start), _descent_judge(small_start)),
    ]


# ====================================================================== 3 b: where the local search runs
OTHERS = 2  # workers drawn at random, besides the best one, at each local search


def _choosing(errors: np.ndarray, stale: int, stagnation: int, seeds: Sequence[int]) -> Callable[..., Plain]:
    """A call: the workers the student's hybrid_step chooses with each seed (the global generators seeded
    differently each time), and the errors after each call."""

    def call(function: Callable) -> Plain:
        chosen, after = [], []
        for k, seed in enumerate(seeds):
            seed_global_generators(k)
            given = errors.copy()
            chosen.append(plain(function(given, stale, stagnation, np.random.default_rng(seed))))
            after.append(inputs_after(given))
        return {"chosen": chosen, "after": after}

    return call


def choice_problem(chosen: Plain, errors: np.ndarray, stale: int, stagnation: int) -> str | None:
    """Why `chosen` is not the rule's choice of workers for these errors and this stale count, or None."""
    if not isinstance(chosen, list) or not all(isinstance(k, int) and not isinstance(k, bool) for k in chosen):
        return f"la fonction doit renvoyer une liste d'indices d'ouvrières (des entiers), pas {kind_of(chosen)}"
    if stale == 0 or stale % stagnation:
        if chosen:
            return (
                f"stale = {stale} n'est pas un multiple non nul de stagnation = {stagnation} : aucune recherche "
                "locale à cette itération (liste vide)"
            )
        return None
    count = min(OTHERS + 1, len(errors))
    if len(chosen) != count:
        return (
            f"stale = {stale} : il faut la meilleure ouvrière et {count - 1} autre(s) tirée(s) au hasard, "
            f"soit {count} indices ; la liste en a {len(chosen)}"
        )
    if chosen[0] != int(np.argmin(errors)):
        return "le premier indice doit être celui de la meilleure ouvrière (np.argmin : la première en cas d'égalité)"
    if len(set(chosen)) != len(chosen) or not all(0 <= k < len(errors) for k in chosen):
        return "les indices doivent être distincts et désigner des ouvrières de errors"
    return None


def _choice_judge(errors: np.ndarray, stale: int, stagnation: int, varied: bool = False):
    """Each choice follows the rule; with `varied`, the same seed twice gives the same choice, and the other
    seeds spread the two random workers over most workers, never the same ones most of the time."""

    def judge(output: Plain) -> str | None:
        if not all(unchanged(after, errors) for after in output["after"]):
            return "les conflits reçus (errors) ont été modifiés : choisissez sans les trier ni les changer"
        chosen = output["chosen"]
        problem = next(filter(None, (choice_problem(c, errors, stale, stagnation) for c in chosen)), None)
        if problem or not varied:
            return problem
        if chosen[0] != chosen[1]:  # the first seed, twice
            return "la même graine donne deux choix différents : tirez les ouvrières avec le rng reçu, pas np.random"
        draws = [k for choice in chosen[1:] for k in choice[1:]]
        most = max(draws.count(k) for k in set(draws))
        if len(set(draws)) < len(errors) / 2 or most > len(chosen) / 2:
            return (
                f"sur {len(chosen) - 1} graines, les autres ouvrières ne touchent que {len(set(draws))} des "
                f"{len(errors)} ouvrières : tirez-les au hasard parmi toutes les autres, avec rng.choice"
            )
        return None

    return judge


def hybrid_step_cases(seed: int | None) -> list[Case]:
    """The rule at stale counts around the multiples of stagnation, ties for the best, two workers only, and the
    spread of the random choices over many seeds."""
    rng = case_rng(seed, 38)
    stagnation = 50 if seed is None else int(rng.integers(10, 80))
    errors = rng.permutation(np.arange(30) % 12 + 3)  # 30 workers, several of each cost
    tied = errors.copy()
    tied[[5, 17]] = 1  # two best workers: the first one comes first
    seeds = [int(s) for s in rng.integers(1000, size=2)]
    settings = [
        ("aucune stagnation (stale = 0) : aucune ouvrière", errors, 0),
        (f"stale = {stagnation - 1}, juste sous stagnation = {stagnation} : aucune", errors, stagnation - 1),
        (f"stale = stagnation = {stagnation} : la meilleure et deux autres", errors, stagnation),
        (
            f"stale = {stagnation + stagnation // 2}, entre deux multiples de stagnation : aucune",
            errors,
            3 * stagnation // 2,
        ),
        (
            f"stale = {2 * stagnation}, deuxième multiple : de nouveau la meilleure et deux autres",
            errors,
            2 * stagnation,
        ),
        ("deux meilleures ouvrières ex æquo : la première vient en tête", tied, stagnation),
        ("deux ouvrières seulement : la meilleure puis l'autre", np.array([7, 4]), stagnation),
    ]
    cases = [
        Case(label, _choosing(values, stale, stagnation, seeds), _choice_judge(values, stale, stagnation))
        for label, values, stale in settings
    ]
    many = [seeds[0], seeds[0], *(int(s) for s in rng.integers(10**6, size=40))]
    return cases + [
        Case(
            "la même graine deux fois, puis 40 graines : les deux autres ouvrières sont tirées au hasard",
            _choosing(errors, stagnation, stagnation, many),
            _choice_judge(errors, stagnation, stagnation, varied=True),
        )
    ]


# ====================================================================== 4: x + v
def _applying(position: np.ndarray, swaps: list[Swap]) -> Callable[..., Plain]:
    def call(function: Callable) -> Plain:
        grid, given = position.copy(), copy.deepcopy(swaps)
        result = function(grid, given)
        return {
            "grid": plain(result),
            "after": inputs_after(grid, given),
            "same": result is grid,
        }

    return call


def _apply_judge(position: np.ndarray, swaps: list[Swap]) -> Callable[[Plain], str | None]:
    def judge(output: Plain) -> str | None:
        from .references import apply_swaps  # a judge runs where the references are, never in the sandbox

        if not unchanged(output["after"], position, swaps):
            return "la grille ou la liste reçue a été modifiée : appliquez les échanges à une copie"
        if output["same"]:
            return "la fonction renvoie la grille reçue elle-même : il faut renvoyer une nouvelle grille (une copie)"
        problem = _grid_problem(output["grid"], len(position))
        if problem:
            return problem
        got, expected = np.array(output["grid"]), apply_swaps(position, swaps)
        if not np.array_equal(got, expected):
            return (
                "la grille renvoyée n'est pas la grille reçue après les échanges appliqués un par un, "
                f"dans l'ordre de la liste ; {_first_difference(got, expected)}"
            )
        return None

    return judge


def apply_swaps_cases(seed: int | None) -> list[Case]:
    """Hand-made swap lists (order, repetition, empty) on the témoin, then a long list, then a 4 x 4 grid."""
    rng = case_rng(seed, 30)
    puzzle = temoin()
    free = ~puzzle.givens
    x = row_permuted_state(puzzle, rng)
    row = 2 if seed is None else int(rng.choice([r for r in range(9) if free[r].sum() >= 3]))
    a, b, c = (int(col) for col in np.flatnonzero(free[row])[:3])
    small = _small()
    settings = [
        ("une liste vide : une copie de la grille", x, []),
        ("un seul échange", x, [(row, a, c)]),
        ("deux échanges qui se chevauchent dans une ligne : l'ordre compte", x, [(row, a, b), (row, b, c)]),
        ("le même échange deux fois : il s'annule", x, [(row, a, b), (row, a, b)]),
        ("vingt échanges tirés au hasard dans des lignes", x, _random_swaps(free, 20, rng)),
        ("une grille 4 x 4", row_permuted_state(small, rng), _random_swaps(~small.givens, 5, rng)),
    ]
    return [Case(label, _applying(grid, swaps), _apply_judge(grid, swaps)) for label, grid, swaps in settings]


# ====================================================================== 5: p - x
def _differencing(target: np.ndarray, position: np.ndarray, rows: list[int]) -> Callable[..., Plain]:
    def call(function: Callable) -> Plain:
        arguments = (target.copy(), position.copy(), list(rows))
        swaps = function(*arguments)
        return {"swaps": plain(swaps), "after": inputs_after(*arguments)}

    return call


def difference_problem(
    swaps: list, target: np.ndarray, position: np.ndarray, rows: Sequence[int], complete: bool = True
) -> str | None:
    """Why `swaps` is not a difference target - position taken in the order of `rows` (with complete=False: not
    the beginning of one), or None: rows in that order, each swap moving only misplaced cells and putting one in
    place, and, when complete, position turned into target."""
    rank = {row: k for k, row in enumerate(rows)}
    current, last = position.copy(), None
    for index, (row, a, b) in enumerate(swaps, 1):
        if last is not None and rank[row] < rank[last]:
            return (
                f"l'échange n° {index} touche la ligne d'indice {row} après celle d'indice {last} : "
                f"les lignes doivent venir dans l'ordre de rows = {list(rows)}"
            )
        last = row
        if current[row, a] == target[row, a] or current[row, b] == target[row, b]:
            return (
                f"l'échange n° {index} {(row, a, b)} déplace une case déjà bien placée : "
                "n'échangez que des cases qui n'ont pas encore le chiffre de target"
            )
        current[row, a], current[row, b] = current[row, b], current[row, a]
        if current[row, a] != target[row, a] and current[row, b] != target[row, b]:
            return f"l'échange n° {index} {(row, a, b)} ne met aucun chiffre à sa place"
    if complete and not np.array_equal(current, target):
        where = _first_difference(current, target)
        return f"appliquer la liste à position, dans l'ordre, ne donne pas target ; {where}"
    return None


def _difference_judge(target: np.ndarray, position: np.ndarray, rows: list[int]) -> Callable[[Plain], str | None]:
    def judge(output: Plain) -> str | None:
        if not unchanged(output["after"], target, position, rows):
            return "target, position ou rows a été modifié : calculez sur des copies"
        swaps = output["swaps"]
        return _swap_list_problem(swaps, len(position)) or difference_problem(swaps, target, position, rows)

    return judge


def _with_cycle(grid: np.ndarray, free: np.ndarray, row: int, length: int) -> np.ndarray:
    """A copy of `grid` whose first `length` free cells of `row` are rotated by one place."""
    moved = grid.copy()
    cols = np.flatnonzero(free[row])[:length]
    moved[row, cols] = np.roll(grid[row, cols], 1)
    return moved


def swap_difference_cases(seed: int | None) -> list[Case]:
    """Pairs of row-permuted grids of the témoin (a 3-cycle, identical grids, rows in a given order), a 4 x 4."""
    rng = case_rng(seed, 31)
    puzzle = temoin()
    free = ~puzzle.givens
    x, p = row_permuted_state(puzzle, rng), row_permuted_state(puzzle, rng)
    cycle_row = 7 if seed is None else int(rng.choice([r for r in range(9) if free[r].sum() >= 3]))
    shuffled = [int(r) for r in rng.permutation(9)]
    small = _small()
    settings = [
        ("deux grilles identiques : aucun échange", p, p.copy(), list(range(9))),
        ("un seul échange à faire", p, _with_cycle(p, free, cycle_row, 2), list(range(9))),
        (
            f"trois cases de la ligne d'indice {cycle_row} tournent d'un cran",
            p,
            _with_cycle(p, free, cycle_row, 3),
            list(range(9)),
        ),
        ("deux grilles tirées au hasard, lignes de haut en bas", p, x, list(range(9))),
        ("les mêmes grilles, lignes dans l'ordre inverse", p, x, list(range(8, -1, -1))),
        ("les mêmes grilles, lignes dans un ordre mélangé", p, x, shuffled),
        ("une grille 4 x 4", row_permuted_state(small, rng), row_permuted_state(small, rng), [2, 0, 3, 1]),
    ]
    return [
        Case(label, _differencing(target, position, rows), _difference_judge(target, position, rows))
        for label, target, position, rows in settings
    ]


# ====================================================================== 6: k * v
def _scaling(k: float, swaps: list[Swap]) -> Callable[..., Plain]:
    def call(function: Callable) -> Plain:
        given = copy.deepcopy(swaps)
        return {"swaps": plain(function(k, given)), "after": inputs_after(given)}

    return call


def _scale_judge(k: float, swaps: list[Swap]) -> Callable[[Plain], str | None]:
    length = math.floor(k * len(swaps))

    def judge(output: Plain) -> str | None:
        if not unchanged(output["after"], swaps):
            return "la liste reçue a été modifiée : construisez une nouvelle liste"
        got = output["swaps"]
        problem = _swap_list_problem(got, 9)
        if problem:
            return problem
        if len(got) != length:
            return (
                f"k · v doit compter ⌊k × {len(swaps)}⌋ = ⌊{french(k)} × {len(swaps)}⌋ = {length} échange(s), "
                f"la liste renvoyée en a {len(got)}"
            )
        for index, swap in enumerate(got):
            if tuple(swap) != tuple(swaps[index % len(swaps)]):
                return (
                    f"l'échange n° {index + 1} n'est pas celui de la liste reçue lue dans l'ordre "
                    "(et reprise depuis le début quand k > 1)"
                )
        return None

    return judge


def scale_swaps_cases(seed: int | None) -> list[Case]:
    """Truncations, repetitions and edge cases; lengths chosen so that k * len(v) is exact in binary."""
    rng = case_rng(seed, 32)
    free = ~temoin().givens
    four, eight = _random_swaps(free, 4, rng), _random_swaps(free, 8, rng)
    settings = [
        ("k = 0,5 : la première moitié", 0.5, eight),
        ("k = 0,75 : les trois premiers quarts", 0.75, four),
        ("k = 0,99 : on tronque, on n'arrondit pas", 0.99, four),
        ("k = 0 : aucun échange", 0.0, four),
        ("k = 1 : la liste entière", 1.0, eight),
        ("k = 1,75 : la liste, puis ses trois premiers quarts", 1.75, four),
        ("k = 2,5 : deux fois la liste, puis sa moitié", 2.5, four),
        ("une vitesse vide reste vide, même pour k = 3", 3.0, []),
    ]
    if seed is not None:
        count = int(rng.integers(3, 9))
        k = float(rng.integers(1, 4) + rng.integers(1, 8) / 8)
        settings.append((f"k = {french(k)} sur {count} échanges", k, _random_swaps(free, count, rng)))
    return [Case(label, _scaling(k, swaps), _scale_judge(k, swaps)) for label, k, swaps in settings]


# ====================================================================== 7: the step
@dataclass(frozen=True)
class StepInputs:
    """The arguments of one call of swap_pso_step, and the givens mask of their puzzle."""

    position: np.ndarray
    velocity: list[Swap]
    own_best: np.ndarray
    swarm_best: np.ndarray
    inertia: float
    c1: float
    c2: float
    seed: int
    givens: np.ndarray

    def draws(self, order: str = "r1 r2 rows") -> tuple[float, float, list[int], list[int]]:
        """r1, r2 and the row orders of p - x and of g - x, drawn from the seed in the given `order`.

        The statement's order is "r1 r2 rows" (one row order for both differences); the others
        (DRAW_ORDERS) are the plausible ways of drawing the same numbers in another order.
        """
        rng, n = np.random.default_rng(self.seed), len(self.position)
        drawn: dict[str, object] = {}
        for name in order.split():
            drawn[name] = rng.random() if name in ("r1", "r2") else rng.permutation(n).tolist()
        own_rows = drawn.get("rows", drawn.get("rows_p"))
        return drawn["r1"], drawn["r2"], own_rows, drawn.get("rows", drawn.get("rows_g"))

    def terms(self, order: str = "r1 r2 rows") -> tuple[list[Swap], list[Swap], list[Swap]]:
        """The three terms w · v, (c1 r1) · (p - x) and (c2 r2) · (g - x) with the draws made in `order`
        (for the judges, which run where the references are, never in the sandbox)."""
        from .references import scale_swaps, swap_difference

        r1, r2, own_rows, swarm_rows = self.draws(order)
        return (
            scale_swaps(self.inertia, self.velocity),
            scale_swaps(self.c1 * r1, swap_difference(self.own_best, self.position, own_rows)),
            scale_swaps(self.c2 * r2, swap_difference(self.swarm_best, self.position, swarm_rows)),
        )


DRAW_ORDERS = ("rows r1 r2", "r1 r2 rows_p rows_g", "r1 rows_p r2 rows_g", "rows_p rows_g r1 r2")
"""Other orders of the step's draws a student may write: the row order first, one row order per
difference (after the coefficients, or each with its coefficient), the package's order."""


def _one_step(step: Callable, inputs: StepInputs, seed: int | None = None) -> Plain:
    """The student's step on copies of the inputs: its plain result and the copies after the call."""
    arrays = [inputs.position, inputs.velocity, inputs.own_best, inputs.swarm_best]
    given = copy.deepcopy(arrays)
    rng = np.random.default_rng(inputs.seed if seed is None else seed)
    result = step(*given, inputs.inertia, inputs.c1, inputs.c2, rng)
    return {"result": plain(result), "after": inputs_after(*given)}


def _stepping(inputs: StepInputs) -> Callable[..., Plain]:
    def call(step: Callable) -> Plain:
        return _one_step(step, inputs)

    return call


def _oriented(swaps: Sequence) -> list[Swap]:
    """Swaps written with their two columns in increasing order: (row, a, b) and (row, b, a) are one swap."""
    return [(row, min(a, b), max(a, b)) for row, a, b in swaps]


def _step_shape_problem(output: Plain, inputs: StepInputs) -> str | None:
    """Problems of a step's result that need no expected velocity: shape, inputs, rows, givens, x + v."""
    from .references import apply_swaps  # a judge runs where the references are, never in the sandbox

    if not unchanged(output["after"], inputs.position, inputs.velocity, inputs.own_best, inputs.swarm_best):
        return "une des entrées (position, vitesse, meilleures positions) a été modifiée : travaillez sur des copies"
    result = output["result"]
    if not (isinstance(result, list) and len(result) == 2):
        return f"la fonction doit renvoyer le couple (nouvelle position, nouvelle vitesse), pas {kind_of(result)}"
    position, velocity = result
    size = len(inputs.position)
    problem = _grid_problem(position, size) or _swap_list_problem(velocity, size, "la nouvelle vitesse")
    if problem:
        return problem
    cells = np.array(position)
    problem = _row_digits_problem(cells, inputs.position)
    if problem:
        return problem
    moved = np.argwhere(inputs.givens & (cells != inputs.position))
    if len(moved):
        return f"la case donnée d'indices ({moved[0][0]}, {moved[0][1]}) a changé"
    if not np.array_equal(cells, apply_swaps(inputs.position, velocity)):
        return "la position renvoyée n'est pas x + v : la position reçue après les échanges de la nouvelle vitesse"
    return None


def _step_judge(inputs: StepInputs) -> Callable[[Plain], str | None]:
    def judge(output: Plain) -> str | None:
        problem = _step_shape_problem(output, inputs)
        if problem:
            return problem
        velocity = _oriented(output["result"][1])
        inertia, own, swarm = (_oriented(term) for term in inputs.terms())
        if velocity[: len(inertia)] != inertia:
            return "la nouvelle vitesse doit commencer par w · v (scale_swaps(inertia, velocity))"
        if velocity[len(inertia) :] == own + swarm:
            return None
        if any(velocity == _oriented(sum(inputs.terms(order), [])) for order in DRAW_ORDERS):
            return (
                "votre vitesse correspond à d'autres tirages que ceux de l'énoncé : r1 = rng.random(), puis "
                "r2 = rng.random(), puis rows = rng.permutation(n), un seul ordre des lignes pour les deux différences"
            )
        rest = velocity[len(inertia) :]
        swarm_ends = len(rest) >= len(swarm) and rest[len(rest) - len(swarm) :] == swarm
        own_starts = rest[: len(own)] == own
        if not own_starts or (swarm_ends and len(rest) != len(own) + len(swarm)):
            return (
                "après w · v, le terme (c1 r1) · (p − x) ne va pas : p − x = swap_difference(own_best, position, "
                "rows), de la position reçue vers own_best, puis scale_swaps avec c1 × r1 (r1 : le premier tirage)"
            )
        return (
            "le dernier terme, (c2 r2) · (g − x), ne va pas : g − x = swap_difference(swarm_best, position, rows), "
            "de la position reçue vers swarm_best, puis scale_swaps avec c2 × r2 (r2 : le second tirage)"
        )

    return judge


def _term_problem(term: list[Swap], best: np.ndarray, position: np.ndarray, rows: list[int]) -> str | None:
    """Why `term` is not a scaled difference best - position in the order of `rows` (a difference, or its
    beginning, read cyclically when the term is longer), or None."""
    from .references import swap_difference  # a judge runs where the references are, never in the sandbox

    length = len(swap_difference(best, position, rows))  # every difference has as many swaps
    if any(term[k] != term[k % length] for k in range(length, len(term))):
        return "un terme plus long que sa différence doit la répéter depuis le début (scale_swaps)"
    return difference_problem(term[:length], best, position, rows, complete=len(term) >= length)


def _direction_judge(inputs: StepInputs) -> Callable[[Plain], str | None]:
    """The bests are a few swaps away from the position in several rows, so that p - x and x - p differ: after
    w · v, each term must be a difference from the position towards its best, of the length its coefficient
    gives. Any valid difference passes, not only the reference's."""

    def judge(output: Plain) -> str | None:
        from .references import scale_swaps, swap_difference  # a judge runs where the references are

        problem = _step_shape_problem(output, inputs)
        if problem:
            return problem
        velocity = [tuple(swap) for swap in output["result"][1]]
        inertia = scale_swaps(inputs.inertia, inputs.velocity)
        if _oriented(velocity[: len(inertia)]) != _oriented(inertia):
            return "la nouvelle vitesse doit commencer par w · v (scale_swaps(inertia, velocity))"
        r1, r2, rows, _ = inputs.draws()
        terms = (
            ("(c1 r1) · (p − x)", "own_best", inputs.own_best, inputs.c1 * r1),
            ("(c2 r2) · (g − x)", "swarm_best", inputs.swarm_best, inputs.c2 * r2),
        )
        rest = velocity[len(inertia) :]
        lengths = [len(scale_swaps(k, swap_difference(best, inputs.position, rows))) for _, _, best, k in terms]
        if len(rest) != sum(lengths):
            return (
                "après w · v, les deux termes n'ont pas la longueur que donnent c1 × r1 et c2 × r2 : "
                "r1 = rng.random(), puis r2 = rng.random(), puis rows = rng.permutation(n)"
            )
        parts = (rest[: lengths[0]], rest[lengths[0] :])
        for (term_name, best_name, best, _), part in zip(terms, parts, strict=True):
            if _term_problem(part, best, inputs.position, rows) is None:
                continue
            if _term_problem(part, inputs.position, best, rows) is None:
                return (
                    f"le terme {term_name} va dans le mauvais sens : c'est la liste qui mène de {best_name} à la "
                    f"position ; la différence mène de la position à {best_name} : "
                    f"swap_difference({best_name}, position, rows)"
                )
            return f"le terme {term_name} n'est pas une différence de la position vers {best_name} dans l'ordre rows"
        return None

    return judge


def _repeating(inputs: StepInputs, seeds: tuple[int, ...]) -> Callable[..., Plain]:
    """A call: the step twice with the first seed (global generators seeded differently), then other seeds."""

    def call(step: Callable) -> Plain:
        results = []
        for k, seed in enumerate((seeds[0], *seeds)):
            seed_global_generators(k)
            results.append(_one_step(step, inputs, seed)["result"])
        return results

    return call


def _repeat_judge(results: Plain) -> str | None:
    if results[0] != results[1]:
        return (
            "la même graine donne deux pas différents : tirez r1, r2 et rows avec le générateur rng reçu, "
            "pas avec np.random ou random"
        )
    if all(result == results[0] for result in results[2:]):
        return f"{len(results) - 2} autres graines donnent exactement le même pas : le hasard doit venir de rng"
    return None


def _outcome(step: Callable) -> Plain:
    """The provided loop on the témoin with each pinned seed, stopped as soon as the outcome is known."""
    runs = []
    for seed in PINNED_SEEDS:
        run = swarm_loop(temoin(), step, seed)
        runs.append({"cost": run.cost, "solution": run.cells.tolist() == temoin_solution().cells.tolist()})
        solved = sum(r["cost"] == 0 for r in runs)
        if solved >= NEEDED or len(runs) - solved > len(PINNED_SEEDS) - NEEDED:
            break
    return runs


def _outcome_judge(runs: Plain) -> str | None:
    if any(run["cost"] == 0 and not run["solution"] for run in runs):
        return "une grille sans conflit trouvée par l'essaim n'est pas la solution du témoin : une case donnée a changé"
    solved = sum(run["cost"] == 0 for run in runs)
    if solved < NEEDED:
        return (
            f"la boucle fournie, avec votre pas, n'a résolu le témoin que pour {solved} graine(s) sur les "
            f"{len(runs)} essayées ; il en faut {NEEDED} sur {len(PINNED_SEEDS)}"
        )
    return None


def _one_swap_per_row(cells: np.ndarray, free: np.ndarray, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A copy of `cells` where two random free cells of each row of `rows` are swapped."""
    moved = cells.copy()
    for row in rows:
        a, b = rng.choice(np.flatnonzero(free[row]), size=2, replace=False)
        moved[row, a], moved[row, b] = moved[row, b], moved[row, a]
    return moved


def _step_inputs(
    puzzle: SudokuGrid, rng: np.random.Generator, inertia: float, c1: float, c2: float, bests: str = "near"
) -> StepInputs:
    """A particle of `puzzle` at a random position, with a previous velocity of row swaps of free cells.

    bests="near": each best differs from the position by one swap in some rows, so that p - x and g - x are
    the same for every answer that follows the statement and the expected step is known exactly;
    "cycles": each best has the position's digits rotated among three free cells of most rows, so that p - x
    and x - p differ; "here": both bests are the position; "far": both are random grids.
    """
    free = ~puzzle.givens
    position = row_permuted_state(puzzle, rng)
    if bests == "far":
        own_best, swarm_best = row_permuted_state(puzzle, rng), row_permuted_state(puzzle, rng)
    elif bests == "cycles":
        rows = [row for row in range(len(free)) if free[row].sum() >= 3]
        own_best, swarm_best = position, position
        for row in rows:
            own_best = _with_cycle(own_best, free, row, 3)
            swarm_best = _with_cycle(swarm_best, free, row, min(4, int(free[row].sum())))
    else:
        swappable = np.flatnonzero(free.sum(axis=1) >= 2)
        counts = (0, 0) if bests == "here" else (len(swappable) // 2, len(swappable) - 1)
        own_best, swarm_best = (
            _one_swap_per_row(position, free, rng.choice(swappable, size=k, replace=False), rng) for k in counts
        )
    velocity = _random_swaps(free, int(rng.integers(6, 15)), rng)
    return StepInputs(position, velocity, own_best, swarm_best, inertia, c1, c2, int(rng.integers(1000)), puzzle.givens)


def _whole_terms(inputs: StepInputs, rng: np.random.Generator) -> StepInputs:
    """The same inputs with a seed whose draws give c1 r1 >= 1 and c2 r2 >= 1: both differences whole."""
    while True:
        r1, r2, _, _ = inputs.draws()
        if inputs.c1 * r1 >= 1 and inputs.c2 * r2 >= 1:
            return inputs
        inputs = dataclasses.replace(inputs, seed=int(rng.integers(1000)))


def swap_pso_step_cases(seed: int | None) -> list[Case]:
    """Steps on the témoin and a 4 x 4 grid (inertia alone, equal and unequal coefficients), the seed's role,
    and the outcome: the provided loop solves the témoin with the student's step."""
    rng = case_rng(seed, 33)
    puzzle = temoin()
    still = _step_inputs(puzzle, rng, 0.6, 2.0, 2.0, "here")
    typical = _step_inputs(puzzle, rng, 0.5, 2.0, 2.0)
    unequal = _step_inputs(puzzle, rng, 0.9, 0.5, 3.0)
    small = _step_inputs(_small(), rng, 0.7, 1.5, 2.5)
    seeds = tuple(int(s) for s in rng.integers(1000, size=4))
    cycles = _whole_terms(_step_inputs(puzzle, rng, 0.5, 2.0, 2.0, "cycles"), rng)
    return [
        Case("x = p = g : seule l'inertie déplace la particule", _stepping(still), _step_judge(still)),
        Case(
            "p et g à un échange de x dans plusieurs lignes (inertia = 0,5, c1 = c2 = 2)",
            _stepping(typical),
            _step_judge(typical),
        ),
        Case("c1 = 0,5 et c2 = 3 : chaque coefficient a son terme", _stepping(unequal), _step_judge(unequal)),
        Case("une grille 4 x 4", _stepping(small), _step_judge(small)),
        Case(
            "p et g à plusieurs échanges de x dans la plupart des lignes : le sens des différences compte",
            _stepping(cycles),
            _direction_judge(cycles),
        ),
        Case(
            "la même graine deux fois (générateurs globaux changés entre les deux), puis trois autres graines",
            _repeating(_step_inputs(puzzle, rng, 0.5, 2.0, 2.0, "far"), seeds),
            _repeat_judge,
        ),
        Case(
            f"la boucle fournie résout le témoin avec votre pas pour au moins {NEEDED} graines sur {len(PINNED_SEEDS)}",
            _outcome,
            _outcome_judge,
        ),
    ]


# ====================================================================== 8: grid search
SEARCH_KEYS = ("success_rate", "median_evaluations")


@dataclass(frozen=True)
class SearchCase:
    """A grid search on a fake `evaluate` that reads each run's outcome from a table (no solver runs)."""

    param_grid: dict[str, list]
    seeds: list[int]
    outcomes: list[list[tuple[bool, int]]]
    """outcomes[k][s]: (solved, evaluations) of combination k (in product order) with seeds[s]."""

    @property
    def combinations(self) -> list[tuple]:
        return list(itertools.product(*self.param_grid.values()))

    def expected(self, k: int) -> tuple[float, float]:
        """Success rate and median evaluations of combination k."""
        runs = self.outcomes[k]
        return statistics.mean(solved for solved, _ in runs), statistics.median(e for _, e in runs)


def _searching(case: SearchCase) -> Callable[..., Plain]:
    def call(function: Callable) -> Plain:
        calls = []
        index = {values: k for k, values in enumerate(case.combinations)}
        names = list(case.param_grid)

        def evaluate(params: dict, seed: int) -> tuple[bool, int]:
            key = tuple(params[name] for name in names)
            calls.append([*key, seed])
            return case.outcomes[index[key]][case.seeds.index(seed)]

        rows = function(evaluate, copy.deepcopy(case.param_grid), list(case.seeds))
        return {"rows": _records(rows), "calls": calls}

    return call


def _order_problem(rows: list[dict], keys: list[tuple], index: dict[tuple, int]) -> str | None:
    for k in range(len(rows) - 1):
        (rate_a, median_a), (rate_b, median_b) = (
            (row["success_rate"], row["median_evaluations"]) for row in rows[k : k + 2]
        )
        where = f"les lignes {k + 1} et {k + 2} sont dans le mauvais ordre"
        if rate_a < rate_b:
            return f"{where} : le taux de succès décroissant passe en premier"
        if rate_a == rate_b and median_a > median_b:
            return f"{where} : à taux de succès égal, les évaluations médianes croissantes départagent"
        if rate_a == rate_b and median_a == median_b and index[keys[k]] > index[keys[k + 1]]:
            return f"{where} : à égalité parfaite, gardez l'ordre d'énumération (celui d'itertools.product)"
    return None


def _search_judge(case: SearchCase) -> Callable[[Plain], str | None]:
    names = list(case.param_grid)
    index = {values: k for k, values in enumerate(case.combinations)}

    def judge(output: Plain) -> str | None:
        rows = output["rows"]
        problem = _rows_problem(rows, [*names, *SEARCH_KEYS], len(index))
        if problem:
            return problem
        keys = [tuple(row[name] for name in names) for row in rows]
        missing = next((values for values in case.combinations if values not in keys), None)
        if missing is not None:
            return f"la combinaison {dict(zip(names, missing, strict=True))} manque"
        expected_calls = sorted([*values, seed] for values in case.combinations for seed in case.seeds)
        if sorted(output["calls"]) != expected_calls:
            return (
                f"evaluate doit être appelée une fois par combinaison et par graine : {len(output['calls'])} appel(s) "
                f"pour {len(index)} combinaison(s) × {len(case.seeds)} graine(s)"
            )
        for key, row in zip(keys, rows, strict=True):
            rate, median = case.expected(index[key])
            where = f"pour {dict(zip(names, key, strict=True))}"
            problem = _share_problem(row["success_rate"], len(case.seeds), where)
            if problem or not close(row["success_rate"], rate):
                return problem or f"{where}, success_rate n'est pas la part des graines résolues"
            if not close(row["median_evaluations"], median):
                return (
                    f"{where}, median_evaluations n'est pas la médiane des évaluations de toutes ses exécutions, "
                    "résolues ou non (ni une moyenne, ni un total)"
                )
        return _order_problem(rows, keys, index)

    return judge


def _drawn_search(rng: np.random.Generator) -> SearchCase:
    """A random table whose outcomes come from few values, so that ties in success and in medians occur."""
    grid = {"c1": [1.0, 2.0, 3.0], "inertia_start": [0.3, 0.6]}
    seeds = [int(s) for s in rng.choice(100, size=3, replace=False)]
    outcomes = [[(bool(rng.random() < 0.5), int(rng.choice([400, 700, 900]))) for _ in seeds] for _ in range(6)]
    return SearchCase(grid, seeds, outcomes)


def grid_search_cases(seed: int | None) -> list[Case]:
    yes, no = True, False
    settings = [
        (
            "deux paramètres, aucune égalité",
            SearchCase(
                {"c1": [1.0, 2.0], "c2": [1.0, 3.0]},
                [0, 1, 2],
                [
                    [(yes, 900), (no, 3000), (no, 3000)],
                    [(yes, 500), (yes, 700), (yes, 600)],
                    [(no, 3000), (no, 3000), (no, 3000)],
                    [(yes, 800), (no, 3000), (yes, 1200)],
                ],
            ),
        ),
        (
            "taux de succès égaux : les évaluations médianes départagent",
            SearchCase(
                {"inertia_start": [0.3, 0.5, 0.9]},
                [0, 1, 2],
                [
                    [(yes, 900), (yes, 950), (no, 3000)],
                    [(yes, 700), (no, 3000), (yes, 650)],
                    [(no, 3000), (yes, 500), (yes, 400)],
                ],
            ),
        ),
        (
            "égalités parfaites : l'ordre d'énumération est gardé",
            SearchCase(
                {"c1": [1.0, 2.0], "c2": [1.0, 2.0]},
                [4, 5, 6],
                [
                    [(yes, 800), (no, 3000), (no, 3000)],
                    [(yes, 500), (yes, 500), (yes, 500)],
                    [(no, 3000), (yes, 800), (no, 3000)],
                    [(yes, 500), (yes, 500), (yes, 500)],
                ],
            ),
        ),
        (
            "la médiane n'est pas la moyenne",
            SearchCase(
                {"c2": [1.0, 2.0]},
                [0, 1, 2],
                [[(yes, 100), (yes, 200), (no, 3000)], [(yes, 500), (yes, 600), (no, 700)]],
            ),
        ),
        ("un seul paramètre, une seule valeur, une graine", SearchCase({"c1": [2.0]}, [7], [[(yes, 1234)]])),
    ]
    if seed is not None:
        settings.append(("une table tirée au hasard, avec des égalités", _drawn_search(case_rng(seed, 37))))
    return [Case(label, _searching(case), _search_judge(case)) for label, case in settings]
