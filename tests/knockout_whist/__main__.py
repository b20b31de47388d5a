"""The ``cardlab`` command line with Knock-out Whist registered, for a test's child process:

    PYTHONPATH=tests python -m knockout_whist play knockout-whist --seed 3 --out game.json
"""

from __future__ import annotations

import sys

from cardlab.cli import main

from . import registered

with registered():
    main(sys.argv[1:])
