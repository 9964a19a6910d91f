"""Lesson 04 (representation versus algorithm): the cases of the statistics of the design and of its
extensions, and their judges.

The three statistics exercises rebuild what the lesson's verdict rests on: the main effects and the
interaction of a 2 x 2 table of cell means (`effects_2x2`), the bootstrap distribution of the gap between two
cells of the design (`bootstrap_gap`) and its percentile interval (`percentile_interval`). Their cases judge
properties of the student's output: the definitions (effects swap when the table is transposed, an additive
table has no interaction; a wrong effect is named with the definition it breaks), the resampling (every
resampled gap is a difference of means of as many draws as each cell has seeds, centred on the observed gap,
with the spread of draws with replacement), the percentile method (the share of samples left on each side),
and reproducibility with the generator received. The statistical tests use tolerances far wider than the
sampling noise of a right answer.

The other exercises extend the design: another grid (`cross_study`), a third algorithm (`annealing_design`,
`grid_change_rate`) and the effective diversity of a population (`count_distinct_grids`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ....crossstudy import GENERATIONS, POPULATION, SEEDS, CrossDesign, space_of
from ....grid import InvalidPuzzleError, SudokuGrid
from ....puzzles import load_bank
from ....spaces import ContinuousSpace, Space
from ...display import NARROW_SPACE, french_number, french_percent, french_value
from .. import Case, Plain, plain
from ..common import (
    TEMOIN,
    case_rng,
    inputs_after,
    integer,
    is_number,
    kind_of,
    seed_global_generators,
    temoin,
    unchanged,
)

SOURCE_COSTS = {  # conflicts left per seed (0, 1, 7, 42) in the source's run of the design
    ("R1", "PSO"): [46, 50, 39, 44],
    ("R1", "GA"): [4, 8, 13, 15],
    ("R2", "PSO"): [6, 2, 6, 13],
    ("R2", "GA"): [0, 0, 0, 0],
}


# ------------------------------------------------------------ 1: main effects and interaction
def _table(values, rows: Sequence[str] = ("R1", "R2"), columns: Sequence[str] = ("PSO", "GA")) -> pd.DataFrame:
    table = pd.DataFrame(np.asarray(values, dtype=float), index=list(rows), columns=list(columns))
    return table.rename_axis(index="representation", columns="algorithm")


SOURCE_MEANS = _table([[np.mean(SOURCE_COSTS[rep, algo]) for algo in ("PSO", "GA")] for rep in ("R1", "R2")])


def _effects_of(*tables: pd.DataFrame) -> Callable[..., Plain]:
    """A call: the student's effects of each table (given a copy), and the copies after the calls."""

    def call(function: Callable) -> Plain:
        copies = [table.copy() for table in tables]
        outputs = [plain(function(table)) for table in copies]
        return {"outputs": outputs, "after": inputs_after(*copies)}

    return call


def _three_numbers(output: Plain) -> str | None:
    if isinstance(output, list) and len(output) == 3 and all(map(is_number, output)):
        return None
    return (
        "la fonction doit renvoyer trois nombres (effet des lignes, effet des colonnes, interaction), "
        f"pas {kind_of(output)}"
    )


def _effects_judge(
    tables: Sequence[pd.DataFrame], check: Callable[[list], str | None] | None = None
) -> Callable[[Plain], str | None]:
    """Judge: tables kept, three numbers per table, the case's own property (if any), then which number departs
    from its definition on the case's tables, and how."""

    def judge(result: Plain) -> str | None:
        if not unchanged(result["after"], *tables):
            return "le tableau reçu a été modifié : calculez les effets sans toucher à ses cases"
        problem = next((p for p in map(_three_numbers, result["outputs"]) if p), None)
        problem = problem or (check(result["outputs"]) if check else None)
        diagnoses = (_effects_diagnosis(table, output) for table, output in zip(tables, result["outputs"], strict=True))
        return problem or next((p for p in diagnoses if p), None)

    return judge


EFFECT_NAMES = (
    "l'effet de la représentation (1er nombre)",
    "l'effet de l'algorithme (2e nombre)",
    "l'interaction (3e nombre)",
)


EFFECT_DEFINITIONS = (
    "2e ligne moins 1re, en moyenne sur les deux colonnes",
    "2e colonne moins 1re, en moyenne sur les deux lignes",
    "(écart des lignes dans la 2e colonne) − (écart des lignes dans la 1re)",
)


def _effects_diagnosis(table: pd.DataFrame, output: list) -> str | None:
    """What is wrong with the three effects of one table, named by the definition broken (no value shown)."""
    from .references import effects_2x2  # a judge runs where the references are, never in the sandbox

    expected = effects_2x2(table)
    if all(map(_near, output, expected)):
        return None
    rows, columns, _ = output
    if not _near(expected[0], expected[1]) and _near(rows, expected[1]) and _near(columns, expected[0]):
        return (
            "effets de la représentation et de l'algorithme échangés : le 1er nombre compare les lignes "
            "(représentations), le 2e les colonnes (algorithmes)"
        )
    for k, (mine, right) in enumerate(zip(output, expected, strict=True)):
        if _near(mine, right):
            continue
        name, definition = EFFECT_NAMES[k], EFFECT_DEFINITIONS[k]
        if not _near(right, 0) and _near(mine, -right):
            return f"{name} a le mauvais signe : c'est {definition}"
        if k == 2 and not _near(right, 0) and _near(mine, right / 2):
            return (
                "l'interaction vaut ici la moitié de la différence des différences : c'est la convention de certains "
                "manuels (Montgomery), à l'échelle des effets principaux ; ce cours ne divise pas par 2 (énoncé)"
            )
        if k < 2 and not _near(right, 0) and _near(mine, 2 * right):
            return f"{name} est la somme des deux écarts, pas leur moyenne : c'est {definition}"
        return f"{name} ne suit pas sa définition : c'est {definition}"
    return None


def _agree_effects(output: Plain, reference: Plain) -> bool:
    return all(
        math.isclose(mine, theirs, rel_tol=1e-9, abs_tol=1e-9)
        for got, expected in zip(output["outputs"], reference["outputs"], strict=True)
        for mine, theirs in zip(got, expected, strict=True)
    )


def _near(value: float, target: float) -> bool:
    return math.isclose(value, target, rel_tol=1e-9, abs_tol=1e-9)


def _no_interaction(outputs: list) -> str | None:
    ((_, _, interaction),) = outputs
    if _near(interaction, 0):
        return None
    return (
        "dans ce tableau, passer de la 1re à la 2e ligne change autant les deux colonnes : les effets s'ajoutent et "
        f"l'interaction doit être nulle, obtenu {french_number(round(interaction, 3))}"
    )


def _no_main_effect(outputs: list) -> str | None:
    ((rows, columns, _),) = outputs
    if _near(rows, 0) and _near(columns, 0):
        return None
    return (
        "dans ce tableau, les écarts se compensent d'une colonne (et d'une ligne) à l'autre : en moyenne, aucun "
        "facteur n'a d'effet ; seule l'interaction est non nulle"
    )


def _transposed(outputs: list) -> str | None:
    (rows, columns, interaction), (rows_t, columns_t, interaction_t) = outputs
    if not (_near(rows, columns_t) and _near(columns, rows_t)):
        return "transposer le tableau (lignes et colonnes échangées) doit échanger l'effet des lignes et des colonnes"
    if not _near(interaction, interaction_t):
        return "transposer le tableau ne doit pas changer l'interaction (sa définition est symétrique)"
    return None


def _shifted(outputs: list) -> str | None:
    if all(map(_near, outputs[0], outputs[1])):
        return None
    return "ajouter 100 conflits à chaque case ne doit changer aucun effet : ce sont des différences, pas des rapports"


def effects_cases(seed: int | None) -> list[Case]:
    """The source's table, an additive one, a pure interaction, other labels, rows in reverse order, a transposed
    table and a shifted one."""
    rng = case_rng(seed, 40)
    drawn = _table(rng.integers(0, 60, size=(2, 2)))
    if seed is None:
        labelled = _table([[18, 6], [0, 0]], ("R1", "R3"), ("GA", "SA"))
        reversed_rows = SOURCE_MEANS.iloc[::-1]
    else:
        labelled = _table(rng.integers(0, 60, size=(2, 2)), ("R3", "R2"), ("SA", "PSO"))
        reversed_rows = drawn.iloc[::-1]
    row, column = (int(x) for x in rng.integers(5, 30, size=2))
    additive = _table([[60, 60 - column], [60 - row, 60 - row - column]])
    crossing = int(rng.integers(5, 30))
    pure = _table([[0, crossing], [crossing, 0]])
    compare = {"agree": _agree_effects, "disagree": EFFECTS_DISAGREE}
    shifted = drawn + 100
    return [
        Case(
            "le tableau des moyennes du cours d'origine",
            _effects_of(SOURCE_MEANS),
            _effects_judge([SOURCE_MEANS]),
            **compare,
        ),
        Case(
            "un tableau où les effets s'additionnent",
            _effects_of(additive),
            _effects_judge([additive], _no_interaction),
        ),
        Case(
            "une interaction pure : les écarts se croisent", _effects_of(pure), _effects_judge([pure], _no_main_effect)
        ),
        Case("d'autres représentations et algorithmes", _effects_of(labelled), _effects_judge([labelled]), **compare),
        Case(
            "l'ordre des lignes compte : R2 avant R1",
            _effects_of(reversed_rows),
            _effects_judge([reversed_rows]),
            **compare,
        ),
        Case("le tableau transposé", _effects_of(drawn, drawn.T), _effects_judge([drawn, drawn.T], _transposed)),
        Case(
            "le même tableau, 100 conflits de plus partout",
            _effects_of(drawn, shifted),
            _effects_judge([drawn, shifted], _shifted),
        ),
    ]


EFFECTS_DISAGREE = (
    "ces effets ne suivent pas les définitions de l'énoncé (2e ligne moins 1re, moyenné sur les colonnes ; "
    "2e colonne moins 1re, moyenné sur les lignes ; interaction : écart des lignes dans la 2e colonne moins "
    "dans la 1re, sans diviser par 2)"
)


# ------------------------------------------------------------ 2: bootstrap of a gap
def _as_numbers(output) -> np.ndarray | None:
    """The output as a 1-D array of finite numbers, or None."""
    try:
        values = np.asarray(output, dtype=float)
    except (TypeError, ValueError):
        return None
    return values if values.ndim == 1 and np.isfinite(values).all() else None


def _gaps_summary(output, first: Sequence[int], second: Sequence[int]) -> dict:
    """What the judges need to know of a student's resampled gaps, computed here from them and the cells."""
    gaps = _as_numbers(output)
    if gaps is None:
        return {"numbers": False, "kind": type(output).__name__}
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    spread = math.sqrt(a.var() / len(a) + b.var() / len(b))  # standard deviation of a bootstrap gap
    low, high = b.min() - a.max(), b.max() - a.min()
    scaled = gaps * len(a) * len(b)  # a difference of means of len(b) and len(a) integers, times both sizes
    summary = {
        "numbers": True,
        "length": len(gaps),
        "outside": int(((gaps < low - 1e-9) | (gaps > high + 1e-9)).sum()),
        "outside_reversed": int(((-gaps < low - 1e-9) | (-gaps > high + 1e-9)).sum()),
        "off_grid": int((np.abs(scaled - np.round(scaled)) > 1e-6).sum()),
        "varies": bool(len(gaps) and np.ptp(gaps) > 1e-9),
    }
    if spread > 0 and len(gaps) > 1:
        summary["mean_z"] = float((gaps.mean() - (b.mean() - a.mean())) / (spread / math.sqrt(len(gaps))))
        summary["variance_ratio"] = float(gaps.var() / spread**2)
    return summary


def _resampled(first, second, seed: int, resamples: int, more_seeds: int = 0) -> Callable[..., Plain]:
    """A call: the summary of the student's gaps; the same seed run again (global generators reseeded), another
    seed, and the inputs after each call. With more_seeds, also the spread with every value repeated more_seeds
    times."""

    def call(function: Callable) -> Plain:
        runs, after = [], []
        for global_seed in (1, 2):
            seed_global_generators(global_seed)
            a, b = _copy(first), _copy(second)
            runs.append(_as_numbers(function(a, b, np.random.default_rng(seed), resamples)))
            after.append(inputs_after(a, b))
        seed_global_generators(3)
        output = function(_copy(first), _copy(second), np.random.default_rng(seed + 1), resamples)
        other = _as_numbers(output)
        result = {
            "summary": _gaps_summary(runs[0] if runs[0] is not None else output, first, second),
            "after": after,
            "same": runs[0] is not None and runs[1] is not None and np.array_equal(runs[0], runs[1]),
            "different": other is None or runs[0] is None or not np.array_equal(runs[0], other),
        }
        if more_seeds:
            repeated = (np.repeat(first, more_seeds), np.repeat(second, more_seeds))
            more = _as_numbers(function(*repeated, np.random.default_rng(seed), resamples))
            both = runs[0] is not None and more is not None and len(more) > 1 and runs[0].std() > 0
            result["spread_ratio"] = float(more.std() / runs[0].std()) if both else None
        return result

    return call


def _copy(values):
    return values.copy() if isinstance(values, np.ndarray) else list(values)


def _gaps_judge(first, second, resamples: int, more_seeds: int = 0) -> Callable[[Plain], str | None]:
    """Judge the properties of the resampled gaps, the most basic first."""
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    observed = french_number(round(b.mean() - a.mean(), 2))
    constant = a.std() == 0 and b.std() == 0

    def judge(result: Plain) -> str | None:
        summary = result["summary"]
        if not summary["numbers"]:
            kind = summary["kind"]
            return f"la fonction doit renvoyer un tableau de nombres (un écart par rééchantillonnage), pas {kind}"
        if summary["length"] != resamples:
            return f"il faut {resamples} écarts, un par rééchantillonnage ; la fonction en renvoie {summary['length']}"
        if not all(unchanged(after, first, second) for after in result["after"]):
            return "les conflits reçus ont été modifiés (triés ?) : rééchantillonnez sans toucher aux entrées"
        if not result["same"]:
            return (
                "avec la même graine, deux appels donnent des écarts différents : tirez le hasard avec le générateur "
                "rng reçu, pas avec np.random ni random"
            )
        if not constant and not summary["varies"]:
            return (
                f"tous les écarts valent l'écart observé ({observed}) : tirer sans remise toutes les valeurs d'une "
                "cellule redonne sa moyenne ; tirez AVEC remise, rng.choice(valeurs, size=...)"
            )
        if not constant and not result["different"]:
            return "deux graines différentes donnent exactement les mêmes écarts : le hasard doit venir de rng"
        if summary["outside"] and not summary["outside_reversed"]:
            return (
                "les écarts ont le mauvais signe : chaque écart est la moyenne rééchantillonnée de second moins "
                "celle de first"
            )
        if summary["outside"]:
            return (
                f"{summary['outside']} écart(s) sont impossibles pour des tirages pris dans chaque cellule : "
                "rééchantillonnez first parmi ses valeurs et second parmi les siennes"
            )
        if summary["off_grid"]:
            return (
                f"certains écarts ne sont pas la différence d'une moyenne de {len(b)} valeurs de second et d'une "
                f"moyenne de {len(a)} valeurs de first : chaque rééchantillonnage tire autant de valeurs que la "
                "cellule en compte"
            )
        if constant:
            if summary["varies"]:
                return (
                    "chaque cellule répète une seule valeur : tout rééchantillonnage fait dans la cellule redonne "
                    f"l'écart observé ({observed}) ; ne mélangez pas les deux cellules"
                )
            return None
        if abs(summary["mean_z"]) > 6:
            return (
                f"les écarts rééchantillonnés ne sont pas centrés sur l'écart observé ({observed}, moyenne de second "
                "moins moyenne de first) : vérifiez le sens de la différence et que chaque cellule garde ses valeurs"
            )
        ratio = summary["variance_ratio"]
        if not 0.7 <= ratio <= 1.4:
            return (
                f"la variance des écarts vaut {french_number(round(ratio, 2))} fois celle de tirages avec remise de "
                f"{len(a)} et {len(b)} valeurs : tirez avec remise, autant de valeurs que la cellule en compte"
            )
        if more_seeds:
            spread = result["spread_ratio"]
            if spread is None or spread > 0.6:
                shown = "?" if spread is None else french_number(round(spread, 2))
                return (
                    f"avec {more_seeds} fois plus de graines (chaque valeur répétée), la dispersion des écarts doit "
                    f"baisser d'environ √{more_seeds} ; son rapport à la précédente vaut {shown}"
                )
        return None

    return judge


def bootstrap_cases(seed: int | None) -> list[Case]:
    """The source's PSO column, cells of different sizes, constant cells, arrays in, a last value apart, and the
    spread with five times more seeds; for a seed, cells drawn at random in addition."""
    rng = case_rng(seed, 41)
    base = int(rng.integers(1000))
    pso = (SOURCE_COSTS["R1", "PSO"], SOURCE_COSTS["R2", "PSO"])
    ga = (SOURCE_COSTS["R1", "GA"], SOURCE_COSTS["R2", "GA"])
    settings = [
        ("colonne PSO du cours d'origine : R1 contre R2, quatre graines", *pso, 2000, 0),
        ("cellules de tailles différentes (3 et 5 graines)", [12, 9, 14], [3, 0, 5, 2, 4], 2000, 0),
        ("deux cellules constantes", [40, 40, 40, 40], [7, 7, 7, 7], 300, 0),
        ("des tableaux numpy en entrée, 500 rééchantillonnages", np.array(ga[0]), np.array(ga[1]), 500, 0),
        ("une valeur à part en dernière position", [0, 0, 0, 12], [3, 3, 4, 4], 2000, 0),
        ("cinq fois plus de graines : la dispersion diminue", *pso, 2000, 5),
    ]
    if seed is not None:
        sizes = rng.integers(3, 9, size=2)
        first, second = (rng.integers(0, 50, size=n).tolist() for n in sizes)
        settings.append((f"cellules tirées au hasard ({sizes[0]} et {sizes[1]} graines)", first, second, 1000, 0))
    return [
        Case(label, _resampled(first, second, base + k, resamples, more), _gaps_judge(first, second, resamples, more))
        for k, (label, first, second, resamples, more) in enumerate(settings)
    ]


# ------------------------------------------------------------ 3: percentile interval
def _interval_of(samples, confidence: float, point: float | None = None) -> Callable[..., Plain]:
    """A call: where the student's bounds fall among the samples (and whether they hold `point`), and the
    samples after the call."""

    def call(function: Callable) -> Plain:
        values = _copy(samples)
        output = function(values, confidence)
        after = inputs_after(values)
        bounds = _as_numbers(output)
        if bounds is None or len(bounds) != 2:
            return {"pair": False, "kind": type(output).__name__, "after": after}
        low, high = bounds
        data = np.asarray(samples, dtype=float)
        return {
            "pair": True,
            "after": after,
            "ordered": bool(low <= high),
            "below": int((data < low).sum()),  # counts, not shares: the judge divides
            "at_or_below": int((data <= low).sum()),
            "above": int((data > high).sum()),
            "at_or_above": int((data >= high).sum()),
            "holds_point": point is None or bool(low <= point <= high),
        }

    return call


def _interval_judge(samples, confidence: float, point: float | None = None) -> Callable[[Plain], str | None]:
    """Judge: a pair, samples kept, low <= high, (1 - confidence) / 2 of the samples beyond each bound, and
    `point` inside when given."""
    tail = (1 - confidence) / 2
    tolerance = 0.005 + 1 / len(samples)
    wanted = f"{french_percent(tail)} (la moitié de 1 − confidence)"

    def beyond(strict: int, loose: int, side: str) -> str | None:
        """What is wrong with the samples beyond one bound: strictly beyond too many, or beyond or on too few."""
        strict, loose = strict / len(samples), loose / len(samples)
        if strict > tail + tolerance:
            return f"{french_percent(strict)} des échantillons sont strictement {side}, il en faut au plus {wanted}"
        if loose >= tail - tolerance:
            return None
        problem = f"seulement {french_percent(loose)} des échantillons sont {side} ou sur elle, il en faut {wanted}"
        if loose == 0:
            problem += " ; un percentile ne tombe jamais hors des échantillons (approximation normale ?)"
        return problem

    def judge(result: Plain) -> str | None:
        if not result["pair"]:
            return f"la fonction doit renvoyer deux nombres (borne basse, borne haute), pas {result['kind']}"
        if not unchanged(result["after"], samples):
            return "les échantillons reçus ont été modifiés (triés sur place ?) : travaillez sur une copie"
        if not result["ordered"]:
            return "la borne basse dépasse la borne haute"
        problem = beyond(result["below"], result["at_or_below"], "sous la borne basse") or beyond(
            result["above"], result["at_or_above"], "au-dessus de la borne haute"
        )
        if problem:
            return problem
        if not result["holds_point"]:
            return f"l'intervalle ne contient pas l'écart observé ({french_number(point)})"
        return None

    return judge


def interval_draws(seed: int | None) -> tuple[np.random.Generator, list[np.ndarray], int]:
    """The generator of the percentile cases of `seed`, the samples drawn from it first (spread, normal, skewed,
    tied), and the seed of the bootstrap of the source's GA column (`references.percentile_inputs`)."""
    rng = case_rng(seed, 42)
    uniform = rng.permutation(1000).astype(float)
    normal = rng.normal(20.0, 5.0, size=800)
    skewed = rng.exponential(3.0, size=2000)
    tied = rng.permutation(np.concatenate([np.zeros(900), np.arange(1.0, 101.0)]))
    return rng, [uniform, normal, skewed, tied], int(rng.integers(1000))


def interval_cases(seed: int | None, ga_gaps: list[float]) -> list[Case]:
    """Spread, skewed, tied and real bootstrap samples under several confidence levels; lists and arrays.

    `ga_gaps`: the resampled gaps of the source's GA column, made by the reference `bootstrap_gap` where the
    references are (`Exercise.prepare`)."""
    rng, (uniform, normal, skewed, tied), _ = interval_draws(seed)
    r1, r2 = SOURCE_COSTS["R1", "GA"], SOURCE_COSTS["R2", "GA"]
    real = np.array(ga_gaps)
    observed = float(np.mean(r2) - np.mean(r1))
    settings = [
        (f"1000 valeurs distinctes, mélangées, confiance {french_percent(0.95, 0)}", uniform, 0.95, None),
        (f"confiance {french_percent(0.8, 0)}", normal, 0.8, None),
        (f"confiance {french_percent(0.5, 0)}", normal, 0.5, None),
        (f"confiance {french_percent(0.99, 0)}", uniform, 0.99, None),
        ("une distribution asymétrique (beaucoup de petites valeurs, quelques grandes)", skewed, 0.95, None),
        ("beaucoup d'égalités : 90 % des échantillons valent 0".replace(" %", f"{NARROW_SPACE}%"), tied, 0.95, None),
        ("une liste Python en entrée", [float(x) for x in normal[:400]], 0.9, None),
        ("les écarts rééchantillonnés de la colonne GA du cours d'origine", real, 0.95, observed),
    ]
    if seed is not None:
        confidence = round(float(rng.uniform(0.6, 0.98)), 2)
        settings.append(
            (f"confiance {french_percent(confidence, 0)}", rng.gamma(2.0, 4.0, size=1500), confidence, None)
        )
    return [
        Case(label, _interval_of(samples, level, point), _interval_judge(samples, level, point))
        for label, samples, level, point in settings
    ]


# ------------------------------------------------------------ 4: the design on another grid
REFUSED = "refusée"


SHORT_LINE = TEMOIN[9:]
"""The source's "second easy grid": the témoin without its first row, 72 characters."""


TABLE_NUMBERS = ["median", "min", "max", "solved", "mean_evaluations"]


def _study_summary(output) -> Plain:
    """The student's (table, verdict) as plain data: the cells in order, their numbers, the outcome."""
    if not (isinstance(output, tuple) and len(output) == 2):
        return {"problem": "pair", "kind": type(output).__name__}
    table, result = output
    if not isinstance(table, pd.DataFrame):
        return {"problem": "table", "kind": type(table).__name__}
    missing = [name for name in ["representation", "algorithm", *TABLE_NUMBERS] if name not in table.columns]
    if missing:
        return {"problem": "columns", "missing": missing}
    outcome = getattr(result, "outcome", result)
    return {
        "problem": None,
        "cells": table[["representation", "algorithm"]].astype(str).to_numpy().tolist(),
        "numbers": table[TABLE_NUMBERS].to_numpy(dtype=float).tolist(),
        "rule": type(result).__name__,
        "outcome": outcome if isinstance(outcome, str) else type(outcome).__name__,
    }


def _studying(puzzle, seeds: tuple[int, ...], population: int, generations: int) -> Callable[..., Plain]:
    """A call: the student's design on `puzzle` as plain data, or REFUSED if it raised InvalidPuzzleError."""

    def call(function: Callable) -> Plain:
        try:
            output = function(puzzle, seeds=seeds, population_size=population, max_iterations=generations)
        except InvalidPuzzleError:
            return REFUSED
        return _study_summary(output)

    return call


def _study_judge(output: Plain) -> str | None:
    if output == REFUSED:
        return "la grille est lisible : la fonction ne doit pas lever InvalidPuzzleError ici"
    problem = output["problem"]
    if problem == "pair":
        return f"la fonction doit renvoyer un couple (tableau croisé, verdict), pas {output['kind']}"
    if problem == "table":
        return f"le premier élément doit être le tableau croisé (un DataFrame), pas {output['kind']}"
    if problem == "columns":
        return f"colonnes absentes du tableau croisé : {', '.join(output['missing'])} (voir cross_table)"
    if len(output["cells"]) != 4:
        return f"le plan 2 × 2 a 4 cellules, le tableau en a {len(output['cells'])}"
    if output["rule"] == "Verdict":
        return "ce verdict est celui de la règle d'origine (verdict) : le cours lit le plan avec effects_verdict"
    if output["rule"] == "Effects":
        return "le second élément doit être le verdict de la règle du cours : passez ces effets à effects_verdict"
    return None


def _same_study(output: Plain, reference: Plain) -> bool:
    return (
        output["cells"] == reference["cells"]
        and np.allclose(output["numbers"], reference["numbers"])
        and output["outcome"] == reference["outcome"]
    )


def _refused(output: Plain) -> str | None:
    if output == REFUSED:
        return None
    return (
        "cette chaîne n'a que 72 caractères : la lecture de la grille doit lever InvalidPuzzleError (ne l'attrapez pas)"
    )


def cross_study_cases(seed: int | None) -> list[Case]:
    """Designs on the témoin, the second easy grid and a puzzle given as a string, and the 72-character line."""
    rng = case_rng(seed, 43)
    temoin_seeds, second_seeds, string_seed = (0, 1, 2), (3, 4), 7
    if seed is not None:
        drawn = rng.choice(100, size=6, replace=False).tolist()
        temoin_seeds, second_seeds, string_seed = tuple(drawn[:3]), tuple(drawn[3:5]), drawn[5]
    second = load_bank("easy")[1]
    settings = [  # small budgets: a case costs a fraction of a second, and a wrong answer no more
        (temoin(), "le témoin", temoin_seeds, 10, 20),
        (second, f"la grille {french_value('easy-01')}", second_seeds, 12, 10),
        (TEMOIN, "une grille donnée sous forme de chaîne", (string_seed,), 10, 5),
    ]
    cases = [
        Case(
            f"{label}, {len(seeds)} graine{'s' if len(seeds) > 1 else ''}, "
            f"population {population} sur {generations} générations",
            _studying(puzzle, seeds, population, generations),
            _study_judge,
            agree=_same_study,
            disagree=(
                "le tableau ou le verdict ne sont pas ceux du plan 2 × 2 (R1, R2 × PSO, GA) lancé sur cette grille "
                "avec ces graines et ce budget, verdict donné par la règle du cours (effects_verdict)"
            ),
        )
        for puzzle, label, seeds, population, generations in settings
    ]
    cases.append(
        Case(
            "la chaîne de 72 caractères du cours d'origine doit être refusée (InvalidPuzzleError)",
            _studying(SHORT_LINE, (0,), 10, 2),
            _refused,
        )
    )
    return cases


# ------------------------------------------------------------ 5: a third algorithm
def _design_summary(puzzle, seeds: tuple[int, ...]) -> Callable[..., Plain]:
    """A call: the student's design as plain data."""

    def call(function: Callable) -> Plain:
        design = function(puzzle, seeds)
        if not isinstance(design, CrossDesign):
            return {"kind": type(design).__name__}
        return {
            "kind": "CrossDesign",
            "representations": list(design.representations),
            "algorithms": list(design.algorithms),
            "seeds": [int(s) for s in design.seeds],
            "population": design.population_size,
            "generations": design.max_iterations,
            "puzzles": [grid.to_string() for grid in design.grids.values()],
        }

    return call


def _design_judge(puzzle: SudokuGrid, seeds: tuple[int, ...]) -> Callable[[Plain], str | None]:
    def judge(design: Plain) -> str | None:
        if design["kind"] != "CrossDesign":
            return f"la fonction doit renvoyer un CrossDesign, pas un objet de type {design['kind']}"
        if sorted(design["representations"]) != ["R1", "R2"]:
            return f"les représentations du plan sont R1 et R2, obtenu {', '.join(design['representations'])}"
        if sorted(design["algorithms"]) != ["GA", "PSO", "SA"]:
            return f"il faut les trois algorithmes PSO, GA et SA, obtenu {', '.join(design['algorithms'])}"
        if design["seeds"] != list(seeds):
            return f"les graines doivent être celles reçues, {list(seeds)}, obtenu {design['seeds']}"
        if (design["population"], design["generations"]) != (POPULATION, GENERATIONS):
            return (
                f"le protocole fixe une population de {POPULATION} sur {GENERATIONS} générations "
                f"({french_number(POPULATION * GENERATIONS)} évaluations par exécution), "
                f"obtenu {design['population']} × {design['generations']}"
            )
        if design["puzzles"] != [puzzle.to_string()]:
            return "le plan doit porter sur la seule grille reçue"
        return None

    return judge


def annealing_design_cases(seed: int | None) -> list[Case]:
    """The témoin with the protocol's seeds, a hard puzzle with other seeds; the budget is named in the labels."""
    rng = case_rng(seed, 44)
    hard = load_bank("hard")[0]
    other = (3, 5) if seed is None else tuple(int(s) for s in rng.choice(100, size=3, replace=False))
    budget = f"budget du protocole : population {POPULATION} × {GENERATIONS} générations"
    return [
        Case(
            f"le témoin et les graines du protocole ({budget})",
            _design_summary(temoin(), SEEDS),
            _design_judge(temoin(), SEEDS),
        ),
        Case(
            f"la grille {french_value('hard-00')} et {len(other)} autres graines ({budget})",
            _design_summary(hard, other),
            _design_judge(hard, other),
        ),
    ]


RATE_TOLERANCE = 0.06
"""Two estimates from 2,000 moves each differ by about 0.016 (one standard deviation) when drawn differently."""


def _rates(space: Space, seed: int, samples: int) -> Callable[..., Plain]:
    """A call: the student's rate, twice with the same seed, the global generators seeded differently each time."""

    def call(function: Callable) -> Plain:
        rates = []
        for global_seed in (1, 2):
            seed_global_generators(global_seed)
            rates.append(plain(function(space, seed, samples)))
        return rates

    return call


def _rate_judge(exact: float | None = None) -> Callable[[Plain], str | None]:
    def judge(rates: Plain) -> str | None:
        rate = rates[0]
        if not is_number(rate):
            return f"la fonction doit renvoyer un nombre (une proportion), pas {kind_of(rate)}"
        if not 0 <= rate <= 1:
            return f"une proportion est comprise entre 0 et 1, obtenu {french_number(round(rate, 3))}"
        if rates[1] != rate:
            return (
                "la même graine donne deux proportions différentes : tirez le hasard avec np.random.default_rng(seed)"
            )
        if exact is not None and rate != exact:
            return (
                "ici chaque mouvement échange deux chiffres différents d'une ligne : la proportion vaut exactement "
                f"{french_number(exact)}"
            )
        return None

    return judge


def _close_rate(output: Plain, reference: Plain) -> bool:
    return abs(output[0] - reference[0]) <= RATE_TOLERANCE


def change_rate_cases(seed: int | None) -> list[Case]:
    rng = case_rng(seed, 45)
    base = int(rng.integers(1000))
    grid = temoin() if seed is None else load_bank("easy")[int(rng.integers(1, 10))]
    estimates = [
        ("R1 (réels arrondis), pas gaussien d'écart type 1", space_of("R1", grid)),
        ("R1 avec un pas minuscule (écart type 0,05)", ContinuousSpace(grid, sigma=0.05)),
        ("R1 avec un grand pas (écart type 3)", ContinuousSpace(grid, sigma=3.0)),
        ("R3 (clés aléatoires)", space_of("R3", grid)),
    ]
    cases = [
        Case(
            label,
            _rates(space, base + k, 2000),
            _rate_judge(),
            agree=_close_rate,
            disagree=(
                "cette proportion est trop loin de celle des mouvements qui changent la grille décodée ; chaque "
                "mouvement part-il d'un nouveau candidat aléatoire ? (une chaîne de mouvements s'entasse aux bornes)"
            ),
        )
        for k, (label, space) in enumerate(estimates)
    ]
    cases.append(
        Case(
            "R2 (permutations), 7 mouvements : un échange change toujours la grille",
            _rates(space_of("R2", grid), base, 7),
            _rate_judge(1.0),
        )
    )
    return cases


# ------------------------------------------------------------ 6: effective diversity
def _counting(space: Space, population) -> Callable[..., Plain]:
    def call(function: Callable) -> Plain:
        return plain(function(space, _copy(population)))

    return call


def count_distinct_cases(seed: int | None) -> list[Case]:
    rng = case_rng(seed, 46)
    grid = temoin()
    r1, r2, r3 = (space_of(label, grid) for label in ("R1", "R2", "R3"))
    vector = r1.random(rng)
    same_digits = [vector, np.floor(vector) + 0.5, np.floor(vector) + 0.01]  # each rounds down to the same digits
    permutations = np.array([r2.random(rng) for _ in range(int(rng.integers(4, 8)))])
    repeated = np.concatenate([permutations, permutations[:2]])
    keys = r3.random(rng)
    settings = [
        ("R1 : trois vecteurs différents qui s'arrondissent en la même grille", r1, same_digits),
        ("R1 : une population aléatoire de 40 vecteurs", r1, np.array([r1.random(rng) for _ in range(40)])),
        (f"R2 : {len(repeated)} permutations, dont deux répétées", r2, repeated),
        ("R3 : des clés multipliées par 0,5 gardent leur ordre", r3, [keys, keys * 0.5, np.sqrt(keys)]),
        ("une population vide", r2, np.zeros((0, r2.dimension), dtype=np.int64)),
    ]
    return [
        Case(
            label,
            _counting(space, population),
            integer,
            agree=lambda output, reference: output == reference,
            disagree="ce n'est pas le nombre de grilles distinctes une fois les candidats décodés",
        )
        for label, space, population in settings
    ]
