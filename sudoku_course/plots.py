"""Figures of the course: a drawn grid, benchmark bars, convergence curves, annealing traces and
run-time distributions.

Every function draws on the Axes it is given (or on a new figure) and returns
that Axes. All share one style, `COURSE_STYLE`; `use_course_style()` applies it
to the figures a notebook draws itself.

Axis titles, legend titles and the names drawn from the data (difficulties,
solvers, curve labels) come from `PLOT_LABELS`, in English; pass `labels=`
(a dict overriding some or all of them, and naming data values too, such as
{"easy": "facile"}) to draw them in another language.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import FixedLocator, FuncFormatter

from .bench import RTD_COLUMNS
from .grid import SYMBOLS, SudokuGrid, as_grid

GIVEN_COLOR = "black"
FILLED_COLOR = "#1f5fbf"
CONFLICT_COLOR = "#f8c0c0"
DISQUALIFIED_HATCH = "//"
COURSE_STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
}
METRICS = ("median_seconds", "success_rate", "median_evaluations")
"""The columns of a benchmark summary that `plot_benchmark` draws best."""
PLOT_LABELS = {
    "difficulty": "difficulty",
    "solver": "solver",
    "disqualified": "disqualified",
    "iteration": "iteration",
    "best_cost": "best cost (conflicts)",
    "median_seconds": "median time per puzzle (s)",
    "success_rate": "success rate",
    "median_evaluations": "median evaluations",
    "chain": "chain (one temperature)",
    "temperature": "temperature",
    "acceptance": "acceptance rate",
    "energy": "energy (conflicts)",
    "current": "current state",
    "best": "best so far",
    "evaluations": "evaluations (log scale)",
    "seconds": "seconds (log scale)",
    "solved_share": "share of runs solved",
    "configuration": "configuration",
}
"""The words the figures draw, in English; `labels=` overrides them."""
TRACE_PANELS = ("temperature", "acceptance", "energy")
"""The panels of `plot_annealing_trace`, top to bottom: keys of a trace record (energy also draws `best`)."""


def use_course_style() -> None:
    """Apply the course style to every figure drawn from now on."""
    plt.rcParams.update(COURSE_STYLE)


def _course_style(function):
    """Draw inside the course style without changing the caller's settings.

    Only the style's own keys are saved and restored. `plt.rc_context` would
    restore every setting, including the interactive mode that the first figure
    of a Jupyter kernel switches on, and later figures would then not be shown.
    """

    @functools.wraps(function)
    def styled(*args, **kwargs):
        saved = {key: plt.rcParams[key] for key in COURSE_STYLE}
        plt.rcParams.update(COURSE_STYLE)
        try:
            return function(*args, **kwargs)
        finally:
            plt.rcParams.update(saved)

    return styled


def _axes(ax: Axes | None, figsize: tuple[float, float] | None = None) -> Axes:
    """The given Axes, or the Axes of a new figure."""
    if ax is not None:
        return ax
    _, new_ax = plt.subplots(figsize=figsize)
    return new_ax


@_course_style
def show_grid(grid, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw a grid: givens in bold black, filled digits in blue, conflicting cells in red."""
    grid = grid if isinstance(grid, SudokuGrid) else as_grid(grid)
    n, b = grid.size, grid.box_size
    ax = _axes(ax, figsize=(4.5, 4.5))
    for r, c in np.argwhere(grid.conflicting_cells()):
        ax.add_patch(Rectangle((c, r), 1, 1, facecolor=CONFLICT_COLOR, edgecolor="none"))
    font_size = min(20.0, 130.0 / n)
    for r, c in np.argwhere(grid.cells != 0):
        given = bool(grid.givens[r, c])
        ax.text(
            c + 0.5,
            r + 0.5,
            SYMBOLS[grid.cells[r, c] - 1],
            ha="center",
            va="center",
            fontsize=font_size,
            color=GIVEN_COLOR if given else FILLED_COLOR,
            fontweight="bold" if given else "normal",
        )
    widths = [2.0 if i % b == 0 else 0.5 for i in range(n + 1)]
    ax.hlines(range(n + 1), 0, n, colors="black", linewidths=widths)
    ax.vlines(range(n + 1), 0, n, colors="black", linewidths=widths)
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax


def _labeller(labels: Mapping[str, str] | None):
    """A function giving the label of a name: `labels`, then PLOT_LABELS, then the name itself."""
    merged = {**PLOT_LABELS, **(labels or {})}
    return lambda name: merged.get(name, name)


@_course_style
def plot_benchmark(
    summary: pd.DataFrame,
    ax: Axes | None = None,
    metric: str = "median_seconds",
    log: bool = False,
    labels: Mapping[str, str] | None = None,
) -> Axes:
    """Bars of `metric` (a column of `summarize`) per difficulty, one bar per solver.

    Disqualified solvers (if the summary has a `disqualified` column) get hatched bars.
    `labels` overrides the axis and legend titles and names the difficulties and solvers (see PLOT_LABELS).
    """
    if metric not in summary.columns:
        raise ValueError(f"the summary has no column {metric!r}; try one of {', '.join(METRICS)}")
    label = _labeller(labels)
    ax = _axes(ax)
    difficulties = list(pd.unique(summary["difficulty"]))
    solvers = list(pd.unique(summary["solver"]))
    width = 0.8 / len(solvers)
    for k, solver in enumerate(solvers):
        rows = summary[summary["solver"] == solver].set_index("difficulty").reindex(difficulties)
        positions = np.arange(len(difficulties)) + (k - (len(solvers) - 1) / 2) * width
        bars = ax.bar(positions, rows[metric].astype(float), width, label=label(solver))
        if "disqualified" in rows:
            for bar, disqualified in zip(bars, rows["disqualified"].eq(True), strict=True):
                if disqualified:
                    bar.set_hatch(DISQUALIFIED_HATCH)
    ax.set_xticks(range(len(difficulties)), [label(name) for name in difficulties])
    ax.set_xlabel(label("difficulty"))
    ax.set_ylabel(label(metric))
    if log:
        ax.set_yscale("log")
    handles, _ = ax.get_legend_handles_labels()
    if "disqualified" in summary and summary["disqualified"].any():
        handles.append(
            Patch(facecolor="white", edgecolor="gray", hatch=DISQUALIFIED_HATCH, label=label("disqualified"))
        )
    ax.legend(handles=handles, title=label("solver"))
    return ax


@_course_style
def plot_convergence(
    histories: dict[str, list[int]],
    ax: Axes | None = None,
    title: str | None = None,
    log: bool = False,
    labels: Mapping[str, str] | None = None,
) -> Axes:
    """Best cost per iteration, one curve per run label (log=True: symmetric log scale, 0 included).

    `labels` overrides the axis titles and may rename the curves (see PLOT_LABELS).
    """
    if not histories:
        raise ValueError("no history to plot")
    label = _labeller(labels)
    ax = _axes(ax)
    for name, history in histories.items():
        ax.plot(np.arange(1, len(history) + 1), history, drawstyle="steps-post", label=label(name))
    ax.set_xlabel(label("iteration"))
    ax.set_ylabel(label("best_cost"))
    if log:
        ax.set_yscale("symlog")
        ticks = round_ticks(*ax.get_ylim())
        ax.yaxis.set_major_locator(FixedLocator(ticks))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.legend()
    if title:
        ax.set_title(title)
    return ax


@_course_style
def plot_annealing_trace(
    traces: dict[str, list[dict]],
    title: str | None = None,
    labels: Mapping[str, str] | None = None,
) -> np.ndarray:
    """An annealing run chain by chain: temperature, acceptance rate, and energy (current solid, best dashed).

    `traces` maps a run label to its trace, one record per chain with the keys temperature, acceptance,
    energy and best (as AnnealingSolver's trace and the loops of lesson 02 record them). Returns the three
    Axes, top to bottom; `labels` overrides the axis titles and may rename the runs (see PLOT_LABELS).
    """
    if not traces or not any(traces.values()):
        raise ValueError("no trace to plot")
    label = _labeller(labels)
    figure, axes = plt.subplots(len(TRACE_PANELS), 1, sharex=True, figsize=(6.4, 6.4))
    for k, (name, trace) in enumerate(traces.items()):
        colour = f"C{k}"  # the k-th colour of the style's cycle
        chains = np.arange(1, len(trace) + 1)
        for ax, key in zip(axes, TRACE_PANELS, strict=True):
            ax.plot(chains, [record[key] for record in trace], color=colour, label=label(name))
        axes[-1].plot(chains, [record["best"] for record in trace], color=colour, linestyle="--")
    for ax, key in zip(axes, TRACE_PANELS, strict=True):
        ax.set_ylabel(label(key))
    axes[1].set_ylim(0, 1)
    axes[-1].set_xlabel(label("chain"))
    if len(traces) > 1:
        axes[0].legend()
    styles = [Line2D([], [], color="gray", label=label("current"))]
    styles.append(Line2D([], [], color="gray", linestyle="--", label=label("best")))
    axes[-1].legend(handles=styles, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2)  # under the axis
    if title:
        axes[0].set_title(title)
    figure.align_ylabels(axes)
    return axes


@_course_style
def plot_run_time_distribution(
    distribution: pd.DataFrame,
    by: str = "configuration",
    against: str = "evaluations",
    ax: Axes | None = None,
    title: str | None = None,
    labels: Mapping[str, str] | None = None,
) -> Axes:
    """The share of runs solved against the budget, one step curve per configuration with its bootstrap band,
    on a log scale (a table of `bench.run_time_distribution`, in the manner of COCO and IOHprofiler).

    `labels` overrides the axis and legend titles and may rename the configurations (see PLOT_LABELS).
    """
    if distribution.empty:
        raise ValueError("no run-time distribution to plot")
    label = _labeller(labels)
    ax = _axes(ax, figsize=(7.0, 4.0))
    for k, (name, curve) in enumerate(distribution.groupby(by, sort=False)):
        budgets = np.concatenate([curve[against].to_numpy()[:1], curve[against].to_numpy()])  # start at 0 solved
        share, low, high = (np.concatenate([[0.0], curve[column].to_numpy()]) for column in RTD_COLUMNS)
        ax.step(budgets, share, where="post", color=f"C{k}", label=label(name))
        ax.fill_between(budgets, low, high, step="post", color=f"C{k}", alpha=0.2, linewidth=0)
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(label(against))
    ax.set_ylabel(label("solved_share"))
    ax.legend(title=label(by), loc="center left", bbox_to_anchor=(1, 0.5))
    if title:
        ax.set_title(title)
    return ax


def round_ticks(low: float, high: float, at_least: int = 3) -> list[float]:
    """Round values between low and high for a log axis: 0, 1, 2, 5, 10, 20, 50... or, if that gives fewer than
    `at_least`, the finer 0, 1, 2, 3, 5, 7, 10, 20, 30... (a symlog axis alone may label a single decade)."""
    for steps in ((1, 2, 5), (1, 2, 3, 5, 7)):
        values = [0, *(step * 10**power for power in range(10) for step in steps)]
        ticks = [value for value in values if low <= value <= high]
        if len(ticks) >= at_least:
            break
    return ticks
