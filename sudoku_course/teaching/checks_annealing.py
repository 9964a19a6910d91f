"""Checks of the lesson 02 exercises (simulated annealing), built on the machinery of checks.py.

Each `check_*` function runs hidden cases against a student's function and shows a French verdict per
case; checks.py describes what every check shares (deep copies, time limit, stubs, strict mode,
grading record). Where they can, the cases test properties (two free cells of one box swapped, the
input left alone, temperatures falling by a constant factor) rather than compare with an answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..cost import givens_conflicts
from ..grid import SudokuGrid
from ..solvers.annealing import adapted_alpha
from .checks import DEFAULT_TIME_LIMIT, TEMOIN, TEMOIN_SOLUTION, Case, CheckReport, Judge, returns, run_check

GROWTH_CLASSES = ("lineaire", "polynomial", "exponentiel", "autre")


# ------------------------------------------------------------ shared helpers
def temoin_state(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A full grid of the témoin whose rows are random permutations of their missing digits, and its givens."""
    puzzle = SudokuGrid.from_string(TEMOIN)
    rng = np.random.default_rng(seed)
    cells = puzzle.cells.copy()
    for row in range(puzzle.size):
        free = np.flatnonzero(~puzzle.givens[row])
        missing = sorted(set(range(1, puzzle.size + 1)) - set(cells[row].tolist()))
        cells[row, free] = rng.permutation(missing)
    return cells, puzzle.givens.copy()


def _box(position: tuple[int, int], box_size: int = 3) -> int:
    row, column = position
    return (row // box_size) * box_size + column // box_size


def _position(value: Any) -> tuple[int, int]:
    row, column = value
    return int(row), int(column)


def close_to(expected) -> Judge:
    """A judge accepting a number or a sequence of numbers equal to `expected` up to rounding errors."""

    def judge(result: Any) -> str | None:
        got, want = np.atleast_1d(np.asarray(result, dtype=float)), np.atleast_1d(np.asarray(expected, dtype=float))
        if got.shape != want.shape:
            return f"attendu {want.size} valeur(s), obtenu {got.size}"
        if not np.allclose(got, want, rtol=1e-9, atol=1e-12):
            return f"attendu {np.round(want, 6).tolist()}, obtenu {np.round(got, 6).tolist()}"
        return None

    return judge


# ------------------------------------------------------------ exercise 1: partial energy
def _grid_with(values: dict[tuple[int, int], int], size: int = 9) -> SudokuGrid:
    cells = np.zeros((size, size), dtype=np.int64)
    for position, digit in values.items():
        cells[position] = digit
    return SudokuGrid(cells)


def partial_energy_cases() -> list[Case]:
    temoin = SudokuGrid.from_string(TEMOIN)
    crowded = temoin.cells.copy()
    crowded[0, 1] = 9  # a second 9 in row 1, in box 1 and in column 2
    small = SudokuGrid(np.array([[1, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 2]]))
    grids = [
        ("la grille de départ du témoin (aucun doublon)", temoin),
        ("une grille vide", _grid_with({})),
        ("un chiffre deux fois dans une ligne, dans deux blocs différents", _grid_with({(0, 0): 5, (0, 8): 5})),
        ("un chiffre trois fois dans une colonne (deux doublons)", _grid_with({(0, 4): 7, (4, 4): 7, (8, 4): 7})),
        ("deux cases voisines d'une même ligne et d'un même bloc", _grid_with({(0, 0): 3, (0, 1): 3})),
        ("le témoin avec un 9 de trop (ligne, colonne et bloc)", SudokuGrid(crowded)),
        ("une grille pleine aux lignes permutées", SudokuGrid(temoin_state(0)[0])),
        ("une grille 4 x 4 (la taille se lit dans la grille)", small),
    ]
    return [Case(label, (grid,), returns(givens_conflicts(grid))) for label, grid in grids]


def check_partial_energy(
    partial_energy: Callable[[SudokuGrid], int], *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `partial_energy(grid) -> int`: summed over every row, column and box, the number of filled
    cells minus the number of distinct digits among them (empty cells ignored)."""
    return run_check("partial_energy", partial_energy, partial_energy_cases(), time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 2: block swap
def _block_swaps(block_swap_neighbour: Callable) -> Callable:
    """Call the student's function once per seed; keep each result with the input before and after the call."""

    def call(cells: np.ndarray, givens: np.ndarray, seeds: tuple[int, ...]) -> list[tuple]:
        results = []
        for seed in seeds:
            before = cells.copy()
            neighbour, positions = block_swap_neighbour(cells, givens, np.random.default_rng(seed))
            results.append((np.asarray(neighbour), [_position(p) for p in positions], before, cells.copy()))
        return results

    return call


def _block_swap_judge(givens: np.ndarray, box: int | None = None) -> Judge:
    """Each result: two distinct free cells of one box swapped in a new grid, the input left unchanged."""

    def judge(results: list[tuple]) -> str | None:
        for neighbour, positions, before, after in results:
            if not np.array_equal(after, before):
                return "la grille reçue a été modifiée : il faut renvoyer une nouvelle grille"
            if len(positions) != 2 or positions[0] == positions[1]:
                return f"il faut renvoyer deux cases différentes, obtenu {positions}"
            first, second = positions
            if givens[first] or givens[second]:
                return f"une case donnée a été déplacée ({first} ou {second})"
            if _box(first) != _box(second):
                return f"les cases {first} et {second} ne sont pas dans le même bloc"
            if box is not None and _box(first) != box:
                return f"seul le bloc {box + 1} a deux cases libres, l'échange a eu lieu dans le bloc {_box(first) + 1}"
            expected = before.copy()
            expected[first], expected[second] = before[second], before[first]
            if not np.array_equal(neighbour, expected):
                return "la grille renvoyée n'est pas la grille reçue avec ces deux cases échangées"
        return None

    return judge


def _several_boxes(results: list[tuple]) -> str | None:
    boxes = {_box(positions[0]) for _, positions, _, _ in results}
    return None if len(boxes) >= 3 else f"seulement {len(boxes)} bloc(s) différent(s) sur {len(results)} tirages"


def block_swap_cases() -> list[Case]:
    cells, givens = temoin_state(1)
    one_box = np.ones((9, 9), dtype=bool)
    one_box[3, 4] = one_box[5, 3] = one_box[0, 0] = False  # box 5 has two free cells, box 1 only one
    solution = SudokuGrid.from_string(TEMOIN_SOLUTION).cells
    return [
        Case("témoin aux lignes permutées, quatre graines", (cells, givens, (0, 1, 2, 3)), _block_swap_judge(givens)),
        Case("un seul bloc a deux cases libres", (solution, one_box, (0, 1, 2)), _block_swap_judge(one_box, box=4)),
        Case(
            "sur 40 graines, l'échange a lieu dans plusieurs blocs", (cells, givens, tuple(range(40))), _several_boxes
        ),
    ]


def check_block_swap_neighbour(
    block_swap_neighbour: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `block_swap_neighbour(cells, givens, rng) -> (new_cells, (position1, position2))`: a new grid
    in which two free cells of one box are swapped; the grid received is left unchanged."""
    call = _block_swaps(block_swap_neighbour)
    return run_check("block_swap_neighbour", call, block_swap_cases(), time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 3: cooling schedules
def exponential_cooling_reference(t0: float, t_min: float, alpha: float) -> list[float]:
    """t0, t0 * alpha, t0 * alpha**2, ... as long as the temperature stays at or above t_min."""
    temperatures = []
    temperature = t0
    while temperature >= t_min:
        temperatures.append(temperature)
        temperature *= alpha
    return temperatures


def check_exponential_cooling(
    exponential_cooling: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `exponential_cooling(t0, t_min, alpha) -> list[float]`: t0 * alpha**k while it stays >= t_min."""
    settings = [
        ("t0 = 1, t_min = 0,001, alpha = 0,9", (1.0, 0.001, 0.9)),
        ("t0 = 2, t_min = 0,05, alpha = 0,5", (2.0, 0.05, 0.5)),
        ("t_min atteinte exactement : elle fait partie du programme", (1.0, 0.25, 0.5)),
        ("refroidissement lent : alpha = 0,99", (5.0, 0.1, 0.99)),
        ("t0 déjà sous t_min : programme vide", (0.01, 0.1, 0.9)),
    ]
    cases = [Case(label, args, close_to(exponential_cooling_reference(*args))) for label, args in settings]
    return run_check("exponential_cooling", exponential_cooling, cases, time_limit=time_limit, strict=strict)


def check_linear_cooling(
    linear_cooling: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `linear_cooling(t0, t_min, steps) -> list[float]`: `steps` temperatures evenly spaced from t0
    down to t_min, both included."""
    settings = [
        ("10 températures de 1 à 0,1", (1.0, 0.1, 10)),
        ("6 températures de 3 à 0,5", (3.0, 0.5, 6)),
        ("deux températures : t0 puis t_min", (2.0, 0.2, 2)),
        ("un long programme de 1000 températures", (5.0, 0.01, 1000)),
    ]
    cases = [Case(label, args, close_to(np.linspace(*args).tolist())) for label, args in settings]
    return run_check("linear_cooling", linear_cooling, cases, time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 4: reheating
def check_next_temperature(
    next_temperature: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `next_temperature(temperature, stale, *, t0, alpha, patience, reheat_factor) -> (temperature, stale)`:
    after `patience` stale chains, reheat to reheat_factor * t0 and reset the count; otherwise cool by alpha."""
    schedule = {"t0": 2.0, "alpha": 0.9, "patience": 10, "reheat_factor": 0.5}
    settings = [
        ("pas de stagnation : on refroidit", (1.2, 0), schedule, (1.08, 0)),
        ("stagnation en dessous de la patience : on refroidit, le compte reste", (0.5, 9), schedule, (0.45, 9)),
        ("patience atteinte : on réchauffe et le compte repart de 0", (0.5, 10), schedule, (1.0, 0)),
        ("patience dépassée, température très basse : on réchauffe", (0.001, 25), schedule, (1.0, 0)),
        (
            "réchauffement complet (facteur 1) : retour à t0",
            (0.3, 4),
            schedule | {"patience": 4, "reheat_factor": 1.0},
            (2.0, 0),
        ),
    ]
    cases = [Case(label, args, close_to(expected), kwargs) for label, args, kwargs, expected in settings]
    return run_check("next_temperature", next_temperature, cases, time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 5: adaptive cooling
def check_adapt_alpha(
    adapt_alpha: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `adapt_alpha(alpha, acceptance) -> float`: alpha squared above 50 % acceptance, its square root
    below 5 %, unchanged in between, always kept within [0.8, 0.999]."""
    settings = [
        ("beaucoup de mouvements acceptés : refroidir plus vite", (0.95, 0.9)),
        ("presque aucun mouvement accepté : refroidir plus lentement", (0.95, 0.01)),
        ("taux moyen : alpha inchangé", (0.95, 0.3)),
        ("exactement 50 % : alpha inchangé", (0.97, 0.5)),
        ("exactement 5 % : alpha inchangé", (0.97, 0.05)),
        ("alpha ne descend pas sous 0,8", (0.85, 1.0)),
        ("alpha ne dépasse pas 0,999", (0.9989, 0.0)),
    ]
    cases = [Case(label, args, close_to(adapted_alpha(*args))) for label, args in settings]
    return run_check("adapt_alpha", adapt_alpha, cases, time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 6: extended neighbourhood
def _extended_moves(extended_move: Callable, undo_move: Callable) -> Callable:
    """Make `draws` moves on a copy of the grid, each undone at once; describe each move."""

    def call(cells: np.ndarray, givens: np.ndarray, use_extended: float, seed: int, draws: int) -> list[dict]:
        rng = np.random.default_rng(seed)
        moves = []
        for _ in range(draws):
            before = cells.copy()
            kind, params = extended_move(cells, givens, rng, use_extended)
            after = cells.copy()
            undo_move(cells, kind, params)
            row1, col1, row2, col2 = (int(x) for x in params)
            moves.append(
                {
                    "kind": kind,
                    "cells": ((row1, col1), (row2, col2)),
                    "before": before,
                    "after": after,
                    "undone": np.array_equal(cells, before),
                }
            )
        return moves

    return call


def _move_problem(move: dict, givens: np.ndarray, kind: str) -> str | None:
    """What is wrong with one described move of the given kind, or None."""
    first, second = move["cells"]
    if move["kind"] != kind:
        return f"mouvement de type {move['kind']!r}, attendu {kind!r}"
    if givens[first] or givens[second]:
        return f"une case donnée a été déplacée ({first} ou {second})"
    if kind == "intra" and (first[0] != second[0] or first == second):
        return f"un échange 'intra' doit toucher deux cases différentes d'une même ligne, obtenu {first}, {second}"
    if kind == "inter" and second[0] != first[0] + 1:
        return f"un échange 'inter' doit toucher une ligne et la suivante, obtenu les lignes {first[0]} et {second[0]}"
    expected = move["before"].copy()
    expected[first], expected[second] = move["before"][second], move["before"][first]
    if not np.array_equal(move["after"], expected):
        return f"la grille n'a pas été modifiée par le seul échange des cases {first} et {second}"
    if not move["undone"]:
        return "undo_move n'a pas rendu la grille d'avant le mouvement"
    return None


def _all_moves(givens: np.ndarray, kind: str) -> Judge:
    def judge(moves: list[dict]) -> str | None:
        return next((problem for move in moves if (problem := _move_problem(move, givens, kind))), None)

    return judge


def _share_of_inter(low: float, high: float) -> Judge:
    def judge(moves: list[dict]) -> str | None:
        share = sum(move["kind"] == "inter" for move in moves) / len(moves)
        return None if low <= share <= high else f"{share:.0%} de mouvements 'inter', attendu environ 50 %"

    return judge


def check_extended_move(
    extended_move: Callable,
    undo_move: Callable,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    strict: bool | None = None,
) -> CheckReport:
    """Check `extended_move(cells, givens, rng, use_extended) -> (kind, (row1, col1, row2, col2))` and
    `undo_move(cells, kind, params)`: both change `cells` in place. With probability use_extended, "inter"
    swaps a free cell of a row with a free cell of the next row; otherwise "intra" swaps two free cells
    of one row. undo_move puts the grid back as it was."""
    cells, givens = temoin_state(2)
    cases = [
        Case(
            "use_extended = 0 : 30 échanges dans une ligne, chacun annulé",
            (cells, givens, 0.0, 0, 30),
            _all_moves(givens, "intra"),
        ),
        Case(
            "use_extended = 1 : 30 échanges entre lignes voisines, chacun annulé",
            (cells, givens, 1.0, 1, 30),
            _all_moves(givens, "inter"),
        ),
        Case(
            "use_extended = 0,5 : environ la moitié de mouvements 'inter'",
            (cells, givens, 0.5, 2, 400),
            _share_of_inter(0.4, 0.6),
        ),
    ]
    call = _extended_moves(extended_move, undo_move)
    return run_check("extended_move", call, cases, time_limit=time_limit, strict=strict)


# ------------------------------------------------------------ exercise 7: ratio and growth
def check_ratios(
    ratios: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `ratios(annealing, backtracking) -> list[float]`: annealing[k] / backtracking[k] for each k."""
    settings = [
        ("trois grilles", ([120.0, 4500.0, 98000.0], [2.4, 15.0, 40.0])),
        ("des entiers en entrée", ([10, 20, 30], [5, 4, 3])),
        ("une seule grille", ([2.5], [0.5])),
    ]
    cases = [Case(label, args, close_to([a / b for a, b in zip(*args, strict=True)])) for label, args in settings]
    return run_check("ratios", ratios, cases, time_limit=time_limit, strict=strict)


def growth_class_reference(empty_cells: list[int], ratios: list[float]) -> str:
    """The class of growth of the ratio from the first to the last puzzle (see the exercise statement)."""
    growth = ratios[-1] / ratios[0]
    if growth <= 1:
        return "autre"
    exponent = math.log(growth) / math.log(empty_cells[-1] / empty_cells[0])
    if exponent <= 1.5:
        return "lineaire"
    return "polynomial" if exponent <= 4 else "exponentiel"


def check_growth_class(
    growth_class: Callable, *, time_limit: float = DEFAULT_TIME_LIMIT, strict: bool | None = None
) -> CheckReport:
    """Check `growth_class(empty_cells, ratios) -> str`, one of GROWTH_CLASSES, by the statement's rule."""
    settings = [
        ("le rapport double quand les cases vides doublent", ([10, 20, 40], [5.0, 10.0, 20.0])),
        ("le rapport croît comme le carré des cases vides", ([10, 20, 40], [1.0, 4.0, 16.0])),
        ("les mesures du cours d'origine", ([36, 49, 51], [72.0, 1840.0, 19045.0])),
        ("le rapport baisse", ([30, 40, 50], [300.0, 200.0, 100.0])),
        ("le rapport ne change pas", ([30, 40, 50], [7.0, 9.0, 7.0])),
        ("croissance à peine plus que linéaire", ([20, 30, 40], [3.0, 5.0, 7.5])),
    ]
    cases = [Case(label, args, returns(growth_class_reference(*args))) for label, args in settings]
    return run_check("growth_class", growth_class, cases, time_limit=time_limit, strict=strict)
