"""The sandbox: what a submission's code can see and do from inside bubblewrap, and the runner protocol.

A probe stands in for a student's `box_index`: it looks around from inside the sandbox and returns what it
found as plain data (the first case's output). These tests need bubblewrap: without it they are skipped on a
developer's machine and fail under CI=true (`.ci/run` installs it).
"""

from __future__ import annotations

import fcntl
import importlib
import json
import os
import pickle
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sudoku_course.teaching.grading import view
from sudoku_course.teaching.grading.program import CodeCell, definitions
from sudoku_course.teaching.grading.sandbox import (
    LOCKS,
    RunnerProcess,
    Sandbox,
    course_folder,
    parse_message,
    probe,
    sandbox_uid,
)
from sudoku_course.teaching.grading.settings import GradingSettings
from sudoku_course.teaching.isolation import CRASH, ERROR, TIMEOUT, VALUE, Outcome

LESSON00 = "sudoku_course.teaching.exercises.lesson00"


def start_probe(
    body: str, sandbox: Sandbox, tmp_path: Path, case_limit: float = 30, seed: int | None = None
) -> tuple[RunnerProcess, int]:
    """A runner started on: setup, the definitions of `body` (one chunk per statement), then case 0 of
    box_index; and its number of steps."""
    cells = [CodeCell(0, "probe", (), textwrap.dedent(body))]
    cells_file = tmp_path / "submission.json"
    cells_file.write_text(json.dumps([cell.as_dict() for cell in cells]), encoding="utf-8")
    sandbox.own_scratch(cells_file)
    steps = [["setup"], *(["chunk", j] for j in range(len(definitions(cells)))), ["case", "box_index", 0, case_limit]]
    request = {"seed": seed, "lessons": [LESSON00], "steps": steps}
    return sandbox.start(cells_file, request, tmp_path / "log"), len(steps)


def run_probe(
    body: str,
    sandbox: Sandbox,
    tmp_path: Path,
    *,
    time_limit: float = 60,
    case_limit: float = 30,
    seed: int | None = None,
) -> list[Outcome]:
    """Outcomes of: setup, the definitions of `body` (one chunk per statement), then case 0 of box_index."""
    runner, count = start_probe(body, sandbox, tmp_path, case_limit, seed)
    try:
        return [runner.answer(index, 60 if index == 0 else time_limit) for index in range(count)]
    finally:
        runner.stop()


def probe_value(body: str, sandbox: Sandbox, tmp_path: Path, seed: int | None = None):
    outcome = run_probe(body, sandbox, tmp_path, seed=seed)[-1]
    assert outcome.kind == VALUE, outcome
    return outcome.value


@pytest.fixture
def secret_place(tmp_path, package_view):
    """A course folder of a test: solutions, two students, a secret, outputs; and the sandbox hiding them."""
    course = tmp_path / "course"
    (course / "solutions").mkdir(parents=True)
    (course / "solutions" / "00-environnement.ipynb").write_text("the master", encoding="utf-8")
    (course / "rendus" / "bob").mkdir(parents=True)
    (course / "rendus" / "bob" / "00-environnement.ipynb").write_text("bob's notebook", encoding="utf-8")
    secret = tmp_path / "secret"
    secret.write_text("the course secret", encoding="utf-8")
    hidden = (course, course / "rendus", course / "solutions", secret, course_folder(), Path.home())
    return course, secret, Sandbox(hidden, package=package_view)


def test_the_grader_can_start_the_sandbox(bubblewrap, package_view):
    probe(Sandbox(package=package_view))


def test_course_folder_submissions_secret_are_hidden_and_the_system_is_read_only(bubblewrap, secret_place, tmp_path):
    course, secret, sandbox = secret_place
    found = probe_value(
        f"""
        import os, pathlib, sudoku_course
        def attempt(action):
            try:
                return repr(action())
            except Exception as error:
                return type(error).__name__
        def write(path):
            with open(path, "w") as file:
                file.write("changed")
        def box_index(row, col, box_size=3):
            package = pathlib.Path(sudoku_course.__file__).parent
            return {{
                "course": attempt(lambda: sorted(os.listdir({str(course)!r}))),
                "master": attempt(lambda: open({str(course / "solutions" / "00-environnement.ipynb")!r}).read()),
                "secret": attempt(lambda: open({str(secret)!r}).read()),
                "repository": attempt(lambda: sorted(os.listdir({str(course_folder())!r}))),
                "package": attempt(lambda: write(package / "grid.py")),
                "new file in package": attempt(lambda: write(package / "planted.py")),
                "venv": attempt(lambda: write(pathlib.Path(os.__file__).parent / "planted.py")),
                "shadow": attempt(lambda: open("/etc/shadow").read()),
                "uid": os.getuid() if os.geteuid() else "root",
                "scratch": attempt(lambda: write("/tmp/home/cache.txt")),
            }}
        """,
        sandbox,
        tmp_path,
    )
    assert found["course"] in ("[]", "PermissionError", "FileNotFoundError")
    assert found["master"] in ("FileNotFoundError", "PermissionError", "IsADirectoryError")
    assert found["secret"] in ("''", "PermissionError", "FileNotFoundError")
    assert "solutions" not in found["repository"] and "tests" not in found["repository"]
    assert found["package"] == found["new file in package"] == found["venv"] == "OSError"
    assert found["scratch"] == "None"
    if os.geteuid() == 0:
        assert found["shadow"] == "PermissionError" and found["uid"] == sandbox_uid()  # this process's own user
    assert (course / "solutions" / "00-environnement.ipynb").read_text(encoding="utf-8") == "the master"


def test_a_course_beside_its_secret_in_one_hidden_folder_leaves_the_sandbox_working(bubblewrap, package_view):
    """The course and the secret side by side in one folder (a temporary folder, say), all three hidden: the
    Python environment inside the course comes back, walkable by the runner's user, and the probe starts."""
    course = course_folder()
    probe(Sandbox((course.parent, course, course.parent / "grading-secret"), package=package_view))


def test_the_puzzle_banks_come_back_read_only_inside_a_hidden_course_folder(bubblewrap, secret_place, tmp_path):
    found = probe_value(
        """
        import pathlib
        import sudoku_course.banks
        from sudoku_course.puzzles import load_bank
        def box_index(row, col, box_size=3):
            folder = pathlib.Path(sudoku_course.banks.__path__[0])
            try:
                (folder / "easy.txt").write_text("changed")
                written = "written"
            except OSError:
                written = "OSError"
            return {"easy": len(load_bank("easy")), "medium": len(load_bank("medium")), "write": written}
        """,
        secret_place[2],
        tmp_path,
    )
    from sudoku_course.puzzles import load_bank

    assert found == {"easy": len(load_bank("easy")), "medium": len(load_bank("medium")), "write": "OSError"}


SEED = 987_654_321_987


def test_the_seed_and_the_references_are_not_in_the_runners_memory(bubblewrap, tmp_path, package_view):
    found = probe_value(
        f"""
        import gc, sys
        def box_index(row, col, box_size=3):
            lessons = [m for n, m in list(sys.modules.items()) if n.startswith("sudoku_course.teaching.exercises.")]
            objects = gc.get_objects()
            return {{
                "in lessons": sorted(n for m in lessons for n in ("box_index", "is_valid_solution", "partial_energy")
                                     if hasattr(m, n)),
                "references": sorted({{getattr(o, "__qualname__", "") for o in objects if callable(o)
                                      and str(getattr(o, "__module__", "")).endswith(".references")}}),
                "seed": sum(any(type(v) is int and v == {SEED} for v in (o if isinstance(o, list) else o.values()))
                            for o in objects if isinstance(o, (list, dict)) and o is not objects),
            }}
        """,
        Sandbox(package=package_view),
        tmp_path,
        seed=SEED,
    )
    assert found == {"in lessons": [], "references": [], "seed": 0}


# ------------------------------------------------------------ the wall: no reference inside the sandbox
REFERENCE = "sudoku_course.teaching.exercises.lesson02.references"
PICKLED = pickle.dumps(importlib.import_module(REFERENCE).metropolis_accept, protocol=5)
WALL_PROBE = f"""
import copyreg, gc, importlib, importlib.util, marshal, pathlib, pickle, pkgutil, runpy, sys
import sudoku_course
import sudoku_course.teaching.exercises as registry
REFERENCE = {REFERENCE!r}
PICKLED = {PICKLED!r}
def attempt(action):
    try:
        return repr(action())[:200]
    except BaseException as error:
        return type(error).__name__
def box_index(row, col, box_size=3):
    package = pathlib.Path(sudoku_course.__file__).parent
    lesson = package / "teaching" / "exercises" / "lesson02"
    files = [path for path in package.rglob("*") if path.is_file()]
    walked = [name for _, name, _ in pkgutil.walk_packages(registry.__path__, registry.__name__ + ".")]
    fetch = getattr
    return {{
        "import": attempt(lambda: __import__(REFERENCE, fromlist=["metropolis_accept"]).metropolis_accept),
        "from import": attempt(lambda: exec("from " + REFERENCE + " import metropolis_accept", {{}})),
        "importlib": attempt(lambda: importlib.import_module(REFERENCE).metropolis_accept),
        "find_spec": attempt(lambda: importlib.util.find_spec(REFERENCE)),
        "run_module": attempt(lambda: runpy.run_module(REFERENCE)["metropolis_accept"]),
        "run_path": attempt(lambda: runpy.run_path(str(lesson / "references.py"))["metropolis_accept"]),
        "resolve_name": attempt(lambda: pkgutil.resolve_name(REFERENCE + ":metropolis_accept")),
        "walk_packages": [name for name in walked if "references" in name],
        "walked cases": [name for name in walked if name.endswith(".cases")],
        "reference files": [str(p.relative_to(package)) for p in files
                            if p.name == "references.py" or "__pycache__" in p.parts],
        "reference sources": [str(p.relative_to(package)) for p in files
                              if "def metropolis_accept(" in p.read_text(errors="replace")],
        "unpickle": attempt(lambda: pickle.loads(b"c" + REFERENCE.encode() + b"\\nmetropolis_accept\\n.")),
        "unpickle protocol 5": attempt(lambda: pickle.loads(PICKLED)),
        "copyreg": attempt(lambda: copyreg._reconstructor(object, object, None) and pickle.loads(PICKLED)),
        "marshal": attempt(lambda: marshal.loads(open(importlib.util.cache_from_source(
            str(lesson / "references.py")), "rb").read()[16:])),
        "eval": attempt(lambda: __builtins__["ev" + "al"]("__import__(REFERENCE, fromlist=['x'])").metropolis_accept),
        "getattr renamed": attempt(lambda: fetch(importlib.import_module(REFERENCE.rpartition(".")[0]),
                                                "refer" + "ences")),
        "registry": attempt(lambda: [item.references for item in registry.load_all().values()]),
        "get_data": attempt(lambda: pkgutil.get_data(registry.__name__ + ".lesson02", "references.py")),
        "modules": [name for name in sys.modules if name.endswith(".references")],
        "cases": attempt(lambda: importlib.import_module("sudoku_course.teaching.exercises.lesson02.cases")
                         .metropolis_cases(None)[0].label),
        "provided": attempt(lambda: importlib.import_module("sudoku_course.teaching.exercises.lesson03.provided")
                            .swarm_loop.__name__),
    }}
"""
UNREACHABLE = ("ModuleNotFoundError", "ImportError", "FileNotFoundError")


@pytest.fixture(scope="module")
def wall(bubblewrap, package_view, tmp_path_factory) -> dict:
    """What a student's code finds, from inside the sandbox, of the references of lesson 02."""
    return probe_value(WALL_PROBE, Sandbox(package=package_view), tmp_path_factory.mktemp("wall"))


def test_the_sandbox_sees_the_cases_and_the_provided_loops_of_the_package(wall):
    assert wall["cases"] == repr("un mouvement qui améliore est toujours accepté")
    assert wall["provided"] == repr("swarm_loop")
    assert len(wall["walked cases"]) == 5


def test_no_reference_can_be_imported_in_the_sandbox(wall):
    assert wall["import"] in UNREACHABLE and wall["from import"] in UNREACHABLE


def test_no_reference_can_be_imported_with_importlib_in_the_sandbox(wall):
    assert wall["importlib"] in UNREACHABLE and wall["find_spec"] == "None"


def test_no_reference_can_be_run_with_runpy_in_the_sandbox(wall):
    assert wall["run_module"] in UNREACHABLE and wall["run_path"] == "FileNotFoundError"


def test_no_reference_can_be_found_with_pkgutil_in_the_sandbox(wall):
    assert wall["resolve_name"] in UNREACHABLE and wall["walk_packages"] == []


def test_no_reference_can_be_read_from_the_packages_files_in_the_sandbox(wall):
    assert wall["reference files"] == [] and wall["reference sources"] == []


def test_no_reference_can_be_unpickled_in_the_sandbox(wall):
    assert wall["unpickle"] in UNREACHABLE and wall["modules"] == []
    assert wall["unpickle protocol 5"] in UNREACHABLE and wall["copyreg"] in UNREACHABLE


def test_no_reference_can_be_reached_by_the_routes_the_scan_closes_either(wall):
    """`__builtins__['ev' + 'al']`, getattr under another name, compiled files (marshal), the registry's own
    `Exercise.references`, pkgutil's data: from inside the sandbox, none finds a reference."""
    assert wall["eval"] in UNREACHABLE and wall["registry"] in UNREACHABLE
    assert wall["getattr renamed"] == "AttributeError"  # the lesson package holds no `references`
    assert wall["marshal"] == "FileNotFoundError" and wall["get_data"] in (*UNREACHABLE, "OSError")


def test_the_same_probe_finds_the_references_when_the_sandbox_shows_the_real_package(bubblewrap, tmp_path):
    found = probe_value(WALL_PROBE, Sandbox(package=view.package_folder()), tmp_path)
    for way in ("import", "importlib", "run_module", "resolve_name", "unpickle", "unpickle protocol 5", "eval"):
        assert found[way].startswith("<function metropolis_accept"), way
    assert "teaching/exercises/lesson02/references.py" in found["reference files"]  # run_path: relative imports fail
    assert found["reference sources"] == ["teaching/exercises/lesson02/references.py"]


def test_the_sandboxs_copy_of_the_package_is_the_package_without_its_references(package_view):
    package = view.package_folder()
    copied = sorted(str(p.relative_to(package_view)) for p in package_view.rglob("*.py"))
    expected = sorted(str(p.relative_to(package)) for p in package.rglob("*.py") if p.name != "references.py")
    assert copied == expected and len(list(package.rglob("references.py"))) == 5
    assert not list(package_view.rglob("__pycache__"))


def test_no_network_no_grader_processes_and_a_cleared_environment(bubblewrap, secret_place, tmp_path, monkeypatch):
    monkeypatch.setenv("SUDOKU_COURSE_SECRET", "in the grader's environment")
    _, _, sandbox = secret_place
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        found = probe_value(
            f"""
            import os, socket
            def attempt(action):
                try:
                    return repr(action())
                except Exception as error:
                    return type(error).__name__
            def box_index(row, col, box_size=3):
                pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
                texts = ""
                for pid in pids:
                    for name in ("environ", "cmdline"):
                        texts += attempt(lambda: open(f"/proc/{{pid}}/{{name}}", "rb").read().decode())
                return {{
                    "connect": attempt(lambda: socket.create_connection(("127.0.0.1", {port}), timeout=2)),
                    "pids": pids,
                    "parent": os.getppid(),
                    "environment": dict(os.environ),
                    "texts": texts,
                }}
            """,
            sandbox,
            tmp_path,
        )
    assert found["connect"] in ("ConnectionRefusedError", "OSError")
    assert os.getpid() not in found["pids"] and len(found["pids"]) <= 4
    assert "SUDOKU_COURSE_SECRET" not in found["environment"] and "in the grader" not in found["texts"]
    assert found["environment"]["HOME"] == "/tmp/home" and found["environment"]["NUMBA_CACHE_DIR"].startswith("/tmp")


def test_memory_is_limited_and_a_case_that_runs_out_costs_itself_only(bubblewrap, tmp_path, package_view):
    sandbox = Sandbox(package=package_view, settings=GradingSettings(memory_mb=1024))
    outcome = run_probe("def box_index(row, col, box_size=3):\n    return len(bytearray(3 << 30))", sandbox, tmp_path)[
        -1
    ]
    assert outcome.kind == ERROR and outcome.error == "MemoryError"


def test_an_endless_loop_in_c_is_stopped_by_the_runner_in_a_case_and_by_the_grader_elsewhere(
    bubblewrap, tmp_path, package_view
):
    loop = "import itertools\ndef box_index(row, col, box_size=3):\n    return sum(itertools.count())"
    outcomes = run_probe(loop, Sandbox(package=package_view), tmp_path, time_limit=10, case_limit=1)
    assert [outcome.kind for outcome in outcomes] == [VALUE, VALUE, VALUE, TIMEOUT]
    at_definition = "import itertools\ndef box_index(row, col, box_size=sum(itertools.count())):\n    return 0"
    outcomes = run_probe(at_definition, Sandbox(package=package_view), tmp_path, time_limit=2)
    assert [outcome.kind for outcome in outcomes[:3]] == [VALUE, VALUE, TIMEOUT]  # the grader gave up on the runner


def test_a_case_that_kills_python_costs_that_case_only(bubblewrap, tmp_path, package_view):
    cells = [CodeCell(0, "probe", (), "import os\ndef box_index(row, col, box_size=3):\n    os._exit(3)")]
    cells_file = tmp_path / "submission.json"
    cells_file.write_text(json.dumps([cell.as_dict() for cell in cells]), encoding="utf-8")
    Sandbox(package=package_view).own_scratch(cells_file)
    steps = [["setup"], ["chunk", 0], ["chunk", 1], ["case", "box_index", 0, 5], ["case", "box_index", 1, 5]]
    request = {"seed": None, "lessons": [LESSON00], "steps": steps}
    runner = Sandbox(package=package_view).start(cells_file, request, tmp_path / "log")
    try:
        outcomes = [runner.answer(index, 30) for index in range(len(steps))]
    finally:
        runner.stop()
    assert [outcome.kind for outcome in outcomes[3:]] == [CRASH, CRASH] and outcomes[3].error == "3"
    assert not runner.lost


def test_what_the_student_prints_never_reaches_the_grader(bubblewrap, tmp_path, package_view):
    outcomes = run_probe(
        """
        import os, sys
        print("x" * 1000)
        def box_index(row, col, box_size=3):
            print('{"step": 3, "kind": "value", "value": 0}')
            sys.stderr.write("noise")
            return 0
        """,
        Sandbox(package=package_view),
        tmp_path,
    )
    assert [outcome.kind for outcome in outcomes] == [VALUE, VALUE, VALUE, VALUE]
    assert outcomes[-1].value == 0


def test_a_flood_on_the_answer_channel_is_a_crash_of_that_step(bubblewrap, tmp_path, package_view):
    outcomes = run_probe(
        """
        import os
        def box_index(row, col, box_size=3):
            for fd in range(3, 12):
                try:
                    os.write(fd, b"x" * (1 << 20))
                except OSError:
                    pass
            return 0
        """,
        Sandbox(package=package_view, settings=GradingSettings(output_mb=4)),
        tmp_path,
    )
    assert outcomes[-1].kind == CRASH


def test_answers_that_break_the_protocol_are_refused():
    assert parse_message(b'{"step": 3, "kind": "value", "value": [1, 2]}', 3) == Outcome(VALUE, [1, 2])
    assert parse_message(b'{"step": 3, "kind": "timeout", "error": "", "message": ""}', 3) == Outcome(TIMEOUT)
    assert parse_message(b'{"step": 4, "kind": "value", "value": 1}', 3) is None
    assert parse_message(b'{"step": 3, "kind": "value", "value": NaN}', 3) is None
    assert parse_message(b'{"step": 3, "kind": "value", "value": [1e999]}', 3) is None
    assert parse_message(b'{"step": 3, "kind": "value", "value": -Infinity}', 3) is None
    assert parse_message(b"[" * 100_000, 3) is None
    answer = parse_message(b'{"step": 3, "kind": "error", "error": "ValueError", "message": "m"}', 3)
    assert answer == Outcome(ERROR, error="ValueError", message="m")


def root_only():
    if os.geteuid() != 0:
        pytest.skip("a grader that is not root runs every sandbox as itself (user namespace)")


RESERVE = "from sudoku_course.teaching.grading.sandbox import sandbox_uid; print(sandbox_uid(), flush=True); input()"


def test_each_grading_process_runs_its_sandboxes_as_a_user_of_its_own_while_it_lives():
    """Two gradings at once, or two workers of one, never share a user: its process limit counts one sandbox
    only, and clearing a sandbox kills that sandbox's processes only."""
    root_only()
    others = [subprocess.Popen([sys.executable, "-c", RESERVE], stdin=subprocess.PIPE, stdout=subprocess.PIPE)]
    others.append(subprocess.Popen([sys.executable, "-c", RESERVE], stdin=subprocess.PIPE, stdout=subprocess.PIPE))
    try:
        users = [int(other.stdout.readline()) for other in others]
    finally:
        for other in others:
            other.communicate(b"\n", timeout=60)  # the process ends: its lock is released
    assert len({sandbox_uid(), *users}) == 3
    for user in users:
        with open(LOCKS / str(user)) as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again


MEMORY_HOG = """
import os
def box_index(row, col, box_size=3):
    children = []
    for _ in range(3):  # 3 x 250 MB: each under RLIMIT_AS, together over the cgroup's 600 MB
        pid = os.fork()
        if pid == 0:
            block = bytearray(250 << 20)
            for i in range(0, len(block), 4096):
                block[i] = 1
            os._exit(0)
        children.append(pid)
    return sorted(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children)
"""


def test_a_runner_has_cgroups_bounding_its_processes_and_memory_removed_after_its_last_process(
    bubblewrap, tmp_path, package_view
):
    root_only()
    limits = GradingSettings(memory_mb=600)
    runner, count = start_probe(MEMORY_HOG, Sandbox(package=package_view, settings=limits), tmp_path)
    try:
        groups = runner.groups
        maxima = [(group / "pids.max").read_text().strip() for group in groups if (group / "pids.max").exists()]
        outcome = [runner.answer(index, 60) for index in range(count)][-1]
    finally:
        runner.stop()
    if not groups:
        pytest.skip("no writable cgroup controller here: the README says what stays unbounded")
    assert maxima == [str(limits.processes)]
    assert not any(group.exists() for group in groups)
    killed = outcome.kind == CRASH or (outcome.kind == VALUE and -9 in outcome.value)
    assert killed, outcome  # the kernel killed a child, or the case: the sandbox as a whole is bounded


def test_scratch_copies_are_private_even_when_tmpdir_is_not_tmp(bubblewrap, tmp_path, monkeypatch, package_view):
    import tempfile

    elsewhere = tmp_path / "var-tmp"
    (elsewhere / "sudoku-grading-victim").mkdir(parents=True)
    (elsewhere / "sudoku-grading-victim" / "submission.json").write_text("VICTIM-MARKER", encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(elsewhere))
    found = probe_value(
        f"""
        import glob
        def box_index(row, col, box_size=3):
            return [open(path).read() for path in glob.glob({str(elsewhere)!r} + "/*/submission.json")]
        """,
        Sandbox(package=package_view),
        tmp_path,
    )
    assert found == []
    scratch = Path(tempfile.mkdtemp())
    cells_file = scratch / "submission.json"
    cells_file.write_text("[]", encoding="utf-8")
    Sandbox(package=package_view).own_scratch(scratch, cells_file)
    assert (scratch.stat().st_mode & 0o777, cells_file.stat().st_mode & 0o777) == (0o700, 0o600)
    if os.geteuid() == 0:
        assert cells_file.stat().st_uid == sandbox_uid()


# ------------------------------------------------------------ the grader stays bounded
def grade_demo(source: str, settings: GradingSettings):
    from sudoku_course.teaching.grading import grade_notebook
    from sudoku_course.teaching.grading.plan import GradingPlan, Task

    cells = [CodeCell(0, "exercise-1", (), textwrap.dedent(source))]
    task = Task("demo", "00-environnement", cells, ["box_index"], None)
    return grade_notebook(task, GradingPlan(Sandbox(enabled=False, settings=settings)))


def test_answers_too_large_are_refused_per_case_and_per_notebook():
    big = "def box_index(row, col, box_size=3):\n    return [0] * 600_000\n"  # 1.8 MB of JSON per answer
    (item,) = grade_demo(big, GradingSettings(answer_mb=1, output_mb=64)).exercises
    assert {case.detail for case in item.cases} == {"le calcul a été arrêté : réponse de plus de 1 Mo"}
    (item,) = grade_demo(big, GradingSettings(answer_mb=2, output_mb=5)).exercises
    details = [case.detail for case in item.cases]
    assert details[:2] == ["la fonction doit renvoyer un entier, pas une liste"] * 2  # two answers fit in 5 MB
    assert details[2] == "le calcul a été arrêté : réponses de plus de 5 Mo en tout pour ce notebook"
    assert item.points == 0 and len(details) == 8


def test_definitions_are_bounded_in_total_across_restarts():
    import time

    slow = """
    import os, time
    class Hold1:
        time.sleep(1.5)
    class Hold2:
        time.sleep(1.5)
    def box_index(row, col, box_size=3):
        os.kill(os.getppid(), 9)  # kills the runner: every case restarts it, loading the definitions again
    """
    started = time.monotonic()
    # every case costs a restart: no cap on timed-out cases, so the definitions' total is what stops the grading
    settings = GradingSettings(definition_limit=5, definitions_total=8, timeouts_per_exercise=100)
    result = grade_demo(slow, settings)
    assert time.monotonic() - started < 40
    assert any("les définitions ont pris plus de 8 s en tout" in note for note in result.notes)
    assert result.status == "timeout"


SLOW_TO_READ = """
%pwd
def box_index(row, col, box_size=3):
    return (row // box_size) * box_size + col // box_size
"""


def test_reading_a_notebook_is_bounded_by_the_notebooks_time_limit(monkeypatch):
    """The text is read (IPython's translation, the scan) in a child process: one that takes too long is a
    French verdict of that notebook, and the grader goes on."""
    import time

    from sudoku_course.teaching.grading import program

    monkeypatch.setattr(program, "_translated", lambda source: time.sleep(60))  # the child inherits it
    result = grade_demo(SLOW_TO_READ, GradingSettings(notebook_limit=2))
    assert result.status == "timeout" and result.points == 0
    assert result.notes == ["la lecture du notebook a dépassé le temps accordé (2 s) : il n'a pas été corrigé"]


def test_an_error_while_reading_a_notebook_is_a_french_verdict_not_a_crash_of_the_grader(monkeypatch):
    from sudoku_course.teaching.grading import scan

    def broken(cells, items):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(scan, "read_code", broken)
    result = grade_demo(SLOW_TO_READ, GradingSettings())
    assert result.status == "crash" and "RecursionError" in result.problem
    assert result.notes == ["le notebook n'a pas pu être lu pour la correction : il n'a pas été corrigé"]


class FailsToStartOnce(Sandbox):
    """A sandbox whose first runner cannot start (as when a slot has no process left)."""

    starts: list = []  # noqa: RUF012 (shared on purpose: the sandbox is a frozen dataclass)

    def command(self, cells_file: Path):
        self.starts.append(cells_file)
        command, environment, cwd = super().command(cells_file)
        return (["false"] if len(self.starts) == 1 else command), environment, cwd


def test_a_setup_that_fails_is_tried_once_more_on_a_clean_slot():
    from sudoku_course.teaching.grading import grade_notebook
    from sudoku_course.teaching.grading.plan import GradingPlan, Task

    cells = [CodeCell(0, "exercise-1", (), SLOW_TO_READ.replace("%pwd\n", ""))]
    task = Task("demo", "00-environnement", cells, ["box_index"], None)
    FailsToStartOnce.starts.clear()
    result = grade_notebook(task, GradingPlan(FailsToStartOnce(enabled=False)))
    assert len(FailsToStartOnce.starts) == 2
    assert result.status == "ok" and result.points == result.max_points


def test_after_two_cases_out_of_time_an_exercises_other_cases_are_not_run():
    endless = "import itertools\ndef box_index(row, col, box_size=3):\n    return sum(itertools.count())\n"
    result = grade_demo(endless, GradingSettings(time_factor=0.5))
    (item,) = result.exercises
    assert [case.verdict for case in item.cases] == ["trop lent"] * 2 + ["non lancé"] * (len(item.cases) - 2)
    assert item.points == 0 and item.status == "timeout"
    assert f"l'exercice box_index : 2 cas ont dépassé le temps accordé, ses {len(item.cases) - 2} autres cas" in (
        " ".join(result.notes)
    )
