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
    # bench.py: run-time distributions and intervals; campaigns.py: a campaign's rows
    "solved_share": "part résolue",
    "success_low": "taux de succès (borne basse)",
    "success_high": "taux de succès (borne haute)",
    "median_cost": "conflits restants (médiane)",
    "median_low": "médiane (borne basse)",
    "median_high": "médiane (borne haute)",
    "campaign": "campagne",
    "configuration": "configuration",
    "evaluations_to_solve": "évaluations jusqu'à la solution",
    # crossstudy.py: the roles of the factors, simple effects
    "component": "composant",
    "role": "rôle",
    "factor": "facteur",
    "within": "au sein de",
    "first": "de",
    "second": "à",
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
    "evaluations": "évaluations (échelle log)",
    "seconds": "secondes (échelle log)",
    "solved_share": "part des exécutions résolues",
    "configuration": "configuration",
    **BANK_LABELS,
}
"""French labels for the figures of plots.py: pass `labels=PLOT_LABELS` to a plot helper."""

ENCODING_LABELS: dict[str, str] = {"cells": "par case", "rows": "par ligne", "boxes": "par bloc"}
"""Encoding of GeneticSolver (lesson 01) -> French words completing « codage … »: « codage par ligne »."""

SOLVER_LABELS: dict[str, str] = {
    "annealing": "recuit simulé",
    "naive-annealing": "recuit naïf",
    "simanneal": "recuit (simanneal)",
    "space-annealing": "recuit générique",
    "genetic": "algorithme génétique",
    "space-ga": "GA générique",
    "mealpy-ga": "GA de mealpy",
    "swarm": "essaim d'ouvrières et d'exploratrices",
    "swap-pso": "PSO à échanges",
    "space-pso": "PSO générique",
    "mealpy-pso": "PSO de mealpy",
    "cp-sat": "CP-SAT",
    "z3": "Z3",
}
"""Registered solver and engine name (`solvers.REGISTRY`, the cross-study's engines) -> the French name a table
shows; `exact` and `backtracking` read the same in French."""

VALUE_LABELS: dict[str, str] = {
    **BANK_LABELS,
    **SOLVER_LABELS,
    "representation": "représentation",
    "algorithm": "algorithme",
    "interaction": "interaction",
    "design": "plan d'expérience",
    "sampling": "tirage des candidats",
    "decoding": "décodage et coût",
    "variation": "opérateurs de variation",
    "selection": "sélection",
    "replacement": "remplacement",
    "parameters": "paramètres",
    "budget": "budget",
    "all": "toutes les grilles",
    "mean": "moyenne",
}
"""Values of table cells that are English words: bank names, the effect names of crossstudy, the components and
roles of `crossstudy.factor_roles`, and the puzzle and level of a pooled or main effect."""

UNIT_LABELS: dict[str, str] = {"row": "ligne", "column": "colonne", "box": "bloc"}
"""Kind of one unit (in an error) -> French noun."""

UNITS_WITH_ARTICLE: dict[str, str] = {"row": "la ligne", "column": "la colonne", "box": "le bloc"}
"""Kind of one unit -> French noun with its article, for a sentence: « dans le bloc 3 »."""

BOOLEAN_LABELS: dict[bool, str] = {True: "oui", False: "non"}


ERROR_MESSAGES: tuple[tuple[str, str], ...] = (
    # grid.py: a puzzle that cannot be read (InvalidPuzzleError)
    (
        r"expected (?P<expected>\d+) cells for (?:a 9 x 9 grid|box size \d+).*, found (?P<found>\d+)",
        "{expected} cases attendues, {found} trouvées",
    ),
    (
        r"unknown character (?P<char>'.*?'|\".*?\") at line (?P<line>\d+), column (?P<column>\d+)$",
        "caractère {char} inconnu à la ligne {line}, colonne {column}",
    ),
    (
        r"character (?P<char>'.*?'|\".*?\") at line (?P<line>\d+), column (?P<column>\d+) is not a symbol of a "
        r"(?P<side>\d+) x \d+ grid \((?P<symbols>.*)\)",
        "caractère {char} à la ligne {line}, colonne {column} : une grille {side} × {side} "
        "n'utilise que les symboles {symbols}",
    ),
    (
        r"expected a square grid of side 4, 9, 16 or 25, got shape (?P<shape>.*)",
        "grille carrée de côté 4, 9, 16 ou 25 attendue, forme {shape} trouvée",
    ),
    (
        r"box size (?P<box>\d+) does not fit a grid of side (?P<side>\d+)",
        "des blocs de côté {box} ne conviennent pas à une grille de côté {side}",
    ),
    (
        r"value (?P<value>-?\d+) at row (?P<row>\d+), column (?P<column>\d+) is outside 0\.\.(?P<side>\d+)",
        "valeur {value} hors de 0..{side} à la ligne {row}, colonne {column}",
    ),
    (
        r"givens mask has shape (?P<found>.*), expected (?P<expected>.*)",
        "masque des chiffres donnés de forme {found}, forme {expected} attendue",
    ),
    (
        r"givens in conflict: digit (?P<digit>\d+) appears twice in (?P<unit>row|column|box) (?P<index>\d+) "
        r"\(cells r(?P<r1>\d+)c(?P<c1>\d+) and r(?P<r2>\d+)c(?P<c2>\d+)\)",
        "chiffres donnés en conflit : le {digit} apparaît deux fois dans {unit} {index} "
        "(cases L{r1}C{c1} et L{r2}C{c2})",
    ),
    (r"the puzzle has no solution.*", "la grille n'a pas de solution"),
    (r"with_cells would change a given", "with_cells changerait un chiffre donné"),
    # names of the package: banks, solvers, encodings, spaces, engines, the cross-study's factors
    (
        r"unknown (?:bank|difficulty) (?P<name>'.*?'); available: (?P<known>.*)",
        "banque {name} inconnue ; banques disponibles : {known}",
    ),
    (
        r"unknown solver (?P<name>'.*?'); available: (?P<known>.*)",
        "solveur {name} inconnu ; solveurs disponibles : {known}",
    ),
    (
        r"unknown encoding (?P<name>'.*?'); choose one of (?P<known>.*)",
        "codage {name} inconnu ; codages possibles : {known}",
    ),
    (
        r"unknown space (?P<name>'.*?'); expected one of (?P<known>.*)",
        "espace {name} inconnu ; espaces possibles : {known}",
    ),
    (
        r"unknown engine (?P<name>'.*?'); available: (?P<known>.*)",
        "moteur {name} inconnu ; moteurs possibles : {known}",
    ),
    (
        r"unknown algorithm (?P<name>'.*?'); expected one of (?P<known>.*)",
        "algorithme {name} inconnu ; algorithmes possibles : {known}",
    ),
    (
        r"unknown representation (?P<name>'.*?'); expected one of (?P<known>.*)",
        "représentation {name} inconnue ; représentations possibles : {known}",
    ),
    # parameters and budgets of solvers, spaces, campaigns and the provided loops
    (
        r"budget must be a positive number of evaluations or a Budget, got (?P<got>.*)",
        "le budget doit être un nombre positif d'évaluations (ou un Budget), pas {got}",
    ),
    (
        r"(?P<name>[\w, ]+?) must be at least (?P<low>[\d.]+)(?: \(or None\))?, got (?P<got>.*)",
        "{name} : au moins {low} attendu, {got} reçu",
    ),
    (
        r"(?P<name>\w+) must (?:be|lie) in (?P<range>[\[(].*?[\])]), got (?P<got>.*)",
        "{name} doit être dans l'intervalle {range}, pas {got}",
    ),
    (r"(?P<name>[\w, ]+?) must be >= 0.*", "{name} : des valeurs positives ou nulles attendues"),
    (
        r"elitism must be between 0 and population_size - 1, got (?P<got>.*)",
        "elitism doit être entre 0 et population_size − 1, pas {got}",
    ),
    (
        r"alpha must be between 0 and 1 \(excluded\), got (?P<got>.*)",
        "alpha doit être strictement entre 0 et 1, pas {got}",
    ),
    (
        r"need t0 > t_min > 0, got t0=(?P<t0>.*), t_min=(?P<t_min>.*)",
        "il faut t0 > t_min > 0, pas t0 = {t0} et t_min = {t_min}",
    ),
    (r"sigma must be positive, got (?P<got>.*)", "sigma doit être positif, pas {got}"),
    (
        r"a budget of (?P<budget>\d+) evaluations cannot (?:pay for a population|evaluate a swarm) of (?P<size>\d+).*",
        "un budget de {budget} évaluations ne suffit pas à évaluer une population de {size}",
    ),
    (
        r"seeds must be a sequence of integers.*, got (?P<got>.*)",
        "seeds doit être une suite d'entiers, comme range(3) ou (42,), pas {got}",
    ),
    (r"no seed given.*", "aucune graine : donnez-en au moins une, comme seeds=(0,)"),
    (
        r"(?:need |.*needs )?(?P<first>population_size|chain_length) (?:>= (?P<low>\d+) )?and max_iterations"
        r"(?: >= 1| must be at least 1),? got (?P<size>\S+?),? (?:and )?(?P<iterations>\S+)",
        "{first} et max_iterations sont trop petits ({size} et {iterations})",
    ),
    (
        r"population_size must be between (?P<low>\d+) and max_population \((?P<high>\d+)\), got (?P<got>.*)",
        "population_size doit être entre {low} et max_population ({high}), pas {got}",
    ),
    (
        r"crossover_rate and mutation_rate must lie strictly between 0 and 1, got (?P<pc>\S+) and (?P<pm>\S+)",
        "crossover_rate et mutation_rate doivent être strictement entre 0 et 1, pas {pc} et {pm}",
    ),
    (
        r"the hive needs at least one worker and one explorer: population_size=(?P<size>\S+) and "
        r"worker_ratio=(?P<ratio>\S+) give .*",
        "la ruche demande au moins une ouvrière et une exploratrice : population_size = {size} et worker_ratio = "
        "{ratio} n'en donnent pas",
    ),
    (r"the design needs at least one (?P<what>puzzle|seed)", "le plan demande au moins une grille (ou une graine)"),
    (
        r"time_limit must be a positive number of seconds or None, got (?P<got>.*)",
        "time_limit doit être un nombre positif de secondes, ou None, pas {got}",
    ),
    # grids, spaces and moves
    (
        r"ConflictTable needs a full grid; this one has (?P<count>\d+) empty cells",
        "ConflictTable demande une grille pleine ; celle-ci a {count} cases vides",
    ),
    (
        r"only a full grid can be encoded; this one has (?P<count>\d+) empty cells",
        "seule une grille pleine peut être encodée ; celle-ci a {count} cases vides",
    ),
    (
        r"grid changes the given at row (?P<row>\d+), column (?P<column>\d+)",
        "la grille change le chiffre donné de la ligne {row}, colonne {column}",
    ),
    (
        r"this grid breaks the invariant of (?P<space>\w+); it cannot be encoded",
        "cette grille ne respecte pas l'invariant de {space} : elle ne peut pas être encodée",
    ),
    (
        r"grid of side (?P<side>\d+) does not fit a puzzle of side (?P<puzzle>\d+)",
        "une grille de côté {side} ne correspond pas à une grille de départ de côté {puzzle}",
    ),
    (
        r"row (?P<row>\d+) of the two grids does not hold the same digits",
        "la ligne {row} des deux grilles ne contient pas les mêmes chiffres",
    ),
    (
        r"a velocity can only be scaled by k >= 0, got (?P<got>.*)",
        "une vitesse ne se multiplie que par k ≥ 0, pas {got}",
    ),
    (
        r"none of the (?P<units>\w+) of this puzzle has two free cells to swap",
        "aucune unité de cette grille n'a deux cases libres à échanger",
    ),
    (r"a continuous candidate must hold finite numbers", "un candidat continu doit contenir des nombres finis"),
    (
        r"next_generation returned an array of shape (?P<shape>.*)",
        "next_generation a renvoyé un tableau de forme {shape} au lieu de celle de la population",
    ),
    # Python's own errors, the commonest in a student's code
    (
        r"name '(?P<name>\w+)' is not defined",
        "le nom {name} n'est pas défini : exécutez d'abord la cellule qui le définit",
    ),
    (
        r"'NoneType' object is not (?P<what>subscriptable|iterable|callable)",
        "un objet None n'est ni indexable, ni parcourable, ni appelable : une fonction a-t-elle oublié son return ?",
    ),
    (
        r"cannot unpack non-iterable NoneType object",
        "impossible de déballer None en plusieurs valeurs : une fonction a-t-elle oublié son return ?",
    ),
    (
        r"The output of the (?P<step>mutation|crossover) step is expected to be of type \(numpy\.ndarray\) but "
        r"<class '(?P<found>\w+)'> found\.?",
        "PyGAD attend un tableau numpy à la sortie de l'opérateur ({step}), pas un objet {found}",
    ),
    (r"(?:float )?division by zero", "division par zéro"),
    (
        r"math range error",
        "dépassement de capacité dans un calcul (math range error), comme l'exponentielle d'un grand nombre",
    ),
    (
        r"index (?P<index>-?\d+) is out of bounds for axis (?P<axis>\d+) with size (?P<size>\d+)",
        "indice {index} hors des bornes de l'axe {axis}, de taille {size}",
    ),
    (r"list index out of range", "indice de liste hors des bornes"),
)
"""The package's English error messages a student can meet, and the most common of Python's, as (regular
expression matched against the whole message, French template of its named groups); a group `unit` is written
with UNITS_WITH_ARTICLE, a group `name` (of parameters) with « et » for « and ». `display.french_message`
applies the first that matches. The English message stays the exception's own, for developers."""
