"""scripts/dist.py (``make dist``): what makes a compiled wheel be built again, and the wheel
it makes without mypyc when the kernel's inputs are unchanged (docs/packaging.md).

The full builds (mypyc for each Python, auditwheel) are ``make dist``'s, which CI runs before
``make test-matrix`` installs and tests every wheel; here, small wheels made on the spot.
"""

from __future__ import annotations

import base64
import hashlib
import re
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import dist  # noqa: E402  (scripts/ is no package)

sys.path.remove(str(ROOT / "scripts"))

pytestmark = pytest.mark.checkout  # it reads the checkout's setup.py, Makefile and sources

INFO = "cardlab-0.2.0.dist-info"


def wheel(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def test_the_kernel_is_the_one_setup_py_compiles_and_the_makefile_rebuilds_for():
    # one list of the kernel's modules (setup.py's KERNEL), which dist.py reads; the Makefile,
    # which cannot read it, restates it, and this keeps the two the same
    kernel = dist.kernel_sources(ROOT / "setup.py")
    assert "cardlab/kernel.py" in kernel and all((ROOT / name).exists() for name in kernel)
    make = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")  # joined
    (listed,) = re.findall(r"^KERNEL_SOURCES := (.*)$", make, re.M)
    assert tuple(listed.split()) == kernel


def test_only_the_kernel_s_inputs_change_its_fingerprint(tmp_path, monkeypatch):
    # a copy of what the fingerprints read: a change elsewhere in cardlab/ or the README
    # changes the wheel's fingerprint only; a kernel source, setup.py or [build-system] both
    for name in dist.INPUTS:
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    for name in dist.kernel_sources(ROOT / "setup.py") + ("cardlab/text.py",):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    monkeypatch.setattr(dist, "ROOT", tmp_path)
    first = dist.fingerprint(), dist.kernel_fingerprint()

    def after(name: str, change) -> tuple[bool, bool]:
        path = tmp_path / name
        before = path.read_text(encoding="utf-8")
        path.write_text(change(before), encoding="utf-8")
        now = dist.fingerprint(), dist.kernel_fingerprint()
        path.write_text(before, encoding="utf-8")
        return now[0] != first[0], now[1] != first[1]

    def comment(text: str) -> str:
        return text + "\n# a change\n"

    assert after("cardlab/text.py", comment) == (True, False)
    assert after("README.md", comment) == (True, False)
    assert after("pyproject.toml", lambda t: t.replace('version = "', 'version = "9')) == (
        True, False)
    assert after("cardlab/kernel.py", comment) == (True, True)
    assert after("cardlab/solvekernel.py", comment) == (True, True)
    assert after("setup.py", comment) == (True, True)
    assert after("pyproject.toml", lambda t: t.replace('"mypy>=1.11"', '"mypy>=1.12"')) == (
        True, True)


def test_a_repacked_wheel_is_the_current_pure_one_with_the_kernel_libraries(tmp_path):
    lib = "cardlab/kernel__mypyc.cpython-311-x86_64-linux-gnu.so"
    shim = "cardlab/kernel.cpython-311-x86_64-linux-gnu.so"
    # the last compiled wheel: an older version, a module since deleted, its libraries
    old = wheel(tmp_path / "cardlab-0.1.0-cp311-cp311-manylinux_2_17_x86_64.whl", {
        "cardlab/__init__.py": "OLD = 1\n", "cardlab/gone.py": "deleted since\n",
        "cardlab/kernel.py": "KERNEL = 1\n", lib: "\x7fELF library", shim: "\x7fELF shim",
        "cardlab.libs/libextra-1a2b.so.1": "\x7fELF grafted",
        "cardlab-0.1.0.dist-info/METADATA": "Version: 0.1.0\n",
        "cardlab-0.1.0.dist-info/WHEEL": "Root-Is-Purelib: false\nTag: cp311-cp311-manylinux\n",
        "cardlab-0.1.0.dist-info/RECORD": "stale\n"})
    pure_files = {"cardlab/__init__.py": "NEW = 2\n", "cardlab/kernel.py": "KERNEL = 1\n",
                  "cardlab/view/viewer.js": "// new\n", f"{INFO}/METADATA": "Version: 0.2.0\n",
                  f"{INFO}/entry_points.txt": "[console_scripts]\n"}
    pure = wheel(tmp_path / "cardlab-0.2.0-py3-none-any.whl", {
        **pure_files, f"{INFO}/WHEEL": "Root-Is-Purelib: true\nTag: py3-none-any\n",
        f"{INFO}/RECORD": "pure record\n"})
    out = tmp_path / "out"
    out.mkdir()

    made = dist.repack(pure, old, out)

    assert made.name == "cardlab-0.2.0-cp311-cp311-manylinux_2_17_x86_64.whl"
    with zipfile.ZipFile(made) as archive:
        names = archive.namelist()
        content = {name: archive.read(name) for name in names}
    assert "cardlab/gone.py" not in names and not [n for n in names if "0.1.0" in n]
    for name, text in pure_files.items():
        assert content[name] == text.encode(), name
    assert content[lib] == b"\x7fELF library" and content[shim] == b"\x7fELF shim"
    assert content["cardlab.libs/libextra-1a2b.so.1"] == b"\x7fELF grafted"
    assert content[f"{INFO}/WHEEL"].startswith(b"Root-Is-Purelib: false")
    assert dist.holds_kernel(made) and not dist.holds_kernel(pure)
    # RECORD lists every other file once, with its hash and size (pip checks them)
    record = content[f"{INFO}/RECORD"].decode().splitlines()
    assert record[-1] == f"{INFO}/RECORD,,"
    listed = {}
    for line in record[:-1]:
        name, digest, size = line.rsplit(",", 2)
        listed[name] = (digest, int(size))
    assert sorted(listed) == sorted(n for n in names if n != f"{INFO}/RECORD")
    for name, (digest, size) in listed.items():
        data = content[name]
        expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        assert digest == "sha256=" + expected.decode() and size == len(data), name
