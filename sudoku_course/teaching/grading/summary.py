"""The class summary: one French HTML page for the teacher, written beside the other outputs (`summary.html`).

What a teacher reads first after a grading run, on one self-contained page (charts as inline SVG: nothing is
fetched when it is opened):

- how the totals are spread over the class (a histogram of each student's share of the points);
- the pass rate of each exercise (the share of its cases passed by the students who handed its lesson in);
- the cases failed most often, by how many students: each under its public label when a public case reads
  the same once numbers are set aside, else under its own label with its numbers replaced by « … », so the
  page shows no hidden value;
- the exercises flagged (answers of the package or dynamic code used), with why;
- the time each notebook took (by lesson, and the slowest notebooks).
"""

from __future__ import annotations

import html
import io
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from ...plots import COURSE_STYLE
from ..display import french_number, french_percent
from ..exercises import lesson_exercises
from .reading import Master
from .results import CRASHED, FLAGGED, INVALID, MISSING, NOT_DONE, OK, REJECTED, TIMED_OUT, NotebookResult
from .scan import TOO_LARGE

NUMBER = re.compile(r"[−-]?\d+(?:[.,]\d+)*")
HIDDEN_NUMBER = "…"
FAILED_CASES_SHOWN = 15
SLOWEST_SHOWN = 5
HISTOGRAM_BINS = 10
SVG_METADATA = ("Creator", "Date", "Format", "Type")
"""What matplotlib writes into an SVG by default (as RDF): left out, the chart holds only the drawing."""
UNGRADED = (MISSING, INVALID, REJECTED)
STATUS_NAMES = {
    OK: "corrigé",
    TIMED_OUT: "trop lent",
    CRASHED: "arrêt brutal",
    NOT_DONE: "pas encore fait",
    FLAGGED: "signalé",
    INVALID: "illisible",
    MISSING: "non rendu",
    REJECTED: "refusé",
}
"""The statuses of grades.csv, as the page says them."""
STYLE = """body{font-family:system-ui,sans-serif;max-width:62em;margin:2em auto;padding:0 1em;color:#1f2328}
table{border-collapse:collapse;margin:.5em 0 1.5em;display:block;max-width:100%;overflow-x:auto}
td,th{border:1px solid #d0d7de;padding:.3em .6em;text-align:left}th{background:#f6f8fa}td.n{text-align:right}
svg{max-width:100%;height:auto}.note{color:#57606a}"""


# ------------------------------------------------------------ the figures the page shows
def totals(results: Sequence[NotebookResult]) -> dict[str, float]:
    """Each student's share of the points (0 to 1), over every lesson graded."""
    points: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for result in results:
        points[result.student][0] += result.points
        points[result.student][1] += result.max_points
    return {student: earned / maximum if maximum else 0.0 for student, (earned, maximum) in points.items()}


def pass_rates(results: Sequence[NotebookResult], exercises: Sequence[str]) -> dict[str, float | None]:
    """Each exercise's share of cases passed, over the notebooks handed in (None: no notebook to count)."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for result in results:
        if result.status not in UNGRADED:
            for item in result.exercises:
                counts[item.name][0] += item.passed
                counts[item.name][1] += item.total
    return {name: counts[name][0] / counts[name][1] if counts[name][1] else None for name in exercises}


def without_numbers(label: str) -> str:
    """A case's label with every number replaced by « … »."""
    return NUMBER.sub(HIDDEN_NUMBER, label)


def failed_cases(results: Sequence[NotebookResult], masters: Sequence[Master]) -> list[tuple[str, str, int]]:
    """(exercise, label shown, students who failed it), most failed first: a hidden case is shown under the
    public label that reads the same once numbers are set aside, else under its own label without numbers."""
    public = {
        (item.name, without_numbers(case.label)): case.label
        for master in masters
        for item in lesson_exercises(master.lesson)
        for case in item.cases(None)
    }
    failed: dict[tuple[str, str], set[str]] = defaultdict(set)
    for result in results:
        for item in result.exercises:
            for case in item.cases:
                if not case.passed:
                    key = (item.name, without_numbers(case.label))
                    failed[(item.name, public.get(key, key[1]))].add(result.student)
    ranked = sorted(failed.items(), key=lambda entry: (-len(entry[1]), entry[0]))
    return [(name, label, len(students)) for (name, label), students in ranked]


def flag_reasons(results: Sequence[NotebookResult]) -> list[tuple[str, str, str, str]]:
    """(student, lesson, exercise, why in French) for each exercise flagged."""
    rows = []
    for result in results:
        for item in result.exercises:
            reasons = []
            if item.answers_used:
                reasons.append(f"utilise la réponse du paquet ({', '.join(item.answers_used)})")
            if TOO_LARGE in item.dynamic:
                reasons.append("code trop volumineux pour être analysé")
            dynamic = [token for token in item.dynamic if token != TOO_LARGE]
            if dynamic:
                reasons.append(f"code dynamique ({', '.join(dynamic)}), à relire")
            if reasons:
                rows.append((result.student, result.lesson, item.name, " ; ".join(reasons)))
    return rows


# ------------------------------------------------------------ charts (matplotlib, as inline SVG)
def _svg(draw) -> str:
    """The SVG of a figure drawn by `draw(figure)`, texts kept as text (small, searchable, in the page's font)."""
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    with rc_context({**COURSE_STYLE, "svg.fonttype": "none", "svg.hashsalt": "summary"}):
        figure = Figure(figsize=(6.4, 3.2))
        draw(figure)
        figure.tight_layout()
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata=dict.fromkeys(SVG_METADATA))
    return "<svg" + buffer.getvalue().partition("<svg")[2]


def histogram_svg(shares: Sequence[float]) -> str:
    """Students by share of the points, in tenths (0 to 10 %, ..., 90 to 100 %)."""
    counts = Counter(min(int(share * HISTOGRAM_BINS), HISTOGRAM_BINS - 1) for share in shares)
    step = 100 // HISTOGRAM_BINS
    names = [f"{k * step}–{(k + 1) * step}" for k in range(HISTOGRAM_BINS)]

    def draw(figure) -> None:
        ax = figure.subplots()
        ax.bar(names, [counts[k] for k in range(HISTOGRAM_BINS)], color="#1f5fbf")
        ax.set_xlabel("part des points obtenus (%)")
        ax.set_ylabel("étudiants")
        ax.yaxis.get_major_locator().set_params(integer=True)

    return _svg(draw)


def pass_rates_svg(rates: Mapping[str, float | None]) -> str:
    """One horizontal bar per exercise: its share of cases passed."""
    names = list(rates)[::-1]  # the first exercise on top

    def draw(figure) -> None:
        figure.set_size_inches(6.4, 0.8 + 0.28 * len(names))
        ax = figure.subplots()
        ax.barh(names, [100 * (rates[name] or 0.0) for name in names], color="#1a7f37")
        ax.set_xlim(0, 100)
        ax.set_xlabel("cas réussis (%)")

    return _svg(draw)


# ------------------------------------------------------------ the page
def _table(header: Sequence[str], rows: Sequence[Sequence[str]], numbers: Sequence[int] = ()) -> str:
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    body = "".join(
        "<tr>"
        + "".join(f"<td{' class=n' if k in numbers else ''}>{html.escape(cell)}</td>" for k, cell in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _seconds(value: float) -> str:
    return f"{french_number(value, 1)} s"


def _times(results: Sequence[NotebookResult], labels: Mapping[str, str]) -> str:
    run = [result for result in results if result.status not in UNGRADED]
    if not run:
        return "<p>Aucun notebook n'a été exécuté.</p>"
    by_lesson: dict[str, list[float]] = defaultdict(list)
    for result in run:
        by_lesson[result.lesson].append(result.seconds)
    rows = [
        (lesson, str(len(times)), _seconds(statistics.median(times)), _seconds(max(times)))
        for lesson, times in by_lesson.items()
    ]
    slowest = sorted(run, key=lambda result: -result.seconds)[:SLOWEST_SHOWN]
    slow_rows = [(labels[r.student], r.lesson, _seconds(r.seconds), STATUS_NAMES[r.status]) for r in slowest]
    return _table(("notebook", "corrigés", "médiane", "maximum"), rows, (1, 2, 3)) + (
        "<p>Les plus lents :</p>" + _table(("étudiant", "notebook", "durée", "état"), slow_rows, (2,))
    )


def summary_html(results: Sequence[NotebookResult], masters: Sequence[Master], labels: Mapping[str, str]) -> str:
    """The French summary page of a graded class (see the module)."""
    exercises = [item.name for master in masters for item in lesson_exercises(master.lesson)]
    shares = totals(results)
    rates = pass_rates(results, exercises)
    statuses = Counter(result.status for result in results)
    parts = [
        "<h1>Synthèse de la correction</h1>",
        f"<p>{len(shares)} étudiant(s), {len(results)} notebook(s) : "
        + ", ".join(f"{count} {STATUS_NAMES[status]}" for status, count in sorted(statuses.items()))
        + ".</p>",
        "<h2>Répartition des totaux</h2>",
    ]
    if shares:
        middle = statistics.median(shares.values())
        parts.append(f"<p>Médiane : {french_percent(middle)} des points.</p>{histogram_svg(list(shares.values()))}")
    parts.append("<h2>Taux de réussite par exercice</h2>")
    parts.append(pass_rates_svg(rates))
    rate_rows = [(name, "—" if rate is None else french_percent(rate)) for name, rate in rates.items()]
    parts.append(_table(("exercice", "cas réussis"), rate_rows, (1,)))
    parts.append("<h2>Cas les plus souvent échoués</h2>")
    failed = failed_cases(results, masters)[:FAILED_CASES_SHOWN]
    if failed:
        parts.append(
            '<p class="note">Libellé public du cas, ou libellé sans ses valeurs (« … ») : aucune valeur cachée.</p>'
        )
        failed_rows = [(name, label, str(count)) for name, label, count in failed]
        parts.append(_table(("exercice", "cas", "étudiants"), failed_rows, (2,)))
    else:
        parts.append("<p>Aucun cas échoué.</p>")
    parts.append("<h2>Rendus signalés</h2>")
    flagged = [(labels[student], *rest) for student, *rest in flag_reasons(results)]
    parts.append(
        _table(("étudiant", "notebook", "exercice", "pourquoi"), flagged) if flagged else "<p>Aucun rendu signalé.</p>"
    )
    parts.append("<h2>Temps par notebook</h2>")
    parts.append(_times(results, labels))
    body = "\n".join(parts)
    return (
        '<!DOCTYPE html>\n<html lang="fr">\n<head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Synthèse de la correction</title><style>{STYLE}</style></head>\n<body>\n{body}\n</body>\n</html>\n"
    )
