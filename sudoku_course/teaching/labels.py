"""French labels for the English names the package puts in its tables, dicts, plots and verdicts.

The package speaks English (column names, dict keys, outcome codes); a notebook shows French. Each
mapping below goes from the package's English name to the French word a student reads, one word for
one thing across the course. `display.py` applies them.
"""

from __future__ import annotations

COLUMN_LABELS: dict[str, str] = {
    # bench.py: one row per run, and the summary per solver and difficulty
    "solver": "solveur",
    "puzzle": "grille",
    "difficulty": "difficulté",
    "empty_cells": "cases vides",
    "open_cells": "cases ouvertes",
    "seed": "graine",
    "solved": "résolues",
    "cost": "conflits restants",
    "evaluations": "évaluations",
    "seconds": "secondes",
    "error": "erreur",
    "mean_empty_cells": "cases vides (moyenne)",
    "mean_open_cells": "cases ouvertes (moyenne)",
    "runs": "exécutions",
    "success_rate": "taux de succès",
    "median_seconds": "secondes (médiane)",
    "min_seconds": "secondes (min)",
    "max_seconds": "secondes (max)",
    "median_evaluations": "évaluations (médiane)",
    "disqualified": "disqualifié",
    # crossstudy.py: runs, cross table, candidate profile, position of a third representation, effects
    "representation": "représentation",
    "algorithm": "algorithme",
    "median": "médiane",
    "min": "min",
    "max": "max",
    "mean_evaluations": "évaluations (moyenne)",
    "candidates": "candidats",
    "outside": "hors de l'espace",
    "outside_share": "part hors de l'espace",
    "conflicts": "conflits",
    "mean_conflicts": "conflits (moyenne)",
    "min_conflicts": "conflits (min)",
    "max_conflicts": "conflits (max)",
    "mean_row_conflicts": "conflits de lignes (moyenne)",
    "share": "part",
    "effect": "effet",
    "estimate": "estimation",
    "low": "borne basse",
    "high": "borne haute",
    "excludes_zero": "exclut 0",
    "interaction": "interaction",
    # solvers/annealing.py: one chain of an annealing trace (AnnealingSolver and the loops of lesson 02),
    # and simanneal's reports (SudokuAnnealer.trace)
    "restart": "redémarrage",
    "step": "pas",
    "improvement": "taux d'amélioration",
    "temperature": "température",
    "acceptance": "taux d'acceptation",
    "energy": "énergie",
    "best": "meilleure énergie",
    # exercises of lesson 03: the rows of the swarm studies and the parameters of the provided swarm loop
    "population_size": "taille de la population",
    "inertia_start": "inertie au départ",
    "inertia_end": "inertie à la fin",
    # cost.py: conflicts per kind of unit
    "rows": "lignes",
    "columns": "colonnes",
    "boxes": "blocs",
}
"""English column, index or dict-key name -> French label."""

BANK_LABELS: dict[str, str] = {
    "easy": "facile",
    "medium": "moyenne",
    "hard": "difficile",
    "expert": "expert",
    "diabolique": "diabolique",
    "custom": "personnalisée",
}
"""Bank (difficulty) name -> French adjective, feminine as in « une grille moyenne », « difficulté moyenne »."""

OUTCOME_LABELS: dict[str, str] = {
    "representation dominates": "la représentation domine",
    "comparable": "effets comparables",
    "algorithm dominates": "l'algorithme domine",
    "inconclusive": "non concluant",
}
"""Verdict outcome code (crossstudy) -> French label."""

PLOT_LABELS: dict[str, str] = {
    "difficulty": "difficulté",
    "solver": "solveur",
    "disqualified": "disqualifié",
    "iteration": "itération",
    "best_cost": "meilleur coût (conflits)",
    "median_seconds": "temps médian par grille (s)",
    "success_rate": "taux de succès",
    "median_evaluations": "évaluations médianes",
    "chain": "chaîne (une température)",
    "temperature": "température",
    "acceptance": "taux d'acceptation",
    "energy": "énergie (conflits)",
    "current": "état courant",
    "best": "meilleure jusqu'ici",
    **BANK_LABELS,
}
"""French labels for the figures of plots.py: pass `labels=PLOT_LABELS` to a plot helper."""

ENCODING_LABELS: dict[str, str] = {"cells": "par case", "rows": "par ligne", "boxes": "par bloc"}
"""Encoding of GeneticSolver (lesson 01) -> French words completing « codage … »: « codage par ligne »."""

VALUE_LABELS: dict[str, str] = {
    **BANK_LABELS,
    "representation": "représentation",
    "algorithm": "algorithme",
    "interaction": "interaction",
}
"""Values of table cells that are English words: bank names, and the effect names of crossstudy."""

UNIT_LABELS: dict[str, str] = {"row": "ligne", "column": "colonne", "box": "bloc"}
"""Kind of one unit (in an error) -> French noun."""

BOOLEAN_LABELS: dict[bool, str] = {True: "oui", False: "non"}
