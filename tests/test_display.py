"""The French display layer (teaching/display.py, teaching/labels.py): numbers, labels, tables, verdicts."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku_course import bench, crossstudy
from sudoku_course.cost import UNIT_KINDS, ConflictTable, unit_conflicts
from sudoku_course.crossstudy import OUTCOMES, bootstrap_effects, cross_table, effects_verdict, verdict
from sudoku_course.grid import InvalidPuzzleError, SudokuGrid
from sudoku_course.puzzles import DIFFICULTIES, load_bank, parse_puzzles, reference
from sudoku_course.solvers import available_solvers, get_solver
from sudoku_course.teaching.display import (
    MINUS,
    NARROW_SPACE,
    explain_effects,
    explain_verdict,
    french_error,
    french_exception,
    french_interval,
    french_keys,
    french_label,
    french_message,
    french_number,
    french_outcome,
    french_percent,
    french_scientific,
    french_table,
    french_ticks,
)
from sudoku_course.teaching.labels import BANK_LABELS, COLUMN_LABELS, ERROR_MESSAGES, OUTCOME_LABELS, SOLVER_LABELS

SOURCE_COSTS = {  # lesson 04's source run: conflicts left per cell for seeds 0, 1, 7, 42
    ("R1", "PSO"): [46, 50, 39, 44],
    ("R1", "GA"): [4, 8, 13, 15],
    ("R2", "PSO"): [6, 2, 6, 13],
    ("R2", "GA"): [0, 0, 0, 0],
}


def runs_from(costs) -> pd.DataFrame:
    """The columns of run_design that the tables and verdicts read."""
    rows = [(rep, algo, seed, cost) for (rep, algo), values in costs.items() for seed, cost in enumerate(values)]
    runs = pd.DataFrame(rows, columns=["representation", "algorithm", "seed", "cost"])
    return runs.assign(puzzle="témoin", solved=runs["cost"] == 0, evaluations=crossstudy.BUDGET)


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize(
    ("number", "decimals", "text"),
    [
        (43.5, None, "43,5"),
        (39.0, None, "39"),
        (8000, None, f"8{NARROW_SPACE}000"),
        (1234567.25, None, f"1{NARROW_SPACE}234{NARROW_SPACE}567,25"),
        (-2, None, f"{MINUS}2"),
        (-0.0001, 1, "0,0"),
        (2 / 3, 2, "0,67"),
        (3, 1, "3,0"),
        (math.nan, 1, "—"),
    ],
)
def test_french_number(number, decimals, text):
    assert french_number(number, decimals) == text


def test_french_ticks_write_decimal_commas():
    import matplotlib.pyplot as plt

    plt.switch_backend("Agg")
    ax = plt.figure().gca()
    ax.plot([0, 1500], [0.25, 1.5])
    french_ticks(ax)
    plt.gcf().canvas.draw()
    assert {"0,2", "1,4"} <= {t.get_text() for t in ax.get_yticklabels()}
    assert f"1{NARROW_SPACE}000" in {t.get_text() for t in ax.get_xticklabels()}
    plt.close("all")


def test_french_percent_and_interval():
    assert french_percent(0.718) == f"71,8{NARROW_SPACE}%"
    assert french_percent(0.95, 0) == f"95{NARROW_SPACE}%"
    assert french_interval((-27.06, -23.0)) == f"[{MINUS}27,1 ; {MINUS}23,0]"


def test_french_scientific_writes_a_comma_and_a_superscript_exponent():
    times = f"{NARROW_SPACE}×{NARROW_SPACE}"
    assert french_scientific(9.0**36) == f"2,3{times}10³⁴"
    assert french_scientific(2.6418e12, 3) == f"2,64{times}10¹²"
    assert french_scientific(0.00012) == f"1,2{times}10⁻⁴"
    assert french_scientific(-3.4e-4) == f"{MINUS}3,4{times}10⁻⁴"
    assert french_scientific(2.5e12, 1) == f"2{times}10¹²"


@given(st.floats(-1e9, 1e9, allow_nan=False))
def test_french_numbers_read_back_to_the_value(number):
    text = french_number(number, 3)
    assert "." not in text
    assert "-" not in text
    written = text.replace(NARROW_SPACE, "").replace(",", ".").replace(MINUS, "-")
    assert float(written) == pytest.approx(number, abs=6e-4)


# ------------------------------------------------------------------ labels
def test_every_english_name_of_the_package_has_a_french_label():
    names = set(bench.TABLE_NAMES) | set(crossstudy.TABLE_NAMES) | set(UNIT_KINDS)
    assert names - set(COLUMN_LABELS) == set()
    assert set(DIFFICULTIES) | {bench.CUSTOM} <= set(BANK_LABELS)
    assert set(OUTCOMES) == set(OUTCOME_LABELS)
    assert len(set(COLUMN_LABELS.values())) == len(COLUMN_LABELS)  # one word for one thing


def test_french_keys_of_a_printed_dict():
    assert list(french_keys(unit_conflicts(reference()))) == ["lignes", "colonnes", "blocs"]
    assert french_label("solver") == "solveur" and french_label("exact") == "exact" and french_label(3) == 3


def test_french_table_renames_columns_index_and_bank_values():
    summary = pd.DataFrame(
        {
            "solver": ["exact", "backtracking"],
            "difficulty": ["easy", "medium"],
            "puzzle": ["easy-00", "hard-01"],
            "median_evaluations": [12.25, 3000.0],
            "disqualified": [False, True],
        }
    )
    table = french_table(summary)
    assert list(table.columns) == ["solveur", "difficulté", "grille", "évaluations (médiane)", "disqualifié"]
    assert table["difficulté"].tolist() == ["facile", "moyenne"]
    assert table["grille"].tolist() == ["facile-00", "difficile-01"]
    assert table["disqualifié"].tolist() == ["non", "oui"]
    assert table["solveur"].tolist() == ["exact", "backtracking"]  # solver names stay identifiers
    assert summary.columns[0] == "solver"  # the input is not modified
    indexed = french_table(summary.set_index(["solver", "difficulty"]), decimals=1)
    assert list(indexed.index.names) == ["solveur", "difficulté"]
    assert indexed.index.tolist() == [("exact", "facile"), ("backtracking", "moyenne")]
    assert indexed["évaluations (médiane)"].tolist() == ["12,2", f"3{NARROW_SPACE}000,0"]


def test_french_table_groups_integers_by_thousands_and_leaves_booleans_alone():
    table = french_table(pd.DataFrame({"evaluations": [14577, 300000, 7], "solved": [True, False, True]}))
    assert table["évaluations"].tolist() == [f"14{NARROW_SPACE}577", f"300{NARROW_SPACE}000", "7"]
    assert table["résolues"].tolist() == ["oui", "non", "oui"]


def test_french_table_of_a_pivot_and_of_a_series():
    runs = runs_from(SOURCE_COSTS)
    medians = cross_table(runs).pivot(index="representation", columns="algorithm", values="median")
    table = french_table(medians)
    assert (table.index.name, table.columns.name) == ("représentation", "algorithme")
    series = french_table(runs.groupby("algorithm")["cost"].median())
    assert isinstance(series, pd.DataFrame) and list(series.columns) == ["conflits restants"]
    effects = french_table(bootstrap_effects(runs).table())
    assert effects["effet"].tolist() == ["représentation", "algorithme", "interaction"]


# ------------------------------------------------------------------ verdicts
def test_the_source_rule_explained_in_french():
    result = verdict(cross_table(runs_from(SOURCE_COSTS)))
    text = explain_verdict(result)
    assert "PSO : R1 45 → R2 6, écart 39 ; les étendues [39, 50] et [2, 13] sont séparées" in text
    assert "PSO oui, GA non" in text
    assert text.endswith(
        "Verdict : effets comparables — le plus grand écart d'algorithme (R1, 34,5) vaut 3,3 fois le plus petit "
        "écart de représentation (GA, 10,5) : même ordre de grandeur (au plus 10 fois)"
    )
    assert french_outcome(result.outcome) == "effets comparables"


def test_the_source_verdict_with_fixed_decimals():
    text = explain_verdict(verdict(cross_table(runs_from(SOURCE_COSTS))), decimals=1)
    assert "PSO : R1 45,0 → R2 6,0, écart 39,0 ; les étendues [39, 50] et [2, 13] sont séparées" in text
    assert "(R1, 34,5) vaut 3,3 fois le plus petit écart de représentation (GA, 10,5)" in text


def test_an_inconclusive_source_verdict_names_its_column():
    costs = {**SOURCE_COSTS, ("R2", "PSO"): [39, 40, 41, 42]}
    text = explain_verdict(verdict(cross_table(runs_from(costs))))
    assert text.endswith("Verdict : non concluant — les étendues des représentations se recouvrent dans la colonne PSO")


def test_the_course_rule_explained_in_french():
    result = effects_verdict(bootstrap_effects(runs_from(SOURCE_COSTS)))
    text = explain_effects(result)
    effects = result.effects
    assert f"{french_number(effects.estimates['representation'], 1)} conflits" in text
    assert french_interval(effects.intervals["interaction"]) in text
    assert f"Verdict : {french_outcome(result.outcome)} — " in text
    assert f"4 graines par cellule, 10{NARROW_SPACE}000 rééchantillonnages" in text
    assert ("L'interaction exclut 0" in text) == result.interaction_excludes_zero
    assert not re.search(r"\d\.\d", text)  # every number in French format


# ------------------------------------------------------------------ errors
TEMOIN = reference().to_string()


def refused(read) -> str:
    """The French reason of the InvalidPuzzleError raised by `read()`."""
    with pytest.raises(InvalidPuzzleError) as error:
        read()
    return french_error(error.value)


@pytest.mark.parametrize(
    ("read", "sentence"),
    [
        (lambda: SudokuGrid.from_string(TEMOIN[9:]), "81 cases attendues, 72 trouvées"),
        (
            lambda: SudokuGrid.from_string(TEMOIN[:40] + "?" + TEMOIN[41:]),
            "caractère « ? » inconnu à la ligne 1, colonne 41 (caractère n° 41)",
        ),
        (
            lambda: SudokuGrid.from_string("9a" + TEMOIN[2:]),
            "caractère « a » à la ligne 1, colonne 2 (caractère n° 2) : "
            "une grille 9 × 9 n'utilise que les chiffres 1 à 9",
        ),
        (
            lambda: SudokuGrid.from_string("99" + TEMOIN[2:]),
            "chiffres donnés en conflit : le 9 apparaît deux fois dans la ligne 1 (cases L1C1 et L1C2)",
        ),
        (
            lambda: SudokuGrid.from_string(TEMOIN[:11] + "9" + TEMOIN[12:]),
            "chiffres donnés en conflit : le 9 apparaît deux fois dans le bloc 1 (cases L1C1 et L2C3)",
        ),
        (
            lambda: SudokuGrid.from_array(np.zeros((9, 8), dtype=int)),
            "grille carrée de côté 4, 9, 16 ou 25 attendue, forme (9, 8) trouvée",
        ),
        (lambda: SudokuGrid(np.full((4, 4), 7)), "valeur 7 hors de 0..4 en ligne 1, colonne 1"),
        (
            lambda: SudokuGrid(np.zeros((9, 9), dtype=int), box_size=2),
            "des blocs de côté 2 ne conviennent pas : une grille de côté 9 a des blocs de côté 3",
        ),
        (
            lambda: SudokuGrid(np.zeros((4, 4), dtype=int), givens=np.zeros((2, 2), dtype=bool)),
            "masque des chiffres donnés de forme (2, 2), forme (4, 4) attendue",
        ),
        (lambda: parse_puzzles(TEMOIN + "\n" + TEMOIN[9:], "mes_grilles.txt"), "mes_grilles.txt, ligne 2 : 81 cases"),
        (lambda: bench.puzzle_sets_of({"easy": [TEMOIN, TEMOIN[9:]]}), "grille facile-01 : 81 cases attendues"),
    ],
)
def test_each_kind_of_refusal_reads_in_french(read, sentence):
    assert refused(read).startswith(sentence)


def test_unsolvable_and_undetailed_errors_in_french():
    unsolvable = InvalidPuzzleError("no solution", "no-solution", cells=((2, 4),))
    assert (
        french_error(unsolvable) == "la grille n'a pas de solution : plus aucun chiffre possible en ligne 3, colonne 5"
    )
    assert french_error(InvalidPuzzleError("no solution", "no-solution")) == "la grille n'a pas de solution"
    assert french_error(InvalidPuzzleError("odd")) == "grille invalide (odd)"


# ------------------------------------------------------------------ errors a student meets, from their message
def raised(action) -> BaseException:
    try:
        action()
    except Exception as error:  # the error under test
        return error
    raise AssertionError("no error raised")


NOTHING = None  # what a function without `return` gives
STUDENT_ERRORS = [
    (lambda: SudokuGrid.from_string(TEMOIN[9:]), "81 cases attendues, 72 trouvées"),
    (lambda: SudokuGrid.from_string("?" + TEMOIN[1:]), "caractère '?' inconnu à la ligne 1, colonne 1"),
    (lambda: SudokuGrid.from_string(TEMOIN[:11] + "9" + TEMOIN[12:]), "le 9 apparaît deux fois dans le bloc 1"),
    (lambda: ConflictTable(reference()), "ConflictTable demande une grille pleine ; celle-ci a 36 cases vides"),
    (lambda: get_solver("anneal"), "solveur 'anneal' inconnu ; solveurs disponibles : annealing"),
    (lambda: get_solver("annealing", alpha=2), "alpha doit être strictement entre 0 et 1, pas 2"),
    (lambda: get_solver("annealing", t0=0.01, t_min=0.1), "il faut t0 > t_min > 0, pas t0 = 0.01 et t_min = 0.1"),
    (lambda: get_solver("genetic", mutation_rate=3), "mutation_rate doit être dans l'intervalle [0, 1], pas 3"),
    (lambda: get_solver("swarm", stagnation=0), "stagnation : au moins 1 attendu, 0 reçu"),
    (lambda: get_solver("genetic", encoding="lines"), "codage 'lines' inconnu"),
    (lambda: get_solver("exact").solve(reference(), budget=-5), "le budget doit être un nombre positif d'évaluations"),
    (lambda: load_bank("facile"), "banque 'facile' inconnue"),
    (lambda: math.exp(1000), "dépassement de capacité dans un calcul"),
    (lambda: 1 / 0, "division par zéro"),
    (lambda: NOTHING[0], "un objet None n'est ni indexable"),
]


@pytest.mark.parametrize(("action", "sentence"), STUDENT_ERRORS)
def test_an_error_known_only_by_its_name_and_message_reads_in_french(action, sentence):
    error = raised(action)
    text = french_message(type(error).__name__, str(error))
    assert text.startswith(f"{type(error).__name__} : ") and sentence in text, text


def test_an_unknown_message_is_kept_and_an_exception_object_reads_in_french():
    assert french_message("ValueError", "something new") == "ValueError : something new"
    assert french_message("StopIteration", "") == "StopIteration"
    error = raised(lambda: SudokuGrid.from_string(TEMOIN[9:]))
    assert french_exception(error) == f"InvalidPuzzleError : {french_error(error)}"


@pytest.mark.parametrize(("pattern", "template"), ERROR_MESSAGES)
def test_each_french_template_uses_only_the_groups_of_its_pattern(pattern, template):
    fields = set(re.findall(r"{(\w+)}", template))
    assert fields <= set(re.compile(pattern).groupindex), (pattern, template)


def test_registered_solvers_and_engines_read_in_french_in_tables():
    assert set(available_solvers()) - {"exact", "backtracking"} <= set(SOLVER_LABELS)
    table = french_table(pd.DataFrame({"solver": ["space-ga", "mealpy-pso", "exact"], "seed": [0, 1, 2]}))
    assert table["solveur"].tolist() == ["GA générique", "PSO de mealpy", "exact"]
