"""The progress default: on, unless the environment switch turns it off; an explicit choice always wins."""

from __future__ import annotations

import pytest

from sudoku_course.progress import PROGRESS_SWITCH, progress_bar, progress_enabled


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
