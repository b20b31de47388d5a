"""Where the cardlab under test was imported from, for the Python subprocesses tests start.

In a checkout that is the repository root; under ``make test-matrix`` it is the fresh
environment's site-packages, so a subprocess tests the installed wheel too, not the checkout.

    >>> from pathlib import Path
    >>> (Path(CARDLAB_PATH) / "cardlab" / "__init__.py").exists()
    True
"""

from __future__ import annotations

from pathlib import Path

import cardlab

CARDLAB_PATH = str(Path(cardlab.__file__).resolve().parents[1])
# The package's own folder: its sources, front-end files and examples, as installed.
PACKAGE = Path(cardlab.__file__).resolve().parent
