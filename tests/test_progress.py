"""The progress default: on, unless the environment switch turns it off; an explicit choice always wins."""

from __future__ import annotations

import pytest

from sudoku_course.progress import PROGRESS_SWITCH, progress_bar, progress_enabled, relayed_progress
from sudoku_course.teaching.isolation import VALUE, run_call


@pytest.mark.parametrize(("value", "expected"), [(None, True), ("1", True), ("0", False), (" 0 ", False)])
def test_default_follows_the_switch(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv(PROGRESS_SWITCH, raising=False)
    else:
        monkeypatch.setenv(PROGRESS_SWITCH, value)
    assert progress_enabled() is expected


@pytest.mark.parametrize("value", ["0", "1"])
def test_an_explicit_choice_wins(monkeypatch, value):
    monkeypatch.setenv(PROGRESS_SWITCH, value)
    assert progress_enabled(True) is True
    assert progress_enabled(False) is False


def test_bar_yields_every_item_and_draws_only_when_enabled(monkeypatch, capsys):
    monkeypatch.setenv(PROGRESS_SWITCH, "0")
    assert list(progress_bar(range(3), total=3, desc="quiet")) == [0, 1, 2]
    assert capsys.readouterr().err == ""
    monkeypatch.setenv(PROGRESS_SWITCH, "1")
    assert list(progress_bar(range(3), total=3, desc="drawn")) == [0, 1, 2]
    assert "drawn" in capsys.readouterr().err


def count_with_a_bar() -> int:
    return sum(1 for _ in progress_bar(range(50), total=50, desc="cinquante pas"))


def test_a_forked_child_draws_nothing_itself(monkeypatch, capfd):
    monkeypatch.setenv(PROGRESS_SWITCH, "1")
    outcome = run_call(count_with_a_bar, 10)
    assert outcome.kind == VALUE and outcome.value == 50
    assert "cinquante pas" not in capfd.readouterr().err


def test_a_forked_child_relays_its_bar_to_the_parent_that_draws_it(monkeypatch, capsys):
    monkeypatch.setenv(PROGRESS_SWITCH, "1")
    with relayed_progress():
        outcome = run_call(count_with_a_bar, 10)
    assert outcome.kind == VALUE and outcome.value == 50
    drawn = capsys.readouterr().err
    assert "cinquante pas" in drawn and "50/50" in drawn


def test_no_relay_when_progress_is_off(monkeypatch, capsys):
    monkeypatch.setenv(PROGRESS_SWITCH, "0")
    with relayed_progress(progress_enabled()):
        assert run_call(count_with_a_bar, 10).value == 50
    assert capsys.readouterr().err == ""
