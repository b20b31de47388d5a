"""Keep pyproject.toml and environment.yml listing the same dependencies."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from importpath import PACKAGE

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: tomli comes with pytest and mypy there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
ENVIRONMENT = ROOT / "environment.yml"

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
# conda-forge names that differ from the PyPI name of the same package
CONDA_TO_PYPI: dict[str, str] = {"python-build": "build"}
# What conda installs that pyproject cannot name: the C compiler setup.py builds the kernel
# with (pip's build needs one from the system).
CONDA_ONLY = {"c-compiler"}


def normalise(requirement: str) -> str:
    """Bare, normalised package name of a pip or conda requirement string.

    ``"Foo_Bar[extra]>=1.0; python_version<'3.11'"`` and ``"foo-bar=1.0"`` both give
    ``"foo-bar"``.
    """
    match = _NAME.match(requirement)
    if match is None:
        raise ValueError(f"cannot read a package name from {requirement!r}")
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def _strip_comment(line: str) -> str:
    # Good enough for environment files: a " #" starts a comment.
    if line.lstrip().startswith("#"):
        return ""
    return re.split(r"\s+#", line, maxsplit=1)[0].rstrip()


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def parse_environment(text: str) -> tuple[list[str], list[str]]:
    """Tiny parser for the subset of YAML used by conda environment files.

    Returns ``(conda_dependencies, pip_dependencies)`` from the top-level
    ``dependencies:`` block list and its nested ``- pip:`` list.
    """
    conda: list[str] = []
    pip: list[str] = []
    in_deps = False
    deps_indent: int | None = None
    in_pip = False
    pip_indent: int | None = None
    for raw in text.splitlines():
        line = _strip_comment(raw)
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        stripped = line.strip()
        if indent == 0:
            in_deps = stripped == "dependencies:"
            in_pip = False
            deps_indent = pip_indent = None
            if stripped.startswith("dependencies:") and not in_deps:
                raise ValueError("inline dependencies lists are not supported")
            continue
        if not in_deps:
            continue
        if not stripped.startswith("- "):
            raise ValueError(f"unexpected line in dependencies: {raw!r}")
        item = stripped[2:].strip()
        if in_pip and pip_indent is not None and indent >= pip_indent:
            pip.append(_unquote(item))
            continue
        if in_pip and pip_indent is None and deps_indent is not None and indent > deps_indent:
            pip_indent = indent
            pip.append(_unquote(item))
            continue
        in_pip = False
        if deps_indent is None:
            deps_indent = indent
        elif indent != deps_indent:
            raise ValueError(f"unexpected indentation in dependencies: {raw!r}")
        if item == "pip:":
            in_pip = True
            pip_indent = None
        else:
            conda.append(_unquote(item))
    return conda, pip


@pytest.fixture(scope="module")
def pyproject() -> dict:
    with PYPROJECT.open("rb") as fh:
        return tomllib.load(fh)


@pytest.fixture(scope="module")
def environment() -> tuple[list[str], list[str]]:
    return parse_environment(ENVIRONMENT.read_text(encoding="utf-8"))


_SELF = re.compile(r"^cardlab\[([a-z,]+)\]$")


def expand(pyproject: dict, extra: str) -> set[str]:
    """The packages an extra installs, its own references to cardlab's other extras
    (``cardlab[widgets,sim]``) followed."""
    names: set[str] = set()
    for requirement in pyproject["project"]["optional-dependencies"][extra]:
        match = _SELF.match(requirement.replace(" ", ""))
        if match:
            for other in match.group(1).split(","):
                names |= expand(pyproject, other)
        else:
            names.add(normalise(requirement))
    return names


def _pip_names(pyproject: dict) -> set[str]:
    project = pyproject["project"]
    return {normalise(r) for r in project["dependencies"]} | expand(pyproject, "test")


def test_normalise() -> None:
    assert normalise("Foo_Bar[extra]>=1.0; python_version<'3.11'") == "foo-bar"
    assert normalise("open_spiel==1.5") == "open-spiel"
    assert normalise("jsonschema=4.2") == "jsonschema"
    assert normalise("python >=3.10") == "python"
    with pytest.raises(ValueError):
        normalise(">=1.0")


def test_parser_reads_nested_pip_section() -> None:
    text = (
        "name: x\nchannels:\n  - conda-forge\ndependencies:\n"
        "  - python>=3.10  # comment\n  - pip\n  - Foo_Bar\n  - pip:\n"
        "      - -e .\n      - baz==1\n  - after\nother: 1\n"
    )
    conda, pip = parse_environment(text)
    assert conda == ["python>=3.10", "pip", "Foo_Bar", "after"]
    assert pip == ["-e .", "baz==1"]


def test_dependency_lists_are_nonempty(pyproject: dict, environment) -> None:
    conda, pip = environment
    assert _pip_names(pyproject), "pyproject.toml lists no dependencies"
    assert {normalise(d) for d in conda} - {"python", "pip"}, "environment.yml lists none"
    assert "-e ." in pip, "environment.yml must install the package itself with `pip: [-e .]`"
    assert "pip" in {normalise(d) for d in conda}
    assert "python" in {normalise(d) for d in conda}


def test_pyproject_and_environment_list_the_same_packages(pyproject: dict, environment) -> None:
    conda, pip = environment
    pip_names = _pip_names(pyproject)
    # Packages conda-forge lacks come from PyPI through the environment's pip section.
    conda_names = {CONDA_TO_PYPI.get(normalise(d), normalise(d))
                   for d in [*conda, *(p for p in pip if p != "-e .")]} - {"python", "pip"}
    assert CONDA_ONLY <= conda_names, "environment.yml should list the C compiler"
    conda_names -= CONDA_ONLY
    assert pip_names, "pyproject.toml lists no dependencies"
    assert conda_names, "environment.yml lists no dependencies"
    assert pip_names == conda_names, (
        f"only in pyproject.toml: {sorted(pip_names - conda_names)}; "
        f"only in environment.yml: {sorted(conda_names - pip_names)}"
    )


def test_each_extra_is_what_its_place_needs(pyproject: dict) -> None:
    extras = pyproject["project"]["optional-dependencies"]
    widgets, sim, scale, lab = (expand(pyproject, e) for e in ("widgets", "sim", "scale", "lab"))
    assert widgets == {"anywidget", "pandas", "plotly"}  # a kernel: no server, no ipywidgets
    assert sim == {"pyarrow", "pandas"} and scale == {"dask", "pyarrow", "pandas"}
    assert lab == widgets | sim | {"jupyterlab"}
    assert expand(pyproject, "notebook") == lab  # the old name, an alias
    assert lab | scale <= expand(pyproject, "test")
    assert "open-spiel" in {normalise(r) for r in extras["bench"]}


def _installed_closure(requirements: list[str]) -> set[str]:
    """Every installed distribution that ``requirements`` bring, their own requirements
    (with the extras asked for, and only where the markers hold here) followed."""
    from importlib import metadata

    from packaging.requirements import Requirement

    seen: set[tuple[str, str]] = set()
    todo = [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        name = normalise(req.name)
        for extra in ("", *sorted(req.extras)):
            if (name, extra) in seen:
                continue
            seen.add((name, extra))
            try:
                required = metadata.requires(name) or []
            except metadata.PackageNotFoundError:
                continue
            for text in required:
                dep = Requirement(text)
                if dep.marker is None or dep.marker.evaluate({"extra": extra}):
                    if dep.marker is not None and "extra" in str(dep.marker) and not extra:
                        continue  # an extra's requirement, not asked for
                    todo.append(dep)
    return {name for name, _ in seen}


def _requirements(pyproject: dict, extra: str) -> list[str]:
    out: list[str] = []
    for requirement in pyproject["project"]["optional-dependencies"][extra]:
        match = _SELF.match(requirement.replace(" ", ""))
        if match:
            for other in match.group(1).split(","):
                out += _requirements(pyproject, other)
        else:
            out.append(requirement)
    return out


def test_each_missing_module_names_the_extra_that_brings_it(pyproject: dict) -> None:
    # cardlab.dataframes.EXTRAS says which extra to install for a missing module: follow
    # that extra's requirements through the installed packages' metadata to the module.
    from importlib import metadata

    from cardlab.dataframes import EXTRAS

    def owners(module: str) -> set[str]:
        # the distributions whose files hold the module (packages_distributions() of Python
        # 3.10 reads only top_level.txt, which many wheels no longer carry)
        return {normalise(dist.metadata["Name"]) for dist in metadata.distributions()
                if any(file.parts[0] in (module, f"{module}.py") for file in dist.files or [])}

    for module, extra in EXTRAS.items():
        dists = owners(module)
        assert dists, f"{module} is not installed here, so its extra cannot be checked"
        brought = _installed_closure(_requirements(pyproject, extra))
        assert dists & brought, f"[{extra}] does not bring {module}"


def test_python_floor_matches(pyproject: dict, environment) -> None:
    conda, _pip = environment
    assert pyproject["project"]["requires-python"] == ">=3.10"
    pythons = [d.replace(" ", "") for d in conda if normalise(d) == "python"]
    assert pythons == ["python>=3.10"]


def test_every_test_has_a_time_bound(pytestconfig: pytest.Config) -> None:
    # pytest-timeout reads the bound from pyproject.toml; without the plugin the ini key is
    # unknown and getini raises, so a lost plugin or bound fails here, not as a hung CI run.
    assert pytestconfig.pluginmanager.hasplugin("timeout")
    assert 0 < float(pytestconfig.getini("timeout")) <= 600


def test_ci_bounds_the_whole_run() -> None:
    # The whole suite runs under `timeout`, inside CI's 90 minutes, so a hang ends the run red.
    import re

    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    step = r"^timeout --kill-after=(\d+)s (\d+)m make (test-matrix|test|lite)(?=\s|$)"
    bounded = re.findall(step, ci, re.M)
    assert [step for _, _, step in bounded] == ["lite", "test", "test-matrix"], bounded
    # every step's bound, and its grace to be killed, inside the 90 minutes with time to report
    assert sum(int(minutes) * 60 + int(grace) for grace, minutes, _ in bounded) <= 85 * 60


SHIPPED = ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What a package is built from (setup.py, pyproject.toml, cardlab/...), copied out of this
    checkout without its compiled kernel, so a build there starts cold and leaves no trace."""
    import shutil

    copy = tmp_path_factory.mktemp("source")
    for name in SHIPPED:
        shutil.copy2(ROOT / name, copy / name)
    shutil.copytree(PACKAGE, copy / "cardlab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"))
    return copy


def _build(source: Path, command: list[str], **env: str):
    import os
    import subprocess

    done = subprocess.run([sys.executable, "-m", *command], cwd=source, capture_output=True,
                          text=True, timeout=600, env={**os.environ, **env})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def sdist(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sdist")
    _build(source, ["build", "--sdist", "--outdir", str(out), "."])
    (archive,) = out.glob("cardlab-*.tar.gz")
    return archive


def test_the_sdist_holds_the_package_its_readme_and_licence(source, sdist) -> None:
    # An sdist whose tests could not run (the helpers they import left behind) is worse than
    # none: it ships the package, its licence and README, and leaves the suite to a clone.
    import tarfile

    # packing the sources compiles nothing: mypyc writes its C under build/ when it runs
    assert not (source / "build").exists()
    archive = sdist
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
        info = tar.extractfile(f"{archive.name[:-7]}/PKG-INFO").read().decode()  # type: ignore
    # the README is the long description, and the licence is declared
    assert "Description-Content-Type: text/markdown" in info and "## Two commands" in info
    # its links into the repository's docs/, which an index could not follow, are plain text
    assert "](docs/" not in info and "[Installing cardlab]" not in info
    assert "Installing cardlab (`docs/install.md` in cardlab's repository)" in info
    assert "(see [Speed](#speed))" in info and "[mypyc](https://mypyc" in info
    assert "License-Expression: MIT" in info and "License-File: LICENSE" in info
    assert {"LICENSE", "README.md", "setup.py", "pyproject.toml", "cardlab/__init__.py",
            "cardlab/kernel.py", "cardlab/view/viewer.js", "cardlab/examples/whot-example.json",
            "cardlab/replay.schema.json"} <= names
    assert not [n for n in names if n.startswith(("tests/", "notebooks/", "benchmarks/"))]
    assert not [n for n in names if n.endswith((".so", ".pyc"))]


@pytest.mark.timeout(600)
def test_an_install_from_the_sdist_is_the_whole_package(source, sdist, tmp_path) -> None:
    # What docs/install.md promises: pip installs cardlab from the sdist (built as pip builds
    # it, in isolation; the pure kernel, CARDLAB_PURE=1, so no compiler is needed: the
    # compiled build from the sdist is make dist's, whose wheels make test-matrix tests). The
    # install holds every file of the package, and works from an empty folder.
    import os
    import subprocess

    target = tmp_path / "site"
    _build(source, ["pip", "install", "-q", "--no-deps", "--target", str(target), str(sdist)],
           CARDLAB_PURE="1")
    shipped = {str(p.relative_to(source)) for p in (source / "cardlab").rglob("*")
               if p.is_file() and p.suffix in (".py", ".json", ".js", ".css")}
    installed = {str(p.relative_to(target)) for p in (target / "cardlab").rglob("*")
                 if p.is_file() and "__pycache__" not in p.parts}
    assert shipped <= installed and not [n for n in installed - shipped if n.endswith(".py")]
    assert not [n for n in installed if n.endswith(".so")]

    work = tmp_path / "work"
    work.mkdir()
    # (the dependencies are the running environment's; cardlab only the installed copy's)
    env = {**os.environ, "PYTHONPATH": str(target), "CARDLAB_PURE": "1"}

    def cli(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "cardlab", *args], cwd=work, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and done.stderr == "", (args, done.stderr)
        return done.stdout

    where = subprocess.run([sys.executable, "-c", "import cardlab; print(cardlab.__file__)"],
                           cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert Path(where.stdout.strip()) == target / "cardlab" / "__init__.py", where.stderr
    assert "kernel pure Python" in cli("--version")
    assert "wrote game.json" in cli("play", "teds-game", "--seed", "3", "--out", "game.json")
    assert "Trick 4:" in cli("show", "example:norwegian-review", "--seat", "Brad")
    cli("html", "example:whot-example")
    page = (work / "whot-example.html").read_text(encoding="utf-8")
    assert "cardlab-viewer" in page and len(page) > 10_000


def _wheel_facts(wheel: Path) -> tuple[list[str], str]:
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (meta,) = [n for n in names if n.endswith(".dist-info/WHEEL")]
        return names, archive.read(meta).decode()


@pytest.mark.timeout(600)
def test_a_build_without_a_compiler_is_the_pure_wheel_and_says_so(source, tmp_path) -> None:
    # A failed compile falls back to the pure kernel: the wheel is then what it holds, a pure
    # py3-none-any wheel, never a platform wheel without its library; the build warns.
    # An earlier build in the same folder left a module since deleted in build/lib, which
    # setuptools would pack: the build hook empties that copy first (setup.py, FreshBuildPy).
    stale = source / "build" / "lib" / "cardlab" / "deleted_since.py"
    stale.parent.mkdir(parents=True, exist_ok=True)
    stale.write_text("GONE = True\n", encoding="utf-8")
    done = _build(source, ["pip", "wheel", "--no-deps", "-v", "-w", str(tmp_path), "."],
                  CC="/bin/false")
    assert "WARNING: cardlab's kernel was not compiled" in done.stdout + done.stderr
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name == "cardlab-0.1.0-py3-none-any.whl"
    names, meta = _wheel_facts(wheel)
    assert "Root-Is-Purelib: true" in meta and "Tag: py3-none-any" in meta
    assert "cardlab/kernel.py" in names and not [n for n in names if n.endswith(".so")]
    assert "cardlab/deleted_since.py" not in names
    assert not [n for n in names if ".data/" in n]  # all of it in purelib


@pytest.mark.checkout
def test_the_installs_of_make_share_one_kernel_build(tmp_path) -> None:
    # From nothing, `make lab` and `make test` build the kernel once: one install runs the build
    # hook (an editable install in place), and each of the others skips it (CARDLAB_PURE=1).
    import subprocess

    venv = tmp_path / "venv"
    done = subprocess.run(["make", "-n", f"VENV={venv}", f"{venv}/.stamp-notebook",
                           f"{venv}/.stamp-test"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=True)
    installs = [line for line in done.stdout.splitlines()
                if "pip install" in line and " -e " in line]
    assert len(installs) == 3, done.stdout
    hooked = [line for line in installs if "CARDLAB_PURE=1" not in line]
    assert len(hooked) == 1 and "--no-deps" in hooked[0], installs
    assert all(line.endswith(("'.[lab]'", "'.[test]'")) for line in installs if line not in hooked)


def test_the_supported_pythons_are_the_classifiers(pyproject: dict) -> None:
    # make dist and make test-matrix build and test what the package says it supports
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from pythons import SUPPORTED
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    prefix = "Programming Language :: Python :: "
    listed = [c[len(prefix):] for c in pyproject["project"]["classifiers"]
              if c.startswith(prefix) and c.count(".") == 1 and c[len(prefix):][0].isdigit()]
    assert tuple(listed) == SUPPORTED
    assert pyproject["project"]["requires-python"] == f">={SUPPORTED[0]}"
