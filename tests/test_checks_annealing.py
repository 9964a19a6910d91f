"""The lesson 02 checks: each passes the reference answer and fails deliberately wrong answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sudoku_course.cost import conflicts
from sudoku_course.grid import SudokuGrid
from sudoku_course.teaching.checks_annealing import (
    check_adapt_alpha,
    check_block_swap_neighbour,
    check_exponential_cooling,
    check_extended_move,
    check_growth_class,
    check_linear_cooling,
    check_next_temperature,
    check_partial_energy,
    check_ratios,
    temoin_state,
)


@pytest.fixture(autouse=True)
def not_strict(monkeypatch):
    monkeypatch.delenv("SUDOKU_COURSE_STRICT", raising=False)


def stub(*args, **kwargs):
    raise NotImplementedError("À compléter")


# ------------------------------------------------------------ reference answers (as in the solutions)
def partial_energy(grid: SudokuGrid) -> int:
    energy = 0
    for units in (grid.cells, grid.cells.T, grid.box_array()):
        for unit in units:
            filled = unit[unit != 0]
            energy += len(filled) - len(set(filled.tolist()))
    return energy


def block_swap_neighbour(cells, givens, rng):
    b = math.isqrt(cells.shape[0])
    boxes = []
    for top in range(0, cells.shape[0], b):
        for left in range(0, cells.shape[0], b):
            free = [(top + r, left + c) for r in range(b) for c in range(b) if not givens[top + r, left + c]]
            if len(free) >= 2:
                boxes.append(free)
    free = boxes[rng.integers(len(boxes))]
    first, second = rng.choice(len(free), size=2, replace=False)
    p, q = free[first], free[second]
    neighbour = cells.copy()
    neighbour[p], neighbour[q] = cells[q], cells[p]
    return neighbour, (p, q)


def exponential_cooling(t0, t_min, alpha):
    temperatures, temperature = [], t0
    while temperature >= t_min:
        temperatures.append(temperature)
        temperature *= alpha
    return temperatures


def linear_cooling(t0, t_min, steps):
    return [t0 + (t_min - t0) * k / (steps - 1) for k in range(steps)]


def next_temperature(temperature, stale, *, t0, alpha, patience, reheat_factor):
    if stale >= patience:
        return reheat_factor * t0, 0
    return temperature * alpha, stale


def adapt_alpha(alpha, acceptance):
    if acceptance > 0.5:
        alpha = alpha**2
    elif acceptance < 0.05:
        alpha = alpha**0.5
    return min(0.999, max(0.8, alpha))


def _free_columns(givens, row):
    return [c for c in range(givens.shape[1]) if not givens[row, c]]


def extended_move(cells, givens, rng, use_extended):
    n = cells.shape[0]
    if rng.random() < use_extended:
        while True:
            row = int(rng.integers(n - 1))
            top, bottom = _free_columns(givens, row), _free_columns(givens, row + 1)
            if top and bottom:
                break
        params = (row, top[rng.integers(len(top))], row + 1, bottom[rng.integers(len(bottom))])
        kind = "inter"
    else:
        while True:
            row = int(rng.integers(n))
            free = _free_columns(givens, row)
            if len(free) >= 2:
                break
        first, second = rng.choice(free, size=2, replace=False)
        params, kind = (row, int(first), row, int(second)), "intra"
    undo_move(cells, kind, params)  # a swap is its own inverse
    return kind, params


def undo_move(cells, kind, params):
    r1, c1, r2, c2 = params
    cells[r1, c1], cells[r2, c2] = cells[r2, c2], cells[r1, c1]


def ratios(annealing, backtracking):
    return [a / b for a, b in zip(annealing, backtracking, strict=True)]


def growth_class(empty_cells, values):
    growth = values[-1] / values[0]
    if growth <= 1:
        return "autre"
    exponent = math.log(growth) / math.log(empty_cells[-1] / empty_cells[0])
    return "lineaire" if exponent <= 1.5 else "polynomial" if exponent <= 4 else "exponentiel"


# ------------------------------------------------------------ wrong answers
def energy_with_rows_only(grid):
    return sum(len(row[row != 0]) - len(set(row[row != 0].tolist())) for row in grid.cells)


def energy_counting_zeros(grid):
    return conflicts(grid)


def swap_in_place(cells, givens, rng):
    neighbour, positions = block_swap_neighbour(cells, givens, rng)
    cells[...] = neighbour
    return cells, positions


def swap_in_row(cells, givens, rng):
    row = int(rng.integers(cells.shape[0]))
    free = _free_columns(givens, row)
    p, q = (row, free[0]), (row, free[-1])
    neighbour = cells.copy()
    neighbour[p], neighbour[q] = cells[q], cells[p]
    return neighbour, (p, q)


def always_first_box(cells, givens, rng):
    neighbour, positions = block_swap_neighbour(cells, givens, np.random.default_rng(0))
    return neighbour, positions


def swap_anything_in_box(cells, givens, rng):
    p, q = (0, 0), (0, 1)  # the témoin's (0, 0) is a given
    neighbour = cells.copy()
    neighbour[p], neighbour[q] = cells[q], cells[p]
    return neighbour, (p, q)


def exponential_without_t0(t0, t_min, alpha):
    return exponential_cooling(t0, t_min, alpha)[1:]


def exponential_strict_bound(t0, t_min, alpha):
    return [t for t in exponential_cooling(t0, t_min, alpha) if t > t_min]


def linear_without_t_min(t0, t_min, steps):
    return [t0 + (t_min - t0) * k / steps for k in range(steps)]


def linear_geometric(t0, t_min, steps):
    return np.geomspace(t0, t_min, steps).tolist()


def reheat_without_reset(temperature, stale, *, t0, alpha, patience, reheat_factor):
    return (reheat_factor * t0, stale) if stale >= patience else (temperature * alpha, stale)


def reheat_from_current(temperature, stale, *, t0, alpha, patience, reheat_factor):
    return (reheat_factor * temperature, 0) if stale >= patience else (temperature * alpha, stale)


def adapt_inverted(alpha, acceptance):
    return adapt_alpha(alpha, 1 - acceptance)


def adapt_unbounded(alpha, acceptance):
    return alpha**2 if acceptance > 0.5 else alpha**0.5 if acceptance < 0.05 else alpha


def never_extended(cells, givens, rng, use_extended):
    return extended_move(cells, givens, rng, 0.0)


def undo_nothing(cells, kind, params):
    return None


def inter_any_rows(cells, givens, rng, use_extended):
    if rng.random() < use_extended:
        params = (0, 1, 8, 0)  # rows 1 and 9: not neighbours
        undo_move(cells, "inter", params)
        return "inter", params
    return extended_move(cells, givens, rng, 0.0)


def ratios_inverted(annealing, backtracking):
    return [b / a for a, b in zip(annealing, backtracking, strict=True)]


def ratios_of_sums(annealing, backtracking):
    return [sum(annealing) / sum(backtracking)] * len(annealing)


def growth_always_exponential(empty_cells, values):
    return "exponentiel"


def growth_by_ratio_only(empty_cells, values):
    growth = values[-1] / values[0]
    return "autre" if growth <= 1 else "lineaire" if growth <= 2 else "polynomial" if growth <= 16 else "exponentiel"


# ------------------------------------------------------------ the checks
CHECKS = [
    (check_partial_energy, (partial_energy,), [(energy_with_rows_only,), (energy_counting_zeros,)]),
    (
        check_block_swap_neighbour,
        (block_swap_neighbour,),
        [(swap_in_place,), (swap_in_row,), (always_first_box,), (swap_anything_in_box,)],
    ),
    (check_exponential_cooling, (exponential_cooling,), [(exponential_without_t0,), (exponential_strict_bound,)]),
    (check_linear_cooling, (linear_cooling,), [(linear_without_t_min,), (linear_geometric,)]),
    (check_next_temperature, (next_temperature,), [(reheat_without_reset,), (reheat_from_current,)]),
    (check_adapt_alpha, (adapt_alpha,), [(adapt_inverted,), (adapt_unbounded,)]),
    (
        check_extended_move,
        (extended_move, undo_move),
        [(never_extended, undo_move), (extended_move, undo_nothing), (inter_any_rows, undo_move)],
    ),
    (check_ratios, (ratios,), [(ratios_inverted,), (ratios_of_sums,)]),
    (check_growth_class, (growth_class,), [(growth_always_exponential,), (growth_by_ratio_only,)]),
]
IDS = [check.__name__ for check, _, _ in CHECKS]


@pytest.mark.parametrize(("check", "right", "wrongs"), CHECKS, ids=IDS)
def test_reference_answer_passes(check, right, wrongs):
    report = check(*right)
    assert report.ok and report.total > 0, report.text()


@pytest.mark.parametrize(("check", "right", "wrongs"), CHECKS, ids=IDS)
def test_wrong_answers_fail(check, right, wrongs):
    for wrong in wrongs:
        report = check(*wrong)
        assert not report.ok and not report.stub, f"{wrong[0].__name__} passed:\n{report.text()}"


@pytest.mark.parametrize(("check", "right", "wrongs"), CHECKS, ids=IDS)
def test_stubs_are_reported_as_not_done(check, right, wrongs):
    report = check(*[stub] * len(right))
    assert report.stub and not report.ok


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv("SUDOKU_COURSE_STRICT", "1")
    with pytest.raises(AssertionError):
        check_ratios(ratios_inverted)
    assert check_ratios(ratios).ok


def test_temoin_state_rows_are_permutations_keeping_the_givens():
    cells, givens = temoin_state(3)
    puzzle = SudokuGrid.from_string("902005403100063025508407060026309001057010290090670530240530600705200304080041950")
    assert (cells[givens] == puzzle.cells[givens]).all()
    assert all(sorted(row) == list(range(1, 10)) for row in cells.tolist())
