"""Tests of sudoku_course.spaces: invariants, decoding, encoding and moves of every representation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_course.cost import conflicts, unit_conflicts
from sudoku_course.grid import InvalidPuzzleError, SudokuGrid
from sudoku_course.propagation import fixed_by_candidates, propagated_candidates
from sudoku_course.puzzles import load_bank
from sudoku_course.spaces import (
    CONTINUOUS_SPACES,
    PERMUTATION_SPACES,
    VELOCITY_LIMIT,
    BoxPermutationSpace,
    CellSpace,
    ContinuousSpace,
    PermutationSpace,
    RandomKeySpace,
    RowPermutationSpace,
    Space,
    random_matching,
    space_class,
)
from sudoku_course.spaces import SPACES as NAMED_SPACES

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
SPACES = (CellSpace, RowPermutationSpace, BoxPermutationSpace, ContinuousSpace, RandomKeySpace)
DISCRETE = (CellSpace, RowPermutationSpace, BoxPermutationSpace)
PERMUTATIONS = {RowPermutationSpace: "rows", BoxPermutationSpace: "boxes", RandomKeySpace: "rows"}
SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=15, deadline=None)


def solved_grid(n: int) -> SudokuGrid:
    """A solved n x n grid from the classic shifting pattern."""
    b = int(round(n**0.5))
    return SudokuGrid([[(b * (r % b) + r // b + c) % n + 1 for c in range(n)] for r in range(n)])


def holed(solution: SudokuGrid, keep: float, seed: int) -> str:
    """A puzzle keeping a random share of the solution's cells."""
    cells = solution.cells.copy()
    cells[np.random.default_rng(seed).random(cells.shape) >= keep] = 0
    return SudokuGrid(cells).to_string()


PUZZLES = {
    "temoin": TEMOIN,
    "4x4": "1030040220030300",
    "16x16": holed(solved_grid(16), keep=0.5, seed=1),
    "sparse-9x9": holed(solved_grid(9), keep=0.9, seed=2),  # many rows with 0 or 1 free cell
    "empty-4x4": "0" * 16,
}
CASES = [(space, name) for space in SPACES for name in PUZZLES]
CASE_IDS = [f"{space.__name__}-{name}" for space, name in CASES]


def make(space: type[Space], name: str) -> Space:
    return space(SudokuGrid.from_string(PUZZLES[name]))


def walk(space: Space, seed: int, steps: int = 15) -> list[np.ndarray]:
    """A random candidate and the candidates of a walk of `steps` moves from it."""
    rng = np.random.default_rng(seed)
    path = [space.random(rng)]
    for _ in range(steps):
        path.append(space.neighbour(path[-1], rng))
    return path


def assert_keeps_givens(space: Space, grid: SudokuGrid) -> None:
    puzzle = space.puzzle
    assert grid.is_complete()
    assert (grid.givens == puzzle.givens).all()
    assert (grid.cells[puzzle.givens] == puzzle.cells[puzzle.givens]).all()


# ------------------------------------------------------------------ structure
@pytest.mark.parametrize("space", SPACES)
def test_free_cells_of_the_temoin(space):
    s = space(SudokuGrid.from_string(TEMOIN))
    assert s.dimension == len(s.free_cells) == 36
    assert sorted(s.free_cells.tolist()) == np.flatnonzero(s.puzzle.cells.ravel() == 0).tolist()


@pytest.mark.parametrize("space", [CellSpace, ContinuousSpace, RandomKeySpace, RowPermutationSpace])
def test_free_cells_are_row_major(space):
    s = space(SudokuGrid.from_string(TEMOIN))
    assert s.free_cells.tolist() == sorted(s.free_cells.tolist())


def test_box_space_orders_free_cells_box_by_box():
    s = BoxPermutationSpace(SudokuGrid.from_string(TEMOIN))
    boxes = [s.puzzle.layout.box_of(*divmod(int(cell), 9)) for cell in s.free_cells]
    assert boxes == sorted(boxes)


@pytest.mark.parametrize("space", [RowPermutationSpace, BoxPermutationSpace])
def test_segments_cover_the_candidate_with_their_units_missing_digits(space):
    s = space(SudokuGrid.from_string(TEMOIN))
    units = getattr(s.puzzle.layout, PERMUTATIONS[space])
    assert np.concatenate(s.segments).tolist() == list(range(s.dimension))
    flat = s.puzzle.cells.ravel()
    for unit, segment, missing in zip(units, s.segments, s.missing, strict=True):
        assert set(s.free_cells[segment].tolist()) == {cell for cell in unit if flat[cell] == 0}
        assert missing.tolist() == sorted(set(range(1, 10)) - set(flat[list(unit)].tolist()))


def test_space_accepts_a_string_and_does_not_keep_the_callers_grid():
    puzzle = SudokuGrid.from_string(TEMOIN)
    s = RowPermutationSpace(puzzle)
    assert s.puzzle == puzzle and s.puzzle is not puzzle
    assert RowPermutationSpace(TEMOIN).dimension == 36


@pytest.mark.parametrize("space", SPACES)
def test_conflicting_givens_are_refused(space):
    cells = SudokuGrid.from_string(TEMOIN, validate=False).cells.copy()
    cells[0, 1] = 9  # a second 9 in row 1
    with pytest.raises(InvalidPuzzleError, match="digit 9"):
        space(SudokuGrid(cells))


@pytest.mark.parametrize("space", SPACES)
def test_full_grid_gives_an_empty_space(space):
    s = space(solved_grid(9))
    assert s.dimension == 0
    x = s.random(np.random.default_rng(0))
    assert s.is_valid(x) and s.neighbour(x, np.random.default_rng(0)).shape == (0,)
    assert s.decode(x) == solved_grid(9)


# ------------------------------------------------------------ property tests
@pytest.mark.parametrize(("space", "name"), CASES, ids=CASE_IDS)
@FAST
@given(seed=SEEDS)
def test_random_candidates_and_moves_keep_the_invariant(space, name, seed):
    s = make(space, name)
    for x in walk(s, seed):
        assert x.shape == (s.dimension,)
        assert s.is_valid(x)


@pytest.mark.parametrize(("space", "name"), CASES, ids=CASE_IDS)
@FAST
@given(seed=SEEDS)
def test_neighbour_is_a_new_candidate_one_move_away(space, name, seed):
    s = make(space, name)
    rng = np.random.default_rng(seed)
    x = s.random(rng)
    frozen = x.copy()
    y = s.neighbour(x, rng)
    assert np.array_equal(x, frozen)  # the argument is not mutated
    assert y is not x and not np.shares_memory(x, y)
    changed = int((x != y).sum())
    if space in (RowPermutationSpace, BoxPermutationSpace):
        assert changed == (2 if s._swappable else 0)
    elif space is CellSpace:
        assert changed == 1
    else:
        assert changed <= 1


@pytest.mark.parametrize(("space", "name"), CASES, ids=CASE_IDS)
@FAST
@given(seed=SEEDS)
def test_decode_keeps_the_givens_and_is_deterministic(space, name, seed):
    s = make(space, name)
    for x in walk(s, seed, steps=5):
        grid = s.decode(x)
        assert_keeps_givens(s, grid)
        assert s.decode(x.copy()) == grid
        assert s.cost(x) == conflicts(grid)


@pytest.mark.parametrize(("space", "name"), [case for case in CASES if case[0] in DISCRETE])
@FAST
@given(seed=SEEDS)
def test_encode_inverts_decode_on_discrete_spaces(space, name, seed):
    s = make(space, name)
    for x in walk(s, seed, steps=5):
        assert np.array_equal(s.encode(s.decode(x)), x)


@pytest.mark.parametrize(("space", "name"), [case for case in CASES if case[0] not in DISCRETE])
@FAST
@given(seed=SEEDS)
def test_encode_gives_a_valid_candidate_of_the_same_grid_on_real_spaces(space, name, seed):
    s = make(space, name)
    x = s.random(np.random.default_rng(seed))
    y = s.encode(s.decode(x))
    assert s.is_valid(y)
    assert s.decode(y) == s.decode(x)


@pytest.mark.parametrize(("space", "name"), [case for case in CASES if case[0] in PERMUTATIONS])
@FAST
@given(seed=SEEDS)
def test_permutation_spaces_never_break_their_units(space, name, seed):
    s = make(space, name)
    for x in walk(s, seed, steps=5):
        assert unit_conflicts(s.decode(x))[PERMUTATIONS[space]] == 0


@pytest.mark.parametrize(("space", "name"), CASES, ids=CASE_IDS)
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_same_seed_same_candidates(space, name, seed):
    s = make(space, name)
    for a, b in zip(walk(s, seed), walk(s, seed), strict=True):
        assert np.array_equal(a, b)


# ------------------------------------------------------------ operators of the generic engines
@pytest.mark.parametrize(("space", "name"), CASES, ids=CASE_IDS)
@FAST
@given(seed=SEEDS)
def test_a_crossover_child_of_two_valid_candidates_is_valid_and_takes_each_value_from_a_parent(space, name, seed):
    s = make(space, name)
    rng = np.random.default_rng(seed)
    first, second = s.random(rng), s.random(rng)
    frozen = first.copy(), second.copy()
    child = s.crossover(first, second, rng)
    assert s.is_valid(child) and ((child == first) | (child == second)).all()
    assert np.array_equal(first, frozen[0]) and np.array_equal(second, frozen[1])
    assert_keeps_givens(s, s.decode(child))
    if space in (RowPermutationSpace, BoxPermutationSpace):  # whole units from one parent or the other
        assert all(
            np.array_equal(child[segment], first[segment]) or np.array_equal(child[segment], second[segment])
            for segment in s.segments
        )


@pytest.mark.parametrize(("space", "name"), CASES, ids=CASE_IDS)
@FAST
@given(seed=SEEDS)
def test_moving_by_the_difference_of_two_candidates_reaches_the_target(space, name, seed):
    """move(x, difference(p, x)) == p: exactly in the discrete spaces, up to rounding in the real ones."""
    s = make(space, name)
    rng = np.random.default_rng(seed)
    position, target = s.random(rng), s.random(rng)
    reached = s.move(position, s.difference(target, position, rng))
    if space in DISCRETE:
        assert np.array_equal(reached, target)
    else:
        assert np.allclose(reached, target, rtol=0, atol=1e-12)
    assert s.is_valid(reached)
    still = s.difference(position, position, rng)  # the zero velocity
    assert np.array_equal(s.move(position, still), position)


@pytest.mark.parametrize(("space", "name"), CASES, ids=CASE_IDS)
@FAST
@given(seed=SEEDS, k=st.floats(0, 3), inertia=st.floats(0, 1))
def test_any_velocity_of_the_algebra_moves_to_a_valid_candidate(space, name, seed, k, inertia):
    s = make(space, name)
    rng = np.random.default_rng(seed)
    position, own, best = s.random(rng), s.random(rng), s.random(rng)
    velocity = s.add(s.scale(k, s.difference(own, position, rng)), s.scale(k, s.difference(best, position, rng)))
    velocity = s.clamp(s.add(s.scale(inertia, velocity), velocity))
    moved = s.move(position, velocity)
    assert s.is_valid(moved)
    assert_keeps_givens(s, s.decode(moved))


@pytest.mark.parametrize(("space", "name"), CASES, ids=CASE_IDS)
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_same_seed_same_children_and_differences(space, name, seed):
    def draw() -> tuple[np.ndarray, np.ndarray]:
        s = make(space, name)
        rng = np.random.default_rng(seed)
        first, second = s.random(rng), s.random(rng)
        return s.crossover(first, second, rng), s.difference(first, second, rng)

    (child, velocity), (again, same) = draw(), draw()
    assert np.array_equal(child, again) and np.array_equal(velocity, same)


def test_swap_velocities_follow_the_lesson_03_algebra():
    s = RowPermutationSpace(SudokuGrid.from_string(TEMOIN))
    v = np.array([[0, 1], [2, 3], [4, 5], [6, 7]])
    assert np.array_equal(s.scale(0.5, v), v[:2])
    assert np.array_equal(s.scale(1.5, v), v[[0, 1, 2, 3, 0, 1]])
    assert np.array_equal(s.scale(0.2, v), v[:0]) and s.scale(2, v[:0]).shape == (0, 2)
    assert np.array_equal(s.add(v[:1], v[3:]), v[[0, 3]])
    assert s.clamp(v) is v
    with pytest.raises(ValueError, match="k >= 0"):
        s.scale(-1, v)
    x = s.random(np.random.default_rng(0))
    moved = s.move(x, v[:1])
    assert (moved[0], moved[1]) == (x[1], x[0]) and np.array_equal(moved[2:], x[2:])


def test_a_swap_difference_fixes_each_misplaced_cell_with_at_most_one_swap():
    s = RowPermutationSpace(SudokuGrid.from_string(TEMOIN))
    rng = np.random.default_rng(3)
    x, p = s.random(rng), s.random(rng)
    velocity = s.difference(p, x, rng)
    assert len(velocity) <= int((x != p).sum())
    rows_of = {int(k): row for row, segment in enumerate(s.segments) for k in segment}
    assert all(rows_of[i] == rows_of[j] for i, j in velocity.tolist())  # swaps stay within a row
    with pytest.raises(ValueError, match="same digits"):
        s.difference(p, np.where(np.arange(len(x)) == 0, p[1], x), rng)


@pytest.mark.parametrize("space", [CellSpace, ContinuousSpace, RandomKeySpace])
def test_vector_velocities_are_clamped_to_a_share_of_the_range(space):
    s = space(SudokuGrid.from_string(TEMOIN))
    rng = np.random.default_rng(1)
    x, p = s.random(rng), s.random(rng)
    velocity = s.scale(50, s.difference(p, x, rng))
    limit = VELOCITY_LIMIT * {CellSpace: 8, ContinuousSpace: 9, RandomKeySpace: 1}[space]
    clamped = s.clamp(velocity)
    assert np.abs(clamped).max() == pytest.approx(limit) and np.array_equal(np.sign(clamped), np.sign(velocity))
    assert np.array_equal(s.add(s.scale(2, x), x), 3 * np.asarray(x, dtype=float))


def test_a_restricted_space_refuses_to_move_by_a_velocity():
    puzzle = load_bank("hard")[0]
    s = RowPermutationSpace(puzzle, propagated_candidates(puzzle))
    x = s.random(np.random.default_rng(0))
    assert s.is_valid(s.crossover(x, s.random(np.random.default_rng(1)), np.random.default_rng(2)))
    with pytest.raises(ValueError, match="restricted space has no velocity algebra"):
        s.move(x, s.difference(x, x, np.random.default_rng(0)))


# ------------------------------------------------------------ permutation moves
@pytest.mark.parametrize("space", [RowPermutationSpace, BoxPermutationSpace])
def test_random_swap_picks_two_positions_of_one_segment(space):
    s = space(SudokuGrid.from_string(TEMOIN))
    segment_of = {int(k): index for index, segment in enumerate(s.segments) for k in segment}
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(2000):
        i, j = s.random_swap(rng)
        assert isinstance(i, int) and isinstance(j, int)
        assert i != j and segment_of[i] == segment_of[j]
        seen.add(frozenset((i, j)))
    pairs = sum(len(segment) * (len(segment) - 1) // 2 for segment in s.segments)
    assert len(seen) == pairs  # every swap can happen


def test_puzzle_without_two_free_cells_in_a_row_cannot_swap():
    cells = solved_grid(9).cells.copy()
    cells[np.arange(9), np.arange(9)] = 0  # one free cell per row
    s = RowPermutationSpace(SudokuGrid(cells))
    rng = np.random.default_rng(0)
    x = s.random(rng)
    y = s.neighbour(x, rng)
    assert np.array_equal(x, y) and y is not x
    with pytest.raises(ValueError, match="two free cells"):
        s.random_swap(rng)
    assert BoxPermutationSpace(SudokuGrid(cells)).random_swap(rng)  # boxes on the diagonal have 3


# ------------------------------------------------------------ decoding rules
def test_continuous_decoding_floors_and_clamps():
    s = ContinuousSpace(SudokuGrid.from_string(TEMOIN))
    x = np.full(s.dimension, 5.5)
    x[:8] = [1.0, 1.999, 9.999, 9.0, 0.2, 12.5, -3.0, 4.0]
    digits = s.decode(x).cells.ravel()[s.free_cells]
    assert digits[:9].tolist() == [1, 1, 9, 9, 1, 9, 1, 4, 5]
    assert not s.is_valid(x)  # 0.2, 12.5 and -3 lie outside [1, 10)


def test_continuous_refuses_non_finite_values_and_bad_sigma():
    s = ContinuousSpace(SudokuGrid.from_string(TEMOIN))
    x = np.full(s.dimension, 2.0)
    x[3] = np.nan
    with pytest.raises(ValueError, match="finite"):
        s.decode(x)
    with pytest.raises(ValueError, match="sigma"):
        ContinuousSpace(SudokuGrid.from_string(TEMOIN), sigma=0)


def test_continuous_moves_stay_in_the_interval_even_with_huge_steps():
    s = ContinuousSpace(SudokuGrid.from_string(TEMOIN), sigma=1000.0)
    path = walk(s, seed=3, steps=200)
    assert all(s.is_valid(x) for x in path)
    assert any((x == 1.0).any() for x in path) and any((x > 9.999).any() for x in path)


def test_random_keys_rank_the_free_cells_of_each_row():
    s = RandomKeySpace(SudokuGrid.from_string(TEMOIN))
    # Row 1 (902005403) has free cells in columns 2, 4, 5, 8 and misses 1, 6, 7, 8.
    assert s.missing[0].tolist() == [1, 6, 7, 8]
    keys = np.full(s.dimension, 0.5)
    keys[s.segments[0]] = [0.9, 0.1, 0.5, 0.3]
    assert s.decode(keys).cells[0].tolist() == [9, 8, 2, 1, 7, 5, 4, 6, 3]
    keys[s.segments[0]] = 0.25  # equal keys keep the column order
    assert s.decode(keys).cells[0].tolist() == [9, 1, 2, 6, 7, 5, 4, 8, 3]


# ------------------------------------------------------------ invalid input
@pytest.mark.parametrize("space", SPACES)
def test_wrong_length_is_refused(space):
    s = space(SudokuGrid.from_string(TEMOIN))
    rng = np.random.default_rng(0)
    short = s.random(rng)[:-1]
    assert not s.is_valid(short)
    with pytest.raises(ValueError, match=r"shape \(36,\)"):
        s.decode(short)
    with pytest.raises(ValueError, match=r"shape \(36,\)"):
        s.neighbour(short, rng)


def test_is_valid_rejects_candidates_outside_the_space():
    puzzle = SudokuGrid.from_string(TEMOIN)
    rng = np.random.default_rng(0)
    cell = CellSpace(puzzle)
    x = cell.random(rng)
    assert not cell.is_valid(np.where(np.arange(36) == 0, 0, x))
    assert not cell.is_valid(np.where(np.arange(36) == 0, 10, x))
    assert not cell.is_valid(x.astype(float))
    rows = RowPermutationSpace(puzzle)
    y = rows.random(rng)
    y[rows.segments[0][0]] = y[rows.segments[0][1]]  # a repeated digit in row 1
    assert not rows.is_valid(y)
    assert not ContinuousSpace(puzzle).is_valid(np.full(36, 10.0))
    assert not ContinuousSpace(puzzle).is_valid(np.full(36, 5))
    assert not RandomKeySpace(puzzle).is_valid(np.full(36, 1.0))


@pytest.mark.parametrize("space", SPACES)
def test_encode_refuses_grids_that_do_not_fit(space):
    s = space(SudokuGrid.from_string(TEMOIN))
    with pytest.raises(ValueError, match="36 empty cells"):
        s.encode(s.puzzle)
    full = s.decode(s.random(np.random.default_rng(0))).cells.copy()
    changed = full.copy()
    changed[0, 0] = 1  # the given 9 of row 1
    with pytest.raises(ValueError, match="row 1, column 1"):
        s.encode(SudokuGrid(changed))
    with pytest.raises(ValueError, match="side 4"):
        s.encode(solved_grid(4))


@pytest.mark.parametrize("space", [RowPermutationSpace, BoxPermutationSpace, RandomKeySpace])
def test_encode_refuses_a_grid_that_breaks_the_invariant(space):
    s = space(SudokuGrid.from_string(TEMOIN))
    cells = SudokuGrid.from_string(TEMOIN).cells.copy()
    cells[cells == 0] = 1  # every free cell holds 1: rows and boxes repeat it
    with pytest.raises(ValueError, match="invariant"):
        s.encode(SudokuGrid(cells, givens=s.puzzle.givens))


def test_space_class_finds_every_space_by_name_and_refuses_the_others():
    assert space_class("rows") is RowPermutationSpace
    assert space_class("random-key", CONTINUOUS_SPACES) is RandomKeySpace
    assert {space_class(name) for name in NAMED_SPACES} == set(NAMED_SPACES.values()) == set(SPACES)
    with pytest.raises(ValueError, match=r"unknown space 'rows'; expected one of \['continuous', 'random-key'\]"):
        space_class("rows", CONTINUOUS_SPACES)
    with pytest.raises(ValueError, match="unknown space 'diagonals'"):
        space_class("diagonals", PERMUTATION_SPACES)


# ---------------------------------------------------------- restricted spaces
def restricted(space_class: type[PermutationSpace], bank: str = "hard", index: int = 0) -> PermutationSpace:
    puzzle = load_bank(bank)[index]
    return space_class(puzzle, propagated_candidates(puzzle))


@pytest.mark.parametrize("space_class", [RowPermutationSpace, BoxPermutationSpace])
def test_restricted_space_fixes_single_candidates_and_keeps_the_others(space_class):
    puzzle = load_bank("hard")[0]
    candidates = propagated_candidates(puzzle)
    space = space_class(puzzle, candidates)
    assert space.restricted and not space_class(puzzle).restricted
    assert space.puzzle == fixed_by_candidates(puzzle, candidates) and space.dimension < space_class(puzzle).dimension
    assert all(candidates[cell].bit_count() >= 2 for cell in space.free_cells.tolist())
    with pytest.raises(ValueError, match="81 candidate masks"):
        space_class(puzzle, candidates[:80])


@FAST
@given(seed=SEEDS)
@pytest.mark.parametrize("space_class", [RowPermutationSpace, BoxPermutationSpace])
def test_restricted_candidates_and_moves_stay_within_the_candidates(space_class, seed):
    space = restricted(space_class, "expert", seed % 3)
    rng = np.random.default_rng(seed)
    batch = np.array([space.random(rng) for _ in range(20)])
    assert all(space.is_valid(candidate) for candidate in batch)
    for _ in range(10):
        moved = space.neighbours(batch, rng)
        assert all(space.is_valid(candidate) for candidate in moved)
        assert ((moved != batch).sum(axis=1) <= 3).all()  # one swap or one rotation each
        batch = moved
    assert space.is_valid(space.neighbour(batch[0], rng))


def test_restricted_moves_reach_new_states_by_swaps_and_rotations():
    space = restricted(RowPermutationSpace, "expert", 1)
    rng = np.random.default_rng(0)
    start = np.array([space.random(rng)] * 400)
    changed = (space.neighbours(start, rng) != start).sum(axis=1)
    assert set(changed.tolist()) >= {2, 3}  # swaps and rotations both happen


@FAST
@given(seed=SEEDS, index=st.integers(0, 4))
@pytest.mark.parametrize("space_class", [RowPermutationSpace, BoxPermutationSpace])
def test_conflict_cycles_turn_one_cycle_of_one_unit_within_the_candidates(space_class, seed, index):
    space = restricted(space_class, "expert", index)
    rng = np.random.default_rng(seed)
    batch = np.array([space.random(rng) for _ in range(30)])
    in_conflict = space._in_conflict(batch, space._cycle_structure[2])
    moved = space.conflict_cycles(batch, rng)
    assert moved.shape == batch.shape and not np.shares_memory(moved, batch)
    assert all(space.is_valid(candidate) for candidate in moved)  # units permutations, candidates kept
    grids = [space.decode(candidate) for candidate in moved]
    assert all((grid.cells[space.puzzle.givens] == space.puzzle.cells[space.puzzle.givens]).all() for grid in grids)
    for before, after, conflicted in zip(batch, moved, in_conflict, strict=True):
        changed = np.flatnonzero(before != after)
        if len(changed):
            assert len({space._cycle_structure[0][k] for k in changed}) == 1  # one unit
            assert sorted(before[changed]) == sorted(after[changed])  # its digits turned round
            assert not conflicted.any() or conflicted[changed].any()  # the cycle starts from a cell in conflict
    assert np.array_equal(
        space.conflict_cycles(batch, np.random.default_rng(seed)),
        space.conflict_cycles(batch, np.random.default_rng(seed)),
    )  # same seed, same moves


def test_conflict_cycles_link_fillings_that_swaps_and_rotations_split():
    # Hard puzzle 27: one box of four free cells has two fillings within its candidates that differ in all
    # four cells; neighbours (swaps and rotations of three) never goes from one to the other, cycles do.
    space = restricted(BoxPermutationSpace, "hard", 26)
    rng = np.random.default_rng(0)
    start = np.array([space.random(rng)] * 300)
    four = [segment for segment in space.segments if len(segment) == 4]
    by_cycles, by_neighbours = space.conflict_cycles(start, rng), space.neighbours(start, rng)
    assert any((by_cycles[:, segment] != start[:, segment]).all(axis=1).any() for segment in four)
    assert not any((by_neighbours[:, segment] != start[:, segment]).all(axis=1).any() for segment in four)


@FAST
@given(seed=SEEDS)
def test_repair_puts_any_permutation_back_within_the_candidates(seed):
    space = restricted(RowPermutationSpace, "hard", seed % 4)
    rng = np.random.default_rng(seed)
    plain = RowPermutationSpace(space.puzzle).random(rng)  # rows are permutations, candidates ignored
    repaired = space.repair(plain, rng)
    assert space.is_valid(repaired) and not np.shares_memory(repaired, plain)
    valid = space.random(rng)
    assert np.array_equal(space.repair(valid, rng), valid)  # nothing to repair: unchanged
    broken = valid.copy()
    i, j = space.random_swap(rng)  # two cells of one row exchanged, maybe outside their candidates
    broken[i], broken[j] = broken[j], broken[i]
    fixed = space.repair(broken, rng)
    assert space.is_valid(fixed)
    untouched = [segment for segment in space.segments if i not in segment]
    assert all(np.array_equal(fixed[segment], valid[segment]) for segment in untouched)


def test_random_matching_keeps_candidates_prefers_current_digits_and_reports_dead_ends():
    rng = np.random.default_rng(3)
    candidates = [0b0110, 0b1100, 0b1010] + [0] * 78  # cells 0, 1, 2 allow {1, 2}, {2, 3}, {1, 3}
    seen = {tuple(random_matching([0, 1, 2], [1, 2, 3], candidates, rng)) for _ in range(50)}
    assert seen == {(1, 2, 3), (2, 3, 1)}
    assert random_matching([0, 1, 2], [1, 2, 3], candidates, rng, {0: 2, 1: 3, 2: 1}) == [2, 3, 1]
    with pytest.raises(InvalidPuzzleError, match="no solution"):
        random_matching([0, 1, 2], [1, 2, 3], [0b0110, 0b0110, 0b0110] + [0] * 78, rng)
