"""The one error hierarchy of cardlab.

Every error a user can cause (a bad file, an illegal action, an unknown option or card code)
is a :class:`CardlabError`. The message says *where* and *why*; the attributes carry the same
facts for programs. The CLI prints ``str(error)`` on one line and exits 2.

>>> try:
...     raise IllegalActionError("Remo must follow blue: he holds blue 14", seat="Remo")
... except CardlabError as err:
...     print(err)
seat Remo: Remo must follow blue: he holds blue 14
"""

from __future__ import annotations

import reprlib

_BRIEF = reprlib.Repr()
_BRIEF.maxlevel = 2
_BRIEF.maxstring = 60
_BRIEF.maxother = 60
_BRIEF.maxlist = _BRIEF.maxdict = _BRIEF.maxtuple = 6


def brief(value: object) -> str:
    """A short ``repr`` for a message: nested data and long text are cut (``...``), so a
    value from a file of any depth or size can be named without recursing or flooding.

    >>> brief([[[[1]]]]), brief("x" * 100)[:12]
    ('[[[...]]]', "'xxxxxxxxxxx")
    """
    return _BRIEF.repr(value)


class CardlabError(Exception):
    """Root of every error cardlab raises on purpose.

    In a notebook (or the IPython shell) it shows as its one line, ``Name: message``, not a
    traceback: IPython asks an exception for ``_render_traceback_`` and, when it has one,
    prints the lines it returns instead of the stack. A cardlab error says where and why; the
    stack of cardlab's own frames tells a student or teacher nothing more (the command line
    prints one line too). A developer who wants the stack catches the error and calls
    ``traceback.print_exc()``.

    >>> CardlabError("no seat 'brad'; the seats are Tone, Remo")._render_traceback_()
    ["CardlabError: no seat 'brad'; the seats are Tone, Remo"]
    """

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}"]


class UnknownGameError(CardlabError, KeyError):
    """A game name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class OptionError(CardlabError, ValueError):
    """An unknown rules option, or a value the option does not allow."""


class SolveBudgetError(CardlabError):
    """The exact solver stopped at its budget of ``nodes`` nodes before it had an answer.

    >>> str(SolveBudgetError(10_000_000))
    'not solved within 10,000,000 nodes'
    """

    def __init__(self, nodes: int) -> None:
        super().__init__(f"not solved within {nodes:,} node{'' if nodes == 1 else 's'}")
        self.nodes = nodes


class CardCodeError(CardlabError, ValueError):
    """A card code that does not name a card of the game's deck."""


class IllegalActionError(CardlabError, ValueError):
    """An action the rules forbid here.

    ``hand``, ``step`` and ``seat`` say where; the message says why, in the words of the rules.
    ``reason`` is that sentence alone, as a person at the table reads it; ``rule`` is the rule
    the action breaks without the facts of this position that would give an answer away
    (which cards the seat holds), as a hint says it ("Remo must follow blue, the suit led");
    it is the reason itself where the two are the same.

    >>> err = IllegalActionError("Remo must follow blue: Remo holds blue 14", seat="Remo",
    ...                          rule="Remo must follow blue")
    >>> err.reason, err.rule
    ('Remo must follow blue: Remo holds blue 14', 'Remo must follow blue')
    """

    def __init__(
        self,
        reason: str,
        *,
        hand: int | None = None,
        step: int | None = None,
        seat: str | int | None = None,
        action: str | None = None,
        rule: str | None = None,
    ) -> None:
        self.reason = reason
        self.rule = rule or reason
        self.hand = hand
        self.step = step
        self.seat = seat
        self.action = action
        super().__init__(reason)

    def located(self, *, hand: int | None = None, step: int | None = None,
                seat: str | int | None = None) -> IllegalActionError:
        """Return a copy that also names the hand, step and seat: the hand and step are kept
        where already known; a given seat (a name) replaces the engine's seat number."""
        return type(self)(
            self.reason,
            hand=self.hand if self.hand is not None else hand,
            step=self.step if self.step is not None else step,
            seat=seat if seat is not None else self.seat,
            action=self.action,
            rule=self.rule,
        )

    def __str__(self) -> str:
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.step is not None:
            where.append(f"step {self.step}")
        if self.seat is not None:
            where.append(f"seat {self.seat}")
        if self.action is not None:
            where.append(f"action {self.action!r}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.reason}" if prefix else self.reason


class ActionTextError(IllegalActionError, CardCodeError):
    """An action text that names no action of the game (``hat +5``, ``bid -1``, ``call whot``).

    Both an :class:`IllegalActionError` (it carries the hand, step and seat) and a
    :class:`CardCodeError` (the text itself is what is wrong).

    >>> str(ActionTextError("'hat +5' is not an action", hand=1, seat="Tone"))
    "hand 1, seat Tone: 'hat +5' is not an action"
    """


def sentence(err: BaseException) -> str:
    """What a person at the table reads of an error: the rule's sentence without the "where"
    the command line prints before it (hand, step, seat, action; the file and the JSON path).

    >>> sentence(IllegalActionError("Remo must follow blue", hand=1, step=7, seat="Remo"))
    'Remo must follow blue'
    >>> sentence(CardlabError("no such file"))
    'no such file'
    """
    reason = getattr(err, "reason", None)
    return reason if isinstance(reason, str) and reason else str(err)


class ReplayError(CardlabError, ValueError):
    """A replay file that cannot be read: missing, not JSON, off the format, or not replayable.

    ``file`` and ``path`` (a JSON path such as ``$.hands[1].actions[7]``) say where in the
    file; ``hand`` (counted from 1), ``step`` and ``seat``, where they apply, where in the
    game. The message names them all, then the reason.

    >>> print(ReplayError("Remo must follow blue", file="g.json", path="$.hands[0].actions[6]",
    ...                   hand=1, step=7, seat="Remo"))
    g.json:$.hands[0].actions[6]: hand 1, step 7, seat Remo: Remo must follow blue
    """

    def __init__(self, reason: str, *, file: str | None = None, path: str | None = None,
                 hand: int | None = None, step: int | None = None,
                 seat: str | None = None) -> None:
        self.reason = reason
        self.file = file
        self.path = path
        self.hand = hand
        self.step = step
        self.seat = seat
        super().__init__(reason)

    def __str__(self) -> str:
        where = ":".join(part for part in (self.file, self.path) if part)
        game = ", ".join(part for part in (
            None if self.hand is None else f"hand {self.hand}",
            None if self.step is None else f"step {self.step}",
            None if self.seat is None else f"seat {self.seat}") if part)
        text = f"{game}: {self.reason}" if game else self.reason
        return f"{where}: {text}" if where else text


class SaveError(CardlabError, OSError):
    """A file that cannot be written; the old file, if any, is left whole.

    ``file`` names the path as given, ``reason`` says why in plain words; ``errno`` is the
    operating system's error number, when there is one. It is an :class:`OSError` too, so
    code that already catches ``OSError`` around a save keeps working.

    >>> print(SaveError("no such folder 'out'", file="out/game.json"))
    out/game.json: cannot save: no such folder 'out'
    """

    def __init__(self, reason: str, *, file: str, errno: int | None = None) -> None:
        self.reason = reason
        self.file = file
        super().__init__(reason)
        self.errno = errno
        self.filename = file

    def __str__(self) -> str:
        return f"{self.file or repr(self.file)}: cannot save: {self.reason}"


class LimitError(ReplayError):
    """A replay over one of the named limits of :mod:`cardlab.limits`.

    ``limit`` is the limit's name (a field of :class:`cardlab.limits.Limits`), ``value`` its
    value; the message says how to raise it.
    """

    def __init__(self, reason: str, *, file: str | None = None, path: str | None = None,
                 limit: str = "", value: int = 0) -> None:
        super().__init__(reason, file=file, path=path)
        self.limit = limit
        self.value = value


class PureKernelWarning(UserWarning):
    """cardlab's kernel runs as plain Python here: no compiled wheel for this platform, or
    one built without a C compiler. The results are the same, the engine slower (about 1.6×).

    Said once, by ``import cardlab`` itself, so a filter must be set before that import and
    cannot name this class (naming it imports cardlab): silence it by its message,
    ``warnings.filterwarnings("ignore", message="cardlab's kernel is not compiled")`` (or
    ``PYTHONWARNINGS="ignore:cardlab's kernel is not compiled"``), or set ``CARDLAB_PURE=1``
    to say the pure kernel is meant (docs/install.md). The class is for code that records
    warnings. Never said in a browser's Python (Pyodide: ``sys.platform == "emscripten"``),
    where no compiled kernel can exist.
    """

