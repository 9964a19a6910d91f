"""Figures (plots.py): the artists drawn, not the pixels."""

from __future__ import annotations

import matplotlib.pyplot as plt
import nbformat
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from nbclient import NotebookClient

from sudoku_course.grid import SudokuGrid
from sudoku_course.plots import (
    CONFLICT_COLOR,
    COURSE_STYLE,
    FILLED_COLOR,
    GIVEN_COLOR,
    PLOT_LABELS,
    plot_annealing_trace,
    plot_benchmark,
    plot_convergence,
    plot_run_time_distribution,
    round_ticks,
    show_grid,
    use_course_style,
)
from sudoku_course.teaching.labels import PLOT_LABELS as FRENCH_PLOT_LABELS

TEMOIN = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


@pytest.fixture(autouse=True)
def agg_backend():
    """Draw off-screen, and close every figure after each test."""
    plt.switch_backend("Agg")
    yield
    plt.close("all")


def _texts(ax) -> dict[tuple[int, int], Text]:
    """The digit texts of a drawn grid, by (row, column)."""
    return {(int(t.get_position()[1]), int(t.get_position()[0])): t for t in ax.texts}


def _conflict_patches(ax) -> list[tuple[int, int]]:
    return sorted(
        (int(p.get_y()), int(p.get_x()))
        for p in ax.patches
        if isinstance(p, Rectangle) and p.get_facecolor() == to_rgba(CONFLICT_COLOR)
    )


# --------------------------------------------------------------- show_grid
def test_show_grid_draws_one_text_per_filled_cell():
    ax = show_grid(TEMOIN, title="témoin")
    texts = _texts(ax)
    assert len(texts) == 45
    assert texts[(0, 0)].get_text() == "9" and texts[(0, 2)].get_text() == "2"
    assert (0, 1) not in texts
    assert ax.get_title() == "témoin"
    assert _conflict_patches(ax) == []


def test_show_grid_tells_givens_from_filled_digits():
    puzzle = SudokuGrid.from_string(TEMOIN)
    cells = puzzle.cells.copy()
    cells[0, 1] = 6  # the right digit for this empty cell
    ax = show_grid(puzzle.with_cells(cells))
    given, filled = _texts(ax)[(0, 0)], _texts(ax)[(0, 1)]
    assert given.get_color() == GIVEN_COLOR and given.get_fontweight() == "bold"
    assert filled.get_color() == FILLED_COLOR and filled.get_fontweight() == "normal"


def test_show_grid_highlights_exactly_the_conflicting_cells():
    puzzle = SudokuGrid.from_string(TEMOIN)
    cells = puzzle.cells.copy()
    cells[0, 1] = 9  # clashes with the 9 at (0, 0), in its row and its box
    grid = puzzle.with_cells(cells)
    ax = show_grid(grid)
    expected = sorted(map(tuple, np.argwhere(grid.conflicting_cells()).tolist()))
    assert (0, 0) in expected and (0, 1) in expected
    assert _conflict_patches(ax) == expected


def test_show_grid_draws_thick_box_borders():
    ax = show_grid(TEMOIN)
    widths = sorted(set(np.concatenate([c.get_linewidths() for c in ax.collections]).tolist()))
    assert widths == [0.5, 2.0]


@pytest.mark.parametrize("box_size", [2, 4])
def test_show_grid_handles_other_sizes(box_size):
    n = box_size * box_size
    cells = np.zeros((n, n), dtype=int)
    cells[0, 0], cells[n - 1, n - 1] = 1, n
    ax = show_grid(SudokuGrid(cells))
    assert sorted(t.get_text() for t in ax.texts) == sorted(["1", "G" if n == 16 else str(n)])
    assert ax.get_xlim() == (0, n)


def test_show_grid_uses_the_given_axes():
    _, ax = plt.subplots()
    assert show_grid(TEMOIN, ax=ax) is ax


# ---------------------------------------------------------- plot_benchmark
def _summary(disqualified=None) -> pd.DataFrame:
    summary = pd.DataFrame(
        {
            "solver": ["exact", "exact", "slow", "slow"],
            "difficulty": ["easy", "hard", "easy", "hard"],
            "success_rate": [1.0, 1.0, 1.0, 0.5],
            "median_seconds": [0.01, 0.02, 0.5, 2.0],
        }
    )
    if disqualified is not None:
        summary["disqualified"] = disqualified
    return summary


def test_plot_benchmark_draws_one_bar_per_solver_and_difficulty():
    ax = plot_benchmark(_summary())
    heights = [bar.get_height() for bar in ax.patches]
    assert heights == pytest.approx([0.01, 0.02, 0.5, 2.0])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["easy", "hard"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["exact", "slow"]


def test_plot_benchmark_can_show_the_success_rate_on_a_log_scale():
    ax = plot_benchmark(_summary(), metric="success_rate", log=True)
    assert [bar.get_height() for bar in ax.patches] == pytest.approx([1.0, 1.0, 1.0, 0.5])
    assert ax.get_yscale() == "log"
    assert ax.get_ylabel() == PLOT_LABELS["success_rate"] == "success rate"


def test_plot_benchmark_draws_the_labels_it_is_given():
    labels = {"difficulty": "difficulté", "solver": "solveur", "easy": "facile", "hard": "difficile", "slow": "lent"}
    ax = plot_benchmark(_summary(disqualified=[False, False, False, True]), labels=labels)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["facile", "difficile"]
    assert ax.get_xlabel() == "difficulté" and ax.get_ylabel() == PLOT_LABELS["median_seconds"]
    legend = ax.get_legend()
    assert legend.get_title().get_text() == "solveur"
    assert [t.get_text() for t in legend.get_texts()] == ["exact", "lent", PLOT_LABELS["disqualified"]]


def test_french_plot_labels_cover_every_word_a_figure_draws():
    ax = plot_benchmark(_summary(disqualified=[False, False, False, True]), labels=FRENCH_PLOT_LABELS)
    assert set(PLOT_LABELS) <= set(FRENCH_PLOT_LABELS)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["facile", "difficile"]
    assert "disqualifié" in [t.get_text() for t in ax.get_legend().get_texts()]
    ax = plot_convergence({"a": [3, 0]}, labels=FRENCH_PLOT_LABELS)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("itération", "meilleur coût (conflits)")
    axes = plot_annealing_trace({"a": TRACE}, labels=FRENCH_PLOT_LABELS)
    assert [ax.get_ylabel() for ax in axes] == ["température", "taux d'acceptation", "énergie (conflits)"]
    assert [t.get_text() for t in axes[-1].get_legend().get_texts()] == ["état courant", "meilleure jusqu'ici"]


def test_plot_benchmark_hatches_disqualified_bars():
    ax = plot_benchmark(_summary(disqualified=[False, False, False, True]))
    hatches = [bar.get_hatch() for bar in ax.patches]
    assert hatches == [None, None, None, "//"]
    assert "disqualified" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_plot_benchmark_rejects_an_unknown_metric():
    with pytest.raises(ValueError, match="no column 'speed'"):
        plot_benchmark(_summary(), metric="speed")


# -------------------------------------------------------- plot_convergence
def test_plot_convergence_draws_one_curve_per_history():
    histories = {"seed 0": [9, 5, 5, 0], "seed 1": [8, 7]}
    ax = plot_convergence(histories, title="recuit")
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["seed 0", "seed 1"]
    assert lines[0].get_xdata().tolist() == [1, 2, 3, 4]
    assert lines[0].get_ydata().tolist() == [9, 5, 5, 0]
    assert ax.get_title() == "recuit"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("iteration", "best cost (conflicts)")
    renamed = plot_convergence(histories, labels={"seed 0": "graine 0", "iteration": "époque"})
    assert [line.get_label() for line in renamed.get_lines()] == ["graine 0", "seed 1"]
    assert renamed.get_xlabel() == "époque"


def test_plot_convergence_log_scale_keeps_zero_and_empty_input_is_refused():
    assert plot_convergence({"a": [3, 0]}, log=True).get_yscale() == "symlog"


def test_a_log_convergence_plot_labels_several_round_ticks():
    ax = plot_convergence({"easy": [28, 20, 12, 7], "hard": [33, 25, 9]}, log=True)
    low, high = ax.get_ylim()
    labels = [tick.get_text() for tick in ax.get_yticklabels() if low <= tick.get_position()[1] <= high]
    assert len(labels) >= 3 and labels == [f"{value:g}" for value in round_ticks(low, high)]
    assert round_ticks(0, 25) == [0, 1, 2, 5, 10, 20] and round_ticks(7, 33) == [7, 10, 20, 30]
    with pytest.raises(ValueError, match="no history"):
        plot_convergence({})


# ---------------------------------------------------- plot_annealing_trace
TRACE = [
    {"temperature": 2.0, "acceptance": 0.8, "energy": 30, "best": 25},
    {"temperature": 1.8, "acceptance": 0.6, "energy": 20, "best": 20},
    {"temperature": 1.62, "acceptance": 0.5, "energy": 22, "best": 18},
]


def test_plot_annealing_trace_draws_each_key_per_chain():
    axes = plot_annealing_trace({"run": TRACE}, title="recuit")
    assert len(axes) == 3 and axes[0].get_title() == "recuit"
    temperature, acceptance, energy = (ax.get_lines() for ax in axes)
    assert temperature[0].get_xdata().tolist() == [1, 2, 3]
    assert temperature[0].get_ydata().tolist() == [2.0, 1.8, 1.62]
    assert acceptance[0].get_ydata().tolist() == [0.8, 0.6, 0.5]
    assert [line.get_ydata().tolist() for line in energy] == [[30, 20, 22], [25, 20, 18]]
    assert energy[1].get_linestyle() == "--" and energy[0].get_color() == energy[1].get_color()
    assert axes[-1].get_xlabel() == PLOT_LABELS["chain"]
    assert axes[0].get_legend() is None  # one run: no legend of runs


def test_plot_annealing_trace_tells_runs_apart_and_refuses_no_trace():
    axes = plot_annealing_trace({"témoin": TRACE, "moyenne": TRACE[:2]}, labels={"témoin": "le témoin"})
    assert [t.get_text() for t in axes[0].get_legend().get_texts()] == ["le témoin", "moyenne"]
    first, second = axes[0].get_lines()
    assert first.get_color() != second.get_color()
    with pytest.raises(ValueError, match="no trace"):
        plot_annealing_trace({"vide": []})


# ------------------------------------------------------------------ style
def test_plots_use_the_course_style_without_changing_global_settings():
    before = dict(plt.rcParams)
    ax = plot_convergence({"a": [1, 0]})
    assert not ax.spines["top"].get_visible()
    assert plt.rcParams["axes.spines.top"] == before["axes.spines.top"]


def test_use_course_style_applies_it_globally():
    with plt.rc_context():
        use_course_style()
        for key, value in COURSE_STYLE.items():
            assert plt.rcParams[key] == (list(value) if isinstance(value, tuple) else value)


def test_figures_drawn_after_a_course_plot_are_still_shown_in_a_kernel():
    # In a Jupyter kernel the first figure switches matplotlib to interactive mode; restoring every setting
    # after a course plot used to switch it off again, and later figures were silently not displayed.
    cells = [
        "from sudoku_course.plots import show_grid\nfrom sudoku_course.puzzles import reference",
        "ax = show_grid(reference())",
        "import matplotlib.pyplot as plt\nline = plt.plot([1, 2])",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    outputs = [[output.output_type for output in cell.outputs] for cell in nb.cells]
    assert outputs == [[], ["display_data"], ["display_data"]]


# --------------------------------------------------------------- run-time distributions
def test_the_run_time_distribution_draws_one_step_curve_per_configuration_on_a_log_scale():
    rtd = pd.DataFrame(
        {
            "configuration": ["R2 × SA", "R2 × SA", "R1 × SA"],
            "evaluations": [900.0, 8000.0, 8000.0],
            "solved_share": [0.5, 1.0, 0.0],
            "low": [0.25, 1.0, 0.0],
            "high": [0.75, 1.0, 0.0],
        }
    )
    ax = plot_run_time_distribution(rtd, labels=FRENCH_PLOT_LABELS)
    assert ax.get_xscale() == "log" and ax.get_xlabel() == FRENCH_PLOT_LABELS["evaluations"]
    assert ax.get_ylabel() == FRENCH_PLOT_LABELS["solved_share"] == "part des exécutions résolues"
    first, second = ax.get_lines()
    assert list(first.get_xdata()) == [900, 900, 8000] and list(first.get_ydata()) == [0, 0.5, 1]
    assert list(second.get_ydata()) == [0, 0]
    assert [text.get_text() for text in ax.get_legend().get_texts()] == ["R2 × SA", "R1 × SA"]
    assert len(ax.collections) == 2  # one band per curve
    with pytest.raises(ValueError, match="no run-time distribution"):
        plot_run_time_distribution(rtd.iloc[:0])
