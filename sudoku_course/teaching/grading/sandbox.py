"""The sandbox a submission runs in, and the runner process the grader talks to.

On Linux the sandbox is bubblewrap (Debian package `bubblewrap`, command
`bwrap`): the runner sees the whole system read-only, except

- the paths the grader hides (the course folder, the submissions, the
  solutions, the outputs, the secret, the grader's working and home
  folders): empty and read-only, with the Python environment and the
  puzzle banks put back read-only;
- the `sudoku_course` package as the grader's copy without the reference
  answers (`view`), mounted read-only where the package is;
- a fresh, size-limited `/tmp` holding the scratch copy of the submission's
  code cells (read-only) and a home folder for caches (numba, matplotlib);
- its own PID, network, IPC, user and UTS namespaces: no network, no view of
  the grader's processes, memory, command line or environment; a cleared
  environment; no capabilities; it dies with the grader. A grader running
  as root starts the runner as a user of its own per job slot
  (`UID_BASE` + slot, no account needed), so that the sandbox can read only
  what every user may read (not root's files, such as /etc/shadow), nor
  another sandbox's scratch files, with at most `GradingSettings.processes`
  processes of that user (a fork bomb's bound, one sandbox's only). Where
  the cgroup controllers are writable (root; v1 or v2), each slot also has
  its cgroup bounding the processes and the memory of the whole sandbox.

Limits (`GradingSettings`, inherited from the process that starts bubblewrap):
address space (RLIMIT_AS), CPU seconds, size of any file written, no core
dumps; the grader reads at most `answer_mb` per answer and `output_mb` per
notebook (across restarts), refuses NaN and infinities, and kills the process when a
step is late. Without bubblewrap the grader refuses to run unless told
`--no-sandbox`: then the runner is a plain child process with the same
limits and a cleared environment, but it sees and can change every file the
instructor can.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import math
import os
import resource
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path

import psutil

import sudoku_course.banks

from ..isolation import CRASH, ERROR, TIMEOUT, VALUE, Outcome
from .settings import GradingSettings
from .view import package_folder

TOOL = "bwrap"
SCRATCH = Path("/tmp")
"""The runner's own fresh /tmp: a course or an environment installed under the host's /tmp is put back."""
INSIDE_CELLS = "/tmp/submission.json"
INSIDE_HOME = "/tmp/home"
UID_BASE = 61000
USERS = 1000
"""Sandbox users of a root grader: UID_BASE to UID_BASE + USERS - 1, one per grading process (`sandbox_uid`)."""
LOCKS = Path("/run/lock/sudoku-grading")
"""One lock file per sandbox user, held by the grading process that uses it."""
CLEAR_SECONDS = 60.0
"""How long `clear` waits for the processes of a stopped sandbox to be gone."""
CGROUP_ROOT = Path("/sys/fs/cgroup")
RUNNER_ARGUMENTS = ("-I", "-m", "sudoku_course.teaching.grading.runner")
SYSTEM_PATHS = ("/", "/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc", "/dev", "/proc", "/tmp")
KEPT_VARIABLES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "LANG", "LC_ALL")  # older OpenBLAS crash without them
MEGABYTE = 1 << 20
OFF_PROTOCOL = "réponse hors protocole"


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or does not work on this machine."""


def apply_limits(settings: GradingSettings, as_root: bool, cgroups: tuple[Path, ...] = ()) -> None:
    """Set the resource limits of `settings` on this process and put it in the sandbox's cgroups (run in the
    child, before bubblewrap or the runner starts)."""
    for group in cgroups:
        (group / "cgroup.procs").write_text(str(os.getpid()))
    limits = [
        (resource.RLIMIT_AS, settings.memory_mb * MEGABYTE),
        (resource.RLIMIT_CPU, settings.cpu_seconds),
        (resource.RLIMIT_FSIZE, settings.file_size_mb * MEGABYTE),
        (resource.RLIMIT_CORE, 0),
    ]
    if as_root:  # root is not bound by it; the sandbox's own user, which the runner becomes, is
        limits.append((resource.RLIMIT_NPROC, settings.processes))
    for limit, value in limits:
        resource.setrlimit(limit, (value, value))


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def kept_paths() -> tuple[Path, ...]:
    """What the runner needs read-only even inside a hidden folder: the package (seen as its copy without the
    references), its puzzle banks (an editable install maps `sudoku_course.banks` to the course's `puzzles/`
    folder) and the Python environment."""
    banks = [Path(p) for p in sudoku_course.banks.__path__]
    return tuple(dict.fromkeys(Path(p).resolve() for p in (package_folder(), *banks, sys.prefix, sys.base_prefix)))


def course_folder() -> Path:
    """The folder holding the `sudoku_course` package (the course, for an editable install)."""
    return package_folder().parent


# ------------------------------------------------------------ one user per grading process, one cgroup per runner
@cache
def sandbox_uid() -> int:
    """The user that this process's sandboxes run as (a grader running as root), reserved while it lives.

    A grading process (the grader with `--jobs 1`, each worker of `--jobs N`) takes the first user of
    `UID_BASE` .. `UID_BASE + USERS - 1` that no process runs as and whose lock file (`LOCKS`) it can lock:
    the lock is held until the process ends (the descriptor is never closed). So two gradings at once, or two
    workers of one, never share a user: RLIMIT_NPROC counts one sandbox's processes only, no sandbox reads
    another's files, and clearing a sandbox (`clear`) kills its own processes only.
    """
    LOCKS.mkdir(mode=0o700, parents=True, exist_ok=True)
    busy = {process.info["uids"].real for process in psutil.process_iter(["uids"]) if process.info["uids"]}
    for uid in range(UID_BASE, UID_BASE + USERS):
        if uid in busy:
            continue
        lock = os.open(LOCKS / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(lock)
            continue
        return uid
    raise SandboxUnavailable(f"every sandbox user ({UID_BASE} to {UID_BASE + USERS - 1}) is taken by another grading")


def cgroups(settings: GradingSettings) -> tuple[Path, ...]:
    """The cgroups of the next runner of this process (pids and memory limits), made where the controllers are
    writable; () otherwise. Named after the process's user (`sandbox_uid`), so no other grading uses them;
    `clear` removes them once their last process is gone.

    cgroup v1 (`/sys/fs/cgroup/pids`, `/sys/fs/cgroup/memory`) or v2 (`/sys/fs/cgroup/cgroup.controllers`).
    """
    if os.geteuid() != 0:
        return ()
    name = f"sudoku-grading-{sandbox_uid()}"
    # (file, value, required) in the order written; an optional file may be missing (memsw: swap accounting off)
    if (CGROUP_ROOT / "cgroup.controllers").exists():  # v2: one folder for both controllers
        writes = [("pids.max", settings.processes, True), ("memory.max", settings.memory_mb * MEGABYTE, False)]
        folders = {CGROUP_ROOT / name: writes}
    else:  # v1: memsw must stay >= the limit, so it is lifted first (the group may hold a smaller one already)
        memory = settings.memory_mb * MEGABYTE
        swap = "memory.memsw.limit_in_bytes"
        folders = {
            CGROUP_ROOT / "pids" / name: [("pids.max", settings.processes, True)],
            CGROUP_ROOT / "memory" / name: [
                (swap, -1, False),
                ("memory.limit_in_bytes", memory, True),
                (swap, memory, False),
            ],
        }
    made = []
    for folder, writes in folders.items():
        try:
            folder.mkdir(exist_ok=True)
            for key, value, required in writes:
                try:
                    (folder / key).write_text(str(value))
                except OSError:
                    if required:
                        raise
        except OSError:
            continue
        made.append(folder)
    return tuple(made)


PR_SET_CHILD_SUBREAPER = 36


@cache
def reap_orphans() -> None:
    """Make this process the reaper of its orphaned descendants (Linux `prctl(PR_SET_CHILD_SUBREAPER)`).

    When a sandbox stops, its processes lose their parents; they are then reaped here (`clear`), at once,
    rather than whenever the system's init gets to them: until then they count against the limits of the
    sandbox's user and cgroup, which the next student's runner needs."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def _leftovers(groups: tuple[Path, ...], family: set[int]) -> set[int]:
    """The processes left of a stopped sandbox, zombies included: those of its cgroups, those of its user (a root
    grader), and those of `family` that still exist."""
    left = {pid for pid in family if psutil.pid_exists(pid)}
    for group in groups:
        with contextlib.suppress(OSError, ValueError):
            left |= {int(pid) for pid in (group / "cgroup.procs").read_text().split()}
    if os.geteuid() == 0:
        uid = sandbox_uid()
        left |= {p.pid for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == uid}
    return left


def _charged(groups: tuple[Path, ...]) -> bool:
    """True while a pids cgroup of the sandbox still counts a process (one that exited but is not reaped yet)."""
    counters = [group / "pids.current" for group in groups if (group / "pids.current").exists()]
    return any(counter.read_text().strip() != "0" for counter in counters)


def _reap(pids: set[int]) -> None:
    """Reap the zombie children of this process that were part of a sandbox: those of `pids`, and any bubblewrap
    (the outer bubblewrap leaves as soon as the runner ends, so the inner one is orphaned, then ours)."""
    for child in psutil.Process().children():
        with contextlib.suppress(psutil.Error, ChildProcessError):
            if child.status() == psutil.STATUS_ZOMBIE and (child.pid in pids or child.name() == TOOL):
                os.waitpid(child.pid, os.WNOHANG)


def clear(groups: tuple[Path, ...], family: list[psutil.Process]) -> None:
    """Kill what is left of a stopped sandbox, reap it, wait until none of it is left, then remove its cgroups.

    So the next runner of this process starts on a clean slot: no process of its user, no cgroup, and a fork
    bomb's dying children never count against the next student's limits. `family`: the processes the
    runner had started (all that a grader that is not root can find)."""
    seen = {member.pid for member in family}
    deadline = time.monotonic() + CLEAR_SECONDS
    while time.monotonic() < deadline:
        left = _leftovers(groups, seen)
        seen |= left
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        _reap(seen)
        if not left and not _charged(groups):
            break
        time.sleep(0.005)
    for group in groups:
        with contextlib.suppress(OSError):
            group.rmdir()


def _namespaces_and_user() -> tuple[list[str], list[str]]:
    """bubblewrap's namespace and capability options, and what starts the runner inside.

    As root, bubblewrap mounts as root, then `setpriv` makes the runner the slot's own user (`sandbox_uid`;
    no capabilities, no new privileges): it reads only what every user may read. As another user,
    bubblewrap makes a user namespace and the runner keeps that user's rights on what is not hidden.
    """
    if os.geteuid() != 0:
        return ["--unshare-all", "--unshare-user", "--disable-userns"], []
    namespaces = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
    capabilities = ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    uid = str(sandbox_uid())
    user = ["setpriv", "--reuid", uid, "--regid", uid, "--clear-groups", "--no-new-privs", "--"]
    return namespaces + capabilities, user


def _hide(path: Path, folder: bool) -> list[str]:
    return ["--tmpfs", str(path)] if folder else ["--ro-bind", os.devnull, str(path)]


@dataclass(frozen=True)
class Sandbox:
    """How the grader starts a runner: in bubblewrap (`enabled`), or as a plain child process."""

    hidden: tuple[Path, ...] = ()
    enabled: bool = True
    settings: GradingSettings = field(default_factory=GradingSettings)
    package: Path | None = None
    """The copy of the package without the references (`view.package_view`) that bubblewrap shows in place of
    the package; needed when `enabled`."""

    def environment(self, home: str) -> dict[str, str]:
        """The runner's whole environment: nothing of the grader's but a few harmless settings."""
        variables = {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
        variables.update(
            PATH=f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
            HOME=home,
            NUMBA_CACHE_DIR=f"{home}/numba",
            MPLCONFIGDIR=f"{home}/matplotlib",
            XDG_CACHE_HOME=f"{home}/cache",
            MPLBACKEND="Agg",
            PYTHONHASHSEED="0",
            PYTHONDONTWRITEBYTECODE="1",
            SUDOKU_COURSE_PROGRESS="0",
            OMP_NUM_THREADS="1",
            OPENBLAS_NUM_THREADS="1",
            MKL_NUM_THREADS="1",
            NUMBA_NUM_THREADS="1",
        )
        return variables

    def _hidden_paths(self, kept: tuple[Path, ...]) -> list[Path]:
        """The paths to hide, outermost first; never a system folder nor one holding it. The folder of the
        scratch copies (TMPDIR) is always hidden: no runner sees another's copy."""
        hidden = {Path(p).resolve() for p in (*self.hidden, tempfile.gettempdir()) if os.path.lexists(p)}
        if os.geteuid() == 0:  # folders nobody cannot walk through on the way to a kept path: hidden, then rebuilt
            hidden |= {folder for path in kept for folder in path.parents if not os.stat(folder).st_mode & stat.S_IXOTH}
        hidden = {p for p in hidden if not any(_inside(Path(system), p) for system in SYSTEM_PATHS)}
        return sorted(hidden, key=lambda p: len(p.parts))

    def _hiding(self) -> list[str]:
        """bubblewrap options hiding the hidden paths, putting the kept paths back (the package as its copy
        without the references), and making the hidden folders read-only.

        Mounts go in order of depth, so that what lies inside another mount comes after it: a kept path inside
        a hidden folder is put back into it, and a hidden path inside a kept one (the course and the secret in
        a folder that holds the Python environment) is hidden again once the kept path is back. A mount that the
        mounts already made leave pointless is left out (a hidden path inside a hidden folder or the fresh /tmp,
        a kept path still visible): only the mounts made decide whether a path is hidden, so a hidden folder
        inside another one (the course and the secret in one temporary folder) changes nothing.
        """
        kept, package = kept_paths(), package_folder()
        hidden = self._hidden_paths(kept)
        folders = {path for path in hidden if path.is_dir()}
        made: list[tuple[Path, bool]] = [(SCRATCH, False)]  # (path, put back): /tmp is a fresh tmpfs too
        options = []
        paths = [(path, False) for path in hidden] + [(path, True) for path in kept]
        for path, keep in sorted(paths, key=lambda mount: (len(mount[0].parts), mount[1])):
            holder = next((mount for mount, _ in reversed(made) if mount != path and _inside(path, mount)), None)
            hidden_above = holder is not None and (holder, False) in made
            if keep and (hidden_above or path == package):
                for parent in reversed(path.parents):  # folders that a root grader's runner (nobody) can walk through
                    if hidden_above and holder in parent.parents:
                        options += ["--perms", "0755", "--dir", str(parent)]
                options += ["--ro-bind", str(self.package if path == package else path), str(path)]
            elif not keep and not hidden_above:
                options += _hide(path, path in folders)
            else:
                continue
            made.append((path, keep))
        shown = [path for path, back in made if not back and path in folders]
        return options + [option for path in shown for option in ("--remount-ro", str(path))]

    def command(self, cells_file: Path) -> tuple[list[str], dict[str, str], Path | None]:
        """The command starting the runner on `cells_file`, its environment and working folder."""
        python = [sys.executable, *RUNNER_ARGUMENTS]
        if not self.enabled:
            home = cells_file.parent / "home"
            home.mkdir(exist_ok=True)
            return python, self.environment(str(home)), cells_file.parent
        if self.package is None:
            raise ValueError("a sandbox shows the package without its references: give it package_view()'s copy")
        namespaces, user = _namespaces_and_user()
        options = [TOOL, *namespaces, "--die-with-parent", "--new-session", "--clearenv"]
        options += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        options += ["--perms", "1777", "--size", str(self.settings.scratch_mb * MEGABYTE), "--tmpfs", str(SCRATCH)]
        options += self._hiding()
        options += ["--ro-bind", str(cells_file), INSIDE_CELLS, "--perms", "0777", "--dir", INSIDE_HOME]
        options += ["--chdir", "/tmp"]
        for name, value in self.environment(INSIDE_HOME).items():
            options += ["--setenv", name, value]
        return [*options, "--", *user, *python], {}, None

    def cells_path(self, cells_file: Path) -> str:
        """Where the runner finds the scratch copy."""
        return INSIDE_CELLS if self.enabled else str(cells_file)

    def _limits(self) -> tuple[tuple[Path, ...], Callable[[], None]]:
        """The cgroups of the next runner (made now; `clear` removes them), and what applies the limits in it."""
        as_root = self.enabled and os.geteuid() == 0
        groups = cgroups(self.settings) if as_root else ()
        return groups, partial(apply_limits, self.settings, as_root, groups)

    def own_scratch(self, *paths: Path) -> None:
        """Give the scratch files to the slot's user, readable by it alone (0600; folders 0700)."""
        for path in paths:
            path.chmod(0o700 if path.is_dir() else 0o600)
            if self.enabled and os.geteuid() == 0:
                os.chown(path, sandbox_uid(), sandbox_uid())

    def start(self, cells_file: Path, request: dict, log: Path, sent: int = 0) -> RunnerProcess:
        """Start a runner on the scratch copy `cells_file` and send it `request`; `sent`: bytes that the
        notebook's earlier runners sent (the notebook's allowance, `output_mb`, is shared)."""
        reap_orphans()
        command, environment, cwd = self.command(cells_file)
        groups, limits = self._limits()
        with open(log, "ab") as errors:
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                env=environment,
                cwd=cwd,
                preexec_fn=limits,
                start_new_session=True,
            )
        runner = RunnerProcess(process, self.settings, sent, groups)
        try:
            process.stdin.write(json.dumps({**request, "cells": self.cells_path(cells_file)}).encode())
            process.stdin.close()
        except OSError:  # the runner died at once; the first read reports it
            pass
        return runner


def probe(sandbox: Sandbox) -> None:
    """SandboxUnavailable unless bubblewrap can start Python here (with the options the grader uses)."""
    if shutil.which(TOOL) is None:
        raise SandboxUnavailable(f"{TOOL} is not installed (Debian/Ubuntu: apt-get install bubblewrap)")
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        raise SandboxUnavailable("setpriv (util-linux) is needed to run the sandbox as nobody")
    command, _, _ = sandbox.command(Path(os.devnull))
    command = command[: -len(RUNNER_ARGUMENTS)] + ["-I", "-c", "import sudoku_course.teaching.grading.runner"]
    reap_orphans()
    groups, limits = sandbox._limits()
    try:
        result = subprocess.run(command, capture_output=True, timeout=60, env={}, preexec_fn=limits)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SandboxUnavailable(f"{TOOL} does not start: {error}") from error
    finally:
        clear(groups, [])
    if result.returncode != 0:
        raise SandboxUnavailable(f"{TOOL} does not work here: {result.stderr.decode(errors='replace')[-500:]}")


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON data")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999 reads as infinity: refused like NaN
        raise ValueError(f"{text} is not a finite number")
    return number


def parse_message(line: bytes, step: int) -> Outcome | None:
    """The outcome that a runner's line reports for `step`; None if the line is no such answer."""
    try:
        data = json.loads(line, parse_constant=_refuse_constant, parse_float=_finite)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("step") != step or data.get("kind") not in (VALUE, ERROR, TIMEOUT, CRASH):
        return None
    if data["kind"] == VALUE:
        return Outcome(VALUE, data.get("value"))
    return Outcome(data["kind"], error=str(data.get("error", ""))[:100], message=str(data.get("message", ""))[:200])


class RunnerProcess:
    """A started runner: one answer per step, each read within its own time limit and size limit."""

    def __init__(
        self, process: subprocess.Popen, settings: GradingSettings, sent: int = 0, groups: tuple[Path, ...] = ()
    ) -> None:
        self.process = process
        self.settings = settings
        self.groups = groups
        """The runner's cgroups, removed once it is stopped and its last process gone."""
        self.output_limit = settings.output_mb * MEGABYTE - sent
        """Bytes this runner may send in all (what the notebook's earlier runners left of its allowance)."""
        self.answer_limit = settings.answer_mb * MEGABYTE
        """Bytes one answer (one line) may take: a longer one is never parsed."""
        self.received = 0
        self.buffer = bytearray()
        self.closed = False
        self.lost = False
        """True once an answer came late, broken, too large or not at all: the process must be replaced."""
        os.set_blocking(process.stdout.fileno(), False)

    def answer(self, step: int, time_limit: float) -> Outcome:
        """The outcome of `step` that the runner sent within `time_limit` seconds, or TIMEOUT or CRASH
        (then `lost` is set)."""
        line = self._line(time_limit)
        outcome = parse_message(line, step) if isinstance(line, bytes) else line
        if outcome is None:
            outcome = Outcome(CRASH, message=OFF_PROTOCOL)
        self.lost = self.lost or not isinstance(line, bytes) or outcome.message == OFF_PROTOCOL
        return outcome

    def _line(self, time_limit: float) -> bytes | Outcome:
        """The next line the runner sends within `time_limit` seconds, or the outcome saying why none came."""
        deadline = time.monotonic() + time_limit
        searched = 0
        while (end := self.buffer.find(b"\n", searched)) < 0:
            searched = len(self.buffer)
            if searched > self.answer_limit:
                return Outcome(CRASH, message=f"réponse de plus de {self.settings.answer_mb} Mo")
            if self.closed:
                return Outcome(CRASH, error=str(self.process.wait()))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Outcome(TIMEOUT)
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            try:
                data = os.read(self.process.stdout.fileno(), 1 << 16) if ready else None
            except BlockingIOError:
                data = None
            if data is None:
                continue
            self.closed = not data
            self.received += len(data)
            if self.received > self.output_limit:
                return Outcome(
                    CRASH, message=f"réponses de plus de {self.settings.output_mb} Mo en tout pour ce notebook"
                )
            self.buffer += data
        if end > self.answer_limit:
            return Outcome(CRASH, message=f"réponse de plus de {self.settings.answer_mb} Mo")
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        return line

    def stop(self) -> None:
        """Kill the runner and everything it started, and wait until all of it is gone (`clear`)."""
        try:
            family = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            family = []
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        for member in family:
            with contextlib.suppress(psutil.NoSuchProcess):
                member.kill()
        self.process.wait()
        self.process.stdout.close()
        clear(self.groups, family)
