"""Untrusted text stays text (issue 10, item 6).

A replay comes from anywhere, and JavaScript in a notebook's output can run code in the
kernel. So a valid replay whose every string is an injection (seat names, the title and the
other meta strings, the notes of the deal and of every action in two languages, the notes of
its variations) goes through every HTML that cardlab makes from Python: the score sheet (pandas
Styler and the hand-written table), every frame as a notebook shows it, the comparison of a
branch, and every plotly chart (whose titles, legend names, tick labels and hover text plotly
reads as HTML of its own). The output is parsed with the standard library's HTML parser: no
element or attribute came from the file, and the file's text is there, as text.
"""

from __future__ import annotations

import html
import json
import random
from html.parser import HTMLParser
from typing import Any

import pandas
import plotly.graph_objects as go
import pytest

import cardlab
from cardlab import dataframes, explore
from cardlab.bots import make_bot
from cardlab.replay import Action
from cardlab.view import charts

SEATS = [
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(2)>',
    "<script>alert(3)</script>",
    '<a href="javascript:alert(4)">me</a>',
    "</style></table><b onclick=x>&amp;",
]
TITLE = "</title><script>alert(5)</script>"
SOURCE = "<iframe src=javascript:alert(6)></iframe>"


def note(step: int, lang: str) -> str:
    return f'{lang} {step}: <img src=y onerror="alert({step})"><script>alert(0)</script>'


def hostile_replay(game: str, seed: int = 3) -> cardlab.Replay:
    """A valid game recorded with the recording API, every string of it an injection."""
    options: dict[str, Any] = {"players": len(SEATS)}
    if game == "bobs-hat":
        options["hands"] = 2
    elif game == "whot":
        options.update(rubber="single", max_turns=200)
    else:
        options["start_size"] = 2
    table = cardlab.new_game(game, seed=seed, seats=SEATS,
                             meta={"title": TITLE, "source": SOURCE,
                                   "languages": ["en", "<no>"], "by": {"<b>": "<i>x</i>"}},
                             **options)
    table.note({"en": note(0, "en"), "no": note(0, "no")})  # the deal of hand 1
    bots = [make_bot("random", game, seed=s) for s in range(len(SEATS))]
    step = 0
    while table.state.to_act() >= 0:
        seat = table.state.to_act()
        table.apply(bots[seat](table.state, seat))
        step += 1
        table.note({"en": note(step, "en"), "no": note(step, "no")} if step % 3 else
                   note(step, "plain"))
    replay = table.replay
    _add_variation(replay)
    return cardlab.loads(replay.to_json())  # what a file gives back


def _add_variation(replay: cardlab.Replay) -> None:
    """A stored alternative in hand 1, its notes injections too."""
    line = replay.hands[0].actions
    state = replay.new_state()
    state.apply_chance(replay.hands[0].deal)
    choices: list[int] = []
    for index, action in enumerate(line):  # noqa: B007 - index is used after the loop
        choices = [a for a in state.legal_actions() if state.action_text(a) != action.act]
        if choices:
            break
        state.act(action.act)
    assert choices, "hand 1 should offer a choice somewhere"
    rng = random.Random(5)
    actions = []
    move = choices[0]
    while True:
        actions.append(Action(replay.seats[state.to_act()], state.action_text(move),
                              note={"en": note(900 + len(actions), "variation")}))
        state.apply(move)
        if state.to_act() < 0 or state.hand_number() != 1:
            break
        legal = state.legal_actions()
        move = legal[rng.randrange(len(legal))]
    replay.add_variation(1, (), index, actions)


GAMES = sorted(cardlab.list_games())


@pytest.fixture(scope="module", params=GAMES)
def hostile(request) -> cardlab.Replay:
    return hostile_replay(request.param)


class Parsed(HTMLParser):
    """Elements, attributes and text of an HTML string."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.data: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.data.append(data)

    @property
    def text(self) -> str:
        return "".join(self.data)


TABLE_TAGS = {"div", "style", "table", "thead", "tbody", "tr", "th", "td", "span", "p"}


def notebook_html(df: pandas.DataFrame) -> str:
    """What a notebook shows for a frame, every cell in full (pandas cuts long cells)."""
    with pandas.option_context("display.max_colwidth", None, "display.max_rows", None):
        return df._repr_html_()


def assert_inert(markup: str, allowed: set[str], shown: list[str]) -> Parsed:
    """Only ``allowed`` elements, no event handler or script link, and each of ``shown``
    present as text."""
    parsed = Parsed(markup)
    assert set(parsed.tags) <= allowed, set(parsed.tags) - allowed
    for name, value in parsed.attrs:
        assert not name.startswith("on"), (name, value)
        assert "javascript:" not in (value or "").lower(), (name, value)
    for text in shown:
        assert text in parsed.text, text
    return parsed


def test_the_hostile_replay_is_valid_and_keeps_its_strings(hostile):
    assert hostile.seats == SEATS
    assert hostile.meta["title"] == TITLE
    assert hostile.hands[0].note == {"en": note(0, "en"), "no": note(0, "no")}
    assert hostile.variation_paths(1)
    text = cardlab.text.render(hostile)
    assert TITLE in text and SEATS[0] in text


def test_the_score_sheets_show_seat_names_as_text(hostile):
    styled = dataframes.styled_sheet(hostile, current=1).to_html()
    assert_inert(styled, TABLE_TAGS, SEATS)
    assert "#fff3b0" in styled  # still highlighted


def test_every_frame_shows_the_files_text_as_text(hostile):
    for lang in ("en", "no"):
        steps = dataframes.steps(hostile, lang=lang)
        shown = [n for n in steps["note"].dropna().tolist()[:5]]
        assert shown and all("<script>" in n for n in shown)
        assert_inert(notebook_html(steps), TABLE_TAGS, SEATS[:1] + shown)
    variation = hostile.variation_paths(1)[0]
    steps = dataframes.steps(hostile, hand=1, path=variation, lang="en")
    assert_inert(notebook_html(steps), TABLE_TAGS, [note(900, "variation")])
    for make in (dataframes.score_sheet, dataframes.hand_results, dataframes.plays,
                 dataframes.tricks, dataframes.seat_steps, dataframes.score_components,
                 dataframes.bid_results):
        df = make(hostile)
        shown = [n for n in SEATS if len(df) and n in df.to_numpy().tolist().__repr__()
                 or n in list(df.columns)]
        assert_inert(notebook_html(df), TABLE_TAGS, shown)


def test_a_branch_compared_shows_seat_names_as_text(hostile):
    state = explore.line_state(hostile, 1, (), 1)  # hand 1, after its first action
    recorded = hostile.hands[0].actions[1].act
    other = next(t for t in state.legal_texts() if t != recorded)
    branch = explore.branch(hostile, hand=1, index=1, action=other, bots="random")
    assert_inert(notebook_html(branch.frame()), TABLE_TAGS, SEATS)


def figure_strings(value: Any) -> list[str]:
    """Every string a figure holds (titles, names, tick labels, hover text...)."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif hasattr(item, "tolist"):
            stack.append(item.tolist())
    return out


def chart_figures(replay: cardlab.Replay) -> dict[str, go.Figure]:
    figures = {
        "score_evolution": charts.score_evolution(replay, marker=1.0),
        "score_components": charts.score_components(replay),
        "bid_success": charts.bid_success(replay),
        "cards_taken": charts.cards_taken(replay),
        "cards_taken hand 1": charts.cards_taken(replay, hand=1),
        "cards_in_hand": charts.cards_in_hand(replay),
    }
    if replay.game == "bobs-hat":
        figures["hat_travels"] = charts.hat_travels(replay, 1)
    return figures


def test_chart_labels_show_seat_names_as_text(hostile):
    clean = charts.score_evolution(cardlab.loads(cardlab.new_game(
        hostile.game, players=len(SEATS), seed=1).replay.to_json()))
    scripts = Parsed(clean.to_html(include_plotlyjs=False, full_html=False)).tags.count(
        "script")
    for name, fig in chart_figures(hostile).items():
        strings = figure_strings(fig.to_plotly_json())
        for text in strings:
            # plotly's own pseudo-HTML: only the line breaks and bold cardlab writes itself
            assert_inert(text, {"br", "b"}, [])
        shown = html.unescape("\n".join(strings))
        if hostile.game == "bobs-hat" or name in ("score_evolution", "bid_success",
                                                  "cards_in_hand"):
            for seat in SEATS:
                assert seat in shown, (name, seat)
        page = Parsed(fig.to_html(include_plotlyjs=False, full_html=False))
        assert set(page.tags) <= {"div", "script"}, (name, set(page.tags))
        assert page.tags.count("script") == scripts, name
        assert not [a for a, _ in page.attrs if a.startswith("on")], name


def test_a_charts_notebook_output_shows_seat_names_as_text(hostile):
    """What a notebook stores for a chart (issue 20): the SVG drawing that an HTML export
    shows, and the figure in Lab's theme, whose texts cardlab wraps in spans of its own."""
    from cardlab.view.chartshow import PLOTLY_MIME, mimebundle
    from cardlab.view.chartsvg import SVG_PLOT_TAGS

    drawing_tags = {tag.lower() for tag in SVG_PLOT_TAGS}  # as an HTML parser names them
    for name, fig in chart_figures(hostile).items():
        bundle = mimebundle(fig)
        drawing = assert_inert(bundle["text/html"], drawing_tags, [])
        shown = drawing.text
        if hostile.game == "bobs-hat" or name in ("score_evolution", "bid_success",
                                                  "cards_in_hand"):
            for seat in SEATS:
                assert seat in shown, (name, seat)
        assert {a for a, _ in drawing.attrs} <= {
            "xmlns", "class", "viewbox", "width", "height", "role", "aria-label",
            "font-family", "style", "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "d",
            "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray",
            "font-size", "font-weight", "text-anchor", "transform", "dy", "id",
            "clip-path"}, name
        for text in figure_strings(bundle[PLOTLY_MIME]):
            parsed = assert_inert(text, {"br", "b", "span"}, [])
            styles = {value for attr, value in parsed.attrs if attr == "style"}
            assert {attr for attr, _ in parsed.attrs} <= {"style"}, (name, text)
            assert all(v and v.startswith("color:var(--jp-content-font-color")
                       for v in styles), (name, styles)


def test_the_standalone_page_holds_the_files_text_as_data(hostile):
    """The page's markup is its own template whatever the file says; the file's strings
    travel as JSON data (which the front-end inserts as text: the browser test checks)."""
    from cardlab.view.page import page_html

    plain = cardlab.new_game(hostile.game, players=len(SEATS), seed=1).replay
    clean, page = Parsed(page_html(plain)), Parsed(page_html(hostile))
    assert set(page.tags) <= set(clean.tags), set(page.tags) - set(clean.tags)
    assert page.tags.count("script") == clean.tags.count("script") == 2
    assert {name for name, _ in page.attrs} == {name for name, _ in clean.attrs}
    assert not [name for name, _ in page.attrs if name.startswith("on")]
    assert TITLE in page.text  # the <title>, as text
    markup = page_html(hostile)
    start = markup.index('<script type="application/json" id="cardlab-movie">')
    body = markup[markup.index(">", start) + 1:markup.index("</script>", start)]
    strings = "\n".join(figure_strings(json.loads(body)))
    for text in [*SEATS, TITLE, note(1, "en")]:
        assert text in strings, text


def test_the_viewers_box_for_an_html_export_has_no_markup_from_the_file(hostile, monkeypatch):
    """Displayed, the viewer also shows a box that draws it in a notebook's HTML export (from
    the widget's saved state) and, where it cannot, says what the replay is: the file's
    strings are in it as text only."""
    import IPython.display

    from cardlab.view.widget import ReplayViewer

    shown: list[Any] = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **kw: shown.extend(objs))
    viewer = ReplayViewer(hostile)
    viewer._ipython_display_()
    boxes = [obj["text/html"] for obj in shown if isinstance(obj, dict)]
    assert len(boxes) == 1
    box = Parsed(boxes[0])
    assert box.tags == ["div", "p", "script"]  # export_box's own, whatever the file says
    assert not [name for name, _ in box.attrs if name.startswith("on")]
    assert dict(box.attrs)["data-cardlab-model"] == viewer.widget.model_id
    text = "".join(box.data)
    for name in [*SEATS, TITLE]:
        assert name in text, name  # as text
    assert repr(viewer.widget).startswith(TITLE)  # the widget's text/plain: the summary
