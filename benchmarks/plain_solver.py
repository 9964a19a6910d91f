"""A plain 9 x 9 Sudoku solver: the yardstick of benchmarks/bench_exact.py.

The same algorithm as sudoku_course.solvers.exact, written independently in one module and without
grid objects: a bit mask of possible digits per cell (bit d - 1 for digit d), naked and hidden
singles until nothing changes, then a guess on the first cell with the fewest candidates, its
digits tried from the smallest.

Frozen: a yardstick must not move, so this file is not optimised after its first commit.
"""

from __future__ import annotations

SIDE = 9
ALL_DIGITS = (1 << SIDE) - 1
CELLS = range(SIDE * SIDE)
ROWS = [[row * SIDE + col for col in range(SIDE)] for row in range(SIDE)]
COLS = [[row * SIDE + col for row in range(SIDE)] for col in range(SIDE)]
BOXES = [[(top + i) * SIDE + left + j for i in range(3) for j in range(3)] for top in (0, 3, 6) for left in (0, 3, 6)]
UNITS = ROWS + COLS + BOXES
NEIGHBOURS = [sorted({other for unit in UNITS if cell in unit for other in unit} - {cell}) for cell in CELLS]


def solve(puzzle: str) -> tuple[str | None, int]:
    """The first solution of an 81-character puzzle (`0` or `.` for an empty cell), and the guesses made.

    The solution is None when the puzzle has none.
    """
    masks = [ALL_DIGITS if char in "0." else 1 << (int(char) - 1) for char in puzzle]
    settled = [cell for cell in CELLS if puzzle[cell] not in "0."]
    guesses = [0]
    found = search(masks, settled, guesses)
    if found is None:
        return None, guesses[0]
    return "".join(str(mask.bit_length()) for mask in found), guesses[0]


def search(masks: list[int], settled: list[int], guesses: list[int]) -> list[int] | None:
    """Deduce, then guess recursively; return the solved masks or None. Counts guesses in guesses[0]."""
    if not deduce(masks, settled):
        return None
    cell = most_constrained(masks)
    if cell < 0:
        return masks
    guesses[0] += 1
    options = masks[cell]
    while options:
        digit_bit = options & -options
        options -= digit_bit
        attempt = masks[:]
        attempt[cell] = digit_bit
        found = search(attempt, [cell], guesses)
        if found is not None:
            return found
    return None


def deduce(masks: list[int], settled: list[int]) -> bool:
    """Naked and hidden singles, in place, until stable; False as soon as a cell or a digit has no place.

    `settled` holds the cells just reduced to one digit, whose neighbours still have to lose it.
    """
    while settled:
        while settled:
            cell = settled.pop()
            digit_bit = masks[cell]
            for other in NEIGHBOURS[cell]:
                mask = masks[other]
                if mask & digit_bit:
                    mask &= ~digit_bit
                    if mask == 0:
                        return False
                    masks[other] = mask
                    if mask & (mask - 1) == 0:
                        settled.append(other)
        for unit in UNITS:
            seen = seen_twice = 0
            for cell in unit:
                seen_twice |= seen & masks[cell]
                seen |= masks[cell]
            if seen != ALL_DIGITS:
                return False
            lonely = seen & ~seen_twice
            if lonely == 0:
                continue
            for cell in unit:
                hit = masks[cell] & lonely
                if hit == 0:
                    continue
                if hit & (hit - 1):
                    return False
                if hit != masks[cell]:
                    masks[cell] = hit
                    settled.append(cell)
    return True


def most_constrained(masks: list[int]) -> int:
    """The first cell with the fewest candidates among those with two or more, or -1 if all are single."""
    best, fewest = -1, SIDE + 1
    for cell in CELLS:
        mask = masks[cell]
        if mask & (mask - 1):
            count = mask.bit_count()
            if count < fewest:
                best, fewest = cell, count
                if count == 2:
                    break
    return best
