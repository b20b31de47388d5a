"""Teaching with cardlab in class: widgets for a lesson notebook.

- :mod:`cardlab.lessons.recorder`: :class:`~cardlab.lessons.recorder.Recorder`, a widget to
  record a game played at the front of the room, entry by entry, saved after each one.
- :mod:`cardlab.lessons.exercises`: exercises that check themselves on a replay position
  (``exercise("trick-winner", replay, hand=1, index=9)``; ``TrickWinner``, ``ForbiddenBid``,
  ``LegalPlays``, ``HandScore``), scored per :class:`~cardlab.lessons.exercises.Session`.
- :mod:`cardlab.lessons.quiz`: the no-peeking quiz (``Quiz(replay, seat="Brad").widget()``),
  answers in ``quiz.answers()``, a pandas frame.

These need the widgets extra (``pip install 'cardlab[widgets]'``); ``import cardlab`` does not
import them.
"""
