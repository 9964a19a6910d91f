# Every workflow of the course. `make test` and `make run` are the README's two main commands.
# Each target's line ends with « ## » and one line of help: `make help` lists them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NOTEBOOKS := $(wildcard notebooks/*.ipynb solutions/*.ipynb)
EXERCISES := $(wildcard exercises/*.ipynb)
# nbval: stderr not compared (the -p plugin); times, addresses and figure sizes sanitised.
NBVAL := -p sudoku_course.teaching.notebooks --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

# Batch runs draw no progress bar: committed outputs and nbval comparisons hold none.
test run: export SUDOKU_COURSE_PROGRESS = 0
# make site: the students' site (lessons, exercises) and archive; make site SOLUTIONS=1: the instructors' (with
# solutions); JUPYTERHUB=https://hub.example.org adds « ouvrir dans JupyterHub » links (see the README).
SITE_DIR := _build/site$(if $(filter 1,$(SOLUTIONS)),-solutions)

.PHONY: help install lint test run campaigns exercises grade diff lab site lock clean

install: $(STAMP) ## create .venv with the locked dependencies and the package (editable)

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

lint: install ## ruff: lint and formatting checks
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check sudoku_course tests benchmarks scripts site

# 1. unit, property, hygiene and drift tests (--dist loadfile keeps a module's fixtures in one worker);
# 2. nbval re-executes notebooks/ and solutions/ (solutions in strict mode: a failed check fails);
# 3. every exercise notebook runs top to bottom with its stubs in place (nothing written).
test: lint ## lint, the test suite, the notebooks under nbval, every exercise notebook run with its stubs
	$(PY) -m pytest -n 2 --dist loadfile tests
	$(if $(NOTEBOOKS),PYTHONHASHSEED=0 SUDOKU_COURSE_STRICT=1 $(PY) -m pytest $(NBVAL) -n 2 --dist loadfile $(NOTEBOOKS))
	$(if $(EXERCISES),$(PY) -m sudoku_course.teaching.notebooks --no-write exercises)

run: install ## execute notebooks/ then solutions/ with papermill and write them back normalised
	$(PY) -m sudoku_course.teaching.notebooks

# make campaigns [JOBS=2] [SCHEDULER=tcp://host:8786]: every declared campaign (sudoku-course campaign --list),
# on JOBS local processes or on a Dask cluster; writes data/<name>.csv and data/<name>.json.
unexport SCHEDULER
campaigns: export SCHEDULER_ADDRESS := $(value SCHEDULER)
campaigns: install ## run every declared campaign into data/ (JOBS=2, SCHEDULER=tcp://host:8786 for Dask)
	$(PY) -m sudoku_course.cli campaign --all --jobs $(JOBS) $${SCHEDULER_ADDRESS:+--scheduler "$$SCHEDULER_ADDRESS"}

# Regenerate exercises/ from solutions/ (never edit exercises/ by hand).
exercises: install ## regenerate exercises/ from solutions/
	$(PY) -m sudoku_course.teaching.authoring solutions exercises

# make grade SUBMISSIONS=dir/ [JOBS=2]   with dir/<student>/<NN-name>.ipynb  ->  grades.csv, gradebook.csv,
# feedback/<student>/<NN-name>.html, summary.html (the class at a glance), grading-report.txt
# (each submission runs in a bubblewrap sandbox; see the README)
JOBS ?= 2
# Paths given on the command line (SUBMISSIONS, SUBMISSION) reach the shell through the environment,
# unexpanded ($(value)) and quoted: never as shell or make code (a folder named `cmd` or $(shell cmd) runs nothing).
unexport SUBMISSION SUBMISSIONS
grade: export SUBMISSIONS_PATH := $(value SUBMISSIONS)
grade: install ## SUBMISSIONS=dir/ [JOBS=2]: grade each notebook in a sandbox -> grades.csv, gradebook.csv, feedback/, summary.html
	@test -n "$$SUBMISSIONS_PATH" || { echo "usage: make grade SUBMISSIONS=dir/   (dir/<student>/<NN-name>.ipynb)"; exit 2; }
	$(PY) -m sudoku_course.teaching.grading "$$SUBMISSIONS_PATH" --master solutions --out grades.csv --jobs $(JOBS)

# make diff: every exercise (stubs) against its solution;
# make diff SUBMISSION=dir/alice/00-environnement.ipynb: a submission against its solution.
# ANSI colours only when the output is a terminal, not in a file or a pipe.
NO_COLOUR_OFF_TERMINAL := [ -t 1 ] || echo --no-color
diff: export SUBMISSION_PATH := $(value SUBMISSION)
diff: install ## stubs (or SUBMISSION=path) against the solutions, with nbdime; colour only on a terminal
ifdef SUBMISSION
	@$(VENV)/bin/nbdiff --sources $$($(NO_COLOUR_OFF_TERMINAL)) -- "solutions/$$(basename -- "$$SUBMISSION_PATH")" "$$SUBMISSION_PATH"
else
	@for nb in solutions/*.ipynb; do $(VENV)/bin/nbdiff --sources $$($(NO_COLOUR_OFF_TERMINAL)) "$$nb" "exercises/$$(basename $$nb)"; done
endif

lab: install ## open JupyterLab
	$(VENV)/bin/jupyter lab

# A static site from the committed outputs (nothing executed, nothing fetched): open $(SITE_DIR)/index.html.
# The doctrees stay outside the published folder. JUPYTERHUB reaches Sphinx through the environment, unexpanded.
unexport JUPYTERHUB
site: export SUDOKU_COURSE_SOLUTIONS := $(if $(filter 1,$(SOLUTIONS)),1,0)
site: export SUDOKU_COURSE_JUPYTERHUB := $(value JUPYTERHUB)
site: install ## the course's static site and the students' archive in _build/site (SOLUTIONS=1, JUPYTERHUB=url)
	$(PY) -m sphinx -W --keep-going -q -c site -d _build/doctrees/$(notdir $(SITE_DIR)) -b html . $(SITE_DIR)
	@echo "site built: $(SITE_DIR)/index.html ($$(du -sh $(SITE_DIR) | cut -f1), archive included)"

# --all keeps setuptools, which `make site` needs to build the package's wheel offline.
lock: install ## rewrite requirements.lock from the current .venv
	$(PY) -m pip freeze --all --exclude pip --exclude-editable | { echo "# Exact versions of every runtime and development dependency (pip freeze of a working .venv)."; echo "# Regenerate with: make lock"; cat; } > requirements.lock

help: ## list the targets, one line each
	@awk -F ':.*## ' '/^[a-z][a-z-]*:.*## / {printf "  make %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

clean: ## remove .venv, the caches and _build
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis _build
