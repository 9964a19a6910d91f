"""The numba engine of AnnealingSolver: its chains written on arrays and compiled.

The same loops as `annealing.anneal_chain` and `annealing.rotation_chain`, with the counts of an
`annealing.ArrayTable` in place of a ConflictTable, so that numba can compile them: they draw nothing
and take the same decisions as the Python loops from the same random numbers. This module imports
numba; `annealing` imports it only when engine="numba" is used.

cells[c]: the digit of flat cell c; units[c]: its row, column and box numbers; counts[u, d]: how many
cells of unit u hold digit d. The cost is the number of (unit, digit) pairs whose count is 0.
"""

from __future__ import annotations

import math

import numba

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
