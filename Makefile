# Every workflow of the course. `make test` and `make run` are the README's two main commands.
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
# make site: the students' site (lessons, exercises); make site SOLUTIONS=1: the instructors' (with solutions).
SITE_DIR := _build/site$(if $(filter 1,$(SOLUTIONS)),-solutions)

.PHONY: install lint test run campaigns exercises grade diff lab site lock clean

install: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check sudoku_course tests benchmarks scripts site

# 1. unit, property, hygiene and drift tests (--dist loadfile keeps a module's fixtures in one worker);
# 2. nbval re-executes notebooks/ and solutions/ (solutions in strict mode: a failed check fails);
# 3. every exercise notebook runs top to bottom with its stubs in place (nothing written).
test: lint
	$(PY) -m pytest -n 2 --dist loadfile tests
	$(if $(NOTEBOOKS),PYTHONHASHSEED=0 SUDOKU_COURSE_STRICT=1 $(PY) -m pytest $(NBVAL) -n 2 --dist loadfile $(NOTEBOOKS))
	$(if $(EXERCISES),$(PY) -m sudoku_course.teaching.notebooks --no-write exercises)

# Execute notebooks/ then solutions/ with papermill and write them back normalised.
run: install
	$(PY) -m sudoku_course.teaching.notebooks

# make campaigns [JOBS=2] [SCHEDULER=tcp://host:8786]: every declared campaign (sudoku-course campaign --list),
# on JOBS local processes or on a Dask cluster; writes data/<name>.csv and data/<name>.json.
unexport SCHEDULER
campaigns: export SCHEDULER_ADDRESS := $(value SCHEDULER)
campaigns: install
	$(PY) -m sudoku_course.cli campaign --all --jobs $(JOBS) $${SCHEDULER_ADDRESS:+--scheduler "$$SCHEDULER_ADDRESS"}

# Regenerate exercises/ from solutions/ (never edit exercises/ by hand).
exercises: install
	$(PY) -m sudoku_course.teaching.authoring solutions exercises

# make grade SUBMISSIONS=dir/ [JOBS=2]   with dir/<student>/<NN-name>.ipynb  ->  grades.csv, gradebook.csv,
# feedback/<student>/<NN-name>.html (each submission runs in a bubblewrap sandbox; see the README)
JOBS ?= 2
# Paths given on the command line (SUBMISSIONS, SUBMISSION) reach the shell through the environment,
# unexpanded ($(value)) and quoted: never as shell or make code (a folder named `cmd` or $(shell cmd) runs nothing).
unexport SUBMISSION SUBMISSIONS
grade: export SUBMISSIONS_PATH := $(value SUBMISSIONS)
grade: install
	@test -n "$$SUBMISSIONS_PATH" || { echo "usage: make grade SUBMISSIONS=dir/   (dir/<student>/<NN-name>.ipynb)"; exit 2; }
	$(PY) -m sudoku_course.teaching.grading "$$SUBMISSIONS_PATH" --master solutions --out grades.csv --jobs $(JOBS)

# make diff: every exercise (stubs) against its solution;
# make diff SUBMISSION=dir/alice/00-environnement.ipynb: a submission against its solution.
diff: export SUBMISSION_PATH := $(value SUBMISSION)
diff: install
ifdef SUBMISSION
	@$(VENV)/bin/nbdiff --sources -- "solutions/$$(basename -- "$$SUBMISSION_PATH")" "$$SUBMISSION_PATH"
else
	@for nb in solutions/*.ipynb; do $(VENV)/bin/nbdiff --sources "$$nb" "exercises/$$(basename $$nb)"; done
endif

lab: install
	$(VENV)/bin/jupyter lab

# A static site from the committed outputs (nothing executed, nothing fetched): open $(SITE_DIR)/index.html.
site: install
	SUDOKU_COURSE_SOLUTIONS=$(if $(filter 1,$(SOLUTIONS)),1,0) $(PY) -m sphinx -W --keep-going -q -c site -b html . $(SITE_DIR)
	@echo "site built: $(SITE_DIR)/index.html"

lock: install
	$(PY) -m pip freeze --exclude-editable | { echo "# Exact versions of every runtime and development dependency (pip freeze of a working .venv)."; echo "# Regenerate with: make lock"; cat; } > requirements.lock

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis _build
