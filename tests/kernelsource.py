"""The compiled kernels' sources loaded as plain Python beside the compiled modules, for the
tests that check that both run alike (tests/test_kernel.py, tests/test_solver.py).

``cardlab/kernel.py``, ``cardlab/games/teds_game/kernel.py``,
``cardlab/games/bobs_hat/kernel.py``, ``cardlab/solvekernel.py`` and ``cardlab/solveranks.py``
are one source, compiled or not: a test loads that very file again as an ordinary module and
compares its answers with the compiled module's.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from cardlab import kernel

KERNEL_SOURCE = Path(kernel.__file__).with_name("kernel.py")


def load_source(name: str, path: Path, kernel_module: ModuleType | None = None,
                modules: dict[str, ModuleType] | None = None) -> ModuleType:
    """The file ``path`` loaded as the plain-Python module ``name``; with ``kernel_module``,
    its ``from cardlab.kernel import ...`` gets that module (the kernel's source too), and
    each import of a module ``modules`` names gets the module given for it."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    given = dict(modules or {})
    if kernel_module is not None:
        given["cardlab.kernel"] = kernel_module
    saved = {key: sys.modules[key] for key in given}
    sys.modules.update(given)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.update(saved)
    return module


def pure_kernel() -> ModuleType:
    """``cardlab/kernel.py`` as plain Python."""
    return load_source("cardlab_kernel_pure", KERNEL_SOURCE)
