"""The course website and the students' archive, built like `make site`.

The site is served on 127.0.0.1 and every page is opened in headless Chromium, at a desktop's 1280 px in
light mode and at a phone's 390 px in dark mode. Needs Debian's `chromium` (`apt-get install chromium`;
`.ci/run` installs it). Without it the browser tests are skipped, except under CI=true where a missing
browser fails.

The archive is unpacked, installed in a fresh virtual environment by the commands of its DEMARRER.md (pip
fetches the locked versions from the package registry, as a student's install does), and runs exercise 00 to
the end with papermill. The install takes a minute or two: it starts as soon as the site is built and runs
while the browser tests do.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import os
import re
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urldefrag, urlparse

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "site"))  # the site's own Sphinx extensions

from coursesite.typography import french_typography  # noqa: E402

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
PROTOCOLS = sorted((ROOT / "studies").glob("*.md"))
JUPYTERHUB = "https://hub.example.org"
ARCHIVE = "sudoku-course.zip"
NO_BREAK_SPACES = "\u00a0\u202f"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def build_site(out: Path, *, solutions: bool, jupyterhub: str = "") -> Path:
    """Build the site the way `make site` does (warnings are errors); return its folder."""
    doctrees = out.parent / "doctrees"
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-c", "site", "-d", str(doctrees)]
    env = {
        **os.environ,
        "SUDOKU_COURSE_SOLUTIONS": "1" if solutions else "0",
        "SUDOKU_COURSE_JUPYTERHUB": jupyterhub,
    }
    done = subprocess.run([*command, "-b", "html", ".", str(out)], cwd=ROOT, env=env, capture_output=True, text=True)
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


def html_of(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def plain(text: str) -> str:
    """Text with the site's typography undone: straight apostrophes, ordinary spaces."""
    return re.sub(f"[{NO_BREAK_SPACES}]", " ", text.replace("’", "'"))


@pytest.fixture(scope="module")
def student_site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("site") / "html", solutions=False)


@pytest.fixture(scope="module")
def instructor_site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("site-solutions") / "html", solutions=True, jupyterhub=JUPYTERHUB)


# ------------------------------------------------------------- the build
def test_students_get_the_home_page_lessons_and_exercises_but_no_solution(student_site):
    pages = {path.relative_to(student_site).as_posix() for path in student_site.rglob("*.html")}
    assert {"index.html", "ACCUEIL.html", "DEMARRER.html"} | {page_of(nb) for nb in LESSONS + EXERCISES} <= pages
    assert not list(student_site.glob("solutions"))
    assert not [path for path in student_site.rglob("*.html") if "solutions/" in path.read_text(encoding="utf-8")]


def test_instructors_also_get_the_solutions_linked_from_the_home_page(instructor_site):
    home = html_of(instructor_site, "ACCUEIL.html")
    for notebook in SOLUTIONS:
        assert (instructor_site / page_of(notebook)).is_file()
        assert f'href="{page_of(notebook)}"' in home


def test_page_titles_are_the_lesson_titles(student_site):
    for notebook in LESSONS + EXERCISES:
        heading = nbformat.read(notebook, as_version=4).cells[0].source.splitlines()[0].removeprefix("# ")
        title = re.search(r"<title>(.*?) &#8212;", html_of(student_site, page_of(notebook)))
        assert title and plain(title.group(1)) == heading, notebook.name


def test_each_protocol_is_a_page_and_lesson_04_links_to_its_own(student_site):
    assert [protocol.name for protocol in PROTOCOLS] == ["crossstudy-protocol.md"]
    for protocol in PROTOCOLS:
        html = html_of(student_site, f"studies/{protocol.stem}.html")
        heading = protocol.read_text(encoding="utf-8").splitlines()[0].removeprefix("# ")
        title = re.search(r"<title>(.*?) &#8212;", html)
        assert title and plain(title.group(1)) == heading, protocol.name
        code = r'<code class="[^"]*literal[^"]*">'
        commit_as_code = code + r'<span class="pre">COMMIT:</span> <span class="pre">[0-9a-f]{40}</span></code>'
        assert re.search(commit_as_code, html), protocol.name
    lesson = html_of(student_site, "notebooks/04-representation-contre-algorithme.html")
    assert 'href="../studies/crossstudy-protocol.html"' in lesson


def test_notebook_links_became_page_links(student_site):
    for page in student_site.rglob("*.html"):
        links = re.findall(r"<a [^>]*>", page.read_text(encoding="utf-8"))
        to_files = [link for link in links if re.search(r'href="[^"]*\.(ipynb|md)(#[^"]*)?"', link)]
        assert [link for link in to_files if " download" not in link] == [], page.name


def test_the_published_folder_holds_only_what_pages_need(student_site):
    not_needed = [".doctrees", ".buildinfo", "objects.inv", "_sources", "genindex.html", "_static/locales"]
    assert [name for name in not_needed if (student_site / name).exists()] == []
    assert list(student_site.rglob("*.map")) == []


def test_mathjax_is_one_component_loaded_only_by_pages_with_math(student_site):
    mathjax = student_site / "_static" / "mathjax"
    assert [path.name for path in mathjax.rglob("*.js")] == ["tex-chtml.js"]
    assert "Apache License" in (mathjax / "LICENSE").read_text(encoding="utf-8")
    for page in student_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert ('class="math' in html) == ("mathjax/tex-chtml.js" in html), page.name
    assert "mathjax/tex-chtml.js" in html_of(student_site, "notebooks/02-recuit-simule.html")


def test_previous_and_next_follow_the_order_of_work(student_site):
    """Home, getting started, then lesson NN, its exercises, lesson NN+1, and the glossary and the protocols last."""
    expected = ["ACCUEIL.html", "DEMARRER.html"]
    for lesson, exercises in zip(LESSONS, EXERCISES, strict=True):
        expected += [page_of(lesson), page_of(exercises)]
    expected += ["GLOSSAIRE.html", *(f"studies/{protocol.stem}.html" for protocol in PROTOCOLS)]
    chain = ["ACCUEIL.html"]
    while following := re.search(r'<link rel="next" title="[^"]*" href="([^"]+)"', html_of(student_site, chain[-1])):
        chain.append(os.path.normpath(os.path.join(os.path.dirname(chain[-1]), following.group(1))))
    assert chain == expected


def test_previous_and_next_appear_once_per_page(student_site):
    for notebook in LESSONS + EXERCISES:
        html = html_of(student_site, page_of(notebook))
        assert html.count('class="prev-next-area"') == 1, notebook.name
        article = html[html.index("<article") : html.index("</article>")]
        assert ">Sommaire<" not in article, f"{notebook.name} still shows the notebook's own navigation line"


def test_lesson_links_to_exercises_read_as_their_titles_and_land_on_them(student_site):
    for lesson in LESSONS:
        html = html_of(student_site, page_of(lesson))
        links = re.findall(r'<a class="reference internal" href="\.\./exercises/[^"#]*(#[^"]*)?">([^<]*)</a>', html)
        assert links, f"{lesson.name} links to no exercise"
        assert not [text for _, text in links if text.endswith(".ipynb")], lesson.name
        for fragment, text in links:
            if fragment:
                number = re.match(r"#exercice-(\d+)-", fragment)
                assert number and text.startswith(f"Exercice {number.group(1)}"), (lesson.name, fragment, text)
    assert "#exercice-4-" in html_of(student_site, "notebooks/02-recuit-simule.html")


def test_jupyterhub_links_appear_only_when_the_site_is_built_for_a_hub(student_site, instructor_site):
    assert not [page for page in student_site.rglob("*.html") if "JupyterHub" in page.read_text(encoding="utf-8")]
    for notebook in LESSONS + EXERCISES:
        url = f"{JUPYTERHUB}/hub/user-redirect/lab/tree/sudoku-course/{notebook.parent.name}/{notebook.name}"
        assert f'href="{url}">Ouvrir dans JupyterHub</a>' in html_of(instructor_site, page_of(notebook))


@pytest.mark.parametrize(
    ("source", "typeset"),
    [
        ("l'état", "l’état"),
        ("l'", "l’"),  # before markup: « l'**état** »
        ("Objectifs :", "Objectifs\u00a0:"),
        ("deux ; trois ! quatre ? (oui ?)", "deux\u202f; trois\u202f! quatre\u202f? (oui\u202f?)"),
        ("« réussi »", "«\u00a0réussi\u00a0»"),
        ("a != b, 10:30, http://x", "a != b, 10:30, http://x"),
    ],
)
def test_french_typography(source, typeset):
    assert french_typography(source) == typeset


# ----------------------------------------------------------- the archive
@dataclass
class Install:
    """The students' course, unpacked, being installed in the background by DEMARRER's commands."""

    course: Path
    process: subprocess.Popen
    log: Path


def demarrer_commands(text: str) -> list[str]:
    """The Linux and macOS commands of DEMARRER.md: the lines of its bash blocks, in order."""
    return [line for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S) for line in block.splitlines()]


@pytest.fixture(scope="module")
def installing_archive(student_site, tmp_path_factory) -> Iterator[Install]:
    """The archive unpacked in a fresh folder, its install started at once (it takes a minute or two)."""
    folder = tmp_path_factory.mktemp("student")
    with zipfile.ZipFile(student_site / ARCHIVE) as archive:
        archive.extractall(folder)
    course = folder / "sudoku-course"
    commands = demarrer_commands((course / "DEMARRER.md").read_text(encoding="utf-8"))
    install = [command for command in commands if "jupyter lab" not in command]  # that one opens JupyterLab
    env = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PIP_NO_COMPILE"] = "1"  # no bytecode compiled ahead for 150 packages: Python compiles what it imports
    log = folder / "install.log"
    with log.open("w") as output:
        script = "set -euo pipefail\n" + "\n".join(install)
        process = subprocess.Popen(["bash", "-c", script], cwd=course, env=env, stdout=output, stderr=subprocess.STDOUT)
    yield Install(course, process, log)
    if process.poll() is None:
        process.kill()
        process.wait()


def test_the_archive_holds_the_students_course_and_no_solution(installing_archive, student_site):
    with zipfile.ZipFile(student_site / ARCHIVE) as archive:
        names = set(archive.namelist())
    expected = {"ACCUEIL.md", "DEMARRER.md", "requirements.lock", "puzzles/README.md", "puzzles/easy.txt"}
    expected |= {f"{notebook.parent.name}/{notebook.name}" for notebook in LESSONS + EXERCISES}
    expected |= {f"studies/{protocol.name}" for protocol in PROTOCOLS}
    assert {f"sudoku-course/{name}" for name in expected} <= names
    with zipfile.ZipFile(student_site / ARCHIVE) as archive:
        for protocol in PROTOCOLS:  # the preregistration as committed, byte for byte
            assert archive.read(f"sudoku-course/studies/{protocol.name}") == protocol.read_bytes()
    assert [name for name in names if re.fullmatch(r"sudoku-course/sudoku_course-[^/]*\.whl", name)]
    assert not [name for name in names if "solution" in name.lower()]
    locked = set((ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines())
    pins = (installing_archive.course / "requirements.lock").read_text(encoding="utf-8").splitlines()
    pins = [pin for pin in pins if pin and not pin.startswith("#")]
    assert set(pins) <= locked and any(pin.startswith("jupyterlab==") for pin in pins)
    assert not [pin for pin in pins if pin.startswith(("playwright==", "sphinx==", "ruff=="))]


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
    """What a browser saw on one page, at one width."""

    path: str
    errors: list[str] = field(default_factory=list)
    facts: dict = field(default_factory=dict)


@dataclass
class SiteVisit:
    base: str
    desktop: dict[str, PageVisit]
    phone: dict[str, PageVisit]
    outside_requests: list[str]
    downloads: dict[str, str]  # link -> sha256 of what it returned
    search_results: int


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # no access log in the test output
        pass


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve `folder` on 127.0.0.1 (a free port) from a background thread; return the server and its base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


MATH_RENDERED = "() => window.MathJax && MathJax.startup && MathJax.startup.promise.then(() => true)"
PAGE_FACTS = """() => {
  const NO_BREAK = "\\u00a0\\u202f";
  const CODE = "pre, code, .math, mjx-container, script, style, .cell_output, kbd";
  function typography() {
    const faults = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let previous = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.data;
      if (!node.parentElement.closest(CODE)) {
        for (let i = 0; i < text.length; i++) {
          const before = i > 0 ? text[i - 1] : previous, c = text[i];
          const spaced = before !== "" && NO_BREAK.includes(before);
          const where = text.slice(Math.max(0, i - 25), i + 10);
          if (c === "\\u201d" && /\\p{L}/u.test(before)) faults.push("” after a letter: " + where);
          if (";:".includes(c) && !spaced && text.slice(i, i + 3) !== "://") faults.push("no no-break space: " + where);
          if ("!?»".includes(c) && /\\s/.test(before) && !spaced) faults.push("breaking space: " + where);
          if (c === "«" && /\\s/.test(text[i + 1] || "") && !NO_BREAK.includes(text[i + 1])) faults.push("« " + where);
        }
      }
      if (text.length) previous = text[text.length - 1];
    }
    return faults;
  }
  const visible = e => e && e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== "hidden";
  const top = selector => Array.from(document.querySelectorAll(selector)).filter(visible)
    .map(e => e.getBoundingClientRect().top);
  const tooltips = Array.from(document.querySelectorAll("[title], [aria-label], [data-tooltip]"))
    .flatMap(e => [e.getAttribute("title"), e.getAttribute("aria-label"), e.getAttribute("data-tooltip")])
    .filter(Boolean);
  return {
    links: Array.from(document.querySelectorAll("a[href]"), a => a.href),
    downloads: Array.from(document.querySelectorAll("a[download]"), a => a.href),
    ids: Array.from(document.querySelectorAll("[id]"), e => e.id),
    images: Array.from(document.querySelectorAll(".cell_output img"), img => ({
      src: img.getAttribute("src"), alt: img.alt, loaded: img.complete && img.naturalWidth > 0,
      shown: img.getBoundingClientRect().width, natural: img.naturalWidth})),
    math: {
      formulas: document.querySelectorAll(".math.notranslate").length,
      rendered: Array.from(document.querySelectorAll(".math.notranslate")).filter(
        m => m.querySelector("mjx-container") && !m.querySelector("mjx-merror")).length},
    grid_cells: Array.from(document.querySelectorAll(".output table"), t => t.querySelectorAll("td").length)
      .filter(n => n === 81),
    page_width: document.documentElement.scrollWidth, screen_width: document.documentElement.clientWidth,
    sideways_code: Array.from(document.querySelectorAll("div.cell pre, div.highlight pre"))
      .filter(pre => pre.scrollWidth > pre.clientWidth + 1).map(pre => pre.textContent.slice(0, 60)),
    background: getComputedStyle(document.body).backgroundColor,
    menu_top: top("button.primary-toggle"), search_top: top("button.search-button"),
    copy_buttons: document.querySelectorAll("button.copybtn").length,
    tooltips: tooltips,
    typography: typography(),
  };
}"""


def visit_page(page, url: str) -> dict:
    """Open `url`, wait until MathJax has typeset the page, return what the page holds."""
    page.goto(url, wait_until="networkidle")  # index.html redirects to the home page once loaded
    if page.locator(".math.notranslate").count():
        page.wait_for_function(MATH_RENDERED, timeout=30_000)
    return page.evaluate(PAGE_FACTS)


def visit_site(context, base: str, paths: list[str]) -> dict[str, PageVisit]:
    """Every page of `paths` opened in one tab of `context`, with the console errors each one raised."""
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("requestfailed", lambda request: errors.append(f"failed: {request.url}"))
    page.on("response", lambda response: response.status >= 400 and errors.append(f"{response.status}: {response.url}"))
    visits = {}
    for path in paths:
        errors.clear()
        facts = visit_page(page, base + path)
        visits[path] = PageVisit(path, list(errors), facts)
    page.close()
    return visits


def search_results(context, base: str, word: str) -> int:
    """How many pages the site's search lists for `word`."""
    page = context.new_page()
    page.goto(f"{base}search.html?q={word}", wait_until="networkidle")
    page.wait_for_function("() => document.querySelector('#search-results .search-summary')", timeout=30_000)
    found = page.locator("#search-results ul.search > li").count()
    page.close()
    return found


@pytest.fixture(scope="module")
def browsed(student_site) -> Iterator[SiteVisit]:
    """Every page of the student site, opened in headless Chromium on a desktop (light) and a phone (dark);
    requests off 127.0.0.1 are blocked and recorded."""
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

    paths = sorted(path.relative_to(student_site).as_posix() for path in student_site.rglob("*.html"))
    try:
        with sync_playwright() as playwright:
            args = [*CHROMIUM_FLAGS, *(["--no-sandbox"] if os.geteuid() == 0 else [])]
            browser = playwright.chromium.launch(executable_path=str(chromium), headless=True, args=args)
            desktop = browser.new_context(viewport=DESKTOP, color_scheme="light")
            phone = browser.new_context(viewport=PHONE, color_scheme="dark", is_mobile=True, has_touch=True)
            for context in (desktop, phone):
                context.route("**/*", only_local)
            desktop_visits = visit_site(desktop, base, paths)
            phone_visits = visit_site(phone, base, paths)
            links = sorted({link for visit in desktop_visits.values() for link in visit.facts["downloads"]})
            downloads = {link: hashlib.sha256(desktop.request.get(link).body()).hexdigest() for link in links}
            found = search_results(desktop, base, "recuit")
            browser.close()
        yield SiteVisit(base, desktop_visits, phone_visits, outside, downloads, found)
    finally:
        server.shutdown()


def test_every_page_loads_without_console_error(browsed):
    errors = {
        f"{path} ({width})": visit.errors
        for width, visits in (("1280 px", browsed.desktop), ("390 px", browsed.phone))
        for path, visit in visits.items()
        if visit.errors
    }
    assert errors == {}


def test_nothing_is_fetched_from_outside(browsed):
    assert browsed.outside_requests == []


def test_every_internal_link_resolves(browsed, student_site):
    broken = []
    for path, visit in browsed.desktop.items():
        for link in visit.facts["links"]:
            target, fragment = urldefrag(link)
            if not target.startswith(browsed.base):
                continue  # links to other sites are not followed (nothing is fetched from outside)
            relative = target.removeprefix(browsed.base).split("?")[0]
            relative = relative + "index.html" if relative == "" or relative.endswith("/") else relative
            landing = browsed.desktop.get(relative)
            if landing is None and not (student_site / relative).is_file():
                broken.append(f"{path} -> {link}")
            elif landing is not None and fragment and fragment not in landing.facts["ids"]:
                broken.append(f"{path} -> {link} (no #{fragment})")
    assert broken == []


def test_every_download_link_returns_the_committed_notebook_or_the_archive(browsed, student_site):
    def sha256(path: Path) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest()

    for notebook in LESSONS + EXERCISES:
        link = browsed.base + f"{notebook.parent.name}/{notebook.name}"
        assert link in browsed.desktop[page_of(notebook)].facts["downloads"], notebook.name
        assert browsed.downloads[link] == sha256(notebook), notebook.name
    assert browsed.downloads[browsed.base + ARCHIVE] == sha256(student_site / ARCHIVE)
    assert browsed.base + ARCHIVE in browsed.desktop["DEMARRER.html"].facts["downloads"]


def test_every_figure_of_the_notebooks_appears_with_alternative_text(browsed):
    for notebook in LESSONS + EXERCISES:
        images = browsed.desktop[page_of(notebook)].facts["images"]
        assert len(images) == figures_in(notebook), notebook.name
        assert all(image["loaded"] and image["shown"] for image in images), notebook.name
        assert all(image["alt"].strip() for image in images), notebook.name


def pages_where(visits: dict[str, PageVisit], fact: str) -> dict:
    """Path -> the value of `fact`, for the pages where it is not empty."""
    return {path: visit.facts[fact] for path, visit in visits.items() if visit.facts[fact]}


def test_math_is_typeset(browsed):
    pages_with_math = {path: math for path, math in pages_where(browsed.desktop, "math").items() if math["formulas"]}
    assert "notebooks/02-recuit-simule.html" in pages_with_math
    assert {path: math for path, math in pages_with_math.items() if math["rendered"] < math["formulas"]} == {}


def test_the_html_grid_renders(browsed):
    assert browsed.desktop[page_of(LESSONS[0])].facts["grid_cells"], "no 9x9 grid table in lesson 00"


def test_search_finds_a_lesson_word(browsed):
    assert browsed.search_results >= 2


def test_no_code_cell_scrolls_sideways_on_a_desktop(browsed):
    assert pages_where(browsed.desktop, "sideways_code") == {}


def test_no_page_scrolls_sideways_on_a_phone(browsed):
    wide = {path: visit.facts["page_width"] for path, visit in browsed.phone.items()}
    assert {path: width for path, width in wide.items() if width > PHONE["width"]} == {}


def test_the_menu_and_the_search_are_at_the_top_of_a_phone_screen(browsed):
    for path, visit in browsed.phone.items():
        if path not in ("index.html", "search.html"):
            assert [top for top in visit.facts["menu_top"] if top < 100], path
            assert [top for top in visit.facts["search_top"] if top < 100], path


def test_figures_keep_readable_digits_on_a_phone(browsed):
    """A figure shown on a phone keeps at least 70 % of its size (it scrolls inside its own box)."""
    for notebook in LESSONS:
        for image in browsed.phone[page_of(notebook)].facts["images"]:
            assert image["shown"] >= 0.69 * image["natural"], (notebook.name, image["src"])


def test_dark_mode_changes_the_background(browsed):
    for path, visit in browsed.desktop.items():
        assert visit.facts["background"] != browsed.phone[path].facts["background"], path


def test_code_cells_have_copy_buttons(browsed):
    for notebook in LESSONS + EXERCISES:
        assert browsed.desktop[page_of(notebook)].facts["copy_buttons"], notebook.name


def test_tooltips_are_in_french(browsed):
    english = re.compile(r"\b(Toggle|Previous|Next|Copy|Download|Search|Contents|Skip|Back to top|Launch|Main)\b")
    found = {tip for visit in browsed.desktop.values() for tip in visit.facts["tooltips"] if english.search(tip)}
    assert found == set()


def test_the_prose_follows_french_typography(browsed):
    """No closing quote after a letter (an apostrophe spoiled by smart quotes), a no-break space before every
    « ; » and « : » of the prose, none breaking before « ! », « ? », « » » or after « « »."""
    assert pages_where(browsed.desktop, "typography") == {}


def test_the_archive_installs_in_a_fresh_environment_and_runs_exercise_00(installing_archive, tmp_path):
    """DEMARRER's commands install the archive's lock file and wheel; exercise 00 then runs to the end."""
    assert installing_archive.process.wait(timeout=900) == 0, installing_archive.log.read_text()[-3000:]
    course = installing_archive.course
    python = course / ".venv" / "bin" / "python"
    installed = subprocess.run(
        [str(python), "-c", "import sudoku_course; print(sudoku_course.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert str(course / ".venv") in installed.stdout, installed.stderr
    executed = tmp_path / "00-environnement.ipynb"
    command = [str(python), "-m", "papermill", "--cwd", "exercises", "exercises/00-environnement.ipynb", str(executed)]
    done = subprocess.run(command, cwd=course, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    outputs = [output for cell in nbformat.read(executed, as_version=4).cells for output in cell.get("outputs", [])]
    assert not [output for output in outputs if output.output_type == "error"]
    assert "pas encore fait" in str(outputs)


def test_the_grading_summary_page_opens_offline_on_a_desktop_and_a_phone(tmp_path, monkeypatch):
    """`make grade` writes summary.html beside its other outputs: one French page, its charts inline (SVG)."""
    chromium = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    from sudoku_course.teaching.authoring import exercise_notebook
    from sudoku_course.teaching.grading import grade
    from sudoku_course.teaching.notebooks import write_notebook

    solution = ROOT / "solutions" / "00-environnement.ipynb"
    for student, stubs in (("alice", False), ("bob", True)):
        notebook = nbformat.read(solution, as_version=4)
        folder = tmp_path / "rendus" / student
        folder.mkdir(parents=True)
        write_notebook(exercise_notebook(notebook) if stubs else notebook, folder / solution.name)
    monkeypatch.setenv("SUDOKU_COURSE_SECRET", "a secret of the site test")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no record of the solution in the user's cache
    grade(tmp_path / "rendus", solution.parent, tmp_path / "out" / "grades.csv", sandboxed=False, progress=False)
    server, base = serve(tmp_path / "out")
    outside: list[str] = []  # requests off 127.0.0.1, refused

    def refuse(route) -> None:
        outside.append(route.request.url)
        route.abort()

    facts = {}
    root_flags = ["--no-sandbox"] if os.geteuid() == 0 else []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(chromium), headless=True, args=[*CHROMIUM_FLAGS, *root_flags]
            )
            for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                context = browser.new_context(viewport=viewport)
                context.route(re.compile(r"^(?!http://127\.0\.0\.1[:/])"), refuse)
                page = context.new_page()
                errors: list[str] = []
                page.on("console", lambda message: message.type == "error" and errors.append(message.text))  # noqa: B023
                page.on("pageerror", lambda error: errors.append(str(error)))  # noqa: B023
                page.goto(base + "summary.html", wait_until="networkidle")
                facts[name] = page.evaluate(
                    """() => ({
                      title: document.title, lang: document.documentElement.lang,
                      charts: Array.from(document.querySelectorAll("svg"), svg => svg.getBoundingClientRect().width),
                      headings: Array.from(document.querySelectorAll("h2"), h => h.textContent),
                      page_width: document.documentElement.scrollWidth,
                      screen_width: document.documentElement.clientWidth,
                    })"""
                )
                facts[name]["errors"] = errors
            browser.close()
    finally:
        server.shutdown()
    assert outside == []
    for name, seen in facts.items():
        assert seen["title"] == "Synthèse de la correction" and seen["lang"] == "fr", name
        assert len(seen["charts"]) == 2 and all(width > 100 for width in seen["charts"]), (name, seen["charts"])
        assert "Cas les plus souvent échoués" in seen["headings"] and "Temps par notebook" in seen["headings"]
        assert seen["errors"] == [] and seen["page_width"] <= seen["screen_width"], (name, seen)
