"""Showing the package's own code in a notebook, so that what a student reads is what runs."""

from __future__ import annotations

import inspect
import textwrap

from .output import show


def show_source(obj) -> None:
    """Display the source of a function or class: highlighted in Jupyter, plain text elsewhere."""
    source = textwrap.dedent(inspect.getsource(obj)).rstrip("\n")
    show(source, {"text/markdown": f"```python\n{source}\n```"})
