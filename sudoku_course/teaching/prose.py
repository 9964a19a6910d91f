"""Prose that reads its data: the figures an interpretation quotes must be printed above it.

    python -m sudoku_course.teaching.prose [NOTEBOOK ...]      (default: notebooks/ and solutions/)

An interpretation is a markdown cell that follows a code cell with outputs. Each figure it quotes (a number
of the prose, outside code, math, links and headings; years and numbers of a lesson, section or exercise
aside) must appear in an output above it, or in the parameters cell: a re-run that changes a result then
fails the figures test (tests/test_prose.py) until the prose follows. `pointing_phrases` counts the phrases
that point to a line or a column instead of quoting the figure (« la troisième ligne imprimée »).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import nbformat

from .durations import output_text

NUMBER = re.compile(r"(?<![\w.,/])(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+(?:[.,]\d+)?)(?![\w])")
HIDDEN = re.compile(r"`[^`]*`|\$\$.*?\$\$|\$[^$]*\$|\]\([^)]*\)|<[^>]+>", re.S)
REFERENCE_WORDS = re.compile(
    r"(leçons?|sections?|exercices?|chapitres?|étapes?|parties?|cellules?|figures?|notebooks?|questions?|"
    r"lignes? de code|points?)\s*$",
    re.I,
)
POINTING = re.compile(
    r"(premi[eè]re|deuxi[eè]me|troisi[eè]me|quatri[eè]me|derni[eè]re|avant-derni[eè]re|seconde)"
    r"\s+(ligne|colonne|valeur|nombre)|ligne imprim|sous le tableau",
    re.I,
)


def normal(number: str) -> Decimal:
    """A quoted number as a value: « 8 000 » and « 8000 », « 0,50 » and « 0.5 » are the same figure."""
    return Decimal(re.sub(r"[ \u00a0\u202f]", "", number).replace(",", "."))


def figures(text: str) -> set[Decimal]:
    """Every number of a text (outputs, code), as values, signs ignored."""
    return {normal(match) for match in NUMBER.findall(text)}


def quoted_figures(markdown: str) -> list[str]:
    """The figures a markdown cell quotes: numbers of its prose, outside headings, code, math and links,
    except years (1900-2099) and the numbers of a lesson, section, exercise... (« la section 4 »)."""
    quoted = []
    for line in markdown.splitlines():
        if line.lstrip().startswith("#"):
            continue
        prose = HIDDEN.sub(" ", line)
        for match in NUMBER.finditer(prose):
            number = match.group(1)
            if re.fullmatch(r"(19|20)\d\d", number) or REFERENCE_WORDS.search(prose[: match.start()]):
                continue
            quoted.append(number)
    return quoted


@dataclass(frozen=True)
class Unquoted:
    """A figure of an interpretation that no output above it prints."""

    cell: int
    figure: str


def unquoted_figures(path: Path | str) -> Iterator[Unquoted]:
    """The figures of the notebook's interpretations that appear in no output above them (nor in the
    parameters cell)."""
    notebook = nbformat.read(path, as_version=4)
    printed: set[Decimal] = set()
    after_output = False
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            if "parameters" in cell.metadata.get("tags", []):
                printed |= figures(cell.source)
            outputs = cell.get("outputs", [])
            printed |= figures(" ".join(output_text(output) for output in outputs))
            after_output = bool(outputs)
        elif cell.cell_type == "markdown":
            if after_output:
                for figure in quoted_figures(cell.source):
                    if normal(figure) not in printed:
                        yield Unquoted(index, figure)
            after_output = False


def pointing_phrases(path: Path | str) -> int:
    """How many times the notebook's markdown points to « la n-ième ligne » instead of quoting a figure."""
    notebook = nbformat.read(path, as_version=4)
    return sum(len(POINTING.findall(cell.source)) for cell in notebook.cells if cell.cell_type == "markdown")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sudoku_course.teaching.prose", description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks (default: notebooks/ and solutions/)")
    paths = parser.parse_args(argv).notebooks or sorted(
        [*Path("notebooks").glob("*.ipynb"), *Path("solutions").glob("*.ipynb")]
    )
    problems = 0
    for path in paths:
        for item in unquoted_figures(path):
            print(f"{path}: cell {item.cell}: « {item.figure} » is printed by no output above it")
            problems += 1
        print(f"{path}: {pointing_phrases(path)} pointing phrase(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
