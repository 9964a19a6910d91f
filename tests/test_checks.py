"""The check engine: verdicts, stubs, errors, endless loops in C, strict mode, reports, experiments."""

from __future__ import annotations

import itertools
import math
import os
import re
from dataclasses import replace

import numpy as np
import pytest
from conftest import stub

from sudoku_course.teaching import checks
from sudoku_course.teaching.checks import (
    ERRORED,
    FAILED,
    NOT_RUN,
    PASSED,
    TOO_SLOW,
    check,
    evaluate,
)
from sudoku_course.teaching.exercises import REGISTRY, Case, Exercise, NotPlainError, plain
from sudoku_course.teaching.exercises.common import calling, close, integer, normal_word, same_word
from sudoku_course.teaching.experiments import experiment, returned

pytestmark = pytest.mark.usefixtures("not_strict")


def double(x: int) -> int:
    return 2 * x


def double_cases(seed: int | None) -> list[Case]:
    inputs = [2, -3, 0, 5] if seed is None else np.random.default_rng(seed).integers(-50, 50, 4).tolist()
    return [
        Case(f"x = {x}", calling(x), integer, agree=lambda out, ref: out == ref, disagree="ce n'est pas le double")
        for x in inputs
    ]


DOUBLE = Exercise("test_double", "99-test", ("double",), __name__, double_cases, time_limit=1.0)


@pytest.fixture
def registered(monkeypatch):
    """The DOUBLE exercise in the registry for the duration of a test."""
    monkeypatch.setitem(REGISTRY, DOUBLE.name, DOUBLE)
    return DOUBLE


def verdicts(report) -> list[str]:
    return [result.verdict for result in report.details]


def test_the_reference_passes_public_and_hidden_cases():
    for seed in (None, 7):
        assert evaluate(DOUBLE, [double], seed).ok


def test_a_wrong_answer_fails_with_the_fixed_sentence_never_the_expected_value():
    report = evaluate(DOUBLE, [lambda x: x + 2])
    assert verdicts(report) == [PASSED, FAILED, FAILED, FAILED]
    assert report.details[1].detail == "ce n'est pas le double"
    assert "-6" not in report.text() and "10" not in report.text()


def test_a_stub_is_not_done_and_a_stub_among_two_functions_too():
    assert evaluate(DOUBLE, [stub]).stub
    report = evaluate(DOUBLE, [stub])
    assert report.details == [] and "pas encore fait" in report.summary()


def test_errors_and_crashes_are_reported_per_case_and_never_raised():
    def picky(x):
        if x < 0:
            raise ValueError("négatif")
        if x == 0:
            os._exit(3)
        if x == 5:
            raise SystemExit(1)
        return 2 * x

    report = evaluate(DOUBLE, [picky])
    assert verdicts(report) == [PASSED, ERRORED, ERRORED, ERRORED]
    assert report.details[1].detail == "ValueError : négatif — entrées : (-3)"
    assert "code de sortie 3" in report.details[2].detail


def test_an_endless_loop_in_c_is_stopped_and_the_check_stops_there():
    def stuck_on_zero(x):
        return sum(itertools.count()) if x == 0 else 2 * x

    report = evaluate(DOUBLE, [stuck_on_zero])
    assert verdicts(report) == [PASSED, PASSED, TOO_SLOW, NOT_RUN]
    assert report.details[2].detail.startswith("plus de 1 s")
    assert report.passed == 2 and "non lancé" in report.text()


def test_a_result_that_is_not_plain_data_is_a_failure():
    report = evaluate(DOUBLE, [lambda x: object()])
    assert set(verdicts(report)) == {FAILED}
    assert "objet de type object" in report.details[0].detail


def test_wrong_types_are_judged_before_the_comparison():
    report = evaluate(DOUBLE, [lambda x: str(2 * x)])
    assert report.details[0].detail == "la fonction doit renvoyer un entier, pas un texte"


def test_details_stay_short_whatever_the_student_raises():
    def verbose(x):
        raise ValueError("x" * 5000)

    report = evaluate(DOUBLE, [verbose])
    assert all(len(result.detail) <= checks.DETAIL_LENGTH for result in report.details)


def test_what_the_student_prints_stays_out_of_the_report(capsys, registered):
    def chatty(x):
        print("secret du calcul")
        return 2 * x

    check("test_double", chatty)
    printed = capsys.readouterr().out
    assert "secret du calcul" not in printed and "bravo, les 4 cas sont réussis" in printed


def test_check_never_raises_by_default_but_does_in_strict_mode(monkeypatch, registered):
    assert not check("test_double", lambda x: x).ok
    with pytest.raises(AssertionError, match="test_double : 1/4"):
        check("test_double", lambda x: x, strict=True)
    monkeypatch.setenv(checks.STRICT_ENV, "1")
    with pytest.raises(AssertionError):
        check("test_double", stub)
    assert check("test_double", lambda x: x, strict=False).passed == 1


def test_check_refuses_a_wrong_number_of_functions_or_an_unknown_name(registered):
    with pytest.raises(TypeError, match="takes 1 function"):
        check("test_double", double, double)
    with pytest.raises(KeyError, match="unknown exercise"):
        check("no_such_exercise", double)


def test_text_and_html_reports(capsys):
    item = Exercise("test_html", "99-test", ("double",), __name__, lambda seed: [Case("<b>balise</b>", calling(1))])
    report = evaluate(item, [double])
    assert "&lt;b&gt;balise&lt;/b&gt;" in report.html() and "<b>balise" not in report.html()
    assert repr(report) == "<vérification test_html : bravo, les 1 cas sont réussis>"


def test_verdict_cells_are_left_aligned_and_a_verdict_never_wraps():
    report = evaluate(DOUBLE, [lambda x: x])
    cells = re.findall(r"<td style=\"([^\"]*)\">", report.html())
    assert cells and all("text-align:left" in style for style in cells)
    verdicts = [style for style in cells if "color:" in style]
    assert len(verdicts) == len(report.details) and all("white-space:nowrap" in style for style in verdicts)


def test_an_error_is_told_in_french_with_the_inputs_of_its_case():
    def overflowing(x):
        return math.exp(1000 * x)

    report = evaluate(DOUBLE, [overflowing])
    assert report.details[0].verdict == ERRORED
    assert report.details[0].detail == (
        "OverflowError : dépassement de capacité dans un calcul (math range error), comme l'exponentielle d'un grand "
        "nombre — entrées : (2)"
    )


NOTEBOOK = """
def double(x):
    return 2 * x

report = check("test_double")
"""


def test_a_check_finds_the_function_in_the_notebook_or_says_which_cell_to_run_first(registered, capsys):
    namespace = {"check": check}
    exec(NOTEBOOK, namespace)
    assert namespace["report"].ok
    namespace = {"check": check}
    exec("report = check('test_double')", namespace)
    report = namespace["report"]
    assert not report.ok and report.undefined == "double"
    assert "la fonction double n'est pas encore définie ; exécutez d'abord la cellule qui la définit" in (
        capsys.readouterr().out
    )


def halve(x: float) -> float:
    return x / 2


HELPER_AT_FAULT = """
def halve(x):
    return x / 3  # wrong

def double(x):
    return 4 * halve(x) * 1.5 if x > 0 else 2 * x  # right only where halve is not called
"""


def test_a_failed_check_names_the_function_it_calls_that_fails_its_own_check(monkeypatch, registered):
    halving = Exercise(
        "test_halve",
        "99-test",
        ("halve",),
        __name__,
        lambda seed: [Case(f"x = {x}", calling(x), agree=close) for x in (2, 4)],
    )
    monkeypatch.setitem(REGISTRY, halving.name, halving)
    monkeypatch.setitem(REGISTRY, DOUBLE.name, replace(DOUBLE, calls=("test_halve",)))
    namespace: dict = {}
    exec(HELPER_AT_FAULT, namespace)
    report = evaluate(REGISTRY[DOUBLE.name], [namespace["double"]])
    assert not report.ok and [name for name, _ in report.suspects] == ["halve"]
    assert "votre halve, que test_double appelle, ne passe pas sa propre vérification (0/2" in report.text()
    assert evaluate(REGISTRY[DOUBLE.name], [lambda x: x]).suspects == []  # calls nothing


def test_word_and_number_comparisons():
    assert all(same_word(word, "lineaire") for word in ("linéaire", "Lineaire", " lineaire ", "LINÉAIRE"))
    assert not same_word("linear", "lineaire") and not same_word(None, "lineaire")
    assert normal_word(" Exponentiel ") == "exponentiel"
    assert close([1.0, {"a": 0.1 + 0.2}], [1, {"a": 0.3}]) and not close([1.0], [1.0, 2.0])
    assert not close(True, 1) and not close(2.0, 2.001) and close("x", "x")


def test_plain_converts_numpy_and_refuses_objects():
    assert plain({"a": np.arange(3), 1: (np.float64(0.5), np.bool_(True))}) == {"a": [0, 1, 2], "1": [0.5, True]}
    with pytest.raises(NotPlainError):
        plain(object())


# ----------------------------------------------------------- experiments
def test_an_experiment_returns_its_result_or_says_why_it_was_skipped(capsys):
    assert experiment("le double", lambda: double(4)) == 8
    assert experiment("le cassé", lambda: 1 / 0) is None
    assert "Expérience « le cassé » sautée : votre code a levé ZeroDivisionError" in capsys.readouterr().out
    assert experiment("l'ébauche", stub) is None
    assert "pas encore écrite" in capsys.readouterr().out
    assert experiment("la boucle", lambda: sum(itertools.count()), time_limit=0.5) is None
    assert "abandonnée : pas de résultat après 0,5 s" in capsys.readouterr().out


def forgets_its_return(x):
    2 * x  # noqa: B018


def test_an_experiment_checks_what_the_students_function_returned(capsys):
    assert experiment("le double", lambda: returned("double", double(4), int)) == 8
    assert experiment("l'oubli", lambda: returned("forgets_its_return", forgets_its_return(4), int)) is None
    assert capsys.readouterr().out == (
        "Expérience « l'oubli » non faite : forgets_its_return a renvoyé None (il faut un entier).\n"
    )
    assert experiment("la liste", lambda: returned("f", [1, 2], list, length=3)) is None
    assert "f a renvoyé une liste de 2 élément(s) (il en faut 3)" in capsys.readouterr().out


def test_an_experiment_shows_its_result_inside_the_guard(capsys):
    shown = []
    assert experiment("le double", lambda: double(4), show=shown.append) == 8 and shown == [8]
    assert experiment("l'affichage", lambda: None, show=lambda rows: rows["rows"]) is None
    assert capsys.readouterr().out == (
        "Expérience « l'affichage » non faite : son résultat n'a pas pu être affiché (TypeError : un objet None "
        "n'est ni indexable, ni parcourable, ni appelable : une fonction a-t-elle oublié son return ?) ; "
        "vérifiez ce que renvoient vos fonctions.\n"
    )


def test_an_error_of_an_experiment_is_told_in_french(capsys):
    assert experiment("le nom", lambda: undefined_name) is None  # noqa: F821
    assert "votre code a levé NameError : le nom undefined_name n'est pas défini" in capsys.readouterr().out


def test_plain_turns_subclasses_with_their_own_equality_into_plain_values():
    class Word(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    class Number(int):
        def __eq__(self, other):
            return True

        __hash__ = int.__hash__

    assert type(plain(Word("x"))) is str and type(plain(Number(3))) is int
    assert type(plain({"k": [Word("y")]})["k"][0]) is str
    assert evaluate(DOUBLE, [lambda x: Number(0)]).passed == 1  # only x = 0, whose double is 0


def test_a_stub_called_by_the_answer_is_named_in_the_verdict():
    def helper(x):
        raise NotImplementedError("À compléter")

    report = evaluate(DOUBLE, [lambda x: helper(x)])
    assert report.stub and "la fonction helper lève encore NotImplementedError" in report.summary()
