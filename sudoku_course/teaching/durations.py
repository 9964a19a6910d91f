"""How long a lesson takes: reading time computed from its words, and the essential path of a session.

    python -m sudoku_course.teaching.durations [NOTEBOOK ...]      (default: every lesson of notebooks/)

A reader reads `WORDS_PER_MINUTE` words a minute, prose and outputs alike (tables, printed lines, verdicts):
`reading_minutes` counts the words of the markdown cells and of the text outputs of a committed notebook.
A lesson's level-2 sections (`## ...`) are essential unless their heading says « pour aller plus loin »;
its exercises are essential unless their registration says `essential=False`. The essential path of a session
is the essential sections' reading plus the essential exercises' minutes, and must fit `SESSION_MINUTES`.

The head of each lesson states these figures in a line « **Durée.** ... » (see `stated_durations`);
`tests/test_durations.py` fails when a stated figure is below the computed one.
"""

from __future__ import annotations

import argparse
import html
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat

from .exercises import lesson_exercises

WORDS_PER_MINUTE = 150
SESSION_MINUTES = 120
FURTHER = "pour aller plus loin"
"""The words that mark a section (in its heading) or an exercise (in its plan) as optional."""
WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
TAG = re.compile(r"<[^>]+>")
STATED = re.compile(r"(lecture|exercices essentiels|parcours essentiel|tout compris)\s*:\s*(\d+)\s*min", re.I)


def words(text: str) -> int:
    """The number of words of `text` (numbers count as words; punctuation and markup symbols do not)."""
    return len(WORD.findall(text))


def output_text(output: dict) -> str:
    """What a reader reads of one output: its stream text, else its HTML without tags, else its plain text."""
    if output.get("output_type") == "stream":
        return output.get("text", "")
    data = output.get("data", {})
    if "text/html" in data:
        return html.unescape(TAG.sub(" ", data["text/html"]))
    return data.get("text/plain", "")


def is_further(heading: str) -> bool:
    """True if a heading marks its section as « pour aller plus loin »."""
    return FURTHER in heading.casefold()


@dataclass(frozen=True)
class Reading:
    """Words of a notebook, split between its essential sections and those « pour aller plus loin »."""

    essential_words: int
    further_words: int

    @property
    def essential_minutes(self) -> float:
        return self.essential_words / WORDS_PER_MINUTE

    @property
    def total_minutes(self) -> float:
        return (self.essential_words + self.further_words) / WORDS_PER_MINUTE


def reading(path: Path | str) -> Reading:
    """Count the words of a committed notebook (markdown and outputs), section by section."""
    notebook = nbformat.read(path, as_version=4)
    essential = further = 0
    in_further = False
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            heading = next((line for line in cell.source.splitlines() if line.startswith("## ")), None)
            if heading is not None:
                in_further = is_further(heading)
            count = words(cell.source)
        elif cell.cell_type == "code":
            count = sum(words(output_text(output)) for output in cell.get("outputs", []))
        else:
            count = 0
        if in_further:
            further += count
        else:
            essential += count
    return Reading(essential, further)


@dataclass(frozen=True)
class Durations:
    """The computed durations of one lesson, in whole minutes (rounded up)."""

    lesson: str
    essential_reading: int
    full_reading: int
    essential_exercises: int
    all_exercises: int

    @property
    def essential_path(self) -> int:
        return self.essential_reading + self.essential_exercises

    @property
    def everything(self) -> int:
        return self.full_reading + self.all_exercises

    def statement(self) -> str:
        """The French line a lesson's head shows (the figures it states may be larger, never smaller)."""
        return (
            f"**Durée.** Parcours essentiel : {self.essential_path} min (lecture : {self.essential_reading} min, "
            f"exercices essentiels : {self.essential_exercises} min) ; tout compris : {self.everything} min, "
            f"sections et exercices « {FURTHER} » inclus. Temps de lecture calculé à {WORDS_PER_MINUTE} mots "
            "par minute, prose et sorties comprises."
        )


def durations(path: Path | str) -> Durations:
    """The durations of the lesson notebook at `path`, its exercises taken from the registry."""
    lesson = Path(path).stem
    counted = reading(path)
    exercises = lesson_exercises(lesson)
    return Durations(
        lesson,
        math.ceil(counted.essential_minutes),
        math.ceil(counted.total_minutes),
        sum(item.minutes for item in exercises if item.essential),
        sum(item.minutes for item in exercises),
    )


def stated_durations(path: Path | str) -> dict[str, int]:
    """The figures the head of a lesson states in its « Durée » line: label (lower case) -> minutes."""
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and "**Durée.**" in cell.source:
            line = next(line for line in cell.source.splitlines() if "**Durée.**" in line)
            return {label.casefold(): int(minutes) for label, minutes in STATED.findall(line)}
    return {}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sudoku_course.teaching.durations", description=__doc__.split("\n")[0]
    )
    parser.add_argument("notebooks", nargs="*", type=Path, help="lesson notebooks (default: notebooks/*.ipynb)")
    paths = parser.parse_args(argv).notebooks or sorted(Path("notebooks").glob("*.ipynb"))
    for path in paths:
        print(f"{path}:\n  {durations(path).statement()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
