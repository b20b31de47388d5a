"""How an exercise answers: the verdict on one answer (:class:`Feedback`), what a student is
shown of it try by try (:class:`Tries`: a hint first, the answer after a second miss or on
*show me*), and the score of a class session (:class:`Session`). The exercises themselves
(:mod:`cardlab.lessons.exercises`) write the verdicts; a handout's page shows them with the
same steps (``verdicts.js``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

from ..dataframes import require


class Asked(Protocol):
    """What a session records of an exercise (:class:`cardlab.lessons.exercises.Exercise`
    has it): which one it is, its kind, and where in the replay it asks."""

    id: int
    kind: str
    hand: int
    index: int

# The words around a hint, and after it: what a first miss is told.
HINT = "Hint: "
TRY_AGAIN = " Try again, or choose Show me."
SHOWN = "The answer: "  # before the answer shown on *show me*


@dataclasses.dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: ``right``, the text shown (with the engine's reasons),
    the correct answer, a reason per choice where the exercise has them, and for a wrong
    answer the ``hint``: what a first miss is told instead, the rule without the answer."""

    right: bool
    text: str
    correct: Any
    reasons: dict[str, str] = dataclasses.field(default_factory=dict)
    hint: str = ""

    def data(self) -> dict[str, Any]:
        return {"right": self.right, "text": self.text, "correct": self.correct,
                "reasons": dict(self.reasons), "hint": self.hint}


class Tries:
    """How an exercise answers the tries of one student (the widget keeps one; a handout's
    page does the same in ``verdicts.js``, ``respond``): a right answer shows its verdict
    (``stage`` "right"); a first wrong one only its hint ("hint": no correct answer, no
    reasons); a second wrong one, or any answer once the exercise is done (right, or its
    answer shown), its whole verdict ("answer"). ``given`` is the answer tried.

    >>> tries = Tries()
    >>> wrong = Feedback(False, "Not 3: it is 5.", 5, hint="Not 3. Hint: count again.")
    >>> [tries.respond(wrong, 3)["stage"], tries.respond(wrong, 4)["stage"]]
    ['hint', 'answer']
    >>> sorted(Tries().respond(wrong, 3))
    ['given', 'right', 'stage', 'text']
    """

    def __init__(self) -> None:
        self.misses = 0
        self.done = False

    def respond(self, feedback: Feedback, given: Any) -> dict[str, Any]:
        """What the student is shown of ``feedback``, the verdict on ``given``."""
        if feedback.right:
            self.done = True
            return dict(feedback.data(), stage="right", given=given)
        self.misses += 1
        if self.misses == 1 and not self.done:
            return {"stage": "hint", "right": False, "text": feedback.hint, "given": given}
        self.done = True
        return dict(feedback.data(), stage="answer", given=given)

    def show(self, solution: Feedback) -> dict[str, Any]:
        """The answer, on *show me*."""
        self.done = True
        return dict(solution.data(), stage="answer", given=None)


class Session:
    """The score of a class session: each exercise counts once, at its first answer, or
    when its answer is shown before any (trying again shows the feedback again but does not
    change the score).

    >>> s = Session(); s.score()
    (0, 0)
    """

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self._seen: set[int] = set()

    def record(self, exercise: Asked, given: Any, feedback: Feedback) -> None:
        """Count ``given`` (None: the answer was shown) if it is the exercise's first."""
        if exercise.id in self._seen:
            return
        self._seen.add(exercise.id)
        self.records.append({"exercise": exercise.id, "kind": exercise.kind,
                             "hand": exercise.hand, "index": exercise.index,
                             "answer": given, "right": feedback.right})

    def score(self) -> tuple[int, int]:
        """``(right, asked)``: first answers that were right, exercises answered."""
        return sum(1 for r in self.records if r["right"]), len(self.records)

    def frame(self) -> Any:
        """The first answers as a pandas frame (one row per exercise answered)."""
        pd = require("pandas")
        return pd.DataFrame(self.records, columns=["exercise", "kind", "hand", "index",
                                                   "answer", "right"])


SESSION = Session()  # the notebook's session, when an exercise is given none


__all__ = ["HINT", "SESSION", "SHOWN", "TRY_AGAIN", "Asked", "Feedback", "Session", "Tries"]
