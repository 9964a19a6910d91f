"""French typography of the site's prose, applied when the site is built (the notebooks stay as they are).

- An apostrophe after a letter becomes the typographic apostrophe (l'état -> l’état). Sphinx's smart quotes
  are told not to touch quotes at all (`smartquotes_action` in conf.py): they read the « ' » of
  « l'**état** », whose next character is markup, as a closing quote and print « l” ».
- The space before « ; », « ! » and « ? » becomes a narrow no-break space, the space before « : » and inside
  « » a no-break space (the rules of the Imprimerie nationale), so that no line starts with them.

Code, math, raw HTML and notebook outputs are left alone.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.transforms import SphinxTransform

NO_BREAK_SPACE = "\u00a0"
NARROW_NO_BREAK_SPACE = "\u202f"

APOSTROPHE = re.compile(r"(?<=[^\W\d_])'")
# The punctuation is not followed by « = » or a letter: « != » or « ?x » in prose are not French punctuation.
SPACE_BEFORE_HIGH_PUNCTUATION = re.compile(r"[ \t\n]+([;!?])(?![=\w])")
SPACE_BEFORE_COLON = re.compile(r"[ \t\n]+:(?![=\w])")
SPACE_AFTER_OPENING_GUILLEMET = re.compile(r"«[ \t\n]*")
SPACE_BEFORE_CLOSING_GUILLEMET = re.compile(r"[ \t\n]*»")

UNTOUCHED = (nodes.FixedTextElement, nodes.literal, nodes.math, nodes.raw, nodes.comment, nodes.Special)


def french_typography(text: str) -> str:
    """`text` with typographic apostrophes and the no-break spaces of French punctuation."""
    text = APOSTROPHE.sub("’", text)
    text = SPACE_BEFORE_HIGH_PUNCTUATION.sub(NARROW_NO_BREAK_SPACE + r"\1", text)
    text = SPACE_BEFORE_COLON.sub(NO_BREAK_SPACE + ":", text)
    text = SPACE_AFTER_OPENING_GUILLEMET.sub("«" + NO_BREAK_SPACE, text)
    return SPACE_BEFORE_CLOSING_GUILLEMET.sub(NO_BREAK_SPACE + "»", text)


def is_prose(text: nodes.Text) -> bool:
    """Whether a text node is prose: not inside code, math, raw HTML or a comment."""
    parent = text.parent
    while parent is not None:
        if isinstance(parent, UNTOUCHED):
            return False
        parent = parent.parent
    return True


class FrenchTypography(SphinxTransform):
    """Apply `french_typography` to every prose text node of a page, titles included."""

    default_priority = 760  # after Sphinx's smart quotes (750)

    def apply(self) -> None:
        for text in list(self.document.findall(nodes.Text)):
            if is_prose(text):
                typeset = french_typography(text.astext())
                if typeset != text.astext():
                    text.parent.replace(text, nodes.Text(typeset))


def setup(app) -> dict:
    app.add_transform(FrenchTypography)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
