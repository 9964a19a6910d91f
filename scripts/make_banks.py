"""Regenerate the puzzle banks puzzles/easy.txt, medium.txt, hard.txt, expert.txt and diabolique.txt.

Run from anywhere: `python scripts/make_banks.py` (every bank; the diabolique one takes about
23 minutes of one core, the others a few minutes) or `python scripts/make_banks.py expert`
(the banks named). The seeds below are recorded
in each file's header; with the locked numpy version, rerunning the script
rewrites the files byte for byte. It prints the statistics table of puzzles/README.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from sudoku_course.puzzles import (
    DIABOLIQUE_MIN_GUESSES,
    EXPERT_MIN_EMPTY,
    EXPERT_MIN_OPEN,
    HARD_TRIES,
    MEDIUM_MAX_GUESSES,
    REFERENCE,
    generate,
    is_diabolique,
    is_expert,
    open_cells,
    rate,
)
from sudoku_course.solvers.exact import count_solutions, search_effort

BANKS_DIR = Path(__file__).resolve().parents[1] / "puzzles"
SEEDS = {
    "easy": range(1001, 1050),  # 49 generated puzzles after the témoin
    "medium": range(2001, 2051),
    "hard": range(3001, 3051),
    "expert": range(4001, 4051),
    "diabolique": range(5001, 5051),
}
RULES = {
    "easy": "naked and hidden singles alone solve it (0 guesses)",
    "medium": f"the exact solver guesses 1 to {MEDIUM_MAX_GUESSES} times",
    "hard": f"more than {MEDIUM_MAX_GUESSES} guesses; minimal; the most guesses among at least {HARD_TRIES} tries",
    "expert": f"minimal, at least {EXPERT_MIN_EMPTY} empty cells, at least {EXPERT_MIN_OPEN} of them open after"
    " naked and hidden singles (sudoku_course.puzzles.is_expert)",
    "diabolique": f"minimal, at least {EXPERT_MIN_OPEN} cells open after naked and hidden singles, at least"
    f" {DIABOLIQUE_MIN_GUESSES} guesses of the exact solver (sudoku_course.puzzles.is_diabolique)",
}
CRITERIA = {"expert": is_expert, "diabolique": is_diabolique}
"""The banks checked by criteria of their own rather than by `rate`."""


def header(difficulty: str, count: int) -> list[str]:
    """The comment lines that open a bank file."""
    seeds = SEEDS[difficulty]
    lines = [
        f"# Sudoku course, {difficulty} bank: {count} puzzles, one per line, 81 characters, 0 = empty cell.",
        f'# Made by scripts/make_banks.py with sudoku_course.puzzles.generate(seed, "{difficulty}"),',
        f"# seeds {seeds.start} to {seeds.stop - 1} in order, one puzzle per seed.",
    ]
    if difficulty == "easy":
        lines.append("# The first puzzle is the course's témoin (reference grid); the generated ones follow it.")
    rule = "Criteria" if difficulty in CRITERIA else "Rating (sudoku_course.puzzles.rate)"
    lines.append(f"# {rule}: {RULES[difficulty]}.")
    lines.append("# Every puzzle has exactly one solution.")
    return lines


def make_bank(difficulty: str) -> list[str]:
    """The puzzles of one bank as 81-character strings, checked."""
    puzzles = [REFERENCE] if difficulty == "easy" else []
    puzzles += [generate(seed, difficulty).to_string() for seed in SEEDS[difficulty]]
    if len(set(puzzles)) != len(puzzles):
        raise RuntimeError(f"the {difficulty} bank holds the same puzzle twice")
    for text in puzzles:
        if difficulty in CRITERIA:
            meets = CRITERIA[difficulty](text)
        else:
            meets = count_solutions(text) == 1 and rate(text) == difficulty
        if not meets:
            raise RuntimeError(f"{text} is not a unique {difficulty} puzzle")
    return puzzles


def spread(values: list[int]) -> str:
    """ "min to max (mean m, median d)", or the single value when they are all equal."""
    low, high, mean, median = min(values), max(values), float(np.mean(values)), float(np.median(values))
    return f"{low}" if low == high else f"{low} to {high} (mean {mean:.1f}, median {median:g})"


def describe(difficulty: str, puzzles: list[str]) -> str:
    """One row of the statistics table of puzzles/README.md: empty cells, open cells after singles, guesses."""
    empty = [text.count("0") for text in puzzles]
    left = [open_cells(text) for text in puzzles]
    guesses = [search_effort(text)["guesses"] for text in puzzles]
    seeds = SEEDS[difficulty]
    first = "témoin, then " if difficulty == "easy" else ""
    cells = [f"`{difficulty}.txt`", str(len(puzzles)), spread(empty), spread(left), spread(guesses)]
    return "| " + " | ".join([*cells, f"{first}{seeds.start} to {seeds.stop - 1}"]) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("banks", nargs="*", help=f"banks to remake, among {', '.join(SEEDS)} (default: all)")
    names = parser.parse_args().banks or list(SEEDS)
    unknown = sorted(set(names) - set(SEEDS))
    if unknown:
        parser.error(f"unknown bank(s) {', '.join(unknown)}; choose among {', '.join(SEEDS)}")
    print("| File | Puzzles | Empty cells | Open after singles | Guesses (exact solver) | Seeds |")
    print("|---|--:|---|---|---|---|")
    for difficulty in names:
        puzzles = make_bank(difficulty)
        text = "\n".join(header(difficulty, len(puzzles)) + puzzles) + "\n"
        (BANKS_DIR / f"{difficulty}.txt").write_text(text, encoding="utf-8")
        print(describe(difficulty, puzzles), flush=True)


if __name__ == "__main__":
    main()
