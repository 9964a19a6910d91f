"""What grading writes: grades.csv (long), gradebook.csv (one row per student), French feedback per student.

Every file is written atomically: into a new temporary file beside it, then
renamed over the target. A symbolic link planted at an output path is
replaced, never followed; a folder planted there is left alone and the file
goes beside it under another name (said on the console), so no row is lost.

Names are shown escaped when they are not printable UTF-8 (`reading.printable`),
and a CSV cell starting with = + - @ gets a leading apostrophe (no formula runs
when the instructor opens the file in a spreadsheet).

- grades.csv: student, notebook, exercise, passed, total, points, max_points,
  status (ok, not-done, flagged, timeout, crash, invalid-notebook, missing,
  rejected).
- gradebook.csv: student, one column per exercise (points), total, maximum,
  flags (timeout, crash, invalid, flagged-import, flagged-dynamic, missing, unknown-file, with
  where), ready for a spreadsheet or an LMS import.
- feedback/<student>/<NN-name>.html: the exercises of one lesson, their
  points, each case passed or failed with the property that broke. Verdicts
  are built from the case's input and the student's output only, so a page
  never shows a hidden expected value, and it holds nobody else's data.
- grading-report.txt: the console report (`Console`): the limits of the run,
  the solutions' SHA-256, one line per notebook, warnings.
- summary.html: the class summary for the teacher, in French (`summary`).
"""

from __future__ import annotations

import csv
import html
import io
import os
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...messages import counted
from ..checks import COLOURS, NOT_DONE, SYMBOLS
from ..exercises import lesson_exercises
from ..exercises.common import french
from .reading import Master, Student, printable, sha256
from .results import CRASHED, FLAGGED, INVALID, MISSING, OK, REJECTED, TIMED_OUT, ExerciseResult, NotebookResult
from .results import NOT_DONE as NOT_DONE_STATUS
from .scan import TOO_LARGE

GRADE_COLUMNS = ("student", "notebook", "exercise", "passed", "total", "points", "max_points", "status")


# ------------------------------------------------------------ where grading writes, and the console report
@dataclass
class Outputs:
    """Where grading writes."""

    grades: Path
    gradebook: Path
    feedback: Path
    report: Path
    summary: Path

    @classmethod
    def beside(cls, grades: Path, gradebook: Path | None = None, feedback: Path | None = None) -> Outputs:
        folder = grades.parent
        return cls(
            grades,
            gradebook or folder / "gradebook.csv",
            feedback or folder / "feedback",
            folder / "grading-report.txt",
            folder / "summary.html",
        )

    def folders(self) -> list[Path]:
        return [self.grades.parent, self.gradebook.parent, self.feedback]


@dataclass
class Console:
    """The console report, kept for grading-report.txt."""

    lines: list[str] = field(default_factory=list)

    def __call__(self, line: str) -> None:
        from tqdm import tqdm  # write() keeps a progress bar below the lines

        line = line.encode("utf-8", "backslashreplace").decode("utf-8")  # never a character the console refuses
        self.lines.append(line)
        tqdm.write(line)

    def save(self, path: Path) -> None:
        """Write the report so far to `path` (grading-report.txt)."""
        write_atomically(path, "\n".join(self.lines) + "\n")


# ------------------------------------------------------------ files
def _fallback(path: Path) -> Path:
    return path.with_name(f"{path.stem}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}{path.suffix}")


def write_atomically(path: Path, text: str) -> Path:
    """Write `text` to `path` by renaming a new file over it; the path actually written (see the module)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(descriptor, "w", encoding="utf-8", errors="backslashreplace", newline="") as file:
        file.write(text)
    os.chmod(temporary, 0o644)
    target = path
    if path.is_dir() and not path.is_symlink():
        target = _fallback(path)
        print(f"warning: {path} is a folder; wrote {target} instead")
    os.replace(temporary, target)
    return target


def safe_folder(path: Path) -> Path:
    """`path` as a real folder: a symbolic link or a file found there is removed first (never followed)."""
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        path.unlink()
    path.mkdir(parents=True, exist_ok=True)
    return path


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """A CSV cell that a spreadsheet never runs as a formula: text starting with = + - @ (or a tab or CR)
    gets a leading apostrophe."""
    return f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def _csv(rows: Iterable[Sequence]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([list(map(spreadsheet_safe, row)) for row in rows])
    return buffer.getvalue()


def _number(value: float) -> str:
    return f"{value:g}"


# ---------------------------------------------------------------- CSV
def grade_rows(results: Sequence[NotebookResult], labels: Mapping[str, str]) -> list[tuple]:
    """One row per student, notebook and exercise (a student shown by their label, `reading.student_labels`)."""
    return [
        (
            labels[result.student],
            f"{result.lesson}.ipynb",
            item.name,
            item.passed,
            item.total,
            _number(item.points),
            _number(item.max_points),
            item.status,
        )
        for result in results
        for item in result.exercises
    ]


def flags(results: Sequence[NotebookResult], unknown: Sequence[str] = ()) -> str:
    """The flags of one student's results: « timeout: 02-recuit-simule; flagged-import: partial_energy »."""
    found = []
    for result in results:
        statuses = {item.status for item in result.exercises}
        if result.status in (INVALID, REJECTED):
            found.append(f"invalid: {result.lesson}")
        if result.status == MISSING:
            found.append(f"missing: {result.lesson}")
        if result.status == TIMED_OUT or TIMED_OUT in statuses:
            found.append(f"timeout: {result.lesson}")
        if result.status == CRASHED or CRASHED in statuses:
            found.append(f"crash: {result.lesson}")
        found += [f"flagged-import: {item.name}" for item in result.exercises if item.answers_used]
        found += [f"flagged-dynamic: {item.name}" for item in result.exercises if item.dynamic]
    found += [f"unknown-file: {printable(name)}" for name in unknown]
    return "; ".join(found)


def gradebook_rows(
    results: Sequence[NotebookResult],
    exercises: Sequence[str],
    unknown: dict[str, list[str]],
    labels: Mapping[str, str],
) -> list[tuple]:
    """The header, then one row per student: points per exercise, total, maximum, flags."""
    by_student: dict[str, list[NotebookResult]] = {}
    for result in results:
        by_student.setdefault(result.student, []).append(result)
    rows = [("student", *exercises, "total", "maximum", "flags")]
    for student, own in by_student.items():
        points = {item.name: item.points for result in own for item in result.exercises}
        total = sum(result.points for result in own)
        maximum = sum(result.max_points for result in own)
        cells = [_number(points.get(name, 0.0)) for name in exercises]
        rows.append(
            (
                labels[student],
                *cells,
                _number(round(total, 2)),
                _number(maximum),
                flags(own, unknown.get(student, [])),
            )
        )
    return rows


def write_tables(
    results: Sequence[NotebookResult],
    exercises: Sequence[str],
    unknown: dict[str, list[str]],
    labels: Mapping[str, str],
    outputs: Outputs,
) -> tuple[Path, Path]:
    """Write grades.csv and gradebook.csv; the paths written."""
    written_grades = write_atomically(outputs.grades, _csv([GRADE_COLUMNS, *grade_rows(results, labels)]))
    written_book = write_atomically(outputs.gradebook, _csv(gradebook_rows(results, exercises, unknown, labels)))
    return written_grades, written_book


# ---------------------------------------------------------------- feedback
STYLE = """body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#1f2328}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #d0d7de;padding:.3em .6em;text-align:left}
th{background:#f6f8fa}.note{color:#57606a}"""

STATUS_SENTENCES = {
    NOT_DONE_STATUS: f"{NOT_DONE.capitalize()} : la fonction lève encore NotImplementedError.",
    MISSING: "Notebook non rendu : aucun point pour cet exercice.",
    TIMED_OUT: "Certains cas ont dépassé le temps accordé : ils comptent comme échoués.",
    CRASHED: "Certains cas ont arrêté Python brutalement : ils comptent comme échoués.",
}


def _flag_sentence(item: ExerciseResult) -> str:
    sentences = []
    if item.answers_used:
        names = ", ".join(item.answers_used)
        sentences.append(
            f"Non noté : votre code utilise {names}, la réponse déjà écrite dans le paquet du cours. "
            "L'exercice demande d'écrire la vôtre."
        )
    if TOO_LARGE in item.dynamic:
        sentences.append("Non noté : le code de ce notebook est trop volumineux pour être analysé.")
    dynamic = [token for token in item.dynamic if token != TOO_LARGE]
    if dynamic:
        sentences.append(
            f"Non noté pour l'instant : votre code utilise du code dynamique ({', '.join(dynamic)}), "
            "dont une réponse honnête n'a jamais besoin. L'enseignant relira l'exercice."
        )
    return " ".join(sentences)


def _exercise_sentence(item: ExerciseResult) -> str:
    if item.status == FLAGGED:
        return _flag_sentence(item)
    if item.status in (INVALID, REJECTED):
        return "Notebook non corrigé : voir les remarques ci-dessus. Aucun point pour cet exercice."
    sentence = STATUS_SENTENCES.get(item.status, "")
    return f"{item.passed} cas réussis sur {item.total}. {sentence}".strip() if item.cases else sentence


def _cases_table(item: ExerciseResult) -> str:
    if not item.cases:
        return ""
    rows = "".join(
        f'<tr><td style="color:{COLOURS[case.verdict]}">{SYMBOLS[case.verdict]} {html.escape(case.verdict)}</td>'
        f"<td>{html.escape(case.label)}</td><td>{html.escape(case.detail)}</td></tr>"
        for case in item.cases
    )
    return f"<table><tr><th>Verdict</th><th>Cas</th><th>Ce qui ne va pas</th></tr>{rows}</table>"


def feedback_html(result: NotebookResult, label: str) -> str:
    """The French feedback page of one student's notebook (`label`: how the student is shown)."""
    title = f"Correction de {result.lesson} : {label}"
    parts = [
        f"<h1>{html.escape(title)}</h1>",
        f"<p><strong>Total : {french(round(result.points, 2))} / {french(result.max_points)} points</strong></p>",
    ]
    if result.notes:
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in result.notes)
        parts.append(f'<h2>Remarques sur le notebook</h2><ul class="note">{notes}</ul>')
    for item in result.exercises:
        heading = f"{item.name} : {french(item.points)} / {french(item.max_points)} points"
        parts.append(f"<h2>{html.escape(heading)}</h2><p>{html.escape(_exercise_sentence(item))}</p>")
        parts.append(_cases_table(item))
    body = "\n".join(parts)
    return (
        '<!DOCTYPE html>\n<html lang="fr">\n<head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def write_feedback(results: Sequence[NotebookResult], folder: Path, labels: Mapping[str, str]) -> list[Path]:
    """feedback/<student folder>/<lesson>.html for every result; the paths written."""
    safe_folder(folder)
    written = []
    for result in results:
        own = safe_folder(folder / result.student)
        page = feedback_html(result, labels[result.student])
        written.append(write_atomically(own / f"{result.lesson}.html", page))
    return written


# ------------------------------------------------------------ the console lines and the reports step
def flag_reason(item: ExerciseResult) -> str:
    """Why an exercise is flagged, for the instructor: « box_index uses sudoku_course.grid.Layout.box_of »."""
    reasons = []
    if item.answers_used:
        reasons.append(f"uses {', '.join(item.answers_used)}")
    if item.dynamic:
        reasons.append(f"uses dynamic code ({', '.join(item.dynamic)}): to review")
    return f"{item.name} {'; '.join(reasons)}"


def notebook_line(result: NotebookResult, label: str) -> str:
    """The console line of one graded notebook (`label`: how the student is shown)."""
    points = f"{result.points:g}/{result.max_points:g} points"
    line = f"{label}/{result.lesson}.ipynb: {result.status}, {points}"
    not_done = sum(item.status == NOT_DONE_STATUS for item in result.exercises)
    if not_done:
        line += f"; {not_done} of {counted(len(result.exercises), 'exercise')} not done yet (NotImplementedError)"
    flagged = [flag_reason(item) for item in result.exercises if item.status == FLAGGED]
    if flagged:
        line += "; flagged: " + "; ".join(flagged)
    if result.problem:
        line += f" ({result.problem})"
    return line


def write_reports(
    results: list[NotebookResult],
    masters: list[Master],
    students: list[Student],
    labels: Mapping[str, str],
    outputs: Outputs,
    say: Console,
) -> None:
    """The reports step: grades.csv, gradebook.csv, the feedback pages, the class summary, then the end of the
    console report."""
    exercises = [item.name for master in masters for item in lesson_exercises(master.lesson)]
    unknown = {student.name: student.unknown for student in students if student.unknown}
    for student in students:
        if printable(student.name) != student.name:
            say(f"{labels[student.name]}: the folder name is not printable UTF-8 text; shown escaped")
    for student, names in unknown.items():
        say(f"{labels[student]}: unknown file(s) {', '.join(map(printable, names))} (no lesson has that name)")
    grades, book = write_tables(results, exercises, unknown, labels, outputs)
    pages = write_feedback(results, outputs.feedback, labels)
    from .summary import summary_html  # here: it draws with matplotlib, which `grade --help` does not need

    summary = write_atomically(outputs.summary, summary_html(results, masters, labels))
    say(f"{len(results)} notebook(s) graded: {grades}, {book}, {len(pages)} feedback page(s) in {outputs.feedback}")
    say(f"class summary: {summary}")
    changed = [master.path for master in masters if sha256(master.path) != master.sha256]
    if changed:
        say(f"WARNING: solution notebook(s) changed during grading: {', '.join(map(str, changed))}")
    ok = sum(result.status == OK for result in results)
    say(f"{ok} notebook(s) ran without a timeout or a crash")
