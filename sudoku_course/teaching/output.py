"""Output that reads well both in Jupyter (rich) and on a plain console (text); light to import."""

from __future__ import annotations


def show(text: str, rich: dict[str, str]) -> None:
    """Display `rich` (MIME type -> content) in IPython/Jupyter, or print `text` on a plain console."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # no IPython at all
        get_ipython = None
    if get_ipython is None or get_ipython() is None:
        print(text)
    else:
        display({"text/plain": text, **rich}, raw=True)
