"""sudoku_course: the package behind the French course on solving Sudoku with metaheuristics.

Layers, each importing only those above it: grid, cost, spaces, solvers, puzzles, bench,
campaigns, crossstudy, plots, teaching, cli.
"""

__version__ = "0.1.0"
