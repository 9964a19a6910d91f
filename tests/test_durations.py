"""Reading times and the essential path of a lesson (teaching.durations)."""

from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from sudoku_course.teaching import durations
from sudoku_course.teaching.durations import Durations, output_text, reading, stated_durations, words


def test_words_count_french_words_and_numbers_not_symbols():
    assert (
        words("L'état d'énergie vaut 12 ; c'est-à-dire « peu » — voilà.") == 7
    )  # an elided article stays with its word
    assert words("| --- | :---: | $x$ |") == 1


def test_outputs_are_read_as_a_reader_sees_them():
    assert output_text(new_output("stream", name="stdout", text="deux mots")) == "deux mots"
    table = new_output(
        "execute_result", data={"text/html": "<table><td>un&nbsp;tableau</td></table>", "text/plain": "x"}
    )
    assert words(output_text(table)) == 2
    assert output_text(new_output("execute_result", data={"text/plain": "trois mots ici"})) == "trois mots ici"


def notebook(tmp_path, cells) -> str:
    path = tmp_path / "99-essai.ipynb"
    nbformat.write(new_notebook(cells=cells), path)
    return str(path)


def test_sections_pour_aller_plus_loin_are_counted_apart(tmp_path):
    printed = new_code_cell("print()", outputs=[new_output("stream", name="stdout", text="quatre mots sont imprimés")])
    path = notebook(
        tmp_path,
        [
            new_markdown_cell("# Titre de la leçon"),
            new_markdown_cell("## 1. Essentiel\nsix mots de prose ici même"),
            printed,
            new_markdown_cell("## 2. Variante (pour aller plus loin)\ncinq mots seulement, pas plus"),
            printed,
            new_markdown_cell("## À retenir\nun deux"),
        ],
    )
    counted = reading(path)
    assert counted.further_words == 6 + 5 + 4  # heading, prose, output
    assert counted.essential_words == 4 + 8 + 4 + 4
    assert counted.total_minutes == (counted.essential_words + counted.further_words) / durations.WORDS_PER_MINUTE


def test_the_stated_figures_are_read_from_the_head(tmp_path):
    line = Durations("99-essai", 40, 55, 30, 70).statement()
    path = notebook(tmp_path, [new_markdown_cell(f"# Titre\n\n{line}")])
    assert stated_durations(path) == {
        "parcours essentiel": 70,
        "lecture": 40,
        "exercices essentiels": 30,
        "tout compris": 125,
    }
    assert stated_durations(notebook(tmp_path, [new_markdown_cell("# Sans durée")])) == {}
