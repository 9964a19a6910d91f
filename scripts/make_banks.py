"""Regenerate the puzzle banks puzzles/easy.txt, medium.txt and hard.txt.

Run from anywhere: `python scripts/make_banks.py`. The seeds below are recorded
in each file's header; with the locked numpy version, rerunning the script
rewrites the three files byte for byte. It prints statistics for puzzles/README.md.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sudoku_course.puzzles import HARD_TRIES, MEDIUM_MAX_GUESSES, REFERENCE, generate, rate
from sudoku_course.solvers.exact import count_solutions, search_effort

BANKS_DIR = Path(__file__).resolve().parents[1] / "puzzles"
SEEDS = {
    "easy": range(1001, 1050),  # 49 generated puzzles after the témoin
    "medium": range(2001, 2051),
    "hard": range(3001, 3051),
}
RULES = {
    "easy": "naked and hidden singles alone solve it (0 guesses)",
    "medium": f"the exact solver guesses 1 to {MEDIUM_MAX_GUESSES} times",
    "hard": f"more than {MEDIUM_MAX_GUESSES} guesses; minimal; the most guesses among at least {HARD_TRIES} tries",
}


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
    lines.append(f"# Rating (sudoku_course.puzzles.rate): {RULES[difficulty]}.")
    lines.append("# Every puzzle has exactly one solution.")
    return lines


def make_bank(difficulty: str) -> list[str]:
    """The puzzles of one bank as 81-character strings, checked."""
    puzzles = [REFERENCE] if difficulty == "easy" else []
    puzzles += [generate(seed, difficulty).to_string() for seed in SEEDS[difficulty]]
    if len(set(puzzles)) != len(puzzles):
        raise RuntimeError(f"the {difficulty} bank holds the same puzzle twice")
    for text in puzzles:
        if count_solutions(text) != 1 or rate(text) != difficulty:
            raise RuntimeError(f"{text} is not a unique {difficulty} puzzle")
    return puzzles


def describe(difficulty: str, puzzles: list[str]) -> str:
    """One line of statistics: empty cells and guesses (min, mean, max)."""
    empty = np.array([text.count("0") for text in puzzles])
    guesses = np.array([search_effort(text)["guesses"] for text in puzzles])
    return (
        f"{difficulty}: {len(puzzles)} puzzles; empty cells {empty.min()}-{empty.max()} (mean {empty.mean():.1f});"
        f" guesses {guesses.min()}-{guesses.max()} (mean {guesses.mean():.1f})"
    )


def main() -> None:
    for difficulty in SEEDS:
        puzzles = make_bank(difficulty)
        text = "\n".join(header(difficulty, len(puzzles)) + puzzles) + "\n"
        (BANKS_DIR / f"{difficulty}.txt").write_text(text, encoding="utf-8")
        print(describe(difficulty, puzzles))


if __name__ == "__main__":
    main()
