"""Tests of sudoku_course.solvers.annealing: the incremental annealer, its engines, simanneal, the naive one."""

from __future__ import annotations

import itertools
import math
import signal
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.cost import ConflictTable, conflicts
from sudoku_course.grid import InvalidPuzzleError, SudokuGrid
from sudoku_course.propagation import fixed_by_candidates, propagated_candidates
from sudoku_course.puzzles import load_bank, reference
from sudoku_course.solvers import Budget, get_solver
from sudoku_course.solvers.annealing import (
    AnnealingSolver,
    NaiveAnnealer,
    SimannealSolver,
    SudokuAnnealer,
    adapted_alpha,
    anneal_chain,
    cycle_chain,
    cycle_from,
    cycle_units,
    random_state,
    rotation_chain,
    rotation_moves,
    swap_moves,
    turn,
    turn_back,
)
from sudoku_course.solvers.exact import solve_exact
from sudoku_course.spaces import BoxPermutationSpace, RowPermutationSpace

TEMOIN_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"
FAST = settings(max_examples=10, deadline=None)
# Row 1 holds 1..8, so its last cell must be 9, but the 9 given in row 2 shares that cell's box.
NO_SOLUTION = "123456780" + "000000009" + "0" * 63


@pytest.fixture(scope="module")
def hard():
    """Two hard puzzles that the restricted annealer solves within a small budget."""
    return load_bank("hard")[:2]


def assert_solves(puzzle: SudokuGrid, result) -> None:
    """The result is solved, agrees with the exact solver (unique solutions) and keeps the givens."""
    assert result.solved and result.cost == 0
    assert result.grid == solve_exact(puzzle).grid
    assert (result.grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()


# ------------------------------------------------------------------ AnnealingSolver
def test_solves_the_temoin_without_touching_the_input():
    puzzle = reference()
    before = puzzle.copy()
    result = AnnealingSolver().solve(puzzle, seed=0)
    assert_solves(puzzle, result)
    assert result.grid.to_string() == TEMOIN_SOLUTION
    assert puzzle == before and (puzzle.givens == before.givens).all()
    assert result.history[-1] == 0 and result.history == sorted(result.history, reverse=True)


def test_same_seed_same_result():
    puzzle = load_bank("medium")[0]
    first, second = (AnnealingSolver().solve(puzzle, seed=7, budget=30_000) for _ in range(2))
    assert first.grid == second.grid
    assert (first.evaluations, first.history, first.stats) == (second.evaluations, second.history, second.stats)
    other = AnnealingSolver().solve(puzzle, seed=8, budget=30_000)
    assert other.history != first.history


@pytest.mark.parametrize("budget", [150, 5_000, 40_000])
def test_evaluation_budget_is_respected(hard, budget):
    result = AnnealingSolver(max_restarts=None).solve(hard[0], seed=1, budget=budget)
    assert result.evaluations <= budget
    assert not result.solved or result.evaluations < budget


def test_a_budget_is_used_whole_whatever_max_restarts(hard):
    solver = AnnealingSolver(stagnation=1, max_restarts=1)
    by_evaluations = solver.solve(hard[0], seed=0, budget=30_000)
    assert not by_evaluations.solved and by_evaluations.evaluations == 30_000 and by_evaluations.restarts > 1
    by_time = solver.solve(hard[0], seed=0, budget=Budget(seconds=0.3))
    assert not by_time.solved and by_time.seconds >= 0.3 and by_time.restarts > 1


def test_an_unsolved_run_returns_its_best_state(hard):
    for reheat in (None, 1.0):  # restarts, or reheats that leave the state hot when the budget ends
        result = AnnealingSolver(stagnation=3, reheat=reheat).solve(hard[0], seed=2, budget=20_000)
        assert not result.solved and result.cost == min(result.history) == result.history[-1]


def test_restarts_and_max_restarts():
    result = AnnealingSolver(stagnation=2, max_restarts=3).solve(load_bank("medium")[3], seed=0)
    assert result.restarts <= 3
    assert result.solved or result.restarts == 3


def test_candidate_restriction_solves_hard_puzzles(hard):
    for k, puzzle in enumerate(hard):
        result = AnnealingSolver(restrict=True).solve(puzzle, seed=k, budget=2_000_000)
        assert_solves(puzzle, result)
        assert 0 < result.stats["free_cells"] < puzzle.empty_count  # singles fixed some cells


def test_restriction_moves_by_cycles_in_boxes_and_reheats_by_default(hard):
    result = AnnealingSolver(restrict=True, stagnation=2, chain_length=20).solve(hard[1], seed=3, budget=20_000)
    assert (result.stats["space"], result.stats["moves"]) == ("boxes", "cycles")
    assert result.stats["reheats"] > 0 and result.restarts == 0
    plain = AnnealingSolver(stagnation=5).solve(hard[1], seed=3, budget=100_000)
    assert (plain.stats["space"], plain.stats["moves"], plain.stats["rotation_share"]) == ("rows", "swaps", 0)
    assert plain.stats["reheats"] == 0 and plain.restarts > 0
    restarting = AnnealingSolver(restrict=True, moves="swaps", rotation_share=0.5, reheat=None, stagnation=5)
    restarted = restarting.solve(hard[1], seed=3, budget=100_000)
    assert restarted.stats["rotation_share"] == 0.5 and restarted.stats["reheats"] == 0 and restarted.restarts > 0


def test_rotation_share_belongs_to_swaps():
    with pytest.raises(ValueError, match="rotation_share"):
        AnnealingSolver(restrict=True, rotation_share=0.5)
    with pytest.raises(ValueError, match="rotation_share"):
        AnnealingSolver(moves="cycles", rotation_share=0.0)
    AnnealingSolver(restrict=True, moves="swaps", rotation_share=0.5)  # accepted


def test_cycles_without_restriction_are_swaps_from_cells_in_conflict():
    result = AnnealingSolver(moves="cycles").solve(reference(), seed=1)
    assert_solves(reference(), result)
    assert result.stats["moves"] == "cycles"


def test_restriction_on_a_singles_puzzle_leaves_nothing_to_search():
    result = AnnealingSolver(restrict=True).solve(reference(), seed=0)
    assert_solves(reference(), result)
    assert result.stats["free_cells"] == 0


def test_box_space_solves_the_temoin():
    assert_solves(reference(), AnnealingSolver(space="boxes").solve(reference(), seed=3))


def test_reheating_replaces_restarts(hard):
    result = AnnealingSolver(stagnation=3, reheat=0.5).solve(hard[0], seed=0, budget=60_000)
    assert result.stats["reheats"] > 0 and result.restarts == 0


def test_adaptive_cooling_runs_and_solves():
    assert_solves(reference(), AnnealingSolver(adaptive=True).solve(reference(), seed=2))


def test_trace_is_off_by_default_and_changes_nothing(hard):
    plain, traced = (AnnealingSolver(trace=trace).solve(hard[0], seed=3, budget=40_000) for trace in (False, True))
    assert plain.trace == []
    assert (plain.grid, plain.evaluations, plain.history) == (traced.grid, traced.evaluations, traced.history)


def test_trace_has_one_record_per_chain_and_the_schedule_is_in_the_stats(hard):
    solver = AnnealingSolver(alpha=0.9, stagnation=5, trace=True)
    result = solver.solve(hard[0], seed=1, budget=60_000)
    stats = result.stats
    assert stats["alpha"] == 0.9 and stats["t_min"] == solver.t_min
    assert stats["t0"] > stats["t_min"] and stats["chain_length"] == 10 * stats["free_cells"]
    assert len(result.trace) == result.iterations and result.restarts > 0
    assert [record["best"] for record in result.trace] == result.history
    assert all(set(record) == {"restart", "temperature", "acceptance", "energy", "best"} for record in result.trace)
    assert all(0 <= record["acceptance"] <= 1 and record["energy"] >= record["best"] for record in result.trace)
    for previous, record in itertools.pairwise(result.trace):
        if record["restart"] == previous["restart"]:  # within a restart, T falls by alpha per chain
            assert math.isclose(record["temperature"], 0.9 * previous["temperature"])
        else:  # a restart starts again from t0
            assert record["restart"] == previous["restart"] + 1 and record["temperature"] == stats["t0"]
    assert result.trace[0]["temperature"] == stats["t0"]


def test_unsolvable_puzzle_is_reported_with_restriction():
    with pytest.raises(InvalidPuzzleError, match="no solution"):
        AnnealingSolver(restrict=True).solve(NO_SOLUTION, seed=0)


def test_unsolvable_puzzle_ends_unsolved_without_restriction():
    result = AnnealingSolver(max_restarts=2, stagnation=2).solve(NO_SOLUTION, seed=0, budget=20_000)
    assert not result.solved and result.cost > 0


@pytest.mark.parametrize(
    "params",
    [
        {"space": "columns"},
        {"engine": "cuda"},
        {"alpha": 1.0},
        {"t0": 0.01},
        {"t_min": 0},
        {"reheat": 1.5},
        {"reheat": "always"},
        {"rotation_share": 1.2},
        {"moves": "jumps"},
        {"stagnation": 0},
        {"chain_length": 0},
    ],
)
def test_bad_parameters_are_refused(params):
    with pytest.raises(ValueError, match=next(iter(params)).split("_")[0]):
        AnnealingSolver(**params)


def test_registry_names():
    assert isinstance(get_solver("annealing", restrict=True), AnnealingSolver)
    assert isinstance(get_solver("simanneal"), SimannealSolver)
    assert isinstance(get_solver("naive-annealing"), NaiveAnnealer)


# ------------------------------------------------------------------ engines
def test_numba_engine_follows_the_python_loop(hard):
    pytest.importorskip("numba")
    for puzzle in [reference(), *hard]:
        python, compiled = (
            AnnealingSolver(restrict=True, engine=engine).solve(puzzle, seed=4, budget=2_000_000)
            for engine in ("python", "numba")
        )
        assert_solves(puzzle, python)
        assert_solves(puzzle, compiled)
        assert compiled.evaluations == python.evaluations  # same draws, same moves, same decisions
    unrestricted = AnnealingSolver(engine="numba").solve(reference(), seed=0)
    assert_solves(reference(), unrestricted)


# ------------------------------------------------------------------ building blocks
@FAST
@given(seed=st.integers(0, 2**32 - 1), temperature=st.sampled_from([0.01, 0.5, 3.0]))
def test_chain_keeps_the_table_and_the_rows_right(seed, temperature):
    rng = np.random.default_rng(seed)
    puzzle = load_bank("medium")[1]
    space = RowPermutationSpace(puzzle)
    moves = swap_moves(space)
    table = ConflictTable(random_state(space, None, rng))
    start = table.cost
    picks = rng.integers(len(moves), size=300).tolist()
    tried, accepted = anneal_chain(table, [moves[k] for k in picks], rng.random(300).tolist(), temperature)
    grid = table.to_grid(puzzle)
    assert table.cost == conflicts(grid)
    assert space.is_valid(space.encode(grid))  # rows are still permutations, givens kept
    assert accepted <= tried <= 300
    if temperature == 0.01:  # exp(-1 / 0.01) is about 4e-44: only non-worsening moves pass
        assert table.cost <= start


def test_chain_at_high_temperature_accepts_almost_everything():
    rng = np.random.default_rng(0)
    space = RowPermutationSpace(reference())
    moves = swap_moves(space)
    table = ConflictTable(random_state(space, None, rng))
    picks = rng.integers(len(moves), size=1000).tolist()
    tried, accepted = anneal_chain(table, [moves[k] for k in picks], rng.random(1000).tolist(), 1e6)
    assert tried == 1000 and accepted >= 990


def test_swap_moves_pair_free_cells_of_one_unit():
    puzzle = reference()
    for space_class, unit_of in (
        (RowPermutationSpace, lambda c: c // 9),
        (BoxPermutationSpace, lambda c: c // 27 * 3 + c % 9 // 3),
    ):
        moves = swap_moves(space_class(puzzle))
        free = set(np.flatnonzero(~puzzle.givens).tolist())
        assert moves and all(i in free and j in free and unit_of(i) == unit_of(j) for i, j, _ in moves)
        assert len({(i, j) for i, j, _ in moves}) == len(moves)


def test_candidates_and_restricted_states(hard):
    rng = np.random.default_rng(5)
    puzzle = hard[0]
    candidates = propagated_candidates(puzzle)
    solution = solve_exact(puzzle).grid.cells.ravel()
    assert all(mask >> digit & 1 for mask, digit in zip(candidates, solution, strict=True))
    fixed = fixed_by_candidates(puzzle, candidates)
    assert (fixed.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert fixed.givens.sum() > puzzle.givens.sum()
    space = RowPermutationSpace(fixed)
    moves = swap_moves(space, candidates)
    assert all(bin(allowed).count("1") >= 2 for _, _, allowed in moves)
    for _ in range(5):
        cells = random_state(space, candidates, rng).cells.ravel()
        assert all(candidates[c] >> int(cells[c]) & 1 for c in range(81))
        assert all(sorted(cells[r * 9 : r * 9 + 9]) == list(range(1, 10)) for r in range(9))


def test_restricted_chain_keeps_cells_within_candidates(hard):
    rng = np.random.default_rng(11)
    puzzle = hard[1]
    candidates = propagated_candidates(puzzle)
    space = RowPermutationSpace(fixed_by_candidates(puzzle, candidates))
    moves = swap_moves(space, candidates)
    table = ConflictTable(random_state(space, candidates, rng))
    picks = rng.integers(len(moves), size=2000).tolist()
    anneal_chain(table, [moves[k] for k in picks], rng.random(2000).tolist(), 2.0)
    assert all(candidates[c] >> v & 1 for c, v in enumerate(table.cells))


def test_rotation_moves_turn_three_cells_of_one_unit_both_ways():
    space = RowPermutationSpace(reference())
    rotations = rotation_moves(space)
    assert all(len({i // 9, j // 9, k // 9}) == 1 and len({i, j, k}) == 3 for i, j, k in rotations)
    assert len(set(rotations)) == len(rotations)
    cyclic = {frozenset([(i, j), (j, k), (k, i)]) for i, j, k in rotations}  # "i takes j's digit"...
    assert len(cyclic) == len(rotations)  # the two directions of a triple are two different moves
    rows = [len(space.free_cells[segment]) for segment in space.segments]
    assert len(rotations) == sum(2 * n * (n - 1) * (n - 2) // 6 for n in rows)


def _row_components(cells, digits, candidates, moves) -> int:
    """Connected components of a row's states within candidates, linked by `moves` (tuples of its cells)."""

    def allowed(state) -> bool:
        return all(candidates[c] >> d & 1 for c, d in zip(cells, state, strict=True))

    states = [state for state in itertools.permutations(digits) if allowed(state)]
    place = {cell: k for k, cell in enumerate(cells)}
    seen, components = set(), 0
    for start in states:
        if start in seen:
            continue
        components += 1
        seen.add(start)
        stack = [start]
        while stack:
            state = stack.pop()
            for move in moves:
                slots = [place[c] for c in move]
                moved = list(state)
                # a swap (i, j): i and j exchange digits; a rotation (i, j, k): i takes j's, j takes k's, k takes i's
                for a, b in zip(slots, slots[1:] + slots[:1], strict=True):
                    moved[a] = state[b]
                moved = tuple(moved)
                if moved not in seen and allowed(moved):
                    seen.add(moved)
                    stack.append(moved)
    return components


def test_rotations_connect_the_restricted_states_that_swaps_split():
    split_by_swaps = 0
    for puzzle in load_bank("expert")[1:3]:
        candidates = propagated_candidates(puzzle)
        space = RowPermutationSpace(fixed_by_candidates(puzzle, candidates))
        swaps, rotations = swap_moves(space, candidates), rotation_moves(space, candidates)
        for segment, digits in zip(space.segments, space.missing, strict=True):
            cells = space.free_cells[segment].tolist()
            row_swaps = [(i, j) for i, j, _ in swaps if i in cells]
            row_rotations = [move for move in rotations if move[0] in cells]
            assert _row_components(cells, digits.tolist(), candidates, row_swaps + row_rotations) == 1
            split_by_swaps += _row_components(cells, digits.tolist(), candidates, row_swaps) > 1
    assert split_by_swaps > 0  # without rotations, some rows of these puzzles fall apart


def restricted_space(puzzle: SudokuGrid, space_class) -> tuple:
    """The candidates of `puzzle`, its restricted space of `space_class`, and the units of its cycles."""
    candidates = propagated_candidates(puzzle)
    space = space_class(fixed_by_candidates(puzzle, candidates))
    return candidates, space, cycle_units(space)


@FAST
@given(
    seed=st.integers(0, 2**32 - 1),
    space_class=st.sampled_from([RowPermutationSpace, BoxPermutationSpace]),
    index=st.integers(0, 4),
)
def test_a_cycle_stays_in_one_unit_and_each_cell_can_take_the_next_digit(seed, space_class, index):
    rng = np.random.default_rng(seed)
    puzzle = load_bank("expert")[index]
    candidates, space, units = restricted_space(puzzle, space_class)
    table = ConflictTable(random_state(space, candidates, rng))
    cells = table.cells
    for start in rng.choice([cell for cell, unit in enumerate(units) if unit], size=20).tolist():
        cycle = cycle_from(start, cells, units, candidates, rng.random(8).tolist())
        if cycle is None:
            continue
        assert cycle[0] == start and len(set(cycle)) == len(cycle) >= 2 and set(cycle) <= set(units[start])
        following = cycle[1:] + cycle[:1]
        assert all(candidates[cell] >> cells[after] & 1 for cell, after in zip(cycle, following, strict=True))
        # it closes at the first cell that may take the start's digit
        assert not any(candidates[cell] >> cells[start] & 1 for cell in cycle[1:-1])


@FAST
@given(seed=st.integers(0, 2**32 - 1), space_class=st.sampled_from([RowPermutationSpace, BoxPermutationSpace]))
def test_turning_a_cycle_keeps_units_and_candidates_and_turning_back_undoes_it(seed, space_class):
    rng = np.random.default_rng(seed)
    puzzle = load_bank("expert")[seed % 5]
    candidates, space, units = restricted_space(puzzle, space_class)
    table = ConflictTable(random_state(space, candidates, rng))
    for start in [cell for cell, unit in enumerate(units) if unit][:15]:
        cycle = cycle_from(start, table.cells, units, candidates, rng.random(8).tolist())
        if cycle is None:
            continue
        before, cost = list(table.cells), table.cost
        turn(table, cycle)
        assert [table.cells[cell] for cell in cycle] == [before[cell] for cell in cycle[1:] + cycle[:1]]
        grid = table.to_grid(puzzle)
        assert table.cost == conflicts(grid) and space.is_valid(space.encode(grid))
        turn_back(table, cycle)
        assert table.cells == before and table.cost == cost


@FAST
@given(
    seed=st.integers(0, 2**32 - 1),
    temperature=st.sampled_from([0.01, 1.0, 1e6]),
    space_class=st.sampled_from([RowPermutationSpace, BoxPermutationSpace]),
)
def test_cycle_chain_keeps_the_table_units_givens_and_candidates_right(seed, temperature, space_class):
    rng = np.random.default_rng(seed)
    puzzle = load_bank("expert")[seed % 5]
    candidates, space, units = restricted_space(puzzle, space_class)
    table = ConflictTable(random_state(space, candidates, rng))
    start = table.cost
    draws = rng.random((400, 10)).tolist()
    copy = ConflictTable(table.to_grid(puzzle))
    tried, accepted = cycle_chain(table, units, candidates, draws, temperature)
    grid = table.to_grid(puzzle)
    assert table.cost == conflicts(grid) and space.is_valid(space.encode(grid))  # units permutations, candidates
    assert (grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()
    assert accepted <= tried <= 400 and (tried > 0 or start == 0)
    if temperature == 0.01:  # only non-worsening cycles pass
        assert table.cost <= start
    assert cycle_chain(copy, units, candidates, draws, temperature) == (tried, accepted)  # same draws, same run
    assert copy.cells == table.cells


def test_cycles_link_the_states_that_swaps_and_rotations_split():
    # Hard puzzle 27: after singles, one box of four free cells has two fillings within the candidates that
    # differ in all four cells, so no swap and no rotation of three links them; a cycle of four does.
    candidates, space, units = restricted_space(load_bank("hard")[26], BoxPermutationSpace)
    split = []
    for segment, digits in zip(space.segments, space.missing, strict=True):
        cells = space.free_cells[segment].tolist()
        fillings = [
            f
            for f in itertools.permutations(digits.tolist())
            if all(candidates[c] >> d & 1 for c, d in zip(cells, f, strict=True))
        ]
        if len(fillings) == 2 and sum(a != b for a, b in zip(*fillings, strict=True)) == 4:
            split.append((cells, fillings))
    assert split
    cells, (first, second) = split[0]
    grid = random_state(space, candidates, np.random.default_rng(0)).cells.ravel()
    grid[cells] = first
    table = ConflictTable(space.puzzle.with_cells(grid.reshape(9, 9)))
    rng = np.random.default_rng(1)
    for start in cells:
        for _ in range(50):
            cycle = cycle_from(start, table.cells, units, candidates, rng.random(8).tolist())
            if cycle is not None:
                turn(table, cycle)
                assert [table.cells[c] for c in cells] == list(second)  # the only other filling
                turn_back(table, cycle)


@FAST
@given(seed=st.integers(0, 2**32 - 1), temperature=st.sampled_from([0.01, 1.0, 1e6]))
def test_rotation_chain_keeps_the_table_rows_and_candidates_right(seed, temperature):
    rng = np.random.default_rng(seed)
    puzzle = load_bank("expert")[seed % 5]
    candidates = propagated_candidates(puzzle)
    space = RowPermutationSpace(fixed_by_candidates(puzzle, candidates))
    rotations = rotation_moves(space, candidates)
    table = ConflictTable(random_state(space, candidates, rng))
    start = table.cost
    picks = rng.integers(len(rotations), size=500).tolist()
    uniforms = rng.random(500).tolist()
    tried, accepted = rotation_chain(table, [rotations[k] for k in picks], candidates, uniforms, temperature)
    grid = table.to_grid(puzzle)
    assert table.cost == conflicts(grid)
    assert all(sorted(grid.cells[r].tolist()) == list(range(1, 10)) for r in range(9))
    assert all(candidates[c] >> v & 1 for c, v in enumerate(table.cells))
    assert tried > 0 and accepted <= tried <= 500
    if temperature == 0.01:
        assert table.cost <= start


def test_adapted_alpha_cools_faster_when_hot_and_slower_when_frozen():
    assert adapted_alpha(0.95, 0.9) < 0.95 < adapted_alpha(0.95, 0.01)
    assert adapted_alpha(0.95, 0.3) == 0.95
    assert adapted_alpha(0.81, 1.0) == 0.8 and adapted_alpha(0.9989, 0.0) == 0.999


# ------------------------------------------------------------------ simanneal
def test_simanneal_solves_the_temoin_silently(capsys):
    handler = signal.getsignal(signal.SIGINT)
    result = SimannealSolver().solve(reference(), seed=0)
    assert_solves(reference(), result)
    assert result.evaluations < SimannealSolver().max_moves  # it stopped at energy 0
    assert capsys.readouterr() == ("", "")
    assert signal.getsignal(signal.SIGINT) is handler


def test_simanneal_same_seed_and_budget():
    puzzle = load_bank("medium")[0]
    first, second = (SimannealSolver().solve(puzzle, seed=3, budget=20_000) for _ in range(2))
    assert first.grid == second.grid and first.history == second.history
    assert first.evaluations <= 20_000


def test_simanneal_trace_and_verbose(capsys):
    puzzle = reference()
    space = RowPermutationSpace(puzzle)
    table = ConflictTable(random_state(space, None, np.random.default_rng(0)))
    annealer = SudokuAnnealer(table, swap_moves(space), np.random.default_rng(0), verbose=True)
    annealer.Tmax, annealer.Tmin, annealer.steps, annealer.updates = 2.0, 0.05, 3000, 10
    state, energy = annealer.anneal()
    assert energy == conflicts(puzzle.with_cells(np.reshape(state, (9, 9))))
    assert len(annealer.trace) >= 2 and annealer.trace[0]["acceptance"] is None
    assert all(0 <= row["acceptance"] <= 1 for row in annealer.trace[1:])
    assert "Temperature" in capsys.readouterr().err


def test_simanneal_refuses_other_threads():
    errors = []

    def target():
        try:
            SimannealSolver().solve(reference(), seed=0)
        except RuntimeError as error:
            errors.append(str(error))

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    assert errors and "main thread" in errors[0]


# ------------------------------------------------------------------ NaiveAnnealer
def test_naive_annealer_solves_the_temoin_and_respects_its_budget():
    result = NaiveAnnealer().solve(reference(), seed=1, budget=20_000)
    assert_solves(reference(), result)
    short = NaiveAnnealer().solve(load_bank("medium")[0], seed=1, budget=500)
    assert short.evaluations <= 500 and not short.solved
    again = NaiveAnnealer().solve(load_bank("medium")[0], seed=1, budget=500)
    assert again.grid == short.grid and again.history == short.history
    assert math.isclose(short.history[-1], short.cost)


def test_naive_annealer_without_a_budget_gives_up_after_max_restarts_restarts():
    solver = NaiveAnnealer(t0=1.0, alpha=0.5, chain_length=5, t_min=0.2, max_restarts=2)  # 3 short attempts
    result = solver.solve(load_bank("hard")[0], seed=0)
    assert not result.solved and result.restarts == 2 and len(result.history) == 3 * 3  # 3 chains per attempt


def test_a_puzzle_with_one_free_cell_per_row_ends_at_once():
    cells = SudokuGrid.from_string(TEMOIN_SOLUTION).cells.copy()
    cells[np.arange(9), np.arange(9)] = 0  # one empty cell per row: the row permutation is forced
    result = AnnealingSolver(max_restarts=None).solve(SudokuGrid(cells), seed=0)
    assert_solves(SudokuGrid(cells), result)
    assert result.restarts == 0
