"""Lesson 02 exercises: the references pass, plausible wrong answers fail without seeing the expected value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sudoku_course.cost import ConflictTable
from sudoku_course.teaching.exercises import lesson_exercises
from sudoku_course.teaching.exercises.lesson02 import cases
from sudoku_course.teaching.exercises.lesson02 import references as lesson02

REFERENCES = {
    "partial_energy": (lesson02.partial_energy,),
    "block_swap_neighbour": (lesson02.block_swap_neighbour,),
    "metropolis_accept": (lesson02.metropolis_accept,),
    "anneal": (lesson02.anneal,),
    "exponential_cooling": (lesson02.exponential_cooling,),
    "linear_cooling": (lesson02.linear_cooling,),
    "next_temperature": (lesson02.next_temperature,),
    "adapt_alpha": (lesson02.adapt_alpha,),
    "anneal_with_rule": (lesson02.anneal_with_rule,),
    "extended_move": (lesson02.extended_move, lesson02.undo_move),
    "ratios": (lesson02.ratios,),
    "growth_class": (lesson02.growth_class,),
}


def test_every_exercise_of_the_lesson_is_tested_here():
    assert [item.name for item in lesson_exercises("02-recuit-simule")] == list(REFERENCES)


@pytest.mark.parametrize("name", REFERENCES)
def test_the_reference_passes(name, passes):
    passes(name, *REFERENCES[name])


# ------------------------------------------------------------ partial_energy
def units(grid):
    return [*grid.cells, *grid.cells.T, *grid.box_array()]


def counts_empty_cells(grid):
    return sum(len(unit) - len(set(unit.tolist())) for unit in units(grid))


def rows_and_columns_only(grid):
    return sum(len(u[u != 0]) - len(set(u[u != 0].tolist())) for u in [*grid.cells, *grid.cells.T])


def one_per_repeated_digit(grid):
    return sum(len({d for d in u.tolist() if d and u.tolist().count(d) > 1}) for u in units(grid))


def empties_made_unique_in_place(grid):
    """The right count, but the grid's empty cells are overwritten (unique negatives) to keep them out of sets."""
    cells = grid.cells
    cells[cells == 0] = -np.arange(1, (cells == 0).sum() + 1)
    return sum(len(unit) - len(set(unit.tolist())) for unit in units(grid))


def hard_coded_boxes(grid):
    boxes = grid.cells.reshape(3, 3, 3, 3).swapaxes(1, 2).reshape(9, 9)
    return sum(len(u[u != 0]) - len(set(u[u != 0].tolist())) for u in [*grid.cells, *grid.cells.T, *boxes])


# ------------------------------------------------------------ block_swap_neighbour
def free_box_cells(givens, box_size=None):
    size = givens.shape[0]
    box_size = box_size or math.isqrt(size)
    boxes = []
    for top in range(0, size, box_size):
        for left in range(0, size, box_size):
            cells = [(top + r, left + c) for r in range(box_size) for c in range(box_size)]
            free = [cell for cell in cells if not givens[cell]]
            if len(free) >= 2:
                boxes.append(free)
    return boxes


def swap(cells, first, second):
    cells[first], cells[second] = cells[second], cells[first]


def in_place(cells, givens, rng):
    boxes = free_box_cells(givens)
    free = boxes[rng.integers(len(boxes))]
    i, j = rng.choice(len(free), size=2, replace=False)
    swap(cells, free[i], free[j])
    return cells, (free[i], free[j])


def global_generator(cells, givens, rng):
    boxes = free_box_cells(givens)
    free = boxes[np.random.randint(len(boxes))]
    i, j = np.random.choice(len(free), size=2, replace=False)
    neighbour = cells.copy()
    swap(neighbour, free[i], free[j])
    return neighbour, (free[i], free[j])


def swaps_in_a_row(cells, givens, rng):
    rows = [r for r in range(cells.shape[0]) if (~givens[r]).sum() >= 2]
    row = rows[rng.integers(len(rows))]
    c1, c2 = rng.choice(np.flatnonzero(~givens[row]), size=2, replace=False)
    neighbour = cells.copy()
    swap(neighbour, (row, c1), (row, c2))
    return neighbour, ((row, int(c1)), (row, int(c2)))


def hard_coded_three(cells, givens, rng):
    boxes = free_box_cells(givens, 3)
    free = boxes[rng.integers(len(boxes))]
    i, j = rng.choice(len(free), size=2, replace=False)
    neighbour = cells.copy()
    swap(neighbour, free[i], free[j])
    return neighbour, (free[i], free[j])


def input_unchanged(cells, givens, rng):
    boxes = free_box_cells(givens)
    free = boxes[rng.integers(len(boxes))]
    i, j = rng.choice(len(free), size=2, replace=False)
    return cells.copy(), (free[i], free[j])


# ------------------------------------------------------------ metropolis_accept
def temperature_as_a_factor(delta, temperature, u):
    return delta <= 0 or u < math.exp(-delta * temperature)


def without_the_shortcut(delta, temperature, u):
    return u < math.exp(-delta / temperature)  # exp overflows for an improving move at a low temperature


def greedy(delta, temperature, u):
    return delta <= 0


def refuses_neutral_moves(delta, temperature, u):
    return delta < 0 or (delta > 0 and u < math.exp(-delta / temperature))


def the_probability(delta, temperature, u):
    return 1.0 if delta <= 0 else math.exp(-delta / temperature)


def inverted(delta, temperature, u):
    return delta <= 0 or u > math.exp(-delta / temperature)


def with_logarithms(delta, temperature, u):
    return delta <= 0 or math.log(u) < -delta / temperature


def test_metropolis_accepts_an_answer_that_takes_the_logarithm_of_u(passes):
    passes("metropolis_accept", with_logarithms)


# ------------------------------------------------------------ anneal, anneal_with_rule
FLAWS = {
    "returns_current": "returns the last state and its energy instead of the best",
    "aliased_best": "keeps the table's own cell list as the best (no copy), so the best follows the current state",
    "global_generator": "draws moves and u from np.random instead of rng",
    "own_generator": "ignores rng and builds a generator with a fixed seed",
    "greedy": "accepts only the moves that do not raise the energy, whatever the temperature",
    "strict_t_min": "stops when T <= t_min: the chain at T = t_min exactly is skipped",
    "nine_by_nine": "reshapes the best cells to 9 x 9",
    "mutates_state": "swaps the cells of the grid it receives as well",
    "extra_move": "tries chain_length + 1 moves per chain",
    "goes_on_at_zero": "finishes the chain after reaching energy 0",
    "accepted_count": "records the number of accepted moves instead of the rate",
    "best_per_chain": "updates the best grid only at the end of each chain, not after each move",
    "unrecorded_last_chain": "does not record the chain that reached energy 0 in the trace",
    "rate_over_chain_length": "divides the accepted moves of an interrupted last chain by chain_length",
}


def flawed_chain(table, moves, rng, temperature, length, best, best_cells, flaw, state):
    """The chain of lesson02's reference, with one flaw of FLAWS."""
    accepted = tried = 0
    generator = np.random if flaw == "global_generator" else rng
    while tried < length + (flaw == "extra_move") and (best > 0 or flaw == "goes_on_at_zero"):
        i, j = moves[generator.randint(len(moves)) if flaw == "global_generator" else rng.integers(len(moves))]
        tried += 1
        delta = table.delta_swap_cells(i, j)
        u = generator.random()
        if (delta <= 0) if flaw == "greedy" else lesson02.metropolis_accept(delta, temperature, u):
            table.swap_cells(i, j)
            if flaw == "mutates_state":
                flat = state.cells.reshape(-1)
                flat[i], flat[j] = flat[j], flat[i]
            accepted += 1
            if table.cost < best and flaw != "best_per_chain":
                best, best_cells = table.cost, (table.cells if flaw == "aliased_best" else list(table.cells))
            if flaw == "best_per_chain" and table.cost == 0:
                break
    if flaw == "best_per_chain" and table.cost < best:
        best, best_cells = table.cost, list(table.cells)
    if flaw == "rate_over_chain_length":
        return accepted / length, best, best_cells
    return (accepted if flaw == "accepted_count" else accepted / tried), best, best_cells


def flawed_result(state, table, best, best_cells, trace, flaw):
    if flaw == "returns_current":
        best, best_cells = table.cost, table.cells
    shape = (9, 9) if flaw == "nine_by_nine" else state.cells.shape
    return state.with_cells(np.reshape(best_cells, shape)), best, trace


def flawed_anneal(flaw):
    """lesson02.anneal with one flaw of FLAWS."""

    def anneal(state, moves, rng, *, t0, alpha, t_min, chain_length):
        rng = np.random.default_rng(0) if flaw == "own_generator" else rng
        table = ConflictTable(state)
        best, best_cells = table.cost, list(table.cells)
        trace, temperature = [], t0
        while (temperature > t_min if flaw == "strict_t_min" else temperature >= t_min) and best > 0:
            acceptance, best, best_cells = flawed_chain(
                table, moves, rng, temperature, chain_length, best, best_cells, flaw, state
            )
            if best > 0 or flaw != "unrecorded_last_chain":
                trace.append({"temperature": temperature, "energy": table.cost, "best": best, "acceptance": acceptance})
            temperature *= alpha
        return flawed_result(state, table, best, best_cells, trace, flaw)

    return anneal


RULE_FLAWS = {
    "own_count": "keeps its own count of stale chains and ignores the count the rule returns",
    "never_reset": "never resets the count when a chain improves the best energy",
    "one_chain_less": "stops after max_iterations - 1 chains",
    "fixed_cooling": "cools by 0.95 and never calls the rule",
    "rule_before_chain": "asks the rule for the temperature before each chain, the first included",
}


def flawed_anneal_with_rule(flaw):
    """lesson02.anneal_with_rule with one flaw of RULE_FLAWS (or of FLAWS, in its chains)."""

    def anneal_with_rule(state, moves, rng, rule, *, t0, chain_length, max_iterations):
        table = ConflictTable(state)
        best, best_cells = table.cost, list(table.cells)
        trace, temperature, stale, own = [], t0, 0, 0
        while len(trace) < max_iterations - (flaw == "one_chain_less") and best > 0:
            if flaw == "rule_before_chain":
                temperature, stale = rule(temperature, stale, trace[-1]["acceptance"] if trace else 1.0)
            before = best
            acceptance, best, best_cells = flawed_chain(
                table, moves, rng, temperature, chain_length, best, best_cells, flaw, state
            )
            trace.append({"temperature": temperature, "energy": table.cost, "best": best, "acceptance": acceptance})
            own = 0 if best < before else own + 1
            stale = own if flaw == "own_count" else stale + 1 if flaw == "never_reset" or best >= before else 0
            if flaw == "fixed_cooling":
                temperature *= 0.95
            elif flaw != "rule_before_chain":
                temperature, stale = rule(temperature, stale, acceptance)
        return flawed_result(state, table, best, best_cells, trace, flaw)

    return anneal_with_rule


# ------------------------------------------------------------ cooling
def stops_before_t_min(t0, t_min, alpha):
    temperatures, t = [], t0
    while t > t_min:
        temperatures.append(t)
        t *= alpha
    return temperatures


def one_too_many(t0, t_min, alpha):
    temperatures = lesson02.exponential_cooling(t0, t_min, alpha)
    return [*temperatures, temperatures[-1] * alpha] if temperatures else [t0]


def starts_one_step_late(t0, t_min, alpha):
    return [t * alpha for t in lesson02.exponential_cooling(t0, t_min, alpha) if t * alpha >= t_min]


def one_step_too_many(t0, t_min, max_iterations):
    return np.linspace(t0, t_min, max_iterations + 1).tolist()


def without_t_min(t0, t_min, max_iterations):
    return np.linspace(t0, t_min, max_iterations, endpoint=False).tolist()


def upwards(t0, t_min, max_iterations):
    return np.linspace(t_min, t0, max_iterations).tolist()


# ------------------------------------------------------------ next_temperature, adapt_alpha
def ignores_the_tie(temperature, stale, *, t0, alpha, stagnation, reheat):
    return (reheat * t0, 0) if stale > stagnation else (temperature * alpha, stale)


def reheats_to_t0(temperature, stale, *, t0, alpha, stagnation, reheat):
    return (t0, 0) if stale >= stagnation else (temperature * alpha, stale)


def keeps_the_count(temperature, stale, *, t0, alpha, stagnation, reheat):
    return (reheat * t0, stale) if stale >= stagnation else (temperature * alpha, stale)


def tie_at_half(alpha, acceptance):
    return lesson02.adapt_alpha(alpha, acceptance) if acceptance != 0.5 else max(0.8, alpha**2)


def unbounded(alpha, acceptance):
    return alpha**2 if acceptance > 0.5 else math.sqrt(alpha) if acceptance < 0.05 else alpha


def in_percent(alpha, acceptance):
    return lesson02.adapt_alpha(alpha, acceptance / 100)


# ------------------------------------------------------------ extended_move
def rows_two_apart(cells, givens, rng, use_extended):
    if rng.random() < use_extended:
        row = int(rng.integers(cells.shape[0] - 2))
        c1 = int(rng.choice(np.flatnonzero(~givens[row])))
        c2 = int(rng.choice(np.flatnonzero(~givens[row + 2])))
        swap(cells, (row, c1), (row + 2, c2))
        return "inter", (row, c1, row + 2, c2)
    return lesson02.extended_move(cells, givens, rng, 0.0)


def moves_givens(cells, givens, rng, use_extended):
    kind = "inter" if rng.random() < use_extended else "intra"
    row = int(rng.integers(cells.shape[0] - 1))
    c1, c2 = (int(c) for c in rng.choice(cells.shape[0], size=2, replace=False))
    params = (row, c1, row + (kind == "inter"), c2)
    swap(cells, params[:2], params[2:])
    return kind, params


def undo_nothing(cells, kind, params):
    return None


def global_move(cells, givens, rng, use_extended):
    return lesson02.extended_move(cells, givens, np.random.default_rng(np.random.randint(1000)), use_extended)


def always_intra(cells, givens, rng, use_extended):
    return lesson02.extended_move(cells, givens, rng, 0.0)


# ------------------------------------------------------------ ratios, growth_class
def growth_without_logarithms(empty_cells, values):
    growth, widening = values[-1] / values[0], empty_cells[-1] / empty_cells[0]
    if growth <= 1:
        return "autre"
    if growth / widening <= 1.5:
        return "lineaire"
    return "polynomial" if growth / widening <= 4 else "exponentiel"


def forgets_the_flat_case(empty_cells, values):
    exponent = math.log(values[-1] / values[0]) / math.log(empty_cells[-1] / empty_cells[0])
    return "lineaire" if exponent <= 1.5 else "polynomial" if exponent <= 4 else "exponentiel"


def inverted_exponent(empty_cells, values):
    growth = values[-1] / values[0]
    if growth <= 1:
        return "autre"
    exponent = math.log(empty_cells[-1] / empty_cells[0]) / math.log(growth)
    return "lineaire" if exponent <= 1.5 else "polynomial" if exponent <= 4 else "exponentiel"


def differences_of_logarithms(empty_cells, values):
    """A right answer whose exponent is off by a rounding error at the thresholds (1.5000000000000002)."""
    if values[-1] <= values[0]:
        return "autre"
    exponent = (math.log(values[-1]) - math.log(values[0])) / (math.log(empty_cells[-1]) - math.log(empty_cells[0]))
    return "lineaire" if exponent <= 1.5 else "polynomial" if exponent <= 4 else "exponentiel"


def test_growth_class_accepts_an_exponent_with_rounding_errors(passes):
    passes("growth_class", differences_of_logarithms)


def middle_value(empty_cells, values):
    return lesson02.growth_class(empty_cells[:2], values[:2])


def english(empty_cells, values):
    return {"lineaire": "linear", "polynomial": "polynomial", "exponentiel": "exponential", "autre": "other"}[
        lesson02.growth_class(empty_cells, values)
    ]


WRONG = {
    "partial_energy": [
        counts_empty_cells,
        rows_and_columns_only,
        one_per_repeated_digit,
        hard_coded_boxes,
        empties_made_unique_in_place,
    ],
    "block_swap_neighbour": [in_place, global_generator, swaps_in_a_row, hard_coded_three, input_unchanged],
    "metropolis_accept": [
        temperature_as_a_factor,
        without_the_shortcut,
        greedy,
        refuses_neutral_moves,
        the_probability,
        inverted,
    ],
    "anneal": [flawed_anneal(flaw) for flaw in FLAWS],
    "exponential_cooling": [stops_before_t_min, one_too_many, starts_one_step_late],
    "linear_cooling": [one_step_too_many, without_t_min, upwards],
    "next_temperature": [ignores_the_tie, reheats_to_t0, keeps_the_count],
    "adapt_alpha": [tie_at_half, unbounded, in_percent],
    "anneal_with_rule": [
        flawed_anneal_with_rule(flaw) for flaw in [*RULE_FLAWS, "returns_current", "global_generator"]
    ],
    "extended_move": [
        (rows_two_apart, lesson02.undo_move),
        (moves_givens, lesson02.undo_move),
        (lesson02.extended_move, undo_nothing),
        (global_move, lesson02.undo_move),
        (always_intra, lesson02.undo_move),
    ],
    "ratios": [
        lambda a, b: [y / x for x, y in zip(a, b, strict=True)],
        lambda a, b: [x // y for x, y in zip(a, b, strict=True)],
        lambda a, b: a,
        lambda a, b: [x / y for x, y in zip(a[1:], b, strict=False)],
    ],
    "growth_class": [growth_without_logarithms, forgets_the_flat_case, inverted_exponent, middle_value, english],
}
CASES = [
    pytest.param(name, wrong if isinstance(wrong, tuple) else (wrong,), id=f"{name}-{k}")
    for name, wrongs in WRONG.items()
    for k, wrong in enumerate(wrongs)
]


def test_every_exercise_has_three_wrong_answers():
    assert set(WRONG) == set(REFERENCES) and all(len(wrongs) >= 3 for wrongs in WRONG.values())


@pytest.mark.parametrize(("name", "functions"), CASES)
def test_a_wrong_answer_fails(name, functions, fails_without_leak):
    fails_without_leak(name, *functions)


def test_growth_class_accepts_accents_case_and_spaces(passes):
    passes(
        "growth_class",
        lambda empty, values: {"lineaire": " Linéaire "}.get(g := lesson02.growth_class(empty, values), g),
    )


def test_cooling_verdicts_name_the_broken_property(fails_without_leak):
    report = fails_without_leak("exponential_cooling", stops_before_t_min)
    assert [r.detail for r in report.details if r.detail] == [
        "le programme s'arrête trop tôt : après 2 températures, on est encore au-dessus de t_min"
    ]


def test_partial_energy_says_the_grid_was_changed(fails_without_leak):
    report = fails_without_leak("partial_energy", empties_made_unique_in_place)
    details = [r.detail for r in report.details if r.detail]
    assert details and all("la grille reçue a été modifiée" in detail for detail in details)


def test_anneal_says_where_the_best_grid_is_watched(fails_without_leak):
    report = fails_without_leak("anneal", flawed_anneal("best_per_chain"))
    assert [r.detail for r in report.details if r.detail] == [cases.WITHIN_CHAINS]


def test_anneal_says_the_last_chain_belongs_to_the_trace(fails_without_leak):
    report = fails_without_leak("anneal", flawed_anneal("unrecorded_last_chain"))
    assert any("la trace doit finir par la chaîne où l'énergie atteint 0" in r.detail for r in report.details)


@pytest.mark.parametrize("name", ["anneal", "anneal_with_rule"])
def test_the_rate_of_an_interrupted_chain_is_over_the_moves_tried(name, fails_without_leak):
    wrong = flawed_anneal if name == "anneal" else flawed_anneal_with_rule
    report = fails_without_leak(name, wrong("rate_over_chain_length"))
    failed = [r for r in report.details if not r.passed]
    assert [r.label for r in failed] == [
        "un seul mouvement possible, qui résout la grille : la première chaîne s'arrête aussitôt"
    ]
    assert "porte sur les mouvements essayés" in failed[0].detail
