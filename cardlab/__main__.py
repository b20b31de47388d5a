"""``python -m cardlab`` is the ``cardlab`` command."""

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the modules load: the same exit as during a command
    raise SystemExit(130) from None

main()
