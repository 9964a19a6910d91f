"""Simulated annealing for Sudoku: the course's annealer, a simanneal adapter, and the naive version.

The state is a full grid in which every row holds a permutation of its missing digits, so only
columns and boxes can conflict (with space="boxes", every box holds one, and only rows and columns
can conflict). A move swaps two free cells of one row; its energy change (delta) is read from a
`ConflictTable` in constant time instead of recounting the grid. Metropolis rule: a move with
delta <= 0 is always accepted, a worse one with probability exp(-delta / T).

With candidate restriction (restrict=True) every cell keeps a digit it may hold after naked and
hidden singles. Swaps alone then no longer connect the states of a unit: cells whose candidates are
{1, 2}, {2, 3} and {1, 3} can hold 1, 2, 3 or 2, 3, 1, and no swap leads from one to the other
without putting a digit outside its candidates. A rotation of three cells does (`rotation_moves`,
`rotation_chain`), but not always: cells {1, 2}, {2, 3}, {3, 4}, {4, 1} need a rotation of four.
So the restricted annealer moves by cycles (`cycle_from`, `cycle_chain`): from a cell, it walks
through its unit to a cell whose digit it may take, then from that one to the next, until it
reaches a cell that may take the first cell's digit; turning the digits round the cycle keeps every
cell within its candidates, and cycles of any length link every state of a unit to every other.
Each cycle starts from a cell in conflict: on deep puzzles, almost every random move from a low
state raises the energy, and most of them move cells that conflict with nothing. Since every state
can reach the solution, it reheats on stagnation instead of restarting from a new random state.

- AnnealingSolver ("annealing"): geometric cooling with settings derived from the puzzle, restarts
  (or reheating) on stagnation, adaptive cooling and candidate restriction.
- SudokuAnnealer and SimannealSolver ("simanneal"): the same moves, run by the simanneal library.
- NaiveAnnealer ("naive-annealing"): recounts the whole grid after every move, as the source course
  did; it is kept only to measure the speed-up of the incremental delta.
- SpaceAnnealing ("space-annealing"): the cross-study's annealer (lesson 04), whose move is any space's
  own `neighbour` (a swap in a permutation space, a gaussian step on one coordinate in the continuous
  space, a new key in the random-key space), every move evaluated in full (`base.CountedObjective`).
"""

from __future__ import annotations

import math
import random
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
from simanneal import Annealer

from ..cost import ConflictTable
from ..grid import SudokuGrid
from ..propagation import fixed_by_candidates, propagated_candidates
from ..spaces import (
    PERMUTATION_SPACES,
    PermutationSpace,
    RowPermutationSpace,
    random_matching,
    space_class,
    unit_rotations,
    unit_swaps,
)
from .base import CountedObjective, RunLedger, Solver

ENGINES = ("python", "numba")
T0_SAMPLES = 200
"""Random moves whose deltas give the default initial temperature (their standard deviation)."""
MIN_T0 = 0.5
"""Lowest default initial temperature, for states where the sampled deltas barely vary."""
MOVES = ("swaps", "cycles")
"""The moves of AnnealingSolver: swaps (and rotations) drawn at random, or cycles from cells in conflict."""
RESTRICTED_REHEAT = 0.5
"""Default reheat factor with candidate restriction (without it, the default is to restart)."""

Move = tuple[int, int, int]
"""A swap: flat cells i and j, and the digits both may hold (bit d set: digit d allowed in both cells)."""
Rotation = tuple[int, int, int]
"""A rotation of three free cells i, j, k of one unit: i takes the digit of j, j that of k, k that of i."""


# ------------------------------------------------------------------ the inner loop
def anneal_chain(table: ConflictTable, moves: list[Move], uniforms: list[float], temperature: float) -> tuple[int, int]:
    """Try each move at one temperature with the Metropolis rule; return (moves tried, moves accepted).

    `uniforms` holds one random number in [0, 1) per move. The chain stops early when the cost reaches 0.
    """
    cells = table.cells
    tried = accepted = 0
    for (i, j, allowed), u in zip(moves, uniforms, strict=True):
        if not (allowed >> cells[i]) & (allowed >> cells[j]) & 1:
            continue  # the swap would put a digit outside its cell's candidates
        tried += 1
        delta = table.delta_swap_cells(i, j)
        if delta <= 0 or u < math.exp(-delta / temperature):
            table.swap_cells(i, j)
            accepted += 1
            if table.cost == 0:
                break
    return tried, accepted


def rotation_chain(
    table: ConflictTable, rotations: list[Rotation], candidates: list[int], uniforms: list[float], temperature: float
) -> tuple[int, int]:
    """anneal_chain for rotations of three cells; `candidates` holds one mask per flat cell (bit d: digit d allowed).

    A rotation is made of two swaps, (i j) then (j k): its delta is the sum of theirs, and a rejected
    rotation is undone by the same swaps in reverse order.
    """
    cells = table.cells
    tried = accepted = 0
    for (i, j, k), u in zip(rotations, uniforms, strict=True):
        if not (candidates[i] >> cells[j]) & (candidates[j] >> cells[k]) & (candidates[k] >> cells[i]) & 1:
            continue  # the rotation would put a digit outside its cell's candidates
        tried += 1
        delta = table.delta_swap_cells(i, j)
        table.swap_cells(i, j)
        delta += table.delta_swap_cells(j, k)
        table.swap_cells(j, k)
        if delta <= 0 or u < math.exp(-delta / temperature):
            accepted += 1
            if table.cost == 0:
                break
        else:
            table.swap_cells(j, k)
            table.swap_cells(i, j)
    return tried, accepted


def cycle_from(
    start: int, cells: list[int], units: list[list[int] | None], candidates: list[int], steps: list[float]
) -> list[int] | None:
    """A cycle of free cells of the unit of `start`, walked from `start`: each cell of the cycle may take the
    digit of the next one, and the last may take the digit of `start` (`candidates[cell]`: bit d set when
    digit d is allowed; `units[cell]`: the free cells of its unit). Turning the digits round the cycle
    (`turn`) keeps every cell within its candidates.

    At each step the next cell is drawn, by `steps[k]` in [0, 1), among the cells of the unit not yet in the
    cycle whose digit the current cell may take; the cycle closes at the first cell that may take the digit
    of `start`: a swap when the first cell drawn may, a rotation of three cells, or longer. None if the walk
    reaches a cell that may take no other digit of the unit.
    """
    unit, first = units[start], cells[start]
    cycle, allowed = [start], candidates[start]
    for step in steps:
        options = [cell for cell in unit if allowed >> cells[cell] & 1 and cell not in cycle]
        if not options:
            return None
        cell = options[int(step * len(options))]
        cycle.append(cell)
        allowed = candidates[cell]
        if allowed >> first & 1:
            return cycle
    return None


def _starts(table: ConflictTable, free: list[int]) -> list[int]:
    """The cells of `free` in conflict, or all of them if none is (a puzzle without solution can leave its
    conflicts where no cycle reaches them: the search then keeps moving instead of stopping)."""
    return [cell for cell in free if table.in_conflict(cell)] or free


def turn(table: ConflictTable, cycle: list[int]) -> None:
    """Each cell of `cycle` takes the digit of the next one, the last that of the first: the swaps
    (c0 c1), (c1 c2), ... made in turn."""
    for i, j in pairwise(cycle):
        table.swap_cells(i, j)


def turn_back(table: ConflictTable, cycle: list[int]) -> None:
    """Undo `turn(table, cycle)`: the same swaps in reverse order."""
    for i, j in pairwise(reversed(cycle)):
        table.swap_cells(i, j)


def cycle_chain(
    table: ConflictTable,
    units: list[list[int] | None],
    candidates: list[int],
    draws: list[list[float]],
    temperature: float,
) -> tuple[int, int]:
    """The Metropolis rule on cycles that start from a cell in conflict; return (moves tried, moves accepted).

    One row of `draws` (numbers in [0, 1)) per move: row[0] picks a cell in conflict, row[1:-1] the steps of
    its cycle (`cycle_from`), row[-1] is the Metropolis test. A longer cycle's delta is the change of the cost
    once it is turned, and a rejected one is turned back. A walk that does not close is no move tried. The list of
    the cells in conflict is made again when the cell drawn from it is no longer in conflict; the chain stops
    early when the cost reaches 0.
    """
    cells = table.cells
    free = [cell for cell, unit in enumerate(units) if unit]  # the cells a cycle can move
    starts = _starts(table, free)
    tried = accepted = 0
    if table.cost == 0:
        return tried, accepted
    for row in draws:
        start = starts[int(row[0] * len(starts))]
        if not table.in_conflict(start):
            starts = _starts(table, free)
            start = starts[int(row[0] * len(starts))]
        cycle = cycle_from(start, cells, units, candidates, row[1:-1])
        if cycle is None:
            continue
        tried += 1
        if len(cycle) == 2:  # a swap: its delta is read without making it, as in anneal_chain
            delta = table.delta_swap_cells(*cycle)
            accept = delta <= 0 or row[-1] < math.exp(-delta / temperature)
            if accept:
                table.swap_cells(*cycle)
        else:
            before = table.cost
            turn(table, cycle)
            delta = table.cost - before
            accept = delta <= 0 or row[-1] < math.exp(-delta / temperature)
            if not accept:
                turn_back(table, cycle)
        if accept:
            accepted += 1
            if table.cost == 0:
                break
    return tried, accepted


# ------------------------------------------------------------------ representation
def swap_moves(space: PermutationSpace, candidates: list[int] | None = None) -> list[Move]:
    """Every swap of two free cells of one unit of `space`, each with the digits both cells may hold.

    Without candidates every digit is allowed. With candidates, pairs sharing fewer than two digits are
    left out: a swap keeps both cells within their candidates only if both digits are common to them.
    """
    masks = candidates or [(1 << (space.puzzle.size + 1)) - 2] * space.puzzle.cells.size  # bits 1..n: every digit
    return [(i, j, masks[i] & masks[j]) for i, j in unit_swaps(_unit_cells(space), masks)]


def rotation_moves(space: PermutationSpace, candidates: list[int] | None = None) -> list[Rotation]:
    """Every rotation of three free cells of one unit of `space`, in both directions.

    With candidates, rotations that can never keep the three cells within their candidates (two of the
    cells share no candidate, so one cannot take the other's digit) are left out.
    """
    masks = candidates or [(1 << (space.puzzle.size + 1)) - 2] * space.puzzle.cells.size
    return unit_rotations(_unit_cells(space), masks)


def _unit_cells(space: PermutationSpace) -> list[list[int]]:
    """The flat free cells of each unit of the space."""
    return [space.free_cells[segment].tolist() for segment in space.segments]


def cycle_units(space: PermutationSpace) -> list[list[int] | None]:
    """For each flat cell, the free cells of its unit in `space` (one list shared by the unit's cells), or None
    for a given and for a cell alone in its unit (it cannot move): the walks of `cycle_from`."""
    units: list[list[int] | None] = [None] * space.puzzle.cells.size
    for unit in _unit_cells(space):
        if len(unit) >= 2:
            for cell in unit:
                units[cell] = unit
    return units


def random_state(space: PermutationSpace, candidates: list[int] | None, rng: np.random.Generator) -> SudokuGrid:
    """A random full grid of the space; with candidates, every free cell holds one of its candidates."""
    if candidates is None:
        return space.decode(space.random(rng))
    cells = space.puzzle.cells.ravel().copy()
    for segment, digits in zip(space.segments, space.missing, strict=True):
        unit_cells = space.free_cells[segment].tolist()
        cells[unit_cells] = random_matching(unit_cells, digits.tolist(), candidates, rng)
    return space.puzzle.with_cells(cells.reshape(space.puzzle.cells.shape))


# ------------------------------------------------------------------ schedule
def delta_spread(table: ConflictTable, moves: list[Move], rng: np.random.Generator, samples: int = T0_SAMPLES) -> float:
    """Standard deviation of the deltas of `samples` random moves from the current state (nothing is changed)."""
    picks = rng.integers(len(moves), size=samples).tolist()
    return float(np.std([table.delta_swap_cells(moves[k][0], moves[k][1]) for k in picks]))


def adapted_alpha(alpha: float, acceptance: float, low: float = 0.05, high: float = 0.5) -> float:
    """Cooling factor for the next temperature, from the share of moves just accepted.

    Many moves accepted (> high): the search is still hot, cool faster (alpha squared). Few accepted
    (< low): it is nearly frozen, cool slower (square root of alpha). The result stays in [0.8, 0.999].
    """
    if acceptance > high:
        alpha = alpha**2
    elif acceptance < low:
        alpha = math.sqrt(alpha)
    return min(0.999, max(0.8, alpha))


# ------------------------------------------------------------------ numba engine
class ArrayTable:
    """The counts of a ConflictTable as numpy arrays, for the compiled chains (engine="numba", annealing_kernels).

    counts[u, d]: how many cells of unit u hold digit d, units numbered rows (0..n-1), columns
    (n..2n-1), then boxes (2n..3n-1); units[cell]: the three units of a flat cell.
    """

    def __init__(self, grid: SudokuGrid) -> None:
        n = grid.size
        self.cells = grid.cells.ravel().copy()
        rows, columns = np.divmod(np.arange(n * n), n)
        boxes = (rows // grid.box_size) * grid.box_size + columns // grid.box_size
        self.units = np.stack([rows, n + columns, 2 * n + boxes], axis=1)
        self.counts = np.zeros((3 * n, n + 1), dtype=np.int64)
        np.add.at(self.counts, (self.units, self.cells[:, None]), 1)
        self.cost = int((self.counts[:, 1:] == 0).sum())


# ------------------------------------------------------------------ solvers
@dataclass(frozen=True)
class Neighbourhood:
    """The moves of one search and the candidates they respect: swaps and rotations (maybe none) drawn at
    random, with the share of each chain given to rotations; or, when `units` is set (`cycle_units`), cycles
    started from cells in conflict. The swaps also give the default initial temperature."""

    swaps: list[Move]
    rotations: list[Rotation]
    candidates: list[int]
    rotation_share: float
    units: list[list[int] | None] | None = None

    def split(self, size: int) -> tuple[int, int]:
        """How many of a chain's `size` moves are swaps and how many are rotations."""
        rotations = round(size * self.rotation_share) if self.rotations else 0
        return size - rotations, rotations

    def touched(self) -> set[int]:
        """The cells the moves can change."""
        if self.units is not None:
            return {cell for cell, unit in enumerate(self.units) if unit}
        return {cell for i, j, _ in self.swaps for cell in (i, j)} | {cell for r in self.rotations for cell in r}


class AnnealingSolver(Solver):
    """The course's annealer: row swaps, incremental deltas, Metropolis rule, geometric cooling.

    Lesson 02, sections 6 (le solveur du cours) and 9 (la restriction aux candidats).

    Parameters (None means derived from the puzzle):
    - space: "rows" (moves within a row) or "boxes" (moves within a box); None: "boxes" with restrict,
      "rows" without.
    - moves: "swaps" (random swaps of two cells of a unit, and rotations of three, see rotation_share) or
      "cycles" (cycles of cells of a unit started from a cell in conflict, `cycle_chain`); "auto": cycles
      with restrict, swaps without.
    - t0: initial temperature; default the spread (standard deviation) of random swaps' deltas.
    - alpha: cooling factor after each chain; t_min: below this temperature, a restart begins.
    - chain_length: moves per temperature; default chain_factor x the number of cells the moves touch.
    - stagnation: chains without a new best cost in the current restart before a reheat (or a restart).
    - reheat: on stagnation, set T back to reheat x t0 and go on from the current state instead of
      restarting from a new random state (None: restart). "auto": 0.5 with restrict, None without.
    - adaptive: adapt alpha after each chain from the acceptance rate (see adapted_alpha).
    - restrict: fix what naked and hidden singles fix, and keep every cell within its candidates.
    - rotation_share: with moves="swaps", the share of each chain's moves that rotate three cells of a unit
      (rotation_chain); default 0.
    - max_restarts: without a budget, give up after this many restarts (None: never). A run given a budget
      of evaluations or seconds ignores it and uses its whole budget.
    - engine: "python" (anneal_chain and the other chains, the loops shown in the lesson) or "numba" (the same
      loops compiled, see annealing_kernels).
    - trace: record one dict per chain in the result's `trace`: restart, temperature, acceptance (share of
      the moves tried that were accepted), energy (cost at the end of the chain), best (the run's best cost).

    Why the restricted defaults (boxes, cycles, reheating): on Norvig's 95 hard puzzles, two runs each and
    a million moves tried per run, cycles from cells in conflict in the box space solve 190 runs of 190,
    the same cycles in the row space 176, random swaps and rotations in rows 140 (in boxes 148); see
    `benchmarks/bench_targets.py` for the runs against time.

    One iteration is one chain (one temperature). The result is the best state seen at the end of a
    chain. Stats: accepted (moves), reheats, free_cells, and the settings actually used: space, moves,
    t0, alpha, t_min, chain_length, rotation_share (the derived values when left to None or "auto").
    """

    name = "annealing"

    def __init__(
        self,
        *,
        space: str | None = None,
        moves: str = "auto",
        t0: float | None = None,
        alpha: float = 0.99,
        t_min: float = 0.05,
        chain_length: int | None = None,
        chain_factor: int = 10,
        stagnation: int = 50,
        reheat: float | str | None = "auto",
        adaptive: bool = False,
        restrict: bool = False,
        rotation_share: float | None = None,
        max_restarts: int | None = 1000,
        engine: str = "python",
        trace: bool = False,
    ) -> None:
        if space is not None:
            space_class(space, PERMUTATION_SPACES)
        if moves not in (*MOVES, "auto"):
            raise ValueError(f'unknown moves {moves!r}; available: {", ".join(MOVES)} or "auto"')
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; available: {', '.join(ENGINES)}")
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must be between 0 and 1 (excluded), got {alpha!r}")
        if not t_min > 0 or (t0 is not None and not t0 > t_min):
            raise ValueError(f"need t0 > t_min > 0, got t0={t0!r}, t_min={t_min!r}")
        if reheat not in ("auto", None) and not (isinstance(reheat, (int, float)) and 0 < reheat <= 1):
            raise ValueError(f'reheat must be in (0, 1], None or "auto", got {reheat!r}')
        if rotation_share is not None and not 0 <= rotation_share <= 1:
            raise ValueError(f"rotation_share must be in [0, 1], got {rotation_share!r}")
        for label, value in (
            ("chain_length", chain_length),
            ("chain_factor", chain_factor),
            ("stagnation", stagnation),
        ):
            if value is not None and value < 1:
                raise ValueError(f"{label} must be at least 1, got {value!r}")
        self.space = space
        self.moves = moves
        self.t0 = t0
        self.alpha = alpha
        self.t_min = t_min
        self.chain_length = chain_length
        self.chain_factor = chain_factor
        self.stagnation = stagnation
        self.reheat = reheat
        self.adaptive = adaptive
        self.restrict = restrict
        self.rotation_share = rotation_share
        self.max_restarts = max_restarts
        self.engine = engine
        self.trace = trace
        if rotation_share is not None and self._moves() == "cycles":
            raise ValueError('rotation_share applies to moves="swaps" (the restricted default is "cycles")')

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        candidates = propagated_candidates(puzzle) if self.restrict else None
        space_name = self._space()
        space = space_class(space_name)(puzzle if candidates is None else fixed_by_candidates(puzzle, candidates))
        moves = self._neighbourhood(space, candidates)
        length = self.chain_length or self.chain_factor * len(moves.touched())
        run.stats.update(free_cells=space.dimension, accepted=0, reheats=0)
        grid = random_state(space, candidates, rng)
        t0 = self.t0 or self._initial_temperature(grid, moves.swaps, rng, run)
        run.stats.update(space=space_name, moves=self._moves(), t0=t0, alpha=self.alpha, t_min=self.t_min)
        run.stats.update(chain_length=length, rotation_share=moves.rotation_share)
        best_cells, best_cost = None, math.inf
        while True:
            cells, cost, finished = self._anneal(grid, moves, t0, length, rng, run)
            if cost < best_cost:
                best_cells, best_cost = cells, cost
            if finished or (run.restarts == self.max_restarts and not run.budget.limited):
                return puzzle.with_cells(np.reshape(best_cells, puzzle.cells.shape))
            run.restarts += 1
            grid = random_state(space, candidates, rng)

    def _space(self) -> str:
        return self.space or ("boxes" if self.restrict else "rows")

    def _moves(self) -> str:
        if self.moves == "auto":
            return "cycles" if self.restrict else "swaps"
        return self.moves

    def _neighbourhood(self, space: PermutationSpace, candidates: list[int] | None) -> Neighbourhood:
        """The moves of the search: swaps (with the share of rotations actually used), or cycles."""
        masks = candidates or [(1 << (space.puzzle.size + 1)) - 2] * space.puzzle.cells.size  # every digit
        swaps = swap_moves(space, candidates)
        if self._moves() == "cycles":
            return Neighbourhood(swaps, [], masks, 0.0, cycle_units(space))
        share = self.rotation_share or 0.0
        rotations = rotation_moves(space, candidates) if share > 0 else []
        return Neighbourhood(swaps, rotations, masks, share)

    def _reheat_factor(self) -> float | None:
        if self.reheat == "auto":
            return RESTRICTED_REHEAT if self.restrict else None
        return self.reheat

    def _initial_temperature(
        self, grid: SudokuGrid, moves: list[Move], rng: np.random.Generator, run: RunLedger
    ) -> float:
        """The spread of the deltas of random moves from `grid` (at least MIN_T0)."""
        remaining = run.remaining()
        samples = T0_SAMPLES if remaining is None else min(T0_SAMPLES, remaining - 1)  # 1 left for the state
        if not moves or samples < 1:
            return MIN_T0
        run.count(samples)
        return max(MIN_T0, delta_spread(ConflictTable(grid), moves, rng, samples))

    def _anneal(
        self, grid: SudokuGrid, moves: Neighbourhood, t0: float, length: int, rng: np.random.Generator, run: RunLedger
    ) -> tuple[list[int], int, bool]:
        """One restart from `grid`: cool from t0 until stagnation or t_min, or reheat on stagnation.

        Returns (the restart's best cells, their cost, whether the run must stop).
        """
        chain = _PythonChain(grid, moves) if self.engine == "python" else _CompiledChain(grid, moves)
        run.count()
        best_cells, best = chain.cells(), chain.cost
        if not moves.touched():  # no move is possible: this state is the only one
            run.record(chain.cost)
            return best_cells, best, True
        temperature, alpha, stale, reheat = t0, self.alpha, 0, self._reheat_factor()
        while True:
            remaining = run.remaining()
            size = length if remaining is None else min(length, remaining)
            tried, accepted = chain.run(size, temperature, rng)
            run.count(tried)
            run.stats["accepted"] += accepted
            if chain.cost < best:
                best_cells, best, stale = chain.cells(), chain.cost, 0
            else:
                stale += 1
            run_best = min(best, run.history[-1]) if run.history else best  # the history holds the run's best
            if self.trace:
                acceptance = accepted / tried if tried else 0.0
                run.trace.append(
                    {
                        "restart": run.restarts,
                        "temperature": temperature,
                        "acceptance": acceptance,
                        "energy": chain.cost,
                        "best": run_best,
                    }
                )
            if run.record(run_best):
                return best_cells, best, True
            if self.adaptive:
                alpha = adapted_alpha(alpha, accepted / max(tried, 1))
            temperature *= alpha
            if stale >= self.stagnation and reheat is not None:
                temperature, stale = reheat * t0, 0
                run.stats["reheats"] += 1
            elif stale >= self.stagnation or temperature < self.t_min:
                return best_cells, best, False


class _PythonChain:
    """Chains run by anneal_chain and rotation_chain on a ConflictTable."""

    def __init__(self, grid: SudokuGrid, moves: Neighbourhood) -> None:
        self.table = ConflictTable(grid)
        self.moves = moves

    @property
    def cost(self) -> int:
        return self.table.cost

    def cells(self) -> list[int]:
        return list(self.table.cells)

    def run(self, size: int, temperature: float, rng: np.random.Generator) -> tuple[int, int]:
        """`size` moves at one temperature: (tried, accepted). Cycles, or random swaps then random rotations."""
        moves = self.moves
        if moves.units is not None:
            draws = rng.random((size, self.table.size + 1)).tolist()  # a start, up to n - 1 steps, a test
            return cycle_chain(self.table, moves.units, moves.candidates, draws, temperature)
        swaps, rotations = moves.split(size)
        picks, uniforms = rng.integers(len(moves.swaps), size=swaps).tolist(), rng.random(swaps).tolist()
        tried, accepted = anneal_chain(self.table, [moves.swaps[k] for k in picks], uniforms, temperature)
        if rotations and self.table.cost:
            picks, uniforms = rng.integers(len(moves.rotations), size=rotations), rng.random(rotations).tolist()
            chosen = [moves.rotations[k] for k in picks.tolist()]
            more_tried, more_accepted = rotation_chain(self.table, chosen, moves.candidates, uniforms, temperature)
            tried, accepted = tried + more_tried, accepted + more_accepted
        return tried, accepted


class _CompiledChain:
    """Chains run by the numba-compiled loops of annealing_kernels on an ArrayTable (same draws, same moves)."""

    def __init__(self, grid: SudokuGrid, moves: Neighbourhood) -> None:
        try:
            from . import annealing_kernels
        except ImportError as error:
            raise ImportError('engine="numba" needs the numba package: pip install numba') from error
        self.kernels = annealing_kernels
        self.table = ArrayTable(grid)
        self.swaps = np.array(moves.swaps, dtype=np.int64).reshape(-1, 3)
        self.rotations = np.array(moves.rotations, dtype=np.int64).reshape(-1, 3)
        self.moves_split = moves.split
        self.candidates = np.array(moves.candidates, dtype=np.int64)
        self.units = None if moves.units is None else _unit_table(moves.units)
        self.cost = self.table.cost

    def cells(self) -> list[int]:
        return self.table.cells.tolist()

    def run(self, size: int, temperature: float, rng: np.random.Generator) -> tuple[int, int]:
        t = self.table
        if self.units is not None:
            draws = rng.random((size, t.counts.shape[1]))  # n + 1 numbers per move, as _PythonChain draws them
            tried, accepted, self.cost = self.kernels.cycle_chain(
                t.cells, t.units, t.counts, self.candidates, *self.units, draws, temperature, self.cost
            )
            return tried, accepted
        swaps, rotations = self.moves_split(size)
        picks, uniforms = rng.integers(len(self.swaps), size=swaps), rng.random(swaps)
        tried, accepted, self.cost = self.kernels.swap_chain(
            t.cells, t.units, t.counts, self.swaps, picks, uniforms, temperature, self.cost
        )
        if rotations and self.cost:
            picks, uniforms = rng.integers(len(self.rotations), size=rotations), rng.random(rotations)
            more_tried, more_accepted, self.cost = self.kernels.rotation_chain(
                t.cells, t.units, t.counts, self.candidates, self.rotations, picks, uniforms, temperature, self.cost
            )
            tried, accepted = tried + more_tried, accepted + more_accepted
        return tried, accepted


def _unit_table(units: list[list[int] | None]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`cycle_units` as arrays for the compiled cycle_chain: the free cells of each unit (one row per unit, padded
    with -1), each unit's size, and each flat cell's unit (-1: none)."""
    distinct = list({id(unit): unit for unit in units if unit}.values())
    width = max((len(unit) for unit in distinct), default=0)
    unit_cells = np.full((len(distinct), width), -1, dtype=np.int64)
    unit_of = np.full(len(units), -1, dtype=np.int64)
    for k, unit in enumerate(distinct):
        unit_cells[k, : len(unit)] = unit
        unit_of[unit] = k
    return unit_cells, np.array([len(unit) for unit in distinct], dtype=np.int64), unit_of


class NaiveAnnealer(Solver):
    """The source course's annealer: every move copies the state and recounts the whole grid.

    Lesson 02, section 7 (pourquoi le calcul incrémental change tout).

    Same space, moves and Metropolis rule as AnnealingSolver, but each move is evaluated from scratch
    with `space.cost` instead of an O(1) delta. Defaults follow the source (t0=1, alpha=0.999, 100 moves
    per temperature, t_min=0.001, 10 attempts: max_restarts=9). Kept only to measure the speed-up of the
    incremental delta.
    """

    name = "naive-annealing"

    def __init__(
        self,
        *,
        t0: float = 1.0,
        alpha: float = 0.999,
        chain_length: int = 100,
        t_min: float = 0.001,
        max_restarts: int = 9,
    ) -> None:
        self.t0 = t0
        self.alpha = alpha
        self.chain_length = chain_length
        self.t_min = t_min
        self.max_restarts = max_restarts

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        space = RowPermutationSpace(puzzle)
        best, best_cost = None, math.inf
        for restart in range(self.max_restarts + 1):
            run.restarts = restart
            current = space.random(rng)
            cost = space.cost(current)
            run.count()
            temperature = self.t0
            while temperature > self.t_min:
                for _ in range(self.chain_length):
                    if cost == 0 or run.exhausted():
                        break
                    neighbour = space.neighbour(current, rng)
                    delta = space.cost(neighbour) - cost
                    run.count()
                    if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                        current, cost = neighbour, cost + delta
                if cost < best_cost:
                    best, best_cost = current, cost
                if run.record(best_cost):
                    return space.decode(best)
                temperature *= self.alpha
        return space.decode(best)


class SudokuAnnealer(Annealer):
    """simanneal's Annealer on the row-permutation space: `move` swaps two cells and returns the delta.

    The state is the flat list of cells; a ConflictTable alongside gives each move's delta in O(1).
    simanneal keeps a copy of the last accepted state ("slice" copies: cheap for a list) and puts it
    back when it rejects a move; the table then undoes its last swap (see `_follow`). The run stops as
    soon as the energy reaches 0. `trace` collects simanneal's reports (temperature, energy, acceptance
    and improvement rates); nothing is printed unless `verbose`. With a `run`, every evaluation is counted
    and each report records the best energy (the run's budget or callback can then stop the annealing).

    simanneal installs a SIGINT handler, so this class works only in the main thread; the previous
    handler is put back when `anneal` returns. simanneal draws its acceptance tests from the global
    `random` module: seed it (random.seed) for a reproducible run.
    """

    copy_strategy = "slice"

    def __init__(
        self,
        table: ConflictTable,
        moves: list[Move],
        rng: np.random.Generator,
        run: RunLedger | None = None,
        verbose: bool = False,
    ) -> None:
        self.table = table
        self.moves = moves
        self.run = run
        self.verbose = verbose
        self.trace: list[dict[str, float | None]] = []
        self._picks = _draws(rng, len(moves))
        self._last_swap: tuple[int, int] | None = None
        self._previous_sigint = signal.getsignal(signal.SIGINT)
        try:
            super().__init__(initial_state=table.cells)
        except ValueError as error:
            raise RuntimeError("simanneal runs only in the main thread (it installs a signal handler)") from error

    def move(self) -> int:
        """Swap two free cells of one row and return the energy change."""
        self._follow()
        i, j, _ = self.moves[next(self._picks)]
        delta = self.table.delta_swap_cells(i, j)
        self.table.swap_cells(i, j)
        self.state[i], self.state[j] = self.state[j], self.state[i]
        self._last_swap = (i, j)
        if self.run is not None:
            self.run.count()
        if self.table.cost == 0:
            self.user_exit = True  # solved: this move lowers the energy, so it is accepted, then the loop ends
        return delta

    def energy(self) -> int:
        """Conflicts of the current state."""
        self._follow()
        if self.run is not None:
            self.run.count()
        return self.table.cost

    def update(self, step, T, E, acceptance, improvement) -> None:
        """Keep simanneal's report in `trace` (print it if verbose) and record the best energy in the run."""
        self.trace.append(
            {"step": step, "temperature": T, "energy": E, "acceptance": acceptance, "improvement": improvement}
        )
        if self.verbose:
            self.default_update(step, T, E, acceptance, improvement)
        if self.run is not None and step > 0 and self.run.record(self.best_energy):
            self.user_exit = True

    def anneal(self) -> tuple[list[int], int]:
        """Run simanneal's loop; return (best state, best energy)."""
        try:
            return super().anneal()
        finally:
            signal.signal(signal.SIGINT, self._previous_sigint)

    def _follow(self) -> None:
        """If simanneal rejected the last swap (its saved state is back), undo that swap in the table."""
        if self._last_swap is not None:
            i, j = self._last_swap
            if self.state[i] != self.table.cells[i]:
                self.table.swap_cells(i, j)
            self._last_swap = None


def _draws(rng: np.random.Generator, count: int, block: int = 4096) -> Iterator[int]:
    """An endless stream of random integers in [0, count), drawn by blocks (one numpy call per block)."""
    while True:
        yield from rng.integers(count, size=block).tolist()


class SimannealSolver(Solver):
    """The simanneal library on the row-permutation space (see SudokuAnnealer).

    Lesson 02, sections 5 (la bibliothèque simanneal) and 7.

    simanneal cools geometrically from t0 to t_min over `max_moves` moves (its `steps`), without restarts.
    Default t0: the spread of random moves' deltas, as for AnnealingSolver. An evaluation budget lowers
    the moves; `updates` reports are recorded in the history (and printed if verbose).
    """

    name = "simanneal"

    def __init__(
        self,
        *,
        t0: float | None = None,
        t_min: float = 0.05,
        max_moves: int = 200_000,
        updates: int = 100,
        verbose: bool = False,
    ) -> None:
        if t0 is not None and not t0 > t_min > 0:
            raise ValueError(f"need t0 > t_min > 0, got t0={t0!r}, t_min={t_min!r}")
        self.t0 = t0
        self.t_min = t_min
        self.max_moves = max_moves
        self.updates = updates
        self.verbose = verbose

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        space = RowPermutationSpace(puzzle)
        moves = swap_moves(space)
        table = ConflictTable(random_state(space, None, rng))
        if table.cost == 0 or not moves:
            run.count()
            run.record(table.cost)
            return table.to_grid(puzzle)
        if self.t0 is None:
            run.count(T0_SAMPLES)
        t0 = self.t0 or max(MIN_T0, delta_spread(table, moves, rng))
        random.seed(int(rng.integers(2**32)))  # simanneal draws its acceptance tests from the global random
        annealer = SudokuAnnealer(table, moves, rng, run=run, verbose=self.verbose)
        annealer.Tmax, annealer.Tmin, annealer.updates = t0, self.t_min, self.updates
        remaining = run.remaining()
        annealer.steps = self.max_moves if remaining is None else max(0, min(self.max_moves, remaining - 1))
        state, energy = annealer.anneal()
        run.record(energy)
        return puzzle.with_cells(np.reshape(state, puzzle.cells.shape))


# ------------------------------------------------------- the cross-study's annealer, any space
class SpaceAnnealing(Solver):
    """Simulated annealing whose move is `space.neighbour`, with the full cost evaluated at every move.

    Lesson 04, section 3 (quatre moteurs, un même budget).

    Geometric cooling from `t0` to `t_min` over `max_iterations` steps; at each
    temperature a chain of `chain_length` moves, each accepted by the
    Metropolis rule (always if it does not raise the cost, otherwise with
    probability exp(-delta / T)). One temperature is one iteration of the run.
    A run spends at most chain_length x max_iterations evaluations, its first state
    included (so the last chain is one move short): with chain_length = 40 and
    max_iterations = 200, the same 8,000 evaluations as a population of 40 over
    200 generations.

    Unlike the course's annealer (lesson 02), nothing here knows the space: no
    incremental delta, so any representation can be plugged in. The defaults are
    the cross-study's values (`crossstudy.ENGINES`).
    """

    name = "space-annealing"

    def __init__(
        self,
        space: str = "rows",
        t0: float = 1.0,
        t_min: float = 0.1,
        chain_length: int = 40,
        max_iterations: int = 200,
    ) -> None:
        space_class(space)
        if not t0 > t_min > 0:
            raise ValueError(f"need t0 > t_min > 0, got t0={t0!r}, t_min={t_min!r}")
        if chain_length < 1 or max_iterations < 1:
            raise ValueError(
                f"chain_length and max_iterations must be at least 1, got {chain_length}, {max_iterations}"
            )
        self.space = space
        self.t0 = t0
        self.t_min = t_min
        self.chain_length = chain_length
        self.max_iterations = max_iterations

    def temperature(self, step: int) -> float:
        """T at temperature step `step` (0-based): t0 at the first step, t_min at the last."""
        if self.max_iterations == 1:
            return self.t0
        return self.t0 * (self.t_min / self.t0) ** (step / (self.max_iterations - 1))

    def _search(self, puzzle: SudokuGrid, rng: np.random.Generator, run: RunLedger) -> SudokuGrid:
        run.cap(self.chain_length * self.max_iterations)
        space = space_class(self.space)(puzzle)
        cost = CountedObjective(space, run)
        current = space.random(rng)
        current_cost = int(cost(current))
        accepted = 0
        for step in range(self.max_iterations):
            temperature = self.temperature(step)
            for _ in range(self.chain_length):
                if run.exhausted() or cost.best_cost == 0:
                    break
                candidate = space.neighbour(current, rng)
                delta = int(cost(candidate)) - current_cost
                if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                    current, current_cost = candidate, current_cost + delta
                    accepted += 1
            if run.record(cost.best_cost):
                break
        run.stats["accepted"] = accepted
        return cost.best_grid
