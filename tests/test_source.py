from __future__ import annotations

import inspect
import textwrap

from sudoku_course.cost import ConflictTable
from sudoku_course.teaching.source import show_source


def test_show_source_prints_the_code_that_runs(capsys):
    show_source(ConflictTable.delta_swap_cells)
    printed = capsys.readouterr().out
    assert printed == textwrap.dedent(inspect.getsource(ConflictTable.delta_swap_cells)).rstrip() + "\n"
    assert printed.startswith("def delta_swap_cells")  # dedented: a method reads like a function
