"""Puzzles: a tolerant file reader, the bundled banks, and a seeded generator with its rating.

Difficulty is measured by the exact solver's effort (`search_effort`):

- easy: naked and hidden singles alone solve it (no guess);
- medium: the solver guesses at least once and at most MEDIUM_MAX_GUESSES times;
- hard: it guesses more than MEDIUM_MAX_GUESSES times.

The generator also makes every hard puzzle minimal: no clue can be removed
without losing the unique solution.

The expert bank is measured differently, by the space logic leaves to a
metaheuristic: an expert puzzle is minimal, has at least EXPERT_MIN_EMPTY empty
cells, and at least EXPERT_MIN_OPEN of them stay open (two candidates or more)
after naked and hidden singles (`open_cells`), so it always needs a guess.

The diabolique bank is as open and also deep: a diabolique puzzle is minimal,
leaves at least EXPERT_MIN_OPEN cells open after singles, and needs at least
DIABOLIQUE_MIN_GUESSES guesses (the public "top95" set needs 33.6 on average).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path

import numpy as np

from .grid import InvalidPuzzleError, SudokuGrid, as_grid
from .propagation import propagated_candidates
from .solvers.exact import count_solutions, rating_solution, search_effort

REFERENCE = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
"""The témoin shared by every lesson: 45 givens, 36 empty cells, unique solution starting 962185473."""

BANKS_PACKAGE = "sudoku_course.banks"  # the repository's puzzles/ folder, installed as a package
DIFFICULTIES = ("easy", "medium", "hard")
"""The ratings of `rate`, by the exact solver's guesses."""
BANKS = (*DIFFICULTIES, "expert", "diabolique")
"""The bundled banks, easiest first; each is made by `generate(seed, name)`."""
MEDIUM_MAX_GUESSES = 10
EASY_EMPTY_SHARE = (0.40, 0.60)  # an easy puzzle gets a random number of empty cells in this share of the grid
HARD_TRIES = 20  # minimal puzzles made per hard puzzle; the one needing the most guesses wins
EXPERT_MIN_EMPTY = 58  # an expert puzzle has at least this many empty cells...
EXPERT_MIN_OPEN = 54  # ...and at least this many of them open after naked and hidden singles
DIABOLIQUE_MIN_GUESSES = 30  # a diabolique puzzle needs at least this many guesses (and is as open as an expert one)
CLIMB_EXCHANGES = 2000  # clue exchanges tried from one solution before a hill climb draws a new one
MAX_TRIES = 1000  # the generator gives up (RuntimeError) after this many full puzzles
_COUNT_LINE_MAX = 6  # a leading line of at most this many digits is a puzzle count, not a puzzle


# ---------------------------------------------------------------- reading
def parse_puzzles(text: str, source: str = "<text>") -> list[SudokuGrid]:
    """Read one puzzle per line; skip blank lines, `#` comments and a leading count line.

    Errors are InvalidPuzzleError messages that start with `source` and the line number, and count columns
    in that line: "bad.txt, line 2: unknown character '?' at column 11".
    """
    puzzles = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0]  # read unstripped: the columns of an error are the line's
        stripped = content.strip()
        if not stripped or (not puzzles and stripped.isdigit() and len(stripped) <= _COUNT_LINE_MAX):
            continue
        try:
            puzzles.append(SudokuGrid.from_string(content))
        except InvalidPuzzleError as error:
            raise error.within(file=source, line=line_no) from error
    return puzzles


def read_puzzles(path: str | Path) -> list[SudokuGrid]:
    """Read a puzzle file (see parse_puzzles); errors name the file and the line."""
    path = Path(path)
    return parse_puzzles(path.read_text(encoding="utf-8"), path.name)


# ------------------------------------------------------------------ banks
def bank_names() -> list[str]:
    """Names of the bundled banks, easiest first."""
    return list(BANKS)


def load_bank(name: str) -> list[SudokuGrid]:
    """The puzzles of a bundled bank (see `bank_names`), read from the installed package."""
    if name not in BANKS:
        raise ValueError(f"unknown bank {name!r}; available: {', '.join(bank_names())}")
    text = resources.files(BANKS_PACKAGE).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    return parse_puzzles(text, f"{name}.txt")


def reference() -> SudokuGrid:
    """The témoin: the reference puzzle of every lesson (also the first puzzle of the easy bank)."""
    return SudokuGrid.from_string(REFERENCE)


# ------------------------------------------------------------------ rating
def rate(puzzle) -> str:
    """Difficulty of a puzzle with a solution: "easy", "medium" or "hard" (see the module docstring)."""
    guesses = search_effort(puzzle)["guesses"]
    if guesses == 0:
        return "easy"
    return "medium" if guesses <= MEDIUM_MAX_GUESSES else "hard"


def open_cells(puzzle) -> int:
    """Empty cells that naked and hidden singles leave open (two candidates or more): what logic leaves to search.

    Raises InvalidPuzzleError if the deductions reach a contradiction (the puzzle has no solution).
    """
    return sum(1 for mask in propagated_candidates(puzzle) if mask & (mask - 1))


def is_expert(puzzle) -> bool:
    """True if the puzzle meets the expert bank's criteria: a unique solution, minimal, at least
    EXPERT_MIN_EMPTY empty cells and at least EXPERT_MIN_OPEN cells open after singles."""
    grid = as_grid(puzzle)
    return (
        grid.empty_count >= EXPERT_MIN_EMPTY
        and count_solutions(grid) == 1
        and open_cells(grid) >= EXPERT_MIN_OPEN
        and is_minimal(grid)
    )


def is_diabolique(puzzle) -> bool:
    """True if the puzzle meets the diabolique bank's criteria: a unique solution, minimal, at least
    EXPERT_MIN_OPEN cells open after singles and at least DIABOLIQUE_MIN_GUESSES guesses."""
    grid = as_grid(puzzle)
    return count_solutions(grid) == 1 and _diabolique_shortfall(grid) == 0 and is_minimal(grid)


def is_minimal(puzzle: SudokuGrid) -> bool:
    """True if the puzzle has one solution and loses it when any single clue is removed."""
    if count_solutions(puzzle) != 1:
        return False
    cells = puzzle.cells.ravel()
    for cell in np.flatnonzero(cells):
        fewer = cells.copy()
        fewer[cell] = 0
        if count_solutions(SudokuGrid(fewer, puzzle.box_size)) == 1:
            return False
    return True


# -------------------------------------------------------------- generation
def generate(seed: int, difficulty: str) -> SudokuGrid:
    """A 9 x 9 puzzle with a unique solution and the requested rating, the same for the same seed."""
    if difficulty not in BANKS:
        raise ValueError(f"unknown difficulty {difficulty!r}; available: {', '.join(BANKS)}")
    rng = np.random.default_rng(seed)
    if difficulty == "easy":
        return _easy_puzzle(rng)
    if difficulty == "medium":
        return _medium_puzzle(rng)
    if difficulty == "hard":
        return _hard_puzzle(rng)
    return _climb(rng, _expert_shortfall if difficulty == "expert" else _diabolique_shortfall)


def random_solution(rng: np.random.Generator, box_size: int = 3) -> SudokuGrid:
    """A random full grid: the diagonal boxes (which share no unit) shuffled, the rest completed by search."""
    b, n = box_size, box_size * box_size
    while True:  # a few fillings of the diagonal boxes cannot be completed (none seen for 9 x 9): draw again
        cells = np.zeros((n, n), dtype=np.int64)
        for box in range(b):
            cells[box * b : (box + 1) * b, box * b : (box + 1) * b] = rng.permutation(n).reshape(b, b) + 1
        completed = rating_solution(SudokuGrid(cells, box_size))
        if completed is not None:
            return SudokuGrid(completed.cells, box_size)


def _remove_clues(
    solution: SudokuGrid,
    rng: np.random.Generator,
    acceptable: Callable[[SudokuGrid], bool] = lambda puzzle: True,
    max_empty: int | None = None,
) -> SudokuGrid:
    """Empty the cells of `solution` in a seeded random order, keeping each removal only if the puzzle
    still has one solution and stays `acceptable`; stop once `max_empty` cells are empty.

    Without `max_empty` and with the default `acceptable`, the result is minimal: a removal refused
    once stays refused, since removing more clues can only add solutions.
    """
    cells = solution.cells.ravel().copy()
    empty = 0
    for cell in rng.permutation(cells.size):
        if max_empty is not None and empty >= max_empty:
            break
        if not cells[cell]:
            continue  # already empty (a partial grid being made minimal)
        value, cells[cell] = cells[cell], 0
        puzzle = SudokuGrid(cells, solution.box_size)
        if count_solutions(puzzle) == 1 and acceptable(puzzle):
            empty += 1
        else:
            cells[cell] = value
    return SudokuGrid(cells, solution.box_size)


def _singles_only(puzzle: SudokuGrid) -> bool:
    return bool(search_effort(puzzle)["singles_only"])


def _few_guesses(puzzle: SudokuGrid) -> bool:
    return search_effort(puzzle)["guesses"] <= MEDIUM_MAX_GUESSES


def _easy_puzzle(rng: np.random.Generator) -> SudokuGrid:
    """Remove clues while singles still solve the puzzle, up to a random number of empty cells."""
    low, high = (int(share * 81) for share in EASY_EMPTY_SHARE)
    target = int(rng.integers(low, high + 1))
    return _remove_clues(random_solution(rng), rng, _singles_only, max_empty=target)


def _medium_puzzle(rng: np.random.Generator) -> SudokuGrid:
    """Remove clues while the solver needs at most MEDIUM_MAX_GUESSES guesses; start again if it needs none."""
    for _ in range(MAX_TRIES):
        puzzle = _remove_clues(random_solution(rng), rng, _few_guesses)
        if rate(puzzle) == "medium":
            return puzzle
    raise RuntimeError(f"no medium puzzle found in {MAX_TRIES} tries")


def _hard_puzzle(rng: np.random.Generator) -> SudokuGrid:
    """The minimal puzzle needing the most guesses among HARD_TRIES, with more tries until one rates hard."""
    best, best_guesses = None, -1
    for tries in range(1, MAX_TRIES + 1):
        puzzle = _remove_clues(random_solution(rng), rng)
        guesses = search_effort(puzzle)["guesses"]
        if guesses > best_guesses:
            best, best_guesses = puzzle, guesses
        if tries >= HARD_TRIES and best_guesses > MEDIUM_MAX_GUESSES:
            return best
    raise RuntimeError(f"no hard puzzle found in {MAX_TRIES} tries")


def _climb(rng: np.random.Generator, shortfall_of: Callable[[SudokuGrid], int]) -> SudokuGrid:
    """A hill climb over clue sets from a minimal puzzle until `shortfall_of(puzzle)` is 0 (expert, diabolique).

    A step moves one clue to an empty cell (with the solution's digit there); if the puzzle keeps its
    unique solution it is made minimal again, and it replaces the current one unless it falls further
    short of the criteria. After CLIMB_EXCHANGES steps without reaching them, the climb starts again
    from a new solution.
    """
    for _ in range(MAX_TRIES):
        solution = random_solution(rng)
        puzzle = _remove_clues(solution, rng)
        shortfall = shortfall_of(puzzle)
        for _ in range(CLIMB_EXCHANGES):
            if shortfall == 0:
                return puzzle
            candidate = _exchange_clue(puzzle, solution, rng)
            if candidate is not None and (candidate_shortfall := shortfall_of(candidate)) <= shortfall:
                puzzle, shortfall = candidate, candidate_shortfall
        if shortfall == 0:
            return puzzle
    raise RuntimeError(f"no puzzle meeting the criteria found from {MAX_TRIES} solutions")


def _expert_shortfall(puzzle: SudokuGrid) -> int:
    """How far a uniquely solvable puzzle is from the expert criteria: missing empty cells plus missing open cells."""
    return max(0, EXPERT_MIN_EMPTY - puzzle.empty_count) + max(0, EXPERT_MIN_OPEN - open_cells(puzzle))


def _diabolique_shortfall(puzzle: SudokuGrid) -> int:
    """How far a uniquely solvable puzzle is from the diabolique criteria: missing open cells plus missing guesses."""
    guesses = search_effort(puzzle)["guesses"]
    return max(0, EXPERT_MIN_OPEN - open_cells(puzzle)) + max(0, DIABOLIQUE_MIN_GUESSES - guesses)


def _exchange_clue(puzzle: SudokuGrid, solution: SudokuGrid, rng: np.random.Generator) -> SudokuGrid | None:
    """The puzzle with one random clue moved to a random empty cell, then made minimal; None if not unique."""
    cells = puzzle.cells.ravel().copy()
    removed, added = rng.choice(np.flatnonzero(cells)), rng.choice(np.flatnonzero(cells == 0))
    cells[removed], cells[added] = 0, solution.cells.ravel()[added]
    exchanged = SudokuGrid(cells, puzzle.box_size)
    if count_solutions(exchanged) != 1:
        return None
    return _remove_clues(exchanged, rng)
