# Every workflow of the course. `make test` and `make run` are the README's two commands.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test lint run lock clean

install: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check sudoku_course tests benchmarks scripts

test: lint
	$(PY) -m pytest -n 2

run: install
	$(VENV)/bin/sudoku-course bench --solvers exact --bank easy

lock: install
	$(PY) -m pip freeze --exclude-editable | { echo "# Exact versions of every runtime and development dependency (pip freeze of a working .venv)."; echo "# Regenerate with: make lock"; cat; } > requirements.lock

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
