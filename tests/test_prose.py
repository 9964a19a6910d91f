"""Prose that reads its data (teaching.prose): figures quoted by interpretations, pointing phrases."""

from __future__ import annotations

from decimal import Decimal

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from sudoku_course.teaching.prose import normal, pointing_phrases, quoted_figures, unquoted_figures


def test_a_figure_is_the_same_in_french_and_python_writing():
    assert normal("8 000") == normal("8\u202f000") == normal("8000") == Decimal(8000)
    assert normal("0,50") == normal("0.5")


def test_quoted_figures_leave_out_headings_code_math_years_and_references():
    text = (
        "## 3. Titre 12\n"
        "Le GA résout 48 grilles sur 50 (`seed=7`, $9^{36}$, [lien](page-14.html)), "
        "comme Holland (1975) et la section 4 le disent ; médiane de 3,5 conflits."
    )
    assert quoted_figures(text) == ["48", "50", "3,5"]


def printed(text: str):
    return new_code_cell("print()", outputs=[new_output("stream", name="stdout", text=text)])


def test_a_figure_must_be_printed_above_its_interpretation(tmp_path):
    path = tmp_path / "lesson.ipynb"
    cells = [
        new_code_cell("SEEDS = 30", metadata={"tags": ["parameters"]}),
        printed("résolues : 48 sur 50 ; médiane 3,5"),
        new_markdown_cell("**Interprétation.** 48 grilles sur 50, médiane de 3,5 conflits, sur 30 graines ; 49 ?"),
        new_markdown_cell("Une cellule d'explication, pas une interprétation : 77."),
        printed("rien"),
        new_markdown_cell("**Lecture.** Ici 12 n'est imprimé nulle part au-dessus."),
    ]
    nbformat.write(new_notebook(cells=cells), path)
    assert [(item.cell, item.figure) for item in unquoted_figures(path)] == [(2, "49"), (5, "12")]


def test_pointing_phrases_are_counted(tmp_path):
    path = tmp_path / "lesson.ipynb"
    text = "La troisième ligne imprimée le dit, la dernière colonne aussi ; la ligne imprimée sous le tableau."
    nbformat.write(new_notebook(cells=[new_markdown_cell(text)]), path)
    assert pointing_phrases(path) == 4
