"""What runs inside the sandbox: the submission's definitions, then the exercises' cases, answered as JSON.

`python -m sudoku_course.teaching.grading.runner` reads one request (JSON) on
its standard input:

    {"cells": "/tmp/submission.json", "seed": 1234, "prepared": {"percentile_interval": [...]},
     "lessons": ["sudoku_course.teaching.exercises.lesson00"],
     "steps": [["setup"], ["chunk", 0], ..., ["cells", "verdicts"], ["case", "box_index", 0, 4.0], ...]}

`cells` is the scratch copy of the submission's code cells in Python (see
`program.CodeCell` and `program.as_python`), `seed` the student's seed for
the hidden cases (null: the public cases), `prepared` the data of the
exercises whose cases need what only a reference makes (`Exercise.prepare`:
the references are not in the sandbox's copy of the package), `lessons` the
registry's packages to import (the notebook's lesson only: importing every
lesson would cost each runner a second or more). Then it silences the standard streams (what the student's
code prints is dropped) and runs the steps in order, writing one JSON line
per step on the original standard output: `{"step": k, "kind": "value",
"value": ...}`, or `{"step": k, "kind": "error", "error": "TypeName",
"message": "..."}` (also "timeout" and "crash" for a case).

- `setup`: read the cells, build the cases of every exercise the request names
  and keep only their calls; then forget the seed (popped from the request),
  before any student code runs;
- `chunk j`: run the j-th definition of the submission (`program.definitions`);
- `cells name`: run the cells of a value exercise (`program.value_cells`);
- `case name i limit`: call case i of the exercise on the functions (or
  values) the submission defined under the exercise's names, in a child
  forked for that case (`isolation.run_call`) and stopped after `limit`
  seconds; its plain output is the value, or `{"kind": "timeout"}` and
  `{"kind": "crash", "error": exit code}`. So a case that loops (even in C)
  or kills Python costs that case only, and every case starts from the
  state the definitions left, without loading them again.

Nothing here decides a verdict: the grader, in its own process, times every
step, kills this process when a step is late, and judges the outputs.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from ..exercises import REGISTRY
from ..isolation import ERROR, VALUE, Outcome, run_call, run_here
from .program import COMPILE_FLAGS, CodeCell, definitions, parse, value_cells

MISSING_DEFINITION = "MissingDefinition"


class Runner:
    """The state of one sandboxed run: the submission's cells, its namespace, the calls of the cases."""

    def __init__(self, request: dict) -> None:
        self.request = request
        self.namespace: dict[str, Any] = {"__name__": "__main__"}
        self.chunks = []
        self.functions: dict[str, tuple[str, ...]] = {}
        self.calls: dict[str, list[Callable[..., Any]]] = {}
        self.value_cells: dict[str, list[CodeCell]] = {}

    def setup(self) -> None:
        """Read the cells, keep what the steps need (the cases' calls only, not their judges), then forget the
        seed before any student code runs."""
        data = json.loads(Path(self.request["cells"]).read_text(encoding="utf-8"))
        cells = [CodeCell.from_dict(cell) for cell in data]
        self.chunks = definitions(cells)
        seed, prepared = self.request.pop("seed", None), self.request.get("prepared", {})
        for lesson in self.request["lessons"]:
            import_module(lesson)  # registers the lesson's exercises
        for name in dict.fromkeys(step[1] for step in self.request["steps"] if step[0] in ("case", "cells")):
            item = REGISTRY[name]
            self.functions[name] = item.functions
            self.value_cells[name] = value_cells(cells, item)
            self.calls[name] = [case.call for case in item.cases(seed, prepared.get(name))]

    def run_chunk(self, index: int) -> None:
        exec(self.chunks[index].code(), self.namespace)

    def run_cells(self, name: str) -> None:
        for cell in self.value_cells[name]:
            tree = parse(cell.source)
            if tree is not None:
                code = compile(tree, f"<cellule {cell.index + 1}>", "exec", flags=COMPILE_FLAGS, dont_inherit=True)
                exec(code, self.namespace)

    def call_case(self, name: str, index: int) -> Any:
        return self.calls[name][index](*(self.namespace[function] for function in self.functions[name]))

    def step(self, step: list) -> Outcome:
        """The outcome of one step of the request."""
        kind, *arguments = step
        if kind == "case":
            missing = [f for f in self.functions[arguments[0]] if f not in self.namespace]
            if missing:
                return Outcome(ERROR, error=MISSING_DEFINITION, message=", ".join(missing))
            name, index, limit = arguments
            return run_call(lambda: self.call_case(name, index), limit)
        action: Callable[..., Any] = {"setup": self.setup, "chunk": self.run_chunk, "cells": self.run_cells}[kind]
        return run_here(lambda: action(*arguments))


def message(index: int, outcome: Outcome) -> bytes:
    """The JSON line answering step `index` (an error if the value is not JSON data)."""
    if outcome.kind == VALUE:
        try:
            return (json.dumps({"step": index, "kind": VALUE, "value": outcome.value}, allow_nan=False) + "\n").encode()
        except (TypeError, ValueError, RecursionError) as error:
            outcome = Outcome(ERROR, error="NotPlainError", message=f"not plain data: {type(error).__name__}")
    answer = {"step": index, "kind": outcome.kind, "error": str(outcome.error), "message": str(outcome.message)}
    return (json.dumps(answer) + "\n").encode()


def serve(request: dict, send: Callable[[bytes], None]) -> None:
    """Run every step of the request, sending one line per step."""
    runner = Runner(request)
    for index, step in enumerate(request["steps"]):
        send(message(index, runner.step(step)))


def _silence() -> int:
    """Point the standard streams at /dev/null; return a copy of the original standard output."""
    channel = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (kept open for the process's life)
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    return channel


def main() -> None:
    request = json.loads(sys.stdin.buffer.read())
    channel = _silence()

    def send(line: bytes) -> None:
        view = memoryview(line)
        while view:
            view = view[os.write(channel, view) :]

    serve(request, send)


if __name__ == "__main__":
    main()
