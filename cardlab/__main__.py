"""``python -m cardlab`` is the ``cardlab`` command."""

from .cli import main

main()
