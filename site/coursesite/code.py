"""Code that wraps without losing its shape.

Beside the sidebars a code cell is narrower than its longest lines; course.css wraps them rather than
let the cell scroll sideways. So that a wrapped line still reads as one line of code, each line is put in
its own span that knows its indentation: the wrapped part is indented four columns past it (a hanging
indent). Copying the code is unchanged: the spans add no text.
"""

from __future__ import annotations

import re

from pygments.formatters import HtmlFormatter

TAG = re.compile(r"<[^>]*>")


class HangingIndentFormatter(HtmlFormatter):
    """Pygments' HTML, with each line in a `span.line` whose `--indent` is the line's indentation."""

    def wrap(self, source):
        return super().wrap((kind, self.line(text) if kind == 1 else text) for kind, text in source)

    @staticmethod
    def line(html: str) -> str:
        text = TAG.sub("", html)
        indent = len(text) - len(text.lstrip(" "))
        return f'<span class="line" style="--indent: {indent}">{html}</span>'


def use_hanging_indents(app) -> None:
    if app.builder.format == "html":
        app.builder.highlighter.formatter = HangingIndentFormatter


def setup(app) -> dict:
    app.connect("builder-inited", use_hanging_indents)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
