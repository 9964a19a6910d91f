"""Checks of the lesson 04 exercises (representation versus algorithm), built on the machinery of checks.py.

Each `check_*` function runs hidden cases against a student's function and shows a French verdict per
case; checks.py describes what every check shares (deep copies, time limit, stubs, strict mode, grading
record). A design run by the student is compared with the same design run by the check (seeded runs
are reproducible), on small populations so that a case takes a fraction of a second. The rate of moves
that change the decoded grid is random: it is compared with the check's own estimate within a
tolerance, except where it is exact (a swap of two different digits always changes the grid).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..crossstudy import (
    BUDGET,
    GENERATIONS,
    POPULATION,
    SEEDS,
    CrossDesign,
    cross_table,
    distinct_grids,
    run_design,
    space_of,
    verdict,
)
from ..grid import InvalidPuzzleError, SudokuGrid
from ..puzzles import load_bank
from ..spaces import ContinuousSpace, RandomKeySpace, RowPermutationSpace, Space
from .checks import DEFAULT_TIME_LIMIT, TEMOIN, Case, CheckReport, Judge, returns, run_check

STUDY_TIME_LIMIT = 30.0  # seconds per case for the checks that run designs
SHORT_LINE = TEMOIN[9:]
"""The source's "second easy grid": the témoin without its first row, 72 characters."""
REFUSED = "refusée"
RATE_SAMPLES = 2000
RATE_TOLERANCE = 0.06


# ------------------------------------------------------------ exercise 1: the design on another grid
def _refusing(cross_study: Callable) -> Callable:
    """The student's function, with an InvalidPuzzleError turned into the result REFUSED."""

    def call(*args, **kwargs):
        try:
            return cross_study(*args, **kwargs)
        except InvalidPuzzleError:
            return REFUSED

    return call


def _cross_study_judge(puzzle, seeds: tuple[int, ...], population: int, generations: int) -> Judge:
    def judge(result: Any) -> str | None:
        if not (isinstance(result, tuple) and len(result) == 2):
            return "la fonction doit renvoyer un couple (tableau croisé, verdict)"
        table, outcome = result
        if not isinstance(table, pd.DataFrame):
            return f"le premier élément doit être un DataFrame, obtenu {type(table).__name__}"
        design = CrossDesign({"grille": puzzle}, seeds=seeds, population=population, generations=generations)
        expected = cross_table(run_design(design))
        columns = ["representation", "algorithm", "median", "min", "max", "solved", "mean_evaluations"]
        missing = [column for column in columns if column not in table.columns]
        if missing:
            return f"colonnes manquantes dans le tableau : {missing}"
        problem = _same_table(table[columns].reset_index(drop=True), expected[columns])
        if problem:
            return problem
        wanted = verdict(expected).outcome
        if getattr(outcome, "outcome", outcome) != wanted:
            return f"verdict attendu {wanted!r}, obtenu {getattr(outcome, 'outcome', outcome)!r}"
        return None

    return judge


def _same_table(got: pd.DataFrame, expected: pd.DataFrame) -> str | None:
    """A French complaint if two cross tables differ (cells, order, numbers), or None."""
    if len(got) != len(expected):
        return f"attendu {len(expected)} cellules (2 représentations x 2 algorithmes), obtenu {len(got)}"
    cells = ["representation", "algorithm"]
    if got[cells].astype(str).values.tolist() != expected[cells].values.tolist():
        return f"cellules attendues dans l'ordre {expected[cells].values.tolist()}, obtenu {got[cells].values.tolist()}"
    numbers = [column for column in expected.columns if column not in cells]
    if not np.allclose(got[numbers].to_numpy(dtype=float), expected[numbers].to_numpy(dtype=float)):
        return "les nombres du tableau ne correspondent pas au plan 2 x 2 lancé avec ces graines et ce budget"
    return None


def cross_study_cases() -> list[Case]:
    temoin, second = SudokuGrid.from_string(TEMOIN), load_bank("easy")[1]
    settings = [
        ("le témoin, trois graines, une petite population", temoin, (0, 1, 2), 10, 5),
        ("la deuxième grille facile, une graine", second, (3,), 10, 6),
        ("une grille donnée sous forme de chaîne", TEMOIN, (7,), 12, 4),
    ]
    cases = [
        Case(
            label,
            (puzzle,),
            _cross_study_judge(puzzle, seeds, population, generations),
            kwargs={"seeds": seeds, "population": population, "generations": generations},
        )
        for label, puzzle, seeds, population, generations in settings
    ]
    cases.append(
        Case(
            "la chaîne de 72 caractères du cours d'origine doit être refusée (InvalidPuzzleError)",
            (SHORT_LINE,),
            returns(REFUSED),
            kwargs={"seeds": (0,), "population": 10, "generations": 2},
        )
    )
    return cases


def check_cross_study(
    cross_study: Callable, *, time_limit: float = STUDY_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `cross_study(puzzle, seeds=SEEDS, population=40, generations=200) -> (table, verdict)`.

    Expected: the 2 x 2 design (R1, R2 x PSO, GA) on that one puzzle, with those seeds and a budget of
    population x generations evaluations per run; its cross table (`cross_table`) and its verdict
    (`verdict`). A puzzle that cannot be read raises InvalidPuzzleError.
    """
    return run_check("cross_study", _refusing(cross_study), cross_study_cases(), time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 2: a third algorithm
def _design_judge(puzzle: SudokuGrid, seeds: tuple[int, ...]) -> Judge:
    def judge(design: Any) -> str | None:
        if not isinstance(design, CrossDesign):
            return f"la fonction doit renvoyer un CrossDesign, elle a renvoyé {type(design).__name__}"
        if tuple(design.representations) != ("R1", "R2"):
            return f"représentations attendues ('R1', 'R2'), obtenu {tuple(design.representations)}"
        if sorted(design.algorithms) != ["GA", "PSO", "SA"]:
            return f"il faut les trois algorithmes PSO, GA et SA, obtenu {tuple(design.algorithms)}"
        if tuple(design.seeds) != tuple(seeds):
            return f"les graines doivent rester {tuple(seeds)}, obtenu {tuple(design.seeds)}"
        if (design.population, design.generations) != (POPULATION, GENERATIONS):
            return (
                f"le protocole fixe une population de {POPULATION} sur {GENERATIONS} générations "
                f"({BUDGET} évaluations) ; "
                f"obtenu {design.population} x {design.generations} = {design.budget}"
            )
        grids = list(design.grids.values())
        if len(grids) != 1 or grids[0] != puzzle:
            return "le plan doit porter sur la seule grille donnée"
        return None

    return judge


def annealing_design_cases() -> list[Case]:
    temoin, hard = SudokuGrid.from_string(TEMOIN), load_bank("hard")[0]
    return [
        Case("le témoin et les graines du protocole", (temoin, SEEDS), _design_judge(temoin, SEEDS)),
        Case("une grille difficile et deux autres graines", (hard, (3, 5)), _design_judge(hard, (3, 5))),
    ]


def check_annealing_design(
    annealing_design: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `annealing_design(puzzle, seeds) -> CrossDesign`: R1 and R2 crossed with PSO, GA and SA on that
    puzzle, with those seeds and the protocol's budget (population 40 x 200 generations)."""
    return run_check(
        "annealing_design", annealing_design, annealing_design_cases(), time_limit=time_limit, strict=strict
    )


def change_rate_reference(space: Space, seed: int, samples: int) -> float:
    """Share of `samples` moves (each from a fresh random candidate) whose decoded grid differs from the start."""
    rng = np.random.default_rng(seed)
    changed = 0
    for _ in range(samples):
        start = space.random(rng)
        changed += space.decode(space.neighbour(start, rng)) != space.decode(start)
    return changed / samples


def _rate_judge(expected: float, tolerance: float) -> Judge:
    def judge(result: Any) -> str | None:
        if not isinstance(result, (float, int, np.floating, np.integer)) or isinstance(result, bool):
            return f"la fonction doit renvoyer un nombre, elle a renvoyé {type(result).__name__}"
        if not 0 <= result <= 1:
            return f"une proportion est entre 0 et 1, obtenu {float(result):.3f}"
        if abs(float(result) - expected) > tolerance:
            return f"proportion {float(result):.3f} trop loin de l'attendu (écart toléré {tolerance:g})"
        return None

    return judge


def change_rate_cases() -> list[Case]:
    temoin = SudokuGrid.from_string(TEMOIN)
    settings = [
        ("R1 (réels arrondis), pas gaussien d'écart type 1", ContinuousSpace(temoin), RATE_TOLERANCE),
        ("R1 avec un pas minuscule (écart type 0,05)", ContinuousSpace(temoin, sigma=0.05), RATE_TOLERANCE),
        ("R3 (clés aléatoires)", RandomKeySpace(temoin), RATE_TOLERANCE),
        ("R2 (permutations) : un échange de deux chiffres différents change toujours la grille", None, 0.0),
    ]
    cases = []
    for label, space, tolerance in settings:
        space = space or RowPermutationSpace(temoin)
        expected = 1.0 if tolerance == 0 else change_rate_reference(space, 99, RATE_SAMPLES)
        cases.append(Case(label, (space, 5, RATE_SAMPLES), _rate_judge(expected, tolerance)))
    return cases


def check_grid_change_rate(
    grid_change_rate: Callable, *, time_limit: float = STUDY_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `grid_change_rate(space, seed, samples) -> float`: among `samples` moves `space.neighbour`, each
    made from a fresh random candidate, the share whose decoded grid differs from the decoded start."""
    return run_check("grid_change_rate", grid_change_rate, change_rate_cases(), time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 3: effective diversity
def count_distinct_cases() -> list[Case]:
    temoin = SudokuGrid.from_string(TEMOIN)
    rng = np.random.default_rng(4)
    r1, r2, r3 = (space_of(label, temoin) for label in ("R1", "R2", "R3"))
    vector = r1.random(rng)
    same_digits = [vector, np.floor(vector) + 0.5, np.floor(vector) + 0.01]  # each rounds down to the same digits
    permutations = np.array([r2.random(rng) for _ in range(6)])
    keys = r3.random(rng)
    settings = [
        ("R1 : trois vecteurs différents qui s'arrondissent en la même grille", r1, same_digits),
        ("R1 : une population aléatoire de 40 vecteurs", r1, np.array([r1.random(rng) for _ in range(40)])),
        ("R2 : six permutations, dont deux répétées", r2, np.concatenate([permutations, permutations[:2]])),
        ("R3 : des clés multipliées par 0,5 gardent leur ordre", r3, [keys, keys * 0.5, np.sqrt(keys)]),
        ("une population vide", r2, np.zeros((0, r2.dimension), dtype=np.int64)),
    ]
    return [
        Case(label, (space, population), returns(distinct_grids(space, population)))
        for label, space, population in settings
    ]


def check_count_distinct_grids(
    count_distinct_grids: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `count_distinct_grids(space, population) -> int`: how many different grids the candidates of
    `population` (a list or a 2-D array, one candidate per row) decode to in `space`."""
    return run_check(
        "count_distinct_grids", count_distinct_grids, count_distinct_cases(), time_limit=time_limit, strict=strict
    )
