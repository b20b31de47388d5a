"""Teaching with cardlab in class: widgets for a lesson notebook.

- :mod:`cardlab.lessons.recorder`: :class:`~cardlab.lessons.recorder.Recorder`, a widget to
  record a game played at the front of the room, entry by entry, saved after each one.

These need the notebook extra (``pip install 'cardlab[notebook]'``); ``import cardlab`` does not
import them.
"""
