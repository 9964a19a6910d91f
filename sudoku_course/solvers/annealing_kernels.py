"""The numba engine of AnnealingSolver: its chains written on arrays and compiled.

The same loops as `annealing.anneal_chain`, `annealing.rotation_chain` and `annealing.cycle_chain`,
with the counts of an `annealing.ArrayTable` in place of a ConflictTable, so that numba can compile
them: they draw nothing and take the same decisions as the Python loops from the same random numbers.
This module imports numba; `annealing` imports it only when engine="numba" is used.

cells[c]: the digit of flat cell c; units[c]: its row, column and box numbers; counts[u, d]: how many
cells of unit u hold digit d. The cost is the number of (unit, digit) pairs whose count is 0.
"""

from __future__ import annotations

import math

import numba
import numpy as np

JIT = {"cache": True, "nogil": True}


@numba.njit(**JIT)
def delta_swap(cells, units, counts, i, j):
    """Cost change if flat cells i and j swapped their digits (ConflictTable.delta_swap_cells)."""
    a, b = cells[i], cells[j]
    delta = 0
    for k in range(3):
        unit_i, unit_j = units[i, k], units[j, k]
        if unit_i != unit_j:
            delta += (counts[unit_i, a] == 1) - (counts[unit_i, b] == 0)
            delta += (counts[unit_j, b] == 1) - (counts[unit_j, a] == 0)
    return delta


@numba.njit(**JIT)
def swap(cells, units, counts, i, j):
    """Swap the digits of flat cells i and j and update the counts (ConflictTable.swap_cells)."""
    a, b = cells[i], cells[j]
    for k in range(3):
        unit_i, unit_j = units[i, k], units[j, k]
        if unit_i != unit_j:
            counts[unit_i, a] -= 1
            counts[unit_i, b] += 1
            counts[unit_j, b] -= 1
            counts[unit_j, a] += 1
    cells[i], cells[j] = b, a


@numba.njit(**JIT)
def swap_chain(cells, units, counts, moves, picks, uniforms, temperature, cost):
    """anneal_chain on arrays. moves: one row (i, j, allowed) per swap; picks: the rows to try.

    Returns (tried, accepted, cost).
    """
    tried = accepted = 0
    for step in range(picks.size):
        i, j, allowed = moves[picks[step], 0], moves[picks[step], 1], moves[picks[step], 2]
        if not (allowed >> cells[i]) & (allowed >> cells[j]) & 1:
            continue
        tried += 1
        delta = delta_swap(cells, units, counts, i, j)
        if delta <= 0 or uniforms[step] < math.exp(-delta / temperature):
            swap(cells, units, counts, i, j)
            cost += delta
            accepted += 1
            if cost == 0:
                break
    return tried, accepted, cost


@numba.njit(**JIT)
def rotation_chain(cells, units, counts, candidates, rotations, picks, uniforms, temperature, cost):
    """annealing.rotation_chain on arrays. rotations: one row (i, j, k) per rotation; picks: the rows to try.

    Returns (tried, accepted, cost).
    """
    tried = accepted = 0
    for step in range(picks.size):
        i, j, k = rotations[picks[step], 0], rotations[picks[step], 1], rotations[picks[step], 2]
        if not (candidates[i] >> cells[j]) & (candidates[j] >> cells[k]) & (candidates[k] >> cells[i]) & 1:
            continue
        tried += 1
        delta = delta_swap(cells, units, counts, i, j)
        swap(cells, units, counts, i, j)
        delta += delta_swap(cells, units, counts, j, k)
        swap(cells, units, counts, j, k)
        if delta <= 0 or uniforms[step] < math.exp(-delta / temperature):
            cost += delta
            accepted += 1
            if cost == 0:
                break
        else:
            swap(cells, units, counts, j, k)
            swap(cells, units, counts, i, j)
    return tried, accepted, cost


@numba.njit(**JIT)
def in_conflict(cells, units, counts, cell):
    """True if the digit of `cell` repeats in its row, its column or its box (ConflictTable.in_conflict)."""
    digit = cells[cell]
    return counts[units[cell, 0], digit] > 1 or counts[units[cell, 1], digit] > 1 or counts[units[cell, 2], digit] > 1


@numba.njit(**JIT)
def starts(cells, units, counts, unit_of, out):
    """Write the cells `annealing._starts` lists into `out` (the free cells in conflict, or every free cell if
    none is); return how many."""
    found = 0
    for cell in range(unit_of.size):
        if unit_of[cell] >= 0 and in_conflict(cells, units, counts, cell):
            out[found] = cell
            found += 1
    if found == 0:
        for cell in range(unit_of.size):
            if unit_of[cell] >= 0:
                out[found] = cell
                found += 1
    return found


@numba.njit(**JIT)
def cycle_from(start, cells, candidates, unit_cells, unit_sizes, unit_of, steps, cycle):
    """annealing.cycle_from on arrays: write the cycle into `cycle` and return its length (0: the walk did not close).

    unit_cells[u, :unit_sizes[u]]: the free cells of unit u; unit_of[cell]: the unit of a free cell.
    """
    unit, first = unit_of[start], cells[start]
    cycle[0], length, allowed = start, 1, candidates[start]
    options = np.empty(unit_sizes[unit], dtype=np.int64)
    for step in steps:
        count = 0
        for k in range(unit_sizes[unit]):
            cell = unit_cells[unit, k]
            if (allowed >> cells[cell]) & 1 and cell not in cycle[:length]:
                options[count] = cell
                count += 1
        if count == 0:
            return 0
        cell = options[int(step * count)]
        cycle[length] = cell
        length += 1
        allowed = candidates[cell]
        if (allowed >> first) & 1:
            return length
    return 0


@numba.njit(**JIT)
def cycle_chain(cells, units, counts, candidates, unit_cells, unit_sizes, unit_of, draws, temperature, cost):
    """annealing.cycle_chain on arrays. draws: one row per move (a start, the steps, the Metropolis test).

    Returns (tried, accepted, cost).
    """
    tried = accepted = 0
    if cost == 0:
        return tried, accepted, cost
    found = np.empty(unit_of.size, dtype=np.int64)
    cycle = np.empty(unit_cells.shape[1], dtype=np.int64)
    count = starts(cells, units, counts, unit_of, found)
    for row in draws:
        start = found[int(row[0] * count)]
        if not in_conflict(cells, units, counts, start):
            count = starts(cells, units, counts, unit_of, found)
            start = found[int(row[0] * count)]
        length = cycle_from(start, cells, candidates, unit_cells, unit_sizes, unit_of, row[1:-1], cycle)
        if length == 0:
            continue
        tried += 1
        delta = 0
        for k in range(length - 1):
            delta += delta_swap(cells, units, counts, cycle[k], cycle[k + 1])
            swap(cells, units, counts, cycle[k], cycle[k + 1])
        if delta <= 0 or row[-1] < math.exp(-delta / temperature):
            cost += delta
            accepted += 1
            if cost == 0:
                break
        else:
            for k in range(length - 2, -1, -1):
                swap(cells, units, counts, cycle[k], cycle[k + 1])
    return tried, accepted, cost
