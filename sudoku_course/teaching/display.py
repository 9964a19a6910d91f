"""The French display layer of the notebooks: French numbers, labels, tables, errors and verdicts.

The package speaks English (columns, keys, errors, outcome codes); what a student reads in a notebook is
French. Call these functions in the notebooks: `french_table(summary)`, `french_number(43.5)`,
`french_percent(0.718)`, `french_scientific(2.3e34)`, `french_keys(unit_conflicts(grid))`, `french_error(error)`,
`french_exception(error)` (any error a student can meet, from its English message),
`explain_effects(effects_verdict(...))`; pass `labels=PLOT_LABELS` (teaching.labels) to the plot helpers,
and `french_ticks(*axes)` writes their tick labels the French way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter

from ..crossstudy import EFFECTS, SAME_ORDER, Effects, EffectsVerdict, Gap, Verdict
from ..grid import InvalidPuzzleError
from .labels import (
    BANK_LABELS,
    BOOLEAN_LABELS,
    COLUMN_LABELS,
    ERROR_MESSAGES,
    OUTCOME_LABELS,
    UNITS_WITH_ARTICLE,
    VALUE_LABELS,
)

# ------------------------------------------------------------------ numbers
NARROW_SPACE = "\u202f"
"""Thousands separator and space before « % » in every French number of the course: « 8 000 », « 71,8 % »."""
MINUS = "\u2212"
"""The minus sign of a French number: « −25,1 » (a true minus, not a hyphen)."""


def french_number(number: float, decimals: int | None = None) -> str:
    """A number written the French way: « 43,5 », « 8 000 » (narrow no-break space), « −2 » (minus sign).

    decimals=None keeps the digits the number needs (up to 6 decimals, trailing zeros dropped);
    an integer gives `decimals` fixed digits. NaN gives « — ».
    """
    if math.isnan(number):
        return "—"
    digits = 6 if decimals is None else decimals
    number = round(float(number), digits) + 0.0  # + 0.0 turns -0.0 into 0.0
    text = f"{number:,.{digits}f}"
    if decimals is None and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(",", NARROW_SPACE).replace(".", ",").replace("-", MINUS)


def french_percent(share: float, decimals: int = 1) -> str:
    """A share (0.718) as a French percentage: « 71,8 % »."""
    return f"{french_number(100 * share, decimals)}{NARROW_SPACE}%"


def french_ticks(*axes: Axes) -> None:
    """Write the tick labels of these matplotlib Axes (both axes, linear scales) the French way: « 0,25 »."""
    formatter = FuncFormatter(lambda value, _: french_number(value))
    for ax in axes:
        ax.xaxis.set_major_formatter(formatter)
        ax.yaxis.set_major_formatter(formatter)


SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def french_scientific(number: float, digits: int = 2) -> str:
    """A number in scientific notation the French way, `digits` significant digits, for values too small or too
    large for french_number: 2.6e34 -> « 2,6 × 10³⁴ », 1.18e-07 with 3 digits -> « 1,18 × 10⁻⁷ »."""
    mantissa, exponent = f"{number:.{digits - 1}e}".split("e")
    power = str(int(exponent)).translate(SUPERSCRIPTS)
    return f"{mantissa.replace('.', ',').replace('-', MINUS)}{NARROW_SPACE}×{NARROW_SPACE}10{power}"


# ------------------------------------------------------------------ labels and tables
def french_label(name):
    """The French label of an English column, key or bank name of the package; any other name unchanged."""
    if not isinstance(name, str):
        return name
    return COLUMN_LABELS.get(name, BANK_LABELS.get(name, name))


def french_keys(mapping: Mapping) -> dict:
    """The same dict with French keys, for printing: {'rows': 3} -> {'lignes': 3}."""
    return {french_label(key): value for key, value in mapping.items()}


def french_value(value):
    """A cell of a table in French: bank names, puzzle ids (« easy-00 ») and effect names translated, booleans as
    oui/non."""
    if isinstance(value, (bool, np.bool_)):
        return BOOLEAN_LABELS[bool(value)]
    if isinstance(value, str):
        if value in VALUE_LABELS:
            return VALUE_LABELS[value]
        bank, dash, rest = value.partition("-")
        if bank in BANK_LABELS and rest.isdigit():
            return BANK_LABELS[bank] + dash + rest
    return value


def french_table(table: pd.DataFrame | pd.Series, decimals: int | None = None) -> pd.DataFrame:
    """A copy of a package table for display in French.

    Columns and index names get their French labels (`labels.COLUMN_LABELS`), bank names and booleans in
    the cells and the index are translated, and a Series becomes a one-column table (no `Name: … dtype`
    footer). Integer columns become French number strings grouped by thousands (« 14 577 »); with `decimals`,
    float columns too (« 43,5 »).
    """
    frame = table.to_frame() if isinstance(table, pd.Series) else table.copy()
    for column in frame.columns:
        values = frame[column]
        if pd.api.types.is_integer_dtype(values) and not pd.api.types.is_bool_dtype(values):
            frame[column] = [french_number(value) for value in values]
        elif decimals is not None and pd.api.types.is_float_dtype(values):
            frame[column] = [french_number(value, decimals) for value in values]
        elif values.dtype == object or pd.api.types.is_bool_dtype(values) or isinstance(values.dtype, pd.StringDtype):
            frame[column] = values.map(french_value).astype(object)
    frame.index = frame.index.map(french_value) if frame.index.nlevels == 1 else frame.index.map(_french_tuple)
    frame = frame.rename(columns=french_label)
    frame.columns = frame.columns.set_names([french_label(name) for name in frame.columns.names])
    frame.index = frame.index.set_names([french_label(name) for name in frame.index.names])
    return frame


def _french_tuple(values: tuple) -> tuple:
    return tuple(french_value(value) for value in values)


# ------------------------------------------------------------------ lesson 04 verdicts
def french_outcome(outcome: str) -> str:
    """The French label of a verdict outcome (« la représentation domine »...)."""
    return OUTCOME_LABELS[outcome]


def describe_gap(gap: Gap, decimals: int | None = None) -> str:
    """One French line of the source's rule: the two medians, the gap (`decimals` digits), the ranges."""
    ranges = "se recouvrent" if gap.overlap else "sont séparées"
    worst, best = french_number(gap.worst_median, decimals), french_number(gap.best_median, decimals)
    return (
        f"{gap.within} : {gap.worst} {worst} → {gap.best} {best}, écart {french_number(gap.size, decimals)} ; "
        f"les étendues {list(gap.worst_range)} et {list(gap.best_range)} {ranges}"
    )


def verdict_reason(result: Verdict, decimals: int | None = None) -> str:
    """Why the source's rule gave its outcome, in French (gaps with `decimals` digits)."""
    smallest, largest = result.smallest_representation_gap, result.largest_algorithm_gap
    if result.outcome == "inconclusive":
        return f"les étendues des représentations se recouvrent dans la colonne {', '.join(result.overlapping_columns)}"
    if result.outcome == "representation dominates":
        return (
            f"le plus petit écart de représentation ({smallest.within}, {french_number(smallest.size, decimals)}) "
            f"dépasse le plus grand écart d'algorithme ({largest.within}, {french_number(largest.size, decimals)})"
        )
    comparison = (
        f"le plus grand écart d'algorithme ({largest.within}, {french_number(largest.size, decimals)}) "
        f"vaut {french_number(round(result.ratio, 1))} fois le plus petit écart de représentation "
        f"({smallest.within}, {french_number(smallest.size, decimals)})"
    )
    if result.outcome == "comparable":
        return f"{comparison} : même ordre de grandeur (au plus {french_number(SAME_ORDER)} fois)"
    return f"{comparison} : plus d'un ordre de grandeur"


def explain_verdict(result: Verdict, decimals: int | None = None) -> str:
    """The source's rule applied, in French: the gaps compared, column by column, and the verdict (medians and
    gaps with `decimals` digits; None: the digits they need)."""
    lines = ["Écarts de représentation (dans chaque colonne d'algorithme, entre médianes) :"]
    lines += [f"  {describe_gap(gap, decimals)}" for gap in result.representation_gaps.values()]
    lines.append("Écarts d'algorithme (dans chaque ligne de représentation, entre médianes) :")
    lines += [f"  {describe_gap(gap, decimals)}" for gap in result.algorithm_gaps.values()]
    columns = ", ".join(f"{algo} {BOOLEAN_LABELS[flag]}" for algo, flag in result.dominated_columns.items())
    lines.append(
        f"Colonne par colonne, l'écart de représentation dépasse-t-il tous les écarts d'algorithme ? {columns}"
    )
    lines.append(f"Verdict : {french_outcome(result.outcome)} — {verdict_reason(result, decimals)}")
    return "\n".join(lines)


def french_interval(interval: tuple[float, float], decimals: int = 1) -> str:
    """An interval in French: « [−38,2 ; −21,5] » (a semicolon, since the comma is the decimal mark)."""
    low, high = interval
    return f"[{french_number(low, decimals)} ; {french_number(high, decimals)}]"


def describe_effects(effects: Effects, decimals: int = 1) -> str:
    """The three effects of a 2 x 2 design with their intervals, one French line each."""
    (r1, r2), (a1, a2) = effects.representations, effects.algorithms
    meanings = {
        "representation": f"effet de la représentation ({r1} → {r2}, moyenne sur les algorithmes)",
        "algorithm": f"effet de l'algorithme ({a1} → {a2}, moyenne sur les représentations)",
        "interaction": f"interaction (effet de {r1} → {r2} sous {a2} moins sous {a1})",
    }
    level = french_percent(effects.confidence, 0)
    lines = []
    for name in EFFECTS:
        side = "exclut 0" if effects.excludes_zero(name) else "contient 0"
        lines.append(
            f"  {meanings[name]} : {french_number(effects.estimates[name], decimals)} conflits, "
            f"intervalle à {level} {french_interval(effects.intervals[name], decimals)} ({side})"
        )
    return "\n".join(lines)


def effects_reason(result: EffectsVerdict, decimals: int = 1) -> str:
    """Why the course's rule gave its outcome, in French, with the two size intervals it compared."""
    representation = f"|représentation| {french_interval(result.representation, decimals)}"
    algorithm = f"|algorithme| {french_interval(result.algorithm, decimals)}"
    return {
        "representation dominates": f"{representation} est tout entier au-dessus de {algorithm}",
        "algorithm dominates": f"{algorithm} est tout entier au-dessus de {representation}",
        "comparable": f"les deux intervalles excluent 0 mais {representation} et {algorithm} se chevauchent",
        "inconclusive": f"un effet principal n'est pas séparé de 0 et aucun ne domine : {representation}, {algorithm}",
    }[result.outcome]


def explain_effects(result: EffectsVerdict, decimals: int = 1) -> str:
    """The course's rule applied, in French: the effects and their intervals, the comparison, the verdict."""
    effects = result.effects
    seeds = sorted(set(effects.seeds.values()))
    lines = [
        f"Effets sur les conflits restants (moyennes par cellule, {' ou '.join(map(str, seeds))} graines par "
        f"cellule, {french_number(effects.resamples)} rééchantillonnages bootstrap) :",
        describe_effects(effects, decimals),
        f"Verdict : {french_outcome(result.outcome)} — {effects_reason(result, decimals)}",
    ]
    if result.interaction_excludes_zero:
        lines.append(
            "L'interaction exclut 0 : l'effet d'un facteur dépend de l'autre, lisez-la avec les effets principaux."
        )
    return "\n".join(lines)


# ------------------------------------------------------------------ errors
def french_error(error: InvalidPuzzleError) -> str:
    """The reason a puzzle was refused, in French, from the error's fields (its message stays English):
    « 81 cases attendues, 72 trouvées », « caractère « ? » inconnu à la ligne 1, colonne 2 (caractère n° 2) »."""
    where = _french_place(error)
    return f"{where} : {_french_reason(error)}" if where else _french_reason(error)


def _french_place(error: InvalidPuzzleError) -> str:
    if error.puzzle is not None:
        return f"grille {french_value(error.puzzle)}"
    if error.file is not None:
        return error.file if error.line is None else f"{error.file}, ligne {error.line}"
    return ""


def _french_cell(cell: tuple[int, int]) -> str:
    return f"ligne {cell[0] + 1}, colonne {cell[1] + 1}"


def _french_reason(error: InvalidPuzzleError) -> str:
    kind, expected, found = error.kind, error.expected, error.found
    if kind == "cell-count":
        return f"{expected} cases attendues, {found} trouvées"
    if kind in ("character", "symbol-range"):
        position = error.position
        at = f"à la ligne {position.line}, colonne {position.column} (caractère n° {position.index + 1})"
        if kind == "character":
            return f"caractère « {error.character} » inconnu {at}"
        side = expected[1]
        grid = f"une grille {side} × {side} n'utilise que les chiffres 1 à {side}"
        return f"caractère « {error.character} » {at} : {grid}"
    if kind == "shape":
        sides = ", ".join(map(str, expected[:-1])) + f" ou {expected[-1]}"
        return f"grille carrée de côté {sides} attendue, forme {found} trouvée"
    if kind == "box-size":
        side = expected**2
        return (
            f"des blocs de côté {found} ne conviennent pas : une grille de côté {side} a des blocs de côté {expected}"
        )
    if kind == "value":
        return f"valeur {found} hors de {expected[0]}..{expected[1]} en {_french_cell(error.cells[0])}"
    if kind == "givens-shape":
        return f"masque des chiffres donnés de forme {found}, forme {expected} attendue"
    if kind == "givens-conflict":
        unit, index = error.unit
        first, second = (f"L{row + 1}C{column + 1}" for row, column in error.cells)
        return (
            f"chiffres donnés en conflit : le {found} apparaît deux fois dans {UNITS_WITH_ARTICLE[unit]} "
            f"{index + 1} (cases {first} et {second})"
        )
    if kind == "no-solution":
        cell = f" : plus aucun chiffre possible en {_french_cell(error.cells[0])}" if error.cells else ""
        return f"la grille n'a pas de solution{cell}"
    return f"grille invalide ({error.message})"


def french_message(kind: str, message: str) -> str:
    """An error a student met, in French, from its type name and its English message (all that crosses from
    the child process of a check or an experiment): « ValueError : ConflictTable demande une grille pleine ;
    celle-ci a 3 cases vides ». A message that `labels.ERROR_MESSAGES` does not know is kept as it is."""
    for pattern, template in ERROR_MESSAGES:
        found = re.fullmatch(pattern, message.strip(), flags=re.DOTALL)
        if found:
            groups = found.groupdict()
            if "unit" in groups:
                groups["unit"] = UNITS_WITH_ARTICLE.get(groups["unit"], groups["unit"])
            if "name" in groups:
                groups["name"] = groups["name"].replace(" and ", " et ")
            return f"{kind} : {template.format(**groups)}"
    return f"{kind} : {message}" if message else kind


def french_exception(error: BaseException) -> str:
    """An exception in French: a refused puzzle from its fields (`french_error`), any other from its message."""
    if isinstance(error, InvalidPuzzleError):
        return f"{type(error).__name__} : {french_error(error)}"
    return french_message(type(error).__name__, str(error))
