"""The no-peeking quiz: from one seat's view of a replay, pick the next action before it is
shown, then see what was played and what the advisor thinks of both choices.

The quiz stops at each of the seat's decisions on the main line (a position where it has two
or more legal actions and makes the next one itself: :func:`cardlab.analyse.decision_points`).
Before an answer, the quiz (and its widget's synced data) holds only that seat's view of the
position (:class:`~cardlab.cursor.Cursor` with ``seat``) and the seat's legal actions: no
later action and no card hidden from the seat. After the answer it reveals the action played
and the advisor's values: the replay's ``eval`` record of that decision when it has one made
from the seat's view (not an ``exact`` one, which saw every hand), else
:func:`cardlab.advisor.evaluate` from the seat's view with ``rollouts`` sampled deals.

>>> import cardlab
>>> quiz = Quiz(cardlab.example("norwegian-review"), seat="Brad", rollouts=10, bot="random")
>>> quiz.hand, quiz.index, quiz.choices()
(1, 0, ['hat +10', 'hat -10'])
>>> reveal = quiz.answer("hat +10")
>>> reveal["played"], reveal["same"]
('hat -10', False)
>>> quiz.answers()[["hand", "step", "seat", "chosen", "played"]].values.tolist()
[[1, 0, 'Brad', 'hat +10', 'hat -10']]
"""

from __future__ import annotations

from typing import Any

from ..advisor.evaluate import evaluate
from ..analyse import decision_points, decision_seed
from ..cursor import Cursor
from ..dataframes import require
from ..errors import CardlabError, sentence
from ..replay import Replay, index_of_hand
from ..seatview import visible_eval
from ..view.wording import pretty
from ..words import plural
from .exercises import CSS, ESM, anywidget, table_view, traitlets

COLUMNS = ["hand", "step", "seat", "chosen", "played", "same", "chosen_value", "played_value",
           "best", "best_value", "loss", "played_loss", "values", "source"]



def compare(values: dict[str, list[float]], action: str, played: str, low: bool,
            best: str | None = None) -> dict[str, Any]:
    """The values (mean first) of the chosen and the played action, of the best one (``best``,
    or the highest mean; the lowest where ``low`` score wins) and what each lost against it;
    all ``None`` without values. The quiz's reveal and the handouts' key both use it.

    >>> compare({"play 5H": [2.0, 0.1], "play KS": [3.5, 0.1]}, "play 5H", "play KS", False)
    ... # doctest: +NORMALIZE_WHITESPACE
    {'chosen_value': 2.0, 'played_value': 3.5, 'best': 'play KS', 'best_value': 3.5,
     'loss': 1.5, 'played_loss': 0.0}
    """
    row: dict[str, Any] = {"chosen_value": None, "played_value": None, "best": None,
                           "best_value": None, "loss": None, "played_loss": None}
    if values:
        sign = -1.0 if low else 1.0
        if best is None:
            best = max(values, key=lambda t: sign * values[t][0])
        row.update(best=best, best_value=values[best][0],
                   chosen_value=values.get(action, [None])[0],
                   played_value=values.get(played, [None])[0])
        for key, text in (("loss", action), ("played_loss", played)):
            if text in values:
                row[key] = round(sign * (values[best][0] - values[text][0]), 3)
    return row

class Quiz:
    """A quiz for ``seat`` (name or number) over the main line of ``replay`` (``hand``: that
    hand only, counted from 1). ``rollouts``, ``seed`` and ``bot`` are the advisor's, used at a
    decision with no eval record; ``advisor=False`` reveals the action played only."""

    def __init__(self, replay: Replay, seat: int | str, hand: int | None = None,
                 rollouts: int = 100, seed: int = 0, bot: str = "heuristic",
                 advisor: bool = True) -> None:
        self.replay = replay
        self.seat = replay.seat_index(seat)
        self.name = replay.seats[self.seat]
        if hand is not None:
            index_of_hand(replay, hand)
        points = [p for p in decision_points(replay, self.seat) if hand is None or p.hand == hand]
        if not points:
            where = f"hand {hand}" if hand is not None else "this replay"
            raise CardlabError(f"{self.name} makes no decision with a choice in {where}: "
                               "there is nothing to ask")
        self.points = points
        self.rollouts, self.seed, self.bot, self.advisor = rollouts, seed, bot, advisor
        self.at = 0
        self.rows: list[dict[str, Any]] = []
        self.revealed: dict[str, Any] | None = None
        self._cursor = Cursor(replay, seat=self.seat)

    # -- where the quiz stands --------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.at >= len(self.points)

    @property
    def hand(self) -> int:
        return self._point().hand

    @property
    def index(self) -> int:
        return self._point().index

    def _point(self) -> Any:
        if self.done:
            raise CardlabError(f"the quiz is over: {plural(len(self.points), 'decision')} "
                               "answered")
        return self.points[self.at]

    def position(self) -> dict[str, Any]:
        """The seat's view of the position of the current decision."""
        return self._position_at(self._point())

    def _position_at(self, point: Any) -> dict[str, Any]:
        cur = self._cursor
        return cur.goto(cur.find(point.hand, point.index)).position

    def choices(self) -> list[str]:
        """The seat's legal actions here, in the engine's order."""
        return list(self.position()["legal"])

    def data(self) -> dict[str, Any]:
        """What the widget shows before the answer: the seat's view and its choices only."""
        if self.done:
            agree = sum(1 for r in self.rows if r["same"])
            return {"done": True, "seat": self.name,
                    "summary": f"The quiz is over: {plural(len(self.rows), 'decision')}, "
                               f"{agree} the same as played."}
        return self._data_at(self.at)

    def _data_at(self, k: int) -> dict[str, Any]:
        point = self.points[k]
        pos = self._position_at(point)
        game = self.replay.game
        kind = self.replay.rules.game.game_type
        return {"done": False, "seat": self.name, "game": game,
                "prompt": f"{kind.hand_word.capitalize()} {point.hand}: you are {self.name}. "
                          f"{kind.question(pos['legal'])}",
                # how many decisions the quiz has is the lesson's length, said from the start
                # (it tells no action, only how many of the seat's have a choice)
                "progress": f"{k + 1} of {len(self.points)}",
                "choices": [[t, pretty(game, t)] for t in pos["legal"]],
                "table": table_view(self.replay, pos, legal=True)}

    # -- answering ------------------------------------------------------------------------
    def answer(self, action: str) -> dict[str, Any]:
        """Answer the current decision with ``action`` (one of :meth:`choices`); returns the
        reveal: what was played and the advisor's values of both."""
        if self.revealed is not None:
            raise CardlabError("this decision is answered; go on with next()")
        point = self._point()
        legal = self.choices()
        if action not in legal:
            why = ""
            if isinstance(action, str):
                state = self._cursor.state.clone()  # the cursor stands on this decision
                try:  # the engine's own words: not a card, not held, must follow...
                    state.act(action)
                except CardlabError as err:
                    why = f" ({sentence(err)})"
            raise CardlabError(f"{action!r} is not an action {self.name} may take here{why}; "
                               f"the choices are {', '.join(repr(t) for t in legal)}")
        line = self.replay.line(point.hand)
        played = line[point.index].act
        values, source, low = self._values(point, line[point.index].eval)
        row: dict[str, Any] = {"hand": point.hand, "step": point.index, "seat": self.name,
                               "chosen": action, "played": played, "same": action == played,
                               **compare(values, action, played, low),
                               "values": values, "source": source}
        self.rows.append(row)
        game = self.replay.game
        reveal = dict(row, chosen_text=pretty(game, action), played_text=pretty(game, played),
                      text=self._text(row, game),
                      values=[[t, pretty(game, t), v[0], v[1]] for t, v in
                              sorted(values.items(), key=lambda kv: (-1 if low else 1)
                                     * -kv[1][0])])
        self.revealed = reveal
        return reveal

    def _values(self, point: Any, record: dict[str, Any] | None
                ) -> tuple[dict[str, list[float]], str, bool]:
        low = bool(self.replay.rules.low_score_wins)
        if not self.advisor:
            return {}, "", low
        if record is not None and visible_eval(record, self.name, self.name):
            values = {t: [float(v[0]), float(v[1])] for t, v in record["values"].items()}
            deals = plural(record.get("rollouts") or 0, "sampled deal")
            return values, (f"the replay's analysis: {deals}, played out by the "
                            f"{record.get('bot')} bot"), low
        result = evaluate(self.replay, point.hand, point.index, seat=self.seat,
                          rollouts=self.rollouts, bot=self.bot,
                          seed=decision_seed(self.seed, point.hand, point.index))
        values = {t: [round(e.mean, 3), round(e.stderr, 3)] for t, e in result.values.items()}
        return values, (f"the advisor: {plural(self.rollouts, 'deal')} sampled from "
                        f"{self.name}'s view, played out by the {self.bot} bot"), \
            result.low_score_wins

    def _text(self, row: dict[str, Any], game: str) -> str:
        def num(value: float) -> str:  # a typographic minus, as the viewer writes it
            return f"{value:.1f}".replace("-", "\u2212")

        chosen, played = pretty(game, row["chosen"]), pretty(game, row["played"])
        head = (f"You chose {chosen}, as {self.name} did." if row["same"] else
                f"You chose {chosen}; {self.name} chose {played}.")
        if row["best"] is None:
            return head
        word = self.replay.rules.game.game_type.points_word
        parts = [head, f"The advisor's best: {pretty(game, row['best'])} "
                       f"({num(row['best_value'])} expected {word})."]
        if row["loss"] is not None:
            mine = f"Yours: {num(row['chosen_value'])}"
            parts.append(f"{mine} ({num(row['loss'])} worse than the best)." if row["loss"] > 0
                         else f"{mine}, the best.")
        if not row["same"] and row["played_loss"] is not None:
            parts.append(f"{self.name}'s: {num(row['played_value'])}.")
        return " ".join(parts)

    def script(self) -> list[dict[str, Any]]:
        """Every decision as a page with no kernel needs it (an offline handout that checks
        answers in the browser): ``data`` as the widget shows it before the answer, and the
        key, ``played``, ``values`` (``[text, as read, mean, stderr]``, best first), ``best``
        and ``source``. The key is the future: never put it in the live widget's data.
        Does not move the quiz."""
        out = []
        game = self.replay.game
        for k, point in enumerate(self.points):
            action = self.replay.line(point.hand)[point.index]
            values, source, low = self._values(point, action.eval)
            sign = -1.0 if low else 1.0
            ranked = sorted(values.items(), key=lambda kv: -sign * kv[1][0])
            out.append({"data": self._data_at(k), "played": action.act,
                        "played_text": pretty(game, action.act),
                        "values": [[t, pretty(game, t), v[0], v[1]] for t, v in ranked],
                        "best": ranked[0][0] if ranked else None, "source": source})
        return out

    def next(self) -> Quiz:
        """On to the next decision (answer this one first)."""
        if self.revealed is None and not self.done:
            raise CardlabError("answer this decision first: the next one would show what "
                               f"{self.name} played")
        self._point()
        self.at += 1
        self.revealed = None
        return self

    def answers(self) -> Any:
        """The answers so far as a pandas frame: one row per decision answered (``step`` is
        the actions of the hand made before it; values are the advisor's, ``loss`` the
        expected points below the best)."""
        pd = require("pandas")
        return pd.DataFrame(self.rows, columns=COLUMNS)

    def widget(self) -> QuizWidget:
        return QuizWidget(self)


class QuizWidget(anywidget.AnyWidget):  # type: ignore[misc,name-defined]
    """The quiz in the notebook. ``data`` holds the current decision's view and choices,
    ``reveal`` is empty until the answer, ``error`` a message (a quiz that could not be made,
    a bad answer)."""

    _esm = ESM  # lessons.js, as the exercises' widget
    _css = CSS
    mode = traitlets.Unicode("quiz").tag(sync=True)
    data = traitlets.Dict({}).tag(sync=True)
    reveal = traitlets.Dict({}).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)

    def __init__(self, quiz: Quiz | None = None, error: str = "") -> None:
        super().__init__()
        self.quiz = quiz
        self.error = error
        if quiz is not None:
            self.data = quiz.data()
        self.on_msg(self._on_msg)

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        if content.get("type") == "answer":
            self.answer(content.get("action"))
        elif content.get("type") == "next":
            self.next()

    def answer(self, action: Any) -> dict[str, Any] | None:
        if self.quiz is None:
            return None
        try:
            reveal = self.quiz.answer(action)
        except CardlabError as err:
            self.error = str(err)
            return None
        self.error = ""
        self.reveal = reveal
        return reveal

    def next(self) -> None:
        if self.quiz is None:
            return
        try:
            self.quiz.next()
        except CardlabError as err:
            self.error = str(err)
            return
        self.error = ""
        self.reveal = {}
        self.data = self.quiz.data()

    def answers(self) -> Any:
        return self.quiz.answers() if self.quiz is not None else require("pandas").DataFrame(
            columns=COLUMNS)


def quiz(replay: Replay, seat: int | str, **options: Any) -> QuizWidget:
    """The quiz's widget; a quiz that cannot be made shows its CardlabError's message."""
    try:
        return QuizWidget(Quiz(replay, seat, **options))
    except CardlabError as err:
        return QuizWidget(None, error=str(err))
