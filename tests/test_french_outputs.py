"""What a student reads in the committed lessons and solutions is French: no English name of the package
shows in an output.

The names come from the package's own constants (the columns of the benchmark and cross-study tables, the
kinds of units, the bank names, the verdict outcomes), so a new English column is caught as soon as a
notebook shows it. Looked for where a name is a label, not a word of a sentence: a table header or index
cell of an HTML table, a dict key in printed text (`'rows':`), a header line of a text table. Printed source
code (`show_source`) is code, not labels, and is left out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sudoku_course import bench, crossstudy
from sudoku_course.cost import UNIT_KINDS
from sudoku_course.puzzles import bank_names
from sudoku_course.teaching.labels import BANK_LABELS, COLUMN_LABELS, OUTCOME_LABELS

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("solutions/*.ipynb")])
ENGLISH = sorted(
    {*bench.TABLE_NAMES, *crossstudy.TABLE_NAMES, *UNIT_KINDS, *bank_names(), *OUTCOME_LABELS}
    - {
        *COLUMN_LABELS.values(),
        *BANK_LABELS.values(),
    }  # French words that are English too
)


def outputs(path: Path) -> list[tuple[int, str, str]]:
    """(cell index, mime type, text) of every output of a notebook."""
    found = []
    for index, cell in enumerate(json.loads(path.read_text())["cells"]):
        if "show_source(" in "".join(cell["source"]):
            continue  # printed source code: identifiers, not labels
        for output in cell.get("outputs", []):
            if "text" in output:
                found.append((index, "text", "".join(output["text"])))
            for mime, data in output.get("data", {}).items():
                if mime in ("text/plain", "text/html"):
                    found.append((index, mime, "".join(data)))
    return found


def english_labels(mime: str, text: str) -> set[str]:
    """The English names used as labels in one output."""
    names = set()
    for name in ENGLISH:
        word = re.escape(name)
        if mime == "text/html" and re.search(rf"<th[^>]*>\s*{word}\s*</th>", text):
            names.add(name)
        if re.search(rf"['\"]{word}['\"]\s*:", text):
            names.add(name)
        if mime != "text/html" and " " not in name and re.search(rf"(^|\s){word}(\s|$)", _table_lines(text)):
            names.add(name)
    return names


def _table_lines(text: str) -> str:
    """The lines of a text table printed by pandas (header and index cells), empty for prose."""
    lines = text.splitlines()
    looks_like_table = len(lines) >= 2 and all("  " in line for line in lines[:2])
    return "\n".join(lines) if looks_like_table else ""


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_no_english_label_in_an_output(path):
    problems = [
        f"cell {index} ({mime}): {sorted(names)}"
        for index, mime, text in outputs(path)
        if (names := english_labels(mime, text))
    ]
    assert not problems, "English labels in outputs:\n" + "\n".join(problems)


def test_the_scan_finds_english_headers_and_keys():
    assert english_labels("text/html", "<table><tr><th>solver</th><th>graine</th></tr></table>") == {"solver"}
    assert english_labels("text", "{'rows': 3, 'colonnes': 2}") == {"rows"}
    assert english_labels("text/plain", "  solver  difficulty\n0  exact  easy") >= {"solver", "difficulty", "easy"}
    assert english_labels("text", "Le solveur exact résout la grille easy-00.") == set()
