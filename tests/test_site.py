"""The course website: built like `make site`, served on 127.0.0.1 and opened page by page in headless Chromium.

Needs Debian's `chromium` (`apt-get install chromium`; `.ci/run` installs it). Without it the browser tests are
skipped, except under CI=true where a missing browser fails.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urldefrag, urlparse

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--no-first-run",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
]
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
MATH_RENDERED = """() => window.MathJax && MathJax.Hub && MathJax.isReady && MathJax.Hub.queue.pending === 0"""


def build_site(out: Path, *, solutions: bool) -> Path:
    """Build the site the way `make site` does (warnings are errors); return its folder."""
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-c", "site", "-b", "html", ".", str(out)]
    env = {**os.environ, "SUDOKU_COURSE_SOLUTIONS": "1" if solutions else "0"}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"sphinx-build failed:\n{done.stdout}\n{done.stderr}"
    return out


def page_of(notebook: Path) -> str:
    """The site path of a notebook's page, e.g. notebooks/00-environnement.html."""
    return f"{notebook.parent.name}/{notebook.stem}.html"


def figures_in(notebook: Path) -> int:
    """How many image outputs the committed notebook holds."""
    nb = nbformat.read(notebook, as_version=4)
    outputs = [output for cell in nb.cells for output in cell.get("outputs", [])]
    return sum(any(mime.startswith("image/") for mime in output.get("data", {})) for output in outputs)


@pytest.fixture(scope="module")
def student_site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("site") / "html", solutions=False)


@pytest.fixture(scope="module")
def instructor_site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("site-solutions") / "html", solutions=True)


# ------------------------------------------------------------- the build
def test_students_get_the_home_page_lessons_and_exercises_but_no_solution(student_site):
    pages = {path.relative_to(student_site).as_posix() for path in student_site.rglob("*.html")}
    assert {"index.html", "ACCUEIL.html"} | {page_of(nb) for nb in LESSONS + EXERCISES} <= pages
    assert not any(page.startswith("solutions/") for page in pages)
    assert not [path for path in student_site.rglob("*.html") if "solutions/" in path.read_text(encoding="utf-8")]


def test_instructors_also_get_the_solutions_linked_from_the_home_page(instructor_site):
    home = (instructor_site / "ACCUEIL.html").read_text(encoding="utf-8")
    for notebook in SOLUTIONS:
        assert (instructor_site / page_of(notebook)).is_file()
        assert f'href="{page_of(notebook)}"' in home


def test_page_titles_are_the_lesson_titles(student_site):
    for notebook in LESSONS + EXERCISES:
        heading = nbformat.read(notebook, as_version=4).cells[0].source.splitlines()[0].removeprefix("# ")
        title = re.search(r"<title>(.*?) &#8212;", (student_site / page_of(notebook)).read_text(encoding="utf-8"))
        assert title and title.group(1).replace("’", "'") == heading, notebook.name


def test_notebook_links_became_page_links(student_site):
    for page in student_site.rglob("*.html"):
        hrefs = re.findall(r'href="([^"]+)"', page.read_text(encoding="utf-8"))
        assert not [href for href in hrefs if re.search(r"\.(ipynb|md)(#|$)", href)], page.name


# ----------------------------------------------------------- the browser
def chromium_or_skip() -> Path:
    """Debian's Chromium and Playwright, or a skip (a failure under CI=true) saying how to install them."""
    missing = [] if CHROMIUM.exists() else ["chromium (apt-get install chromium)"]
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("playwright (make install)")
    if missing:
        message = f"the site's browser test needs {', '.join(missing)}; .ci/run installs them"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


@dataclass
class PageVisit:
    """What a browser saw on one page."""

    path: str
    errors: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    images: list[dict] = field(default_factory=list)
    math: dict = field(default_factory=dict)
    grid_cells: list[int] = field(default_factory=list)


@dataclass
class SiteVisit:
    base: str
    pages: dict[str, PageVisit]
    outside_requests: list[str]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # no access log in the test output
        pass


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve `folder` on 127.0.0.1 (a free port) from a background thread; return the server and its base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


PAGE_FACTS = """() => ({
    links: Array.from(document.querySelectorAll("a[href]"), a => a.href),
    ids: Array.from(document.querySelectorAll("[id]"), e => e.id),
    images: Array.from(document.querySelectorAll("img"), img => ({
        src: img.getAttribute("src"), alt: img.alt, loaded: img.complete && img.naturalWidth > 0,
        shown: img.getBoundingClientRect().width > 0})),
    math: {
        formulas: document.querySelectorAll(".math.notranslate").length,
        rendered: Array.from(document.querySelectorAll(".math.notranslate")).filter(
            m => m.querySelector(".MathJax, .MathJax_Display") && !m.querySelector(".MathJax_Error")).length,
        errors: document.querySelectorAll(".MathJax_Error, .math merror").length},
    grid_cells: Array.from(document.querySelectorAll(".output table"), t => t.querySelectorAll("td").length)
        .filter(n => n === 81),
})"""


def visit(page, url: str) -> dict:
    """Open `url`, wait until MathJax has typeset the page, return what the page holds."""
    page.goto(url, wait_until="networkidle")  # index.html redirects to the home page once loaded
    if page.locator(".math.notranslate").count():
        page.wait_for_function(MATH_RENDERED, timeout=30_000)
    return page.evaluate(PAGE_FACTS)


@pytest.fixture(scope="module")
def browsed(student_site) -> Iterator[SiteVisit]:
    """Every page of the student site, opened once in headless Chromium; requests off 127.0.0.1 are blocked."""
    chromium = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    server, base = serve(student_site)
    outside: list[str] = []

    def only_local(route) -> None:
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    pages = {}
    try:
        with sync_playwright() as playwright:
            args = [*CHROMIUM_FLAGS, *(["--no-sandbox"] if os.geteuid() == 0 else [])]
            browser = playwright.chromium.launch(executable_path=str(chromium), headless=True, args=args)
            context = browser.new_context()
            context.route("**/*", only_local)
            page = context.new_page()
            errors: list[str] = []
            page.on("console", lambda message: message.type == "error" and errors.append(message.text))
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("requestfailed", lambda request: errors.append(f"failed: {request.url}"))
            page.on(
                "response",
                lambda response: response.status >= 400 and errors.append(f"{response.status}: {response.url}"),
            )
            for path in sorted(p.relative_to(student_site).as_posix() for p in student_site.rglob("*.html")):
                errors.clear()
                facts = visit(page, base + path)
                pages[path] = PageVisit(
                    path,
                    list(errors),
                    facts["links"],
                    set(facts["ids"]),
                    facts["images"],
                    facts["math"],
                    facts["grid_cells"],
                )
            browser.close()
        yield SiteVisit(base, pages, outside)
    finally:
        server.shutdown()


def test_every_page_loads_without_console_error(browsed):
    assert {path: visit.errors for path, visit in browsed.pages.items() if visit.errors} == {}


def test_nothing_is_fetched_from_outside(browsed):
    assert browsed.outside_requests == []


def test_every_internal_link_resolves(browsed, student_site):
    broken = []
    for path, visit in browsed.pages.items():
        for link in visit.links:
            target, fragment = urldefrag(link)
            if not target.startswith(browsed.base):
                continue  # links to other sites are not followed (nothing is fetched from outside)
            relative = target.removeprefix(browsed.base).split("?")[0]
            relative = relative + "index.html" if relative == "" or relative.endswith("/") else relative
            landing = browsed.pages.get(relative)
            if landing is None and not (student_site / relative).is_file():
                broken.append(f"{path} -> {link}")
            elif landing is not None and fragment and fragment not in landing.ids:
                broken.append(f"{path} -> {link} (no #{fragment})")
    assert broken == []


def test_every_figure_of_the_notebooks_appears_with_alternative_text(browsed):
    for notebook in LESSONS + EXERCISES:
        images = browsed.pages[page_of(notebook)].images
        assert len(images) == figures_in(notebook), notebook.name
        assert all(image["loaded"] and image["shown"] for image in images), notebook.name
        assert all(image["alt"].strip() for image in images), notebook.name


def test_math_is_typeset(browsed):
    pages_with_math = {path: visit.math for path, visit in browsed.pages.items() if visit.math["formulas"]}
    assert "notebooks/02-recuit-simule.html" in pages_with_math
    untypeset = {path: math for path, math in pages_with_math.items() if math["rendered"] < math["formulas"]}
    assert untypeset == {}
    assert {path: math for path, math in pages_with_math.items() if math["errors"]} == {}


def test_the_html_grid_renders(browsed):
    assert browsed.pages[page_of(LESSONS[0])].grid_cells, "no 9x9 grid table in lesson 00"
