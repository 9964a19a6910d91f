"""sudoku_course: the package behind the French course on solving Sudoku with metaheuristics.

Layers, each importing only those above it: grid, puzzles, cost, spaces, solvers, bench,
crossstudy, plots, teaching, cli.
"""

__version__ = "0.1.0"
