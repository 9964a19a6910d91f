"""Lesson 03 exercises: the references pass, plausible wrong answers fail without seeing the expected value,
and the provided swarm loop solves the témoin with the reference step."""

from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku_course.cost import conflicts
from sudoku_course.grid import SudokuGrid
from sudoku_course.puzzles import reference
from sudoku_course.solvers.swarm import WorkerExplorerSwarm
from sudoku_course.teaching.exercises import lesson_exercises
from sudoku_course.teaching.exercises.common import row_permuted_state, temoin, temoin_solution
from sudoku_course.teaching.exercises.lesson03 import cases, provided
from sudoku_course.teaching.exercises.lesson03 import references as L

REFERENCES = {
    "swarm_size_study": (L.swarm_size_study,),
    "track_convergence": (L.track_convergence,),
    "box_descent": (L.box_descent,),
    "hybrid_step": (L.hybrid_step,),
    "apply_swaps": (L.apply_swaps,),
    "swap_difference": (L.swap_difference,),
    "scale_swaps": (L.scale_swaps,),
    "swap_pso_step": (L.swap_pso_step,),
    "grid_search": (L.grid_search,),
}


def test_every_exercise_of_the_lesson_is_tested_here():
    assert [item.name for item in lesson_exercises("03-essaim-particulaire")] == list(REFERENCES)


@pytest.mark.parametrize("name", REFERENCES)
def test_the_reference_passes(name, passes):
    passes(name, *REFERENCES[name])


# ------------------------------------------------------------ the algebra: invariants of the references
grids = st.integers(0, 2**32 - 1).map(lambda seed: np.random.default_rng(seed))


@given(grids)
def test_applying_the_difference_of_two_grids_gives_the_target(rng):
    x, p = row_permuted_state(temoin(), rng), row_permuted_state(temoin(), rng)
    rows = rng.permutation(9)
    swaps = L.swap_difference(p, x, rows)
    assert np.array_equal(L.apply_swaps(x, swaps), p)
    assert len(swaps) <= int((x != p).sum())
    assert [rank for rank in (list(rows).index(row) for row, _, _ in swaps)] == sorted(
        list(rows).index(row) for row, _, _ in swaps
    )


@given(grids, st.floats(0, 4, allow_nan=False))
def test_scaling_truncates_or_repeats(rng, k):
    swaps = [(int(r), 0, 1) for r in rng.integers(9, size=int(rng.integers(0, 12)))]
    scaled = L.scale_swaps(k, swaps)
    assert len(scaled) == math.floor(k * len(swaps))
    assert all(swap == swaps[i % len(swaps)] for i, swap in enumerate(scaled))


@given(grids)
def test_a_reference_step_keeps_rows_and_givens(rng):
    puzzle = temoin()
    x, p, g = (row_permuted_state(puzzle, rng) for _ in range(3))
    position, velocity = L.swap_pso_step(x, [], p, g, 0.5, 2.0, 2.0, rng)
    assert (position[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert all(sorted(position[r]) == sorted(x[r]) for r in range(9))
    assert np.array_equal(position, L.apply_swaps(x, velocity))


# ------------------------------------------------------------ the provided loop
def test_the_reference_step_solves_the_temoin_with_every_pinned_seed():
    for seed in cases.PINNED_SEEDS:
        run = provided.swarm_loop(temoin(), L.swap_pso_step, seed)
        assert run.solved and np.array_equal(run.cells, temoin_solution().cells), seed
        assert run.evaluations <= 30_000 / 2, "the reference needs a comfortable margin inside the budget"


def test_the_loop_is_reproducible_and_stays_within_its_budget():
    first, again = (provided.swarm_loop(temoin(), L.swap_pso_step, 11, budget=2_000) for _ in range(2))
    assert first.history == again.history and np.array_equal(first.cells, again.cells)
    assert first.evaluations <= 2_000
    assert all(a >= b for a, b in itertools.pairwise(first.history))


def test_a_step_that_does_not_move_never_solves_and_spends_at_most_the_budget():
    run = provided.swarm_loop(temoin(), lambda x, v, p, g, w, c1, c2, rng: (x.copy(), v), 0, budget=3_000)
    assert not run.solved and run.cost == conflicts(temoin().with_cells(run.cells))
    assert 3_000 - 50 < run.evaluations <= 3_000 and run.attempts > 1


def test_a_budget_smaller_than_the_swarm_is_refused():
    with pytest.raises(ValueError, match="cannot evaluate a swarm"):
        provided.swarm_loop(temoin(), L.swap_pso_step, 0, budget=10)


# ------------------------------------------------------------ apply_swaps
def in_place(position, swaps):
    for row, a, b in swaps:
        position[row, a], position[row, b] = position[row, b], position[row, a]
    return position


def reversed_order(position, swaps):
    return L.apply_swaps(position, list(reversed(swaps)))


def ignores_swaps(position, swaps):
    return position.copy()


def column_swaps(position, swaps):
    moved = position.copy()
    for row, a, b in swaps:
        moved[a, row], moved[b, row] = moved[b, row], moved[a, row]
    return moved


WRONG_APPLICATIONS = {
    in_place: "appliquez les échanges à une copie",
    reversed_order: "dans l'ordre de la liste",
    ignores_swaps: "premier écart",
    column_swaps: "premier écart",
}


@pytest.mark.parametrize("wrong", WRONG_APPLICATIONS)
def test_wrong_applications_fail(wrong, fails_without_leak):
    assert WRONG_APPLICATIONS[wrong] in fails_without_leak("apply_swaps", wrong).text()


# ------------------------------------------------------------ swap_difference
def reversed_arguments(target, position, rows):
    return L.swap_difference(position, target, rows)


def top_to_bottom(target, position, rows):
    return L.swap_difference(target, position, range(len(position)))


def skips_first_column(target, position, rows):
    goal, current = np.asarray(target).tolist(), np.asarray(position).tolist()
    swaps = []
    for row in rows:
        for col in range(1, len(goal[row])):
            if current[row][col] != goal[row][col] and goal[row][col] in current[row][col + 1 :]:
                other = current[row].index(goal[row][col], col + 1)
                swaps.append((int(row), col, other))
                current[row][col], current[row][other] = current[row][other], current[row][col]
    return swaps


def bubble_sort(target, position, rows):
    current, swaps = np.array(position), []
    for row in rows:
        order = {digit: k for k, digit in enumerate(target[row])}
        for _ in range(len(current)):
            for col in range(len(current) - 1):
                if order[current[row, col]] > order[current[row, col + 1]]:
                    swaps.append((int(row), col, col + 1))
                    current[row, col], current[row, col + 1] = current[row, col + 1], current[row, col]
    return swaps


def works_on_the_input(target, position, rows):
    swaps = []
    for row in rows:
        for col in range(len(position)):
            if position[row, col] != target[row, col]:
                other = col + 1 + list(position[row, col + 1 :]).index(target[row, col])
                swaps.append((int(row), col, other))
                position[row, col], position[row, other] = position[row, other], position[row, col]
    return swaps


WRONG_DIFFERENCES = {
    reversed_arguments: "déplace une case déjà bien placée",
    top_to_bottom: "dans l'ordre de rows",
    skips_first_column: "ne donne pas target",
    bubble_sort: "déplace une case déjà bien placée",
    works_on_the_input: "calculez sur des copies",
}


@pytest.mark.parametrize("wrong", WRONG_DIFFERENCES)
def test_wrong_differences_fail(wrong, fails_without_leak):
    assert WRONG_DIFFERENCES[wrong] in fails_without_leak("swap_difference", wrong).text()


def test_other_valid_differences_pass(passes):
    """Rows walked from right to left, or each misplaced digit sent to its target cell: other valid swap lists."""

    def right_to_left(target, position, rows):
        current, swaps = position.copy(), []
        for row in rows:
            for col in reversed(range(current.shape[1])):
                if current[row, col] != target[row, col]:
                    other = int(np.flatnonzero(current[row] == target[row, col])[0])
                    swaps.append([int(row), other, col])
                    current[row, [col, other]] = current[row, [other, col]]
        return swaps

    def sends_digits_home(target, position, rows):
        current, swaps = position.copy(), []
        for row in rows:
            for col in range(current.shape[1]):
                while current[row, col] != target[row, col]:
                    home = int(np.flatnonzero(target[row] == current[row, col])[0])
                    swaps.append((int(row), col, home))
                    current[row, [col, home]] = current[row, [home, col]]
        return tuple(swaps)

    passes("swap_difference", right_to_left)
    passes("swap_difference", sends_digits_home)


# ------------------------------------------------------------ scale_swaps
def rounds(k, swaps):
    return [swaps[i % len(swaps)] for i in range(round(k * len(swaps)))]


def never_repeats(k, swaps):
    return swaps[: math.floor(min(k, 1) * len(swaps))]


def whole_repetitions_only(k, swaps):
    return list(swaps) * int(k) if k >= 1 else swaps[: math.floor(k * len(swaps))]


def extends_the_input(k, swaps):
    original = list(swaps)
    swaps.clear()
    swaps.extend(original[i % len(original)] for i in range(math.floor(k * len(original))))
    return swaps


WRONG_SCALINGS = {
    rounds: "⌊0,99 × 4⌋ = 3",
    never_repeats: "⌊2,5 × 4⌋ = 10",
    whole_repetitions_only: "⌊1,75 × 4⌋ = 7",
    extends_the_input: "construisez une nouvelle liste",
}


@pytest.mark.parametrize("wrong", WRONG_SCALINGS)
def test_wrong_scalings_fail(wrong, fails_without_leak):
    assert WRONG_SCALINGS[wrong] in fails_without_leak("scale_swaps", wrong).text()


# ------------------------------------------------------------ swap_pso_step
def step_with(position, velocity, own_best, swarm_best, inertia, own, swarm, rows):
    velocity = (
        L.scale_swaps(inertia, velocity)
        + L.scale_swaps(own, L.swap_difference(own_best, position, rows))
        + L.scale_swaps(swarm, L.swap_difference(swarm_best, position, rows))
    )
    return L.apply_swaps(position, velocity), velocity


def global_generator(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    r1, r2 = np.random.random(), np.random.random()
    return step_with(
        position, velocity, own_best, swarm_best, w, c1 * r1, c2 * r2, np.random.permutation(len(position))
    )


def swapped_coefficients(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    r1, r2 = rng.random(), rng.random()
    return step_with(position, velocity, own_best, swarm_best, w, c2 * r1, c1 * r2, rng.permutation(len(position)))


def no_inertia(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    r1, r2 = rng.random(), rng.random()
    return step_with(position, [], own_best, swarm_best, w, c1 * r1, c2 * r2, rng.permutation(len(position)))


def one_draw_for_both(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    r = rng.random()
    return step_with(position, velocity, own_best, swarm_best, w, c1 * r, c2 * r, rng.permutation(len(position)))


def returns_the_input(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    return position, velocity


def nine_rows(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    r1, r2 = rng.random(), rng.random()
    return step_with(position, velocity, own_best, swarm_best, w, c1 * r1, c2 * r2, rng.permutation(9))


def rows_drawn_first(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    rows = rng.permutation(len(position))
    r1, r2 = rng.random(), rng.random()
    return step_with(position, velocity, own_best, swarm_best, w, c1 * r1, c2 * r2, rows)


def one_row_order_per_term(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    n = len(position)
    r1 = rng.random()
    own = L.scale_swaps(c1 * r1, L.swap_difference(own_best, position, rng.permutation(n)))
    r2 = rng.random()
    swarm = L.scale_swaps(c2 * r2, L.swap_difference(swarm_best, position, rng.permutation(n)))
    velocity = L.scale_swaps(w, velocity) + own + swarm
    return L.apply_swaps(position, velocity), velocity


def social_term_from_own_best(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    r1, r2 = rng.random(), rng.random()
    rows = rng.permutation(len(position))
    velocity = (
        L.scale_swaps(w, velocity)
        + L.scale_swaps(c1 * r1, L.swap_difference(own_best, position, rows))
        + L.scale_swaps(c2 * r2, L.swap_difference(swarm_best, own_best, rows))
    )
    return L.apply_swaps(position, velocity), velocity


def moves_by_the_old_velocity(position, velocity, own_best, swarm_best, w, c1, c2, rng):
    _, new_velocity = L.swap_pso_step(position, velocity, own_best, swarm_best, w, c1, c2, rng)
    return L.apply_swaps(position, velocity), new_velocity


def differences_towards_the_position(position, velocity, own_best, swarm_best, inertia, c1, c2, rng):
    """Both differences taken from the bests towards the position: x - p and x - g."""
    r1, r2 = rng.random(), rng.random()
    rows = rng.permutation(len(position))
    cognitive = L.scale_swaps(c1 * r1, L.swap_difference(position, own_best, rows))
    social = L.scale_swaps(c2 * r2, L.swap_difference(position, swarm_best, rows))
    new_velocity = L.scale_swaps(inertia, velocity) + cognitive + social
    return L.apply_swaps(position, new_velocity), new_velocity


WRONG_STEPS = {
    differences_towards_the_position: "(c1 r1) · (p − x) va dans le mauvais sens",
    global_generator: "générateur rng reçu",
    swapped_coefficients: "ne va pas",
    no_inertia: "commencer par w · v",
    one_draw_for_both: "(c2 r2) · (g − x), ne va pas",
    returns_the_input: "n'a résolu le témoin que pour 0 graine(s)",
    nine_rows: "erreur",
    rows_drawn_first: "d'autres tirages que ceux de l'énoncé",
    one_row_order_per_term: "d'autres tirages que ceux de l'énoncé",
    social_term_from_own_best: "(c2 r2) · (g − x), ne va pas",
    moves_by_the_old_velocity: "n'est pas x + v",
}


@pytest.mark.parametrize("wrong", WRONG_STEPS)
def test_wrong_steps_fail(wrong, fails_without_leak):
    assert WRONG_STEPS[wrong] in fails_without_leak("swap_pso_step", wrong).text()


def test_a_step_whose_differences_scan_each_row_from_the_right_passes(passes):
    """Another valid p - x: each row scanned from right to left (any difference of the statement is right)."""

    def from_the_right(target, position, rows):
        current, swaps = position.copy(), []
        for row in rows:
            for col in reversed(range(current.shape[1])):
                if current[row, col] != target[row, col]:
                    other = int(np.flatnonzero(current[row] == target[row, col])[0])
                    swaps.append((int(row), col, other))
                    current[row, [col, other]] = current[row, [other, col]]
        return swaps

    def step(position, velocity, own_best, swarm_best, inertia, c1, c2, rng):
        r1, r2 = rng.random(), rng.random()
        rows = rng.permutation(len(position))
        new = (
            L.scale_swaps(inertia, velocity)
            + L.scale_swaps(c1 * r1, from_the_right(own_best, position, rows))
            + L.scale_swaps(c2 * r2, from_the_right(swarm_best, position, rows))
        )
        return L.apply_swaps(position, new), new

    passes("swap_pso_step", step)


def test_a_step_written_with_other_styles_passes(passes):
    """Both coefficients drawn at once, numpy indices in the swaps, the velocity returned as tuples."""

    def difference(target, position, rows):
        current, swaps = position.copy(), []
        for row in rows:
            for col in range(current.shape[1]):
                if current[row, col] != target[row, col]:
                    other = np.flatnonzero(current[row] == target[row, col])[0]
                    swaps.append((row, col, other))
                    current[row, [col, other]] = current[row, [other, col]]
        return swaps

    def step(position, velocity, own_best, swarm_best, w, c1, c2, rng):
        r1, r2 = rng.random(2)
        rows = rng.permutation(position.shape[0])
        new = [
            *L.scale_swaps(w, velocity),
            *L.scale_swaps(c1 * r1, difference(own_best, position, rows)),
            *L.scale_swaps(c2 * r2, difference(swarm_best, position, rows)),
        ]
        return L.apply_swaps(position, new), tuple(new)

    passes("swap_pso_step", step)


# ------------------------------------------------------------ swarm_size_study
def runs_of(puzzles, size, seeds, budget):
    solver = WorkerExplorerSwarm(population_size=size)
    return [solver.solve(puzzle, seed=seed, budget=budget) for puzzle in puzzles for seed in seeds]


def study(puzzles, sizes, seeds, budget, *, average=statistics.median, scale=1.0, seconds=1.0, order=list):
    rows = []
    for size in order(sizes):
        results = runs_of(puzzles, size, seeds, budget)
        rows.append(
            {
                "population_size": size,
                "success_rate": scale * statistics.mean(r.solved for r in results),
                "median_evaluations": average([r.evaluations for r in results]),
                "median_seconds": seconds * statistics.median(r.seconds for r in results),
            }
        )
    return rows


def mean_evaluations(puzzles, sizes, seeds, budget):
    return study(puzzles, sizes, seeds, budget, average=statistics.mean)


def percentages(puzzles, sizes, seeds, budget):
    return study(puzzles, sizes, seeds, budget, scale=100.0)


def sorted_sizes(puzzles, sizes, seeds, budget):
    return study(puzzles, sizes, seeds, budget, order=sorted)


def milliseconds(puzzles, sizes, seeds, budget):
    return study(puzzles, sizes, seeds, budget, seconds=1000.0)


WRONG_STUDIES = {
    mean_evaluations: "une médiane, pas une moyenne",
    percentages: "pas un pourcentage",
    sorted_sizes: "l'ordre de sizes",
    milliseconds: "en secondes",
}


@pytest.mark.parametrize("wrong", WRONG_STUDIES)
def test_wrong_size_studies_fail(wrong, fails_without_leak):
    assert WRONG_STUDIES[wrong] in fails_without_leak("swarm_size_study", wrong).text()


def test_a_study_as_a_data_frame_passes_too(passes):
    import pandas as pd

    passes("swarm_size_study", lambda *args: pd.DataFrame(L.swarm_size_study(*args)))


# ------------------------------------------------------------ track_convergence
def with_restarts(puzzle, iterations, seed):
    costs = []
    WorkerExplorerSwarm(population_size=100, max_iterations=iterations).solve(
        puzzle, seed=seed, callback=lambda epoch, best: costs.append(best)
    )
    return costs


def epoch_numbers(puzzle, iterations, seed):
    epochs = []
    WorkerExplorerSwarm(population_size=100, max_iterations=iterations, max_restarts=0).solve(
        puzzle, seed=seed, callback=lambda epoch, best: epochs.append(epoch)
    )
    return epochs


def default_hive(puzzle, iterations, seed):
    costs = []
    WorkerExplorerSwarm(max_iterations=iterations, max_restarts=0).solve(
        puzzle, seed=seed, callback=lambda epoch, best: costs.append(best)
    )
    return costs


WRONG_TRACKS = {
    with_restarts: "une seule tentative",
    epoch_numbers: "remonte",
    default_hive: "100 organismes",
}


@pytest.mark.parametrize("wrong", WRONG_TRACKS)
def test_wrong_convergence_tracks_fail(wrong, fails_without_leak):
    assert WRONG_TRACKS[wrong] in fails_without_leak("track_convergence", wrong).text()


# ------------------------------------------------------------ box_descent
def one_swap_only(grid):
    neighbours = [cases.swapped(grid, i, j) for i, j in cases.box_pairs(grid)]
    return min(neighbours, key=conflicts, default=grid.copy())


def row_swaps(grid):
    n, current = grid.size, grid.copy()
    free = ~grid.givens
    pairs = [(r * n + a, r * n + b) for r in range(n) for a, b in itertools.combinations(np.flatnonzero(free[r]), 2)]
    while True:
        best = min((cases.swapped(current, i, j) for i, j in pairs), key=conflicts)
        if conflicts(best) >= conflicts(current):
            return current
        current = best


def descends_in_place(grid):
    while True:
        for i, j in cases.box_pairs(grid):
            if conflicts(cases.swapped(grid, i, j)) < conflicts(grid):
                cells = grid.cells.ravel()
                cells[i], cells[j] = cells[j], cells[i]
                break
        else:
            return grid


def boxes_of_three(grid):
    blocks = [[(3 * (b // 3) + k // 3) * grid.size + 3 * (b % 3) + k % 3 for k in range(9)] for b in range(9)]
    free = ~grid.givens.ravel()
    pairs = [pair for box in blocks for pair in itertools.combinations([c for c in box if free[c]], 2)]
    current = grid.copy()
    while True:
        best = min((cases.swapped(current, i, j) for i, j in pairs), key=conflicts, default=current)
        if conflicts(best) >= conflicts(current):
            return current
        current = best


WRONG_DESCENTS = {
    one_swap_only: "pas un optimum local",
    row_swaps: "pas un optimum local",
    descends_in_place: "travailler sur une copie",
    boxes_of_three: "erreur",
}


@pytest.mark.parametrize("wrong", WRONG_DESCENTS)
def test_wrong_descents_fail(wrong, fails_without_leak):
    assert WRONG_DESCENTS[wrong] in fails_without_leak("box_descent", wrong).text()


def first_improving_swap(grid):
    """Takes the first swap that lowers the conflicts, box by box, where the statement asks for the best one."""
    current = grid.copy()
    improved = True
    while improved:
        improved = False
        for box in grid.layout.boxes:
            free = [cell for cell in box if not grid.givens.flat[cell]]
            for i, j in itertools.combinations(free, 2):
                candidate = cases.swapped(current, i, j)
                if conflicts(candidate) < conflicts(current):
                    current, improved = candidate, True
                    break
            if improved:
                break
    return current


def test_a_descent_that_takes_the_first_improving_swap_is_told_to_take_the_best(fails_without_leak):
    report = fails_without_leak("box_descent", first_improving_swap)
    failed = [result for result in report.details if not result.passed]
    assert failed and all(result.detail == cases.NOT_THE_BEST for result in failed)
    assert all("premier échange qui améliore n'est pas le meilleur" in result.label for result in failed)


def test_a_best_improvement_descent_that_breaks_ties_otherwise_passes(passes):
    def last_of_the_best(grid):
        current = grid.copy()
        while True:
            neighbours = [cases.swapped(current, i, j) for i, j in cases.box_pairs(current)][::-1]
            best = min(neighbours, key=conflicts, default=current)
            if conflicts(best) >= conflicts(current):
                return current
            current = best

    passes("box_descent", last_of_the_best)


def test_the_pinned_starts_separate_first_from_best_improvement():
    for text in L.FIRST_IS_NOT_BEST:
        start = SudokuGrid(np.array([int(digit) for digit in text]).reshape(9, 9), 3, reference().givens)
        ends = L.best_descent_ends(start)
        assert ends and L.box_descent(start).to_string() in ends
        assert all(L.first_improvement(start, reverse).to_string() not in ends for reverse in (False, True))


# ------------------------------------------------------------ hybrid_step
def every_iteration_after_stagnation(errors, stale, stagnation, rng):
    return L.hybrid_step(errors, stagnation, stagnation, rng) if stale >= stagnation else []


def the_best_only(errors, stale, stagnation, rng):
    return L.hybrid_step(errors, stale, stagnation, rng)[:1]


def the_three_best(errors, stale, stagnation, rng):
    return [int(k) for k in np.argsort(errors, kind="stable")[:3]] if stale and stale % stagnation == 0 else []


def drawn_from_numpy(errors, stale, stagnation, rng):
    return L.hybrid_step(errors, stale, stagnation, np.random.default_rng(np.random.randint(1000)))


def the_worst_first(errors, stale, stagnation, rng):
    chosen = L.hybrid_step(errors, stale, stagnation, rng)
    return [int(np.argmax(errors)), *chosen[1:]] if chosen else []


def sorts_the_errors(errors, stale, stagnation, rng):
    chosen = L.hybrid_step(errors, stale, stagnation, rng)
    errors.sort()
    return chosen


def others_among_all(errors, stale, stagnation, rng):
    if stale == 0 or stale % stagnation:
        return []
    return [int(np.argmin(errors)), *(int(k) for k in rng.choice(len(errors), size=2, replace=False))]


WRONG_HYBRID_STEPS = {
    every_iteration_after_stagnation: "n'est pas un multiple non nul de stagnation",
    the_best_only: "il faut la meilleure ouvrière et",
    the_three_best: "tirez-les au hasard parmi toutes les autres",
    drawn_from_numpy: "avec le rng reçu",
    the_worst_first: "celui de la meilleure ouvrière",
    sorts_the_errors: "ont été modifiés",
    others_among_all: "distincts",
}


@pytest.mark.parametrize("wrong", WRONG_HYBRID_STEPS)
def test_wrong_hybrid_steps_fail_and_are_told_why(wrong, fails_without_leak):
    assert WRONG_HYBRID_STEPS[wrong] in fails_without_leak("hybrid_step", wrong).text()


def test_the_hybrid_swarm_polishes_the_workers_its_hook_names():
    calls = []

    def spy(errors, stale, stagnation, rng):
        chosen = L.hybrid_step(errors, stale, stagnation, rng)
        calls.append((stale, chosen))
        return chosen

    puzzle = SudokuGrid.from_string(cases.EASY_STAGNATING)
    run = provided.hybrid_swarm(
        puzzle, spy, L.box_descent, seed=0, population_size=40, max_iterations=80, stagnation=10
    )
    assert len(calls) == run.iterations == len(run.history) and run.history == sorted(run.history, reverse=True)
    assert run.polished == sum(len(chosen) for _, chosen in calls) > 0
    assert all(bool(chosen) == (stale > 0 and stale % 10 == 0) for stale, chosen in calls)
    never = provided.hybrid_swarm(
        puzzle, lambda *args: [], L.box_descent, seed=0, population_size=40, max_iterations=80
    )
    assert never.polished == 0


# ------------------------------------------------------------ grid_search
def search(evaluate, param_grid, seeds, *, key, reverse=False, average=statistics.median, scale=1.0):
    rows = []
    for values in itertools.product(*param_grid.values()):
        params = dict(zip(param_grid, values, strict=True))
        runs = [evaluate(params, seed) for seed in seeds]
        rows.append(
            {
                **params,
                "success_rate": scale * statistics.mean(solved for solved, _ in runs),
                "median_evaluations": average([evaluations for _, evaluations in runs]),
            }
        )
    return sorted(rows, key=key, reverse=reverse)


def success_only(evaluate, param_grid, seeds):
    return search(evaluate, param_grid, seeds, key=lambda row: -row["success_rate"])


def ties_reversed(evaluate, param_grid, seeds):
    ascending = search(evaluate, param_grid, seeds, key=lambda row: (row["success_rate"], -row["median_evaluations"]))
    return ascending[::-1]


def mean_not_median(evaluate, param_grid, seeds):
    return search(
        evaluate,
        param_grid,
        seeds,
        key=lambda row: (-row["success_rate"], row["median_evaluations"]),
        average=statistics.mean,
    )


def percent_success(evaluate, param_grid, seeds):
    return search(
        evaluate, param_grid, seeds, key=lambda row: (-row["success_rate"], row["median_evaluations"]), scale=100.0
    )


def median_of_solved_runs(evaluate, param_grid, seeds):
    rows = []
    for values in itertools.product(*param_grid.values()):
        params = dict(zip(param_grid, values, strict=True))
        runs = [evaluate(params, seed) for seed in seeds]
        solved = [evaluations for ok, evaluations in runs if ok] or [evaluations for _, evaluations in runs]
        rows.append(
            {
                **params,
                "success_rate": statistics.mean(ok for ok, _ in runs),
                "median_evaluations": statistics.median(solved),
            }
        )
    return sorted(rows, key=lambda row: (-row["success_rate"], row["median_evaluations"]))


WRONG_SEARCHES = {
    median_of_solved_runs: "résolues ou non",
    success_only: "à taux de succès égal",
    ties_reversed: "gardez l'ordre d'énumération",
    mean_not_median: "n'est pas la médiane",
    percent_success: "pas un pourcentage",
}


@pytest.mark.parametrize("wrong", WRONG_SEARCHES)
def test_wrong_grid_searches_fail(wrong, fails_without_leak):
    assert WRONG_SEARCHES[wrong] in fails_without_leak("grid_search", wrong).text()


def test_a_grid_search_with_pandas_passes(passes):
    import pandas as pd

    def with_pandas(evaluate, param_grid, seeds):
        rows = []
        for values in itertools.product(*param_grid.values()):
            params = dict(zip(param_grid, values, strict=True))
            runs = pd.DataFrame([evaluate(params, seed) for seed in seeds], columns=["solved", "evaluations"])
            rows.append(
                {**params, "success_rate": runs["solved"].mean(), "median_evaluations": runs["evaluations"].median()}
            )
        return pd.DataFrame(rows).sort_values(["success_rate", "median_evaluations"], ascending=[False, True])

    passes("grid_search", with_pandas)


# ------------------------------------------------------------ the registry entries
WRONG = {
    "swarm_size_study": WRONG_STUDIES,
    "track_convergence": WRONG_TRACKS,
    "box_descent": WRONG_DESCENTS,
    "hybrid_step": WRONG_HYBRID_STEPS,
    "apply_swaps": WRONG_APPLICATIONS,
    "swap_difference": WRONG_DIFFERENCES,
    "scale_swaps": WRONG_SCALINGS,
    "swap_pso_step": WRONG_STEPS,
    "grid_search": WRONG_SEARCHES,
}


def test_every_exercise_has_three_wrong_answers():
    assert set(WRONG) == set(REFERENCES) and all(len(wrongs) >= 3 for wrongs in WRONG.values())
