"""The ipywidgets replay viewer: a card table you step through, branch from and chart.

``ReplayViewer(replay)`` (or just displaying a replay in a notebook) shows the seats around
the table, the centre (trick, trump, hat, Whot's call card), the last action and the legal
actions, the step's note in a chosen language, the score sheet with the current hand
highlighted, and a score chart that marks the current step. Controls: first / previous /
next / last, a slider, autoplay with a speed, jumps to a hand and a trick, the seat whose
view is shown, the line (main line or a variation), and an explorer that plays another legal
action and lets bots finish the hand.

Every interactive widget carries a CSS class ``cardlab-...`` so browser tests can find it;
the same widgets are attributes of the viewer, so a notebook can click them from the kernel
(``viewer.next_button.click()``) and assert what is shown (``viewer.trick_cards()``).

All the viewer shows comes from ``Cursor.position``; it restates no rule.
"""

from __future__ import annotations

from typing import Any

from .. import explore as _explore
from ..cursor import Cursor
from ..errors import CardlabError
from ..frames import HandResult, hand_results_list, note_languages, require, sheet_html, sheet_rows
from ..replay import LinePath, Replay
from .cards import style_tag
from .table import (
    centre_html,
    home_seat,
    note_html,
    seat_cells,
    seat_html,
    shown_trick,
    status_html,
    table_grid,
)

KEYS_ESM = """
function render({ model, el }) {
  const box = document.createElement("div");
  box.tabIndex = 0;
  box.className = "cardlab-keys-pad";
  box.textContent = "⌨ click here, then ← → Home End to step";
  box.style.cssText = "display:inline-block;padding:2px 8px;border:1px dashed #999;" +
    "border-radius:6px;font-size:12px;color:#555;cursor:pointer;outline-color:#e0b400";
  box.addEventListener("keydown", (event) => {
    const keys = ["ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"];
    if (keys.includes(event.key)) {
      event.preventDefault();
      event.stopPropagation();
      model.send({ key: event.key });
    }
  });
  el.appendChild(box);
}
export default { render };
"""

BOT_KINDS = ("heuristic", "random")


def _keys_widget() -> Any:
    """A small anywidget that sends arrow keys to the kernel (None without anywidget)."""
    try:
        import anywidget
    except ImportError:
        return None

    class Keys(anywidget.AnyWidget):  # type: ignore[misc]
        _esm = KEYS_ESM

    return Keys()


class ReplayViewer:
    """Step through a replay in a notebook. Display it (it is shown as its widget)."""

    def __init__(self, replay: Replay, seat: int | str | None = None, lang: str = "en",
                 hand: int | None = None, path: LinePath = (), chart: bool = True,
                 bots: str = "heuristic") -> None:
        widgets = require("ipywidgets")
        self._w = widgets
        self.replay = replay
        self.game = replay.game
        self._seat = self._seat_index(seat)
        self.cursor = Cursor(replay, hand, path, self._seat)
        self._line_key: tuple[int | None, LinePath] = (hand, path)
        self._syncing = False
        self._results: dict[tuple[int | None, LinePath], list[HandResult]] = {}
        self._sheet_cache: dict[tuple[Any, ...], str] = {}
        self._trick_counts: dict[tuple[Any, ...], int] = {}
        self.last_branch: _explore.Branch | None = None
        languages = note_languages(replay) or ["en"]
        self.lang = lang if lang in languages else languages[0]

        def button(description: str, css: str, tooltip: str) -> Any:
            b = widgets.Button(description=description, tooltip=tooltip,
                               layout=widgets.Layout(width="auto"))
            b.add_class(css)
            return b

        self.first_button = button("◀◀ first", "cardlab-first", "first step")
        self.prev_button = button("◀ prev", "cardlab-prev", "previous step")
        self.next_button = button("next ▶", "cardlab-next", "next step")
        self.last_button = button("last ▶▶", "cardlab-last", "last step")
        self.first_button.on_click(lambda _: self.first())
        self.prev_button.on_click(lambda _: self.prev())
        self.next_button.on_click(lambda _: self.next())
        self.last_button.on_click(lambda _: self.last())

        self.slider = widgets.IntSlider(value=0, min=0, max=len(self.cursor) - 1,
                                        description="step", continuous_update=True,
                                        layout=widgets.Layout(width="520px"))
        self.slider.add_class("cardlab-slider")
        self.play = widgets.Play(value=0, min=0, max=len(self.cursor) - 1, interval=700,
                                 description="autoplay")
        self.play.add_class("cardlab-play")
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.speed = widgets.FloatSlider(value=1.5, min=0.25, max=10.0, step=0.25,
                                         description="steps/s",
                                         layout=widgets.Layout(width="240px"))
        self.speed.add_class("cardlab-speed")
        self.speed.observe(self._on_speed, names="value")
        self._on_speed(None)
        self.slider.observe(self._on_slider, names="value")

        self.hand_select = self._dropdown("game" if self.game == "whot" else "hand", "190px",
                                          "cardlab-hand", self._on_hand)
        self.trick_select = self._dropdown("trick", "150px", "cardlab-trick-jump",
                                           self._on_trick)
        self.seat_select = self._dropdown(
            "seen by", "230px", "cardlab-seat", self._on_seat,
            options=[("everyone (all hands)", -1)] + [(f"{name}'s view", s) for s, name in
                                                     enumerate(replay.seats)],
            value=-1 if self._seat is None else self._seat)
        self.lang_select = self._dropdown("notes", "140px", "cardlab-lang", self._on_lang,
                                          options=languages, value=self.lang)
        self.line_select = self._dropdown("line", "420px", "cardlab-line", self._on_line)

        n = len(replay.seats)
        self.seat_boxes = [widgets.HTML() for _ in range(n)]
        for s, box in enumerate(self.seat_boxes):
            box.add_class("cardlab-seat-box")
            box.add_class(f"cardlab-seat-{s}")
        columns, rows, centre = table_grid(n)
        self.trick = widgets.HTML(layout=widgets.Layout(grid_area=centre))
        self.trick.add_class("cardlab-trick")
        self.table = widgets.GridBox(
            [*self.seat_boxes, self.trick],
            layout=widgets.Layout(grid_template_columns=columns, grid_template_rows=rows,
                                  grid_gap="6px", width="860px"))
        self.table.add_class("cl-felt")
        self.table.add_class("cardlab-table")
        self._place_seats()
        self.status = widgets.HTML()
        self.status.add_class("cardlab-status")
        self.note = widgets.HTML()
        self.note.add_class("cardlab-note")
        self.sheet = widgets.HTML()
        self.sheet.add_class("cardlab-sheet")

        self.action_select = widgets.Dropdown(description="instead",
                                              layout=widgets.Layout(width="300px"))
        self.action_select.add_class("cardlab-explore-action")
        self.bots_select = widgets.Dropdown(options=list(BOT_KINDS), value=bots,
                                            description="bots",
                                            layout=widgets.Layout(width="190px"))
        self.bots_select.add_class("cardlab-explore-bots")
        self.seed_box = widgets.IntText(value=0, description="seed",
                                        layout=widgets.Layout(width="140px"))
        self.seed_box.add_class("cardlab-explore-seed")
        self.explore_button = button("play it out", "cardlab-explore-go",
                                     "play the chosen action; bots finish the hand")
        self.explore_button.on_click(lambda _: self._explore_clicked())
        self.try_text = widgets.Text(placeholder="or type an action, e.g. bid 2",
                                     description="try", layout=widgets.Layout(width="300px"))
        self.try_text.add_class("cardlab-try")
        self.try_button = button("try it", "cardlab-try-go",
                                 "the engine says whether it is legal, and why not")
        self.try_button.on_click(lambda _: self._try_clicked())
        self.message = widgets.HTML()
        self.message.add_class("cardlab-message")
        self.compare = widgets.HTML()
        self.compare.add_class("cardlab-compare")

        self.keys = _keys_widget()
        if self.keys is not None:
            self.keys.add_class("cardlab-keys")
            self.keys.on_msg(self._on_key)

        self.chart: Any = None
        self._chart_key: tuple[Any, ...] | None = None
        if chart:
            self.chart = self._make_chart()

        self._refresh_lines()
        controls = [self.first_button, self.prev_button, self.next_button, self.last_button,
                    self.play, self.speed]
        if self.keys is not None:
            controls.append(self.keys)
        title = widgets.HTML(style_tag() + self._title_html())
        explore_row = widgets.HBox([self.action_select, self.bots_select, self.seed_box,
                                    self.explore_button])
        try_row = widgets.HBox([self.try_text, self.try_button])
        bottom: list[Any] = [self.sheet]
        if self.chart is not None:
            bottom.append(self.chart)
        self.widget = widgets.VBox([
            title,
            widgets.HBox(controls),
            widgets.HBox([self.slider]),
            widgets.HBox([self.hand_select, self.trick_select, self.seat_select,
                          self.lang_select]),
            widgets.HBox([self.line_select]),
            self.table, self.status, self.note,
            widgets.HBox(bottom),
            widgets.HTML("<b>What if?</b> Play another legal action here; bots finish the "
                         "hand, and the variation is stored in the replay."),
            explore_row, try_row, self.message, self.compare,
        ])
        self.widget.add_class("cardlab-viewer")
        self._show()

    # -- display -------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def __repr__(self) -> str:
        return (f"<ReplayViewer {self.game} step {self.cursor.index}/{len(self.cursor) - 1} "
                f"{_explore.describe(self.replay, self._line_hand() or 0, self.cursor.path)}>")

    def _title_html(self) -> str:
        from ..game import get_game

        title = _esc(str(self.replay.meta.get("title") or get_game(self.game).title))
        seed = f" · seed {_esc(str(self.replay.seed))}" if self.replay.seed is not None else ""
        names = _esc(", ".join(self.replay.seats))
        return f"<b>{title}</b> · {names}{seed}"

    # -- moving (the public API) ------------------------------------------------------------
    @property
    def step(self) -> int:
        return self.cursor.index

    @property
    def position(self) -> dict[str, Any]:
        return self._pos

    def goto(self, step: int) -> ReplayViewer:
        step = max(0, min(step, len(self.cursor) - 1))
        if self.slider.value == step:
            self._show()
        else:
            self.slider.value = step  # the observer shows it
        return self

    def next(self) -> ReplayViewer:
        return self.goto(self.cursor.index + 1)

    def prev(self) -> ReplayViewer:
        return self.goto(self.cursor.index - 1)

    def first(self) -> ReplayViewer:
        return self.goto(0)

    def last(self) -> ReplayViewer:
        return self.goto(len(self.cursor) - 1)

    def goto_hand(self, hand: int) -> ReplayViewer:
        """Jump to just after the deal of hand ``hand`` (1-based, as in ``replay.hands``)."""
        return self.goto(self.cursor.find(hand, 0))

    def goto_trick(self, hand: int, trick: int) -> ReplayViewer:
        """Jump to the first card of trick ``trick`` (1-based) of hand ``hand`` (1-based)."""
        index = self.cursor.index
        try:
            target = self.cursor.goto_trick(hand, trick).index
        finally:
            self.cursor.goto(index)
        return self.goto(target)

    def goto_action(self, hand: int, index: int) -> ReplayViewer:
        """Jump to the step after ``index`` actions of hand ``hand`` (1-based)."""
        return self.goto(self.cursor.find(hand, index))

    def set_seat(self, seat: int | str | None) -> ReplayViewer:
        """Show one seat's view only (by index or name), or everyone's with ``None``."""
        index = self._seat_index(seat)
        self.seat_select.value = -1 if index is None else index
        return self

    def set_lang(self, lang: str) -> ReplayViewer:
        self.lang_select.value = lang
        return self

    def set_line(self, hand: int | None = None, path: LinePath = ()) -> ReplayViewer:
        """Follow the main line (``hand=None``) or variation ``path`` of hand ``hand``."""
        self._set_line(hand if path else None, path)
        self._sync_line_select()
        return self

    def explore(self, action: str, bots: str | None = None, seed: int | None = None
                ) -> _explore.Branch:
        """Play ``action`` instead of the recorded one at this step; bots finish the hand;
        the variation is stored in the replay and shown. Raises if the action is illegal."""
        step = self.cursor.step
        hand = step.hand
        path = self.cursor.path if self._line_key[0] is not None else ()
        branch = _explore.branch(
            self.replay, hand, step.index, action,
            bots=bots or self.bots_select.value,
            seed=self.seed_box.value if seed is None else seed, path=path)
        self.last_branch = branch
        self._refresh_lines()
        self._set_line(hand, branch.path, index=step.index + 1)
        self._sync_line_select()
        self.compare.value = self._compare_html(branch)
        self.message.value = ""
        return branch

    # -- what is shown (for notebooks and tests) --------------------------------------------
    def trick_cards(self) -> list[str]:
        """The card codes shown in the centre (the trick in play, or the one just taken)."""
        shown = shown_trick(self._pos)
        return [] if shown is None else [code for _, code in shown["cards"]]

    def note_text(self) -> str | None:
        return self.cursor.note(self.lang)

    def lines(self) -> list[tuple[str, tuple[int | None, LinePath]]]:
        """The lines the viewer can follow: (label, (hand, path))."""
        return list(self.line_select.options)

    # -- internals -----------------------------------------------------------------------
    def _seat_index(self, seat: int | str | None) -> int | None:
        if seat is None or seat == -1:
            return None
        if isinstance(seat, str):
            return self.replay.seat_index(seat)
        if not 0 <= seat < len(self.replay.seats):
            raise CardlabError(f"seat {seat} is outside 0..{len(self.replay.seats) - 1}")
        return seat

    def _line_hand(self) -> int | None:
        return self._line_key[0]

    def _place_seats(self) -> None:
        bottom = home_seat(self.replay.seats) if self._seat is None else self._seat
        cells = seat_cells(len(self.seat_boxes), bottom)
        for box, (row, col) in zip(self.seat_boxes, cells, strict=True):
            box.layout.grid_area = f"{row} / {col}"

    @staticmethod
    def _dropdown(description: str, width: str, css: str, handler: Any,
                  **kwargs: Any) -> Any:
        """A dropdown with a CSS class (for browser tests) that calls ``handler`` on change."""
        widgets = require("ipywidgets")
        dropdown = widgets.Dropdown(description=description, layout=widgets.Layout(width=width),
                                    **kwargs)
        dropdown.add_class(css)
        dropdown.observe(handler, names="value")
        return dropdown

    def _on_speed(self, _: Any) -> None:
        self.play.interval = max(50, int(1000 / self.speed.value))

    def _on_slider(self, change: Any) -> None:
        self._show()

    def _on_key(self, _widget: Any, content: Any, _buffers: Any) -> None:
        key = content.get("key") if isinstance(content, dict) else None
        if key == "ArrowRight":
            self.next()
        elif key == "ArrowLeft":
            self.prev()
        elif key == "Home":
            self.first()
        elif key == "End":
            self.last()
        elif key in ("PageUp", "PageDown"):
            hand = self.cursor.step.hand + (1 if key == "PageDown" else -1)
            if any(s.hand == hand for s in self.cursor.steps):
                self.goto(self.cursor.find(hand + 1, 0))

    def _on_hand(self, change: Any) -> None:
        if self._syncing or change["new"] is None:
            return
        self.goto(self.cursor.find(change["new"] + 1, 0))

    def _on_trick(self, change: Any) -> None:
        if self._syncing or not change["new"]:
            return
        self.goto_trick(self.cursor.step.hand + 1, change["new"])

    def _on_seat(self, change: Any) -> None:
        self._seat = self._seat_index(change["new"])
        self.cursor.seat = self._seat
        self._place_seats()
        self._show()

    def _on_lang(self, change: Any) -> None:
        self.lang = change["new"]
        self._show()

    def _on_line(self, change: Any) -> None:
        if self._syncing or change["new"] is None:
            return
        hand, path = change["new"]
        self._set_line(hand, path)

    def _set_line(self, hand: int | None, path: LinePath, index: int | None = None) -> None:
        here = self.cursor.step
        self.cursor = Cursor(self.replay, hand, path, self._seat)
        self._line_key = (hand, path)
        self._chart_key = None
        if index is None:  # keep the same place in the hand where the new line has it
            index = here.index
        target_hand = here.hand if hand is None else hand
        last = max((s.index for s in self.cursor.steps if s.hand == target_hand), default=0)
        try:
            step = self.cursor.find(target_hand + 1, min(index, last))
        except CardlabError:
            step = 0
        self._syncing = True
        try:
            self.slider.max = self.play.max = len(self.cursor) - 1
        finally:
            self._syncing = False
        self.goto(step)

    def _sync_line_select(self) -> None:
        self._syncing = True
        try:
            self.line_select.value = self._line_key if self._line_key[1] else (None, ())
        finally:
            self._syncing = False

    def _refresh_lines(self) -> None:
        options: list[tuple[str, tuple[int | None, LinePath]]] = [("main line", (None, ()))]
        for h in range(len(self.replay.hands)):
            for path in self.replay.variation_paths(h):
                options.append((_explore.describe(self.replay, h, path), (h, path)))
        self._syncing = True
        try:
            self.line_select.options = options
            self.line_select.value = self._line_key if self._line_key[1] else (None, ())
            self.line_select.disabled = len(options) == 1
        finally:
            self._syncing = False

    def _hand_options(self) -> list[tuple[str, int]]:
        hands = self.cursor.hands
        out = []
        for res in self._hand_results():
            if res.hand_index in hands:
                size = res.end.get("hand_size")
                label = f"{res.number}" + (f" · {size} cards" if size else "")
                attempt = res.end.get("attempt")
                if isinstance(attempt, int) and attempt > 1:
                    label += f" (deal {attempt})"
                out.append((label, res.hand_index))
        return out

    def _hand_results(self, key: tuple[int | None, LinePath] | None = None) -> list[HandResult]:
        key = self._line_key if key is None else key
        if key not in self._results:
            self._results[key] = hand_results_list(self.replay, key[0], key[1])
        return self._results[key]

    def _trick_count(self, hand: int) -> int:
        key = (self._line_key, hand)
        if key not in self._trick_counts:
            state = _explore.line_state(self.replay, hand, self.cursor.path
                                        if self._line_key[0] == hand else ())
            end = state.snapshot(None)
            count = len(end.get("tricks") or ()) + (1 if end.get("trick", {}).get("cards")
                                                    else 0)
            self._trick_counts[key] = count
        return self._trick_counts[key]

    def _sheet(self, current: int | None) -> str:
        key = (self._line_key, current)
        html = self._sheet_cache.get(key)
        if html is None:
            rows = sheet_rows(self.replay, self._line_key[0], self._line_key[1],
                              self._hand_results())
            label = "game " if self.game == "whot" else "#"
            html = sheet_html(rows, self.replay.seats, current, label)
            self._sheet_cache[key] = html
        return html

    def _show(self) -> None:
        """Draw the step the slider points at (the one place that draws)."""
        if self._syncing:
            return
        self.cursor.goto(self.slider.value)
        pos = self.cursor.position
        self._pos = pos
        game = self.game
        for s, box in enumerate(self.seat_boxes):
            box.value = seat_html(pos, s, game)
        self.trick.value = centre_html(pos, game)
        self.status.value = status_html(pos)
        self.note.value = note_html(self.cursor.note(self.lang))
        self.sheet.value = self._sheet(pos.get("hand"))
        self._sync_selects(pos)
        self._update_explore(pos)
        self._update_chart(pos)

    def _sync_selects(self, pos: dict[str, Any]) -> None:
        self._syncing = True
        try:
            options = self._hand_options()
            if list(self.hand_select.options) != options:
                self.hand_select.options = options
            self.hand_select.value = pos["hand_index"]
            hand = pos["hand_index"]
            count = self._trick_count(hand) if "trick" in pos else 0
            tricks = [("—", 0)] + [(str(t), t) for t in range(1, count + 1)]
            if list(self.trick_select.options) != tricks:
                self.trick_select.options = tricks
            self.trick_select.disabled = count == 0
            current = 0
            shown = shown_trick(pos)
            if shown is not None and shown["cards"]:
                current = len(pos.get("tricks") or ()) + (0 if shown["complete"] else 1)
            self.trick_select.value = current
        finally:
            self._syncing = False

    def _update_explore(self, pos: dict[str, Any]) -> None:
        step = self.cursor.step
        line = self.cursor.line
        can = step.index < len(line) and pos.get("to_act") is not None
        options: list[str] = []
        if can:
            played = line[step.index].act
            options = [t for t in self.cursor.state.legal_texts() if t != played]
        if list(self.action_select.options) != options:
            self.action_select.options = options
            self.action_select.value = options[0] if options else None
        self.action_select.disabled = not options
        self.explore_button.disabled = not options

    def _explore_clicked(self) -> None:
        if not self.action_select.value:
            return
        try:
            self.explore(self.action_select.value)
        except CardlabError as err:
            self.message.value = f'<span class="cl-error">{_esc(str(err))}</span>'

    def _try_clicked(self) -> None:
        text = self.try_text.value.strip()
        if not text:
            return
        try:
            self.explore(text)
        except CardlabError as err:
            self.message.value = f'<span class="cl-error">refused: {_esc(str(err))}</span>'

    def _compare_html(self, branch: _explore.Branch) -> str:
        main_totals = self._final_totals((None, ()))
        alt_totals = self._final_totals((branch.hand, branch.path))
        rows = []
        for s, row in enumerate(branch.compare()):
            change = row["change"]
            rows.append(
                f"<tr><th>{_esc(row['seat'])}</th><td>{_fmt(row['main'])}</td>"
                f"<td>{_fmt(row['variation'])}</td>"
                f"<td>{'' if change is None else f'{change:+d}'}</td>"
                f"<td>{main_totals[s]}</td><td>{alt_totals[s]}</td></tr>")
        word = "game" if self.game == "whot" else "hand"
        total = "rubber" if self.game == "whot" else "game"
        head = (f"<tr><th></th><th>{word}, as played</th><th>{word}, variation</th>"
                f"<th>change</th><th>{total} total, as played</th><th>with the variation</th>"
                "</tr>")
        label = _esc(_explore.describe(self.replay, branch.hand, branch.path))
        return (f"<div><b>Main line vs variation</b> ({label})</div>"
                f'<table class="cl-compare">{head}{"".join(rows)}</table>')

    def _final_totals(self, key: tuple[int | None, LinePath]) -> list[int]:
        results = self._hand_results(key)
        return results[-1].totals if results else [0] * len(self.replay.seats)

    # -- chart ---------------------------------------------------------------------------
    def _make_chart(self) -> Any:
        try:
            go = require("plotly.graph_objects")
            from .charts import score_evolution

            # the bare template keeps the widget's state (sent when it opens) a few kB small
            fig = score_evolution(self.replay, self._line_key[0], self._line_key[1],
                                  marker=0.0, template="none", results=self._hand_results())
            fig.update_layout(height=300, width=520, plot_bgcolor="white", font={"size": 11})
            fig.update_xaxes(gridcolor="#eee", zeroline=False)
            fig.update_yaxes(gridcolor="#eee", zerolinecolor="#ccc")
            widget = go.FigureWidget(fig)
        except (ImportError, ValueError) as err:  # plotly or anywidget missing
            self.message.value = (f'<span class="cl-error">no score chart: {_esc(str(err))}'
                                  "</span>")
            return None
        widget.add_class("cardlab-chart")
        self._chart_key = self._line_key
        return widget

    def _marker_x(self, pos: dict[str, Any]) -> float:
        line = self.cursor.line
        done = pos["action_index"] / len(line) if line else 1.0
        return pos["hand_index"] + done

    def _update_chart(self, pos: dict[str, Any]) -> None:
        chart = self.chart
        if chart is None:
            return
        if self._chart_key != self._line_key:
            from .charts import score_series

            xs, series = score_series(self.replay, self._line_key[0], self._line_key[1],
                                      self._hand_results())
            with chart.batch_update():
                for trace, ys in zip(chart.data, series, strict=True):
                    trace.x, trace.y = xs, ys
            self._chart_key = self._line_key
        x = self._marker_x(pos)
        shape = chart.layout.shapes[0]
        if shape.x0 != x:
            with chart.batch_update():
                shape.x0 = x
                shape.x1 = x


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _fmt(value: int | None) -> str:
    return "—" if value is None else str(value)


__all__ = ["ReplayViewer"]
