"""The site's pages: their order, the notebooks' own links, download links and figures.

- Order of work: the sidebar and previous/next run lesson NN, exercises NN, lesson NN+1 (then the solutions,
  in the instructors' site).
- Each notebook opens and ends with its own navigation line (previous | Sommaire | next), made for JupyterLab;
  on the site the theme's previous/next replace it, so that they appear once per page.
- A lesson links to its exercise notebook by the notebook's path (« ../exercises/02-recuit-simule.ipynb »);
  on the site such a link reads as the title of the exercise(s) its paragraph names and lands on it.
- Each notebook page offers its notebook for download and, when the site is built for a JupyterHub
  (`course_jupyterhub`), a link that opens it there.
- Each figure gets its width in pixels (for phones, see course.css) and alternative text.

Configuration (conf.py): `course_notebook_folders`, the folders whose notebooks are pages;
`course_jupyterhub`, a JupyterHub address or "".
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from html import escape
from pathlib import Path

import PIL.Image
from coursesite.typography import NARROW_NO_BREAK_SPACE, french_typography
from docutils import nodes

ROOT = Path(__file__).resolve().parents[2]
COURSE_FOLDER = "sudoku-course"
"""The folder of the students' archive, and where « ouvrir dans JupyterHub » expects the course in a hub."""
STUDENT_FOLDERS = ("notebooks", "exercises")
START_PAGE = "DEMARRER"
GLOSSARY_PAGE = "GLOSSAIRE"

EXERCISES_NAMED = re.compile(r"[Ee]xercices?\s+(\d+(?:\s*(?:,|et|à)\s*\d+)*)")
EXERCISE_HEADING = re.compile(r"Exercice (\d+)\b")
EFFORT = re.compile(r"\s*\([^)]*\)")  # « (échauffement, 10 min) » in an exercise's heading


def notebooks(folder: str) -> list[str]:
    """The docnames of the notebooks of `folder`, in name order."""
    return [f"{folder}/{path.stem}" for path in sorted((ROOT / folder).glob("*.ipynb"))]


def course_order() -> list[str]:
    """Every page after the home page, in the order of work: start, then lesson NN, exercises NN, lesson NN+1,
    and the glossary last."""
    notebook_pages = notebooks("notebooks") + notebooks("exercises")
    ordered = sorted(notebook_pages, key=lambda name: (Path(name).name[:2], name.startswith("exercises/")))
    return [START_PAGE, *ordered, GLOSSARY_PAGE]


def toctree(caption: str, docnames: list[str]) -> str:
    """A hidden MyST toctree of `docnames`."""
    return "\n```{toctree}\n:hidden:\n:caption: " + caption + "\n\n" + "\n".join(docnames) + "\n```\n"


def solutions_section() -> str:
    """The home page's extra section in the instructors' site: a link to each solution notebook."""
    links = "\n".join(f"- [Solution {Path(name).name[:2]}]({name}.ipynb)" for name in notebooks("solutions"))
    return f"\n## Solutions (enseignants)\n\nCette version du site contient les exercices résolus.\n\n{links}\n"


def add_table_of_contents(app, docname: str, source: list[str]) -> None:
    """Give the home page the site's table of contents (and, for instructors, the solutions)."""
    if docname == app.config.root_doc:
        source[0] += toctree("Le cours", course_order())
        if "solutions" in app.config.course_notebook_folders:
            source[0] += solutions_section() + toctree("Solutions", notebooks("solutions"))


def is_notebook_page(app, docname: str) -> bool:
    return docname.split("/")[0] in app.config.course_notebook_folders


def linked_docname(docname: str, reference: nodes.reference) -> str | None:
    """The page an internal link of `docname` leads to, or None for an external link."""
    page = reference.get("refuri", "").split("#")[0]
    if not reference.get("internal") or not page.endswith(".html"):
        return None
    return posixpath.normpath(posixpath.join(posixpath.dirname(docname), page)).removesuffix(".html")


def remove_navigation_lines(app, doctree, docname: str) -> None:
    """Drop a notebook's paragraphs that link to the home page: its previous | Sommaire | next lines."""
    if is_notebook_page(app, docname):
        for paragraph in list(doctree.findall(nodes.paragraph)):
            targets = [linked_docname(docname, reference) for reference in paragraph.findall(nodes.reference)]
            if app.config.root_doc in targets:
                paragraph.parent.remove(paragraph)


def exercise_headings(app, docname: str) -> dict[int, tuple[str, str]]:
    """Exercise number -> (anchor, title without the effort in parentheses) of an exercise notebook."""
    headings = {}
    for section in app.env.get_doctree(docname).findall(nodes.section):
        title = section.next_node(nodes.title).astext()
        if match := EXERCISE_HEADING.match(title):
            headings[int(match.group(1))] = (section["ids"][0], EFFORT.sub("", title, count=1))
    return headings


def exercises_named(text: str) -> list[int]:
    """The exercise numbers a sentence names: « Exercice 4 … et exercice 8 », « Exercices 4 à 8 », « 6, 7 et 9 »."""
    numbers: list[int] = []
    for match in EXERCISES_NAMED.finditer(text):
        listed = [int(number) for number in re.findall(r"\d+", match.group(1))]
        if "à" in match.group(1) and len(listed) == 2:
            listed = list(range(listed[0], listed[1] + 1))
        numbers += [number for number in listed if number not in numbers]
    return numbers


def name_exercise_links(app, doctree, docname: str) -> None:
    """Links that show a notebook's path read as the title of the exercise(s) their paragraph names."""
    for reference in list(doctree.findall(nodes.reference)):
        target = linked_docname(docname, reference)
        if target is None or not reference.astext().endswith(".ipynb"):
            continue
        headings = exercise_headings(app, target) if target.startswith("exercises/") else {}
        named = [number for number in exercises_named(reference.parent.astext()) if number in headings]
        if not named:
            reference.children = [nodes.Text(app.env.titles[target].astext())]
            continue
        page = reference["refuri"].split("#")[0]
        links: list[nodes.Node] = []
        for number in named:
            anchor, title = headings[number]
            links += [nodes.Text(NARROW_NO_BREAK_SPACE + "; ")] if links else []
            links.append(nodes.reference("", title, internal=True, refuri=f"{page}#{anchor}"))
        reference.parent.replace(reference, links)


def notebook_links(docname: str, jupyterhub: str) -> str:
    """The HTML line that offers a notebook page's notebook: download, and open in JupyterHub if there is one."""
    name = escape(Path(docname).name + ".ipynb")
    links = [f'<a class="reference download" href="{name}" download>Télécharger le notebook (.ipynb)</a>']
    if jupyterhub and docname.split("/")[0] in STUDENT_FOLDERS:
        url = escape(f"{jupyterhub.rstrip('/')}/hub/user-redirect/lab/tree/{COURSE_FOLDER}/{docname}.ipynb")
        links.append(f'<a class="reference external jupyterhub" href="{url}">Ouvrir dans JupyterHub</a>')
    return '<p class="notebook-links">' + " · ".join(links) + "</p>\n"


def add_notebook_links(app, doctree, docname: str) -> None:
    """Put the notebook's links under the page's title."""
    if is_notebook_page(app, docname):
        title = doctree.next_node(nodes.title)
        links = nodes.raw("", notebook_links(docname, app.config.course_jupyterhub), format="html")
        title.parent.insert(title.parent.index(title) + 1, links)


def describe_figures(app, doctree, docname: str) -> None:
    """Give each figure its width in pixels and, when it has none, alternative text.

    The width lets a phone show a notebook's figure at 70 % of its size (course.css), scrolling inside its
    own box, rather than shrunk until its digits cannot be read. The alternative text is made from the
    figure's section title and its rank there.
    """
    ranks: Counter[str] = Counter()
    for image in doctree.findall(nodes.image):
        with PIL.Image.open(Path(app.srcdir) / image["candidates"]["*"]) as picture:
            image["width"] = f"{picture.width}px"
        if not image.get("alt"):
            title = section_title(image)
            ranks[title] += 1
            image["alt"] = french_typography(f"Figure {ranks[title]} de la section « {title} »")


def section_title(node: nodes.Node) -> str:
    """The title of the innermost section holding `node`."""
    while not isinstance(node, nodes.section):
        node = node.parent
    return node.next_node(nodes.title).astext()


def setup(app) -> dict:
    app.add_config_value("course_notebook_folders", list(STUDENT_FOLDERS), "env")
    app.add_config_value("course_jupyterhub", "", "env")
    app.connect("source-read", add_table_of_contents)
    for step in (remove_navigation_lines, name_exercise_links, add_notebook_links, describe_figures):
        app.connect("doctree-resolved", step)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
