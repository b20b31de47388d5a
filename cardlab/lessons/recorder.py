"""Record a game played in class: the :class:`Recorder` widget over :class:`cardlab.table.Table`.

The teacher enters the setup (Ted's Game's draw and Whot's cut for first dealer), each deal
(each seat's cards, and the trump card, the card turned up or Whot's stock) by clicking cards of
the deck or typing codes (the game's aliases work: ``blå14``, ``TH``, ``queen of spades``), then
each bid and card by clicking the choices of the seat to act or typing. The engine checks every
entry at once; a refusal shows the rules' reason in the widget and changes nothing. *Undo*
takes back the last entry: the replay is the source of truth, so the recorder rebuilds the
table from the replay without its last entry. The replay is saved atomically
(:meth:`cardlab.Replay.save`) after every entry, so a dead kernel loses nothing; a recorder
opened on the same path goes on where the file ends.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "class.json"
>>> rec = Recorder(path, "teds-game", players=3, start_size=1)
>>> rec.phase
'setup'
>>> for code in ("3D", "7H", "4H"):
...     _ = rec.pick(code)
>>> rec.submit(), rec.phase
(True, 'deal')
>>> rec.enter("purple9")
False
>>> rec.message
"'purple9' is not a card of the 52-card deck (codes look like 2C, 3C, 4C, ...)"
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

from ..dataframes import require, sheet_rows
from ..errors import CardlabError, OptionError, sentence
from ..game import GameType, get_game, list_games
from ..loader import load
from ..replay import Replay
from ..table import Table, new_game
from ..view.assets import module, stylesheet
from ..view.wording import Context, card_faces, pretty
from ..words import names_and, plural

anywidget = require("anywidget")  # the widgets extra: pip install 'cardlab[widgets]'
traitlets = require("traitlets")

HERE = Path(__file__).parent
MAX_TEXT = 200  # the longest entry the widget takes from the browser


class RecorderWidget(anywidget.AnyWidget):  # type: ignore[misc,name-defined]
    """The anywidget of a :class:`Recorder`; ``recorder.js``/``recorder.css`` draw ``data``."""

    _esm = module(HERE / "recorder.js")  # after common.js, the helpers the widgets share
    _css = stylesheet(HERE / "recorder.css")  # after cards.css
    data = traitlets.Dict({}).tag(sync=True)


def rebuild(replay: Replay) -> Table:
    """A recording table holding ``replay``'s main line, every entry checked again.

    What a recording keeps: the setup, the deals, the actions and their notes; no seed (deals
    are entered, never drawn), no variations and no advisor records.
    """
    base = Replay(game=replay.game, options=dict(replay.options), seats=list(replay.seats),
                  meta=dict(replay.meta))
    table = Table(base)
    if replay.setup is not None:
        table.setup(replay.setup)
    for hand in replay.hands:
        table.deal(hand.deal, note=hand.note)
        for action in hand.actions:
            table.act(action.act, action.note, seat=action.seat)
    return table


class Recorder:
    """Record a real game entry by entry, saving the replay to ``path`` after each one.

    A new recording needs the game (and its options: ``players=4``, ``seats=[...]``, any rules
    option); an existing file at ``path`` is opened and the recording goes on from its end.
    Display the recorder (the last line of a cell) to show the widget.
    """

    def __init__(self, path: str | os.PathLike[str], game: str | None = None,
                 players: int | None = None, seats: list[str] | None = None,
                 meta: dict[str, Any] | None = None, **options: Any) -> None:
        self.path = Path(path)
        if self.path.exists():
            loaded = load(self.path)
            if game is not None and game != loaded.game:
                raise OptionError(f"{self.path}: the file records {loaded.game}, not {game}")
            asked = dict(options, **({"players": players} if players is not None else {}))
            for key, value in asked.items():
                if loaded.options.get(key) != value:
                    raise OptionError(f"{self.path}: the file records {key}="
                                      f"{loaded.options.get(key)!r}, not {value!r}")
            if seats is not None and list(seats) != loaded.seats:
                raise OptionError(f"{self.path}: the file's seats are "
                                  f"{', '.join(loaded.seats)}")
            self.table = rebuild(loaded)
        else:
            if game is None:
                first = sorted(list_games())[0]
                raise CardlabError(f"{self.path}: no such file; to start a new recording, "
                                   f"give the game (Recorder(path, {first!r}, players=4))")
            self.table = new_game(game, players, seats=seats, meta=meta, **options)
        self.message = ""  # the last refusal (the rules' reason), "" when the last entry stood
        self.said = "opened " + self.path.name if self.path.exists() else "a new recording"
        self._draft: dict[str, Any] = {}
        self._new_draft()
        self.widget = RecorderWidget()
        self.widget.add_class("cardlab-recorder-widget")
        self.widget.on_msg(self._on_message)
        self._show()

    # -- what is recorded --------------------------------------------------------------------
    @property
    def replay(self) -> Replay:
        return self.table.replay

    @property
    def game(self) -> str:
        return self.replay.game

    @property
    def phase(self) -> str:
        """``"setup"``, ``"deal"`` (a chance step is due), ``"play"`` or ``"over"``."""
        state = self.table.state
        kind = state.chance_kind()
        if kind is not None:
            return kind
        return "over" if state.is_game_over() else "play"

    def entries(self) -> int:
        """How many entries the recording holds: the setup, each deal, each action."""
        replay = self.replay
        return (replay.setup is not None) + sum(1 + len(h.actions) for h in replay.hands)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- the draft of a chance step (the setup or a deal), picked card by card ---------------
    @property
    def game_type(self) -> GameType:
        return self.replay.rules.game.game_type

    def _codes(self) -> list[str]:
        return self.replay.rules.card_codes()  # Whot: one pack or two

    def _new_draft(self, record: Any = None) -> None:
        """An empty draft shaped like the chance step due (read off a seeded record of it,
        so the recorder knows no rule), or one holding ``record`` (a deal taken back)."""
        state = self.table.state
        kind = state.chance_kind()
        self._draft = {"kind": kind, "order": []}
        if kind is None:
            return
        shape = state.clone().seeded_chance(0)
        n = len(self.replay.seats)
        if kind == "setup":
            key = next(k for k, v in shape.items() if isinstance(v, list))
            rows = [list(r) for r in record[key]] if record else [[None] * n]
            self._draft.update(key=key, rows=rows, dealer="first_dealer" in shape)
            return
        sizes = [len(h) for h in shape["hands"]]
        self._draft.update(sizes=sizes, hands=[[] for _ in range(n)],
                           extra=next((k for k in shape if k != "hands"), None))
        extra = self._draft["extra"]
        self._draft["single"] = isinstance(shape.get(extra), str)
        self._draft[extra] = [] if not self._draft["single"] else None
        if record is not None:
            self._draft["hands"] = [list(h) for h in record["hands"]]
            single = self._draft["single"]
            self._draft[extra] = record[extra] if single else list(record[extra])

    def _owner(self, code: str) -> str | None:
        """Where the draft already holds ``code``, as a slot name."""
        d = self._draft
        if d["kind"] == "setup":
            for r, row in enumerate(d["rows"]):
                for s, held in enumerate(row):
                    if held == code:
                        return f"row:{r}:{s}"
            return None
        for s, hand in enumerate(d["hands"]):
            if code in hand:
                return f"seat:{s}"
        extra = d["extra"]
        if (d[extra] == code) if d["single"] else code in d[extra]:
            return extra  # type: ignore[no-any-return]
        return None

    def _slot_name(self, slot: str) -> str:
        """What a slot of the draft is called; a slot the draft has not is refused."""
        seats, d = self.replay.seats, self._draft
        n = len(seats)
        parts = slot.split(":")
        numbers = [int(p) for p in parts[1:] if p.isdigit() and len(p) < 4]
        if d["kind"] == "deal" and parts[0] == "seat" and len(numbers) == 1 == len(parts) - 1 \
                and numbers[0] < n:
            return seats[numbers[0]]
        if d["kind"] == "setup" and parts[0] == "row" and len(numbers) == 2 == len(parts) - 1 \
                and numbers[0] < len(d["rows"]) and numbers[1] < n:
            return f"{seats[numbers[1]]} (round {numbers[0] + 1})"
        if d["kind"] == "deal" and slot == d["extra"]:
            return {"turned": "the card turned up", "stock": "the stock",
                    "trump": "trump"}.get(slot, slot)
        raise CardlabError(f"there is no place {slot!r} in this "
                           f"{'draw' if d['kind'] == 'setup' else 'deal'}")

    def _free_slot(self, code: str) -> str:
        """The slot a card picked with no slot chosen goes to: the first with room."""
        d = self._draft
        if d["kind"] == "setup":
            r = len(d["rows"]) - 1
            for s, held in enumerate(d["rows"][r]):
                if held is None:
                    return f"row:{r}:{s}"
            raise CardlabError(f"every player has a card in round {r + 1}: choose whose card "
                               "to change, or take one back")
        if d["extra"] == "trump" and code in self.game_type.trump_words:
            return "trump"
        for s, hand in enumerate(d["hands"]):
            if len(hand) < d["sizes"][s]:
                return f"seat:{s}"
        return d["extra"]  # type: ignore[no-any-return]

    def pick(self, text: str, slot: str | None = None) -> bool:
        """Put a card (a code, aliases too) into the draft of the setup or deal: into
        ``slot`` (``"seat:2"``, ``"turned"``, ``"stock"``, ``"trump"``, ``"row:0:1"``: round 1
        of the draw, seat 1), or the first with room. Bob's Hat's trump takes a word
        (``"gray"``: no trump). Returns False, with :attr:`message`, when refused."""
        try:
            self._pick(str(text).strip(), slot)
        except CardlabError as err:
            return self._refuse(err)
        return self._fine("", save=False)

    def _pick(self, text: str, slot: str | None) -> None:
        d = self._draft
        if d["kind"] is None:
            raise CardlabError("no deal or draw is due: enter the actions")
        if d["kind"] == "deal" and d["extra"] == "trump":
            words = self.game_type.trump_words
            if slot == "trump" or (slot is None and text.lower() in words):
                if text.lower() not in words:
                    raise CardlabError(f"the trump card is {', '.join(words[:-1])} or "
                                       f"{words[-1]}, not {text!r}")
                d["order"] = [e for e in d["order"] if e[0] != "trump"]
                d["trump"] = text.lower()
                d["order"].append(("trump", d["trump"]))
                return
        deck: Any = get_game(self.game).rules_class.deck
        code = deck.codes[deck.parse(text)]
        if code not in self._codes():
            raise CardlabError(f"{self._name(code)} is a card of the second pack, which this "
                               "game does not use")
        held = self._owner(code)
        if held is not None:
            raise CardlabError(f"{self._name(code)} is already given to "
                               f"{self._slot_name(held)}; click it there to take it back")
        slot = slot or self._free_slot(code)
        self._slot_name(slot)  # an unknown slot is refused by the lookup
        if slot.startswith("row:"):
            _, r, s = (int(x) if x.isdigit() else x for x in slot.split(":"))
            row = d["rows"][int(r)]
            if row[int(s)] is not None:
                raise CardlabError(f"{self._slot_name(slot)} has drawn "
                                   f"{self._name(row[int(s)])} already; click it to take it back")
            row[int(s)] = code
        elif slot.startswith("seat:"):
            s = int(slot[5:])
            if len(d["hands"][s]) >= d["sizes"][s]:
                raise CardlabError(f"{self.replay.seats[s]} has the "
                                   f"{plural(d['sizes'][s], 'card')} of this deal already")
            d["hands"][s].append(code)
        elif d["single"]:
            if d[slot] is not None:
                raise CardlabError(f"{self._slot_name(slot)} is {self._name(d[slot])} already")
            d[slot] = code
        else:
            d[slot].append(code)
        d["order"].append((slot, code))

    def unpick(self, code: str) -> bool:
        """Take a card of the draft back to the deck."""
        d = self._draft
        slot = self._owner(code) if d["kind"] else None
        if slot is None:
            return self._refuse(CardlabError(f"{self._name(code)} is not in the draft"))
        self._remove(slot, code)
        return self._fine(f"took back {self._name(code)}", save=False)

    def _remove(self, slot: str, code: str) -> None:
        d = self._draft
        if slot.startswith("row:"):
            _, r, s = slot.split(":")
            d["rows"][int(r)][int(s)] = None
        elif slot.startswith("seat:"):
            d["hands"][int(slot[5:])].remove(code)
        elif d["single"]:
            d[slot] = None
        else:
            d[slot].remove(code)
        d["order"] = [entry for entry in d["order"] if entry != (slot, code)]

    def new_round(self) -> bool:
        """Open another round of the draw (or cut) for first dealer: those tied for lowest
        draw again; the engine says who when the draw is entered."""
        d = self._draft
        if d["kind"] != "setup":
            return self._refuse(CardlabError("no draw for first dealer is due"))
        d["rows"].append([None] * len(self.replay.seats))
        return self._fine(f"round {len(d['rows'])} of the draw: a card for each player tied "
                          "for lowest", save=False)

    def _record(self) -> Any:
        d = self._draft
        if d["kind"] == "setup":
            rows = [row for row in d["rows"] if any(c is not None for c in row)]
            return {d["key"]: rows}
        record: dict[str, Any] = {"hands": [list(h) for h in d["hands"]]}
        extra = d["extra"]
        if extra == "stock":  # the stock as far as it was entered, then the rest of the pack
            given = {c for h in d["hands"] for c in h} | set(d["stock"])
            record["stock"] = list(d["stock"]) + [c for c in self._codes() if c not in given]
        else:
            record[extra] = d[extra]
        return record

    def submit(self) -> bool:
        """Enter the draft (the setup or the deal) as one entry; the engine checks it."""
        d = self._draft
        if d["kind"] is None:
            return self._refuse(CardlabError("no deal or draw is due: enter the actions"))
        record = self._record()
        try:
            if d["kind"] == "deal":
                if d["single"] and record[d["extra"]] is None:
                    raise CardlabError(f"pick {self._slot_name(d['extra'])} too")
                self.table.deal(record)
                said = f"{self.game_type.hand_word} {len(self.replay.hands)} dealt"
            else:
                self._setup(record, d["dealer"])
                said = f"the {self.game_type.setup_word} for first dealer entered"
        except CardlabError as err:
            return self._refuse(err)
        self._new_draft()
        return self._fine(said)

    def _setup(self, record: dict[str, Any], with_dealer: bool) -> None:
        """Ted's Game's record also names the first dealer, whom the engine works out from the
        draw: each seat is offered in turn and the engine takes the one the draw gives (the
        other reasons to refuse a draw come first, so they are the same for every seat)."""
        if not with_dealer:
            self.table.setup(record)
            return
        error: CardlabError | None = None
        for seat in range(len(self.replay.seats)):
            try:
                self.table.setup(dict(record, first_dealer=seat))
                return
            except CardlabError as err:
                error = err
        assert error is not None  # players >= 3: the loop ran
        raise error

    # -- actions -----------------------------------------------------------------------------
    def enter(self, text: str, seat: str | None = None) -> bool:
        """Enter an action (``bid 2``, ``hat -10``, ``play QH``, a bare card code plays it,
        ``draw``), or while a setup or deal is due, a card of it. ``seat``: who makes it,
        checked. Returns False, with the rules' reason in :attr:`message`, when refused."""
        text = " ".join(str(text).split())
        if self.phase in ("setup", "deal"):
            return self.pick(text)
        if self.phase == "over":
            return self._refuse(CardlabError("the game is over: nothing more can be entered"))
        words = text.split()
        if self.game_type.draws_at_table and len(words) > 1 and words[0].lower() == "draw" and \
                words[1].lower() not in ("last", "card"):
            return self._draw_named(words[1:], seat)
        deck: Any = get_game(self.game).rules_class.deck
        try:
            deck.parse(text)
            text = "play " + text  # a bare card code: the card is played
        except CardlabError:
            pass
        try:
            self.table.act(text, seat=seat or None)
        except CardlabError as err:
            return self._refuse(err)
        last = self.replay.hands[-1].actions[-1]  # no seed: the next deal waits for its entry
        if self.table.state.chance_kind() is not None:
            self._new_draft()
        return self._fine(f"{last.seat}: {pretty(self.game, last.act)}")

    def _draw_named(self, codes: list[str], seat: str | None) -> bool:
        """``draw star7``, the card drawn at the table (a game whose type ``draws_at_table``:
        Whot). The deal's stock was entered as far as it was known; the named cards are moved
        to the top of the part not yet drawn (swapped with the cards there, which nobody has
        seen), and the draw is entered on the replay so changed: every earlier entry stays as
        it was."""
        state = self.table.state
        if "draw" not in state.legal_texts():
            return self.enter("draw", seat)  # the engine says why no draw is allowed
        pos = state.snapshot()
        if pos["turnovers"]:
            return self._refuse(CardlabError(
                "the pile has been turned over: the stock is the old pile, oldest card first, "
                "so the cards drawn are known; enter 'draw' without naming them"))
        deck: Any = get_game(self.game).rules_class.deck
        trimmed = self.replay.copy()
        hand = trimmed.hands[-1]
        stock = list(hand.deal["stock"])
        top = len(stock) - int(pos["stock_size"])  # the next card to be drawn
        try:
            if len(codes) > len(stock) - top:
                raise CardlabError(f"the stock has {plural(len(stock) - top, 'card')}, not "
                                   f"{len(codes)}")
            for k, text in enumerate(codes):
                code = deck.codes[deck.parse(text)]
                face = code.split("/")[0]  # copies of a face are alike: the named one first
                there = sorted((i for i in range(top + k, len(stock))
                                if stock[i].split("/")[0] == face),
                               key=lambda i: stock[i] != code)
                if not there:
                    raise CardlabError(f"no {self._name(code)} is left in the stock: it has "
                                       "been dealt, drawn or played")
                stock[top + k], stock[there[0]] = stock[there[0]], stock[top + k]
            hand.deal = dict(hand.deal, stock=stock)
            trimmed.totals = None
            table = rebuild(trimmed)
            table.act("draw", seat=seat)
        except CardlabError as err:
            return self._refuse(err)
        self.table = table
        last = self.replay.hands[-1].actions[-1]
        drawn = names_and([self._name(deck.codes[deck.parse(text)]) for text in codes])
        return self._fine(f"{last.seat}: draw ({drawn})")

    def note(self, text: str) -> bool:
        """Attach a note to the last entry (a deal or an action) and save."""
        try:
            self.table.note(text)
        except CardlabError as err:
            return self._refuse(err)
        return self._fine("note added")

    def undo(self) -> bool:
        """Take back the last entry: a card picked for a draft, else the last action, deal
        (its cards go back into the draft) or setup. The file is saved again."""
        d = self._draft
        if d.get("order"):
            slot, code = d["order"][-1]
            self._remove(slot, code)
            return self._fine(f"took back {self._name(code)}", save=False)
        trimmed = self.replay.copy()
        trimmed.totals = None
        record = None
        if trimmed.hands and trimmed.hands[-1].actions:
            gone = trimmed.hands[-1].actions.pop()
            said = f"took back {gone.seat}: {pretty(self.game, gone.act)}"
        elif trimmed.hands:
            record = trimmed.hands.pop().deal
            said = f"took back the deal of {self.game_type.hand_word} {len(trimmed.hands) + 1}"
        elif trimmed.setup is not None:
            record, trimmed.setup = trimmed.setup, None
            said = f"took back the {self.game_type.setup_word} for first dealer"
        else:
            return self._refuse(CardlabError("nothing to take back: nothing is entered yet"))
        self.table = rebuild(trimmed)
        self._new_draft(record)
        return self._fine(said)

    # -- answers -----------------------------------------------------------------------------
    def _name(self, code: str) -> str:
        """A card as people name it (the game's faces)."""
        return card_faces(self.game)[code][4]

    def _refuse(self, err: CardlabError) -> bool:
        # the rule's sentence alone: the hand, step, seat and action it was said of are
        # the recorder's own (the CardlabError keeps them for the command line)
        self.message = sentence(err)
        self._show()
        return False

    def _fine(self, said: str, save: bool = True) -> bool:
        self.message = ""
        if save:
            try:
                self._save()
            except CardlabError as err:  # the entry stands; the teacher must know it is unsaved
                self.message = f"not saved: {err}"
        self.said = said
        self._show()
        return not self.message

    def _save(self) -> None:
        replay = self.replay
        if replay.setup is None and replay.rules.new_state().chance_kind() == "setup":
            # a file without its setup record is no replay: nothing is entered yet
            if self.path.exists():
                self.path.unlink()
            return
        replay.save(self.path)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        text = str(content.get("text", ""))
        if len(text) > MAX_TEXT:  # no code or action is this long: refused before parsing
            self._refuse(CardlabError(f"an entry is a card code or an action, at most "
                                      f"{MAX_TEXT} characters, not {len(text):,}"))
            return
        slot = content.get("slot")
        slot = str(slot) if isinstance(slot, str) and slot else None
        if kind == "enter":
            seat = content.get("seat")
            self.enter(text, seat=str(seat) if isinstance(seat, str) and seat else None)
        elif kind == "pick":
            self.pick(text, slot)
        elif kind == "unpick":
            self.unpick(text)
        elif kind == "submit":
            self.submit()
        elif kind == "round":
            self.new_round()
        elif kind == "undo":
            self.undo()

    # -- what the widget shows ---------------------------------------------------------------
    def _show(self) -> None:
        # a copy: the traitlet syncs only a value unequal to the last one, and data() shares
        # the draft's lists, which the next pick changes in place
        self.widget.data = copy.deepcopy(self.data())

    def data(self) -> dict[str, Any]:
        """What the front-end draws (JSON-able): the status, the draft or the table, the
        choices of the seat to act, this hand's moves, the score sheet and the last answer."""
        replay, state, game = self.replay, self.table.state, self.game
        kind = self.game_type
        phase = self.phase
        faces = card_faces(game)
        word = kind.hand_word
        out: dict[str, Any] = {
            "title": replay.rules.title, "seats": list(replay.seats), "phase": phase,
            "file": self.path.name, "entries": self.entries(), "message": self.message,
            "said": self.said, "word": word,
        }
        used: set[str] = set()
        if phase in ("setup", "deal"):
            d = self._draft
            out["deck"] = self._codes()
            used.update(out["deck"])
            if phase == "setup":
                out["rows"] = d["rows"]
                out["status"] = (f"{replay.rules.title}: the {kind.setup_word}"
                                 " for first dealer. Pick a card for each player; if the lowest "
                                 "is tied, add a round for those tied.")
            else:
                out["hands"] = d["hands"]
                out["sizes"] = d["sizes"]
                out["extra"] = {"slot": d["extra"], "label": self._slot_name(d["extra"]),
                                "cards": ([] if d[d["extra"]] is None else [d[d["extra"]]])
                                if d["single"] else d[d["extra"]],
                                "choices": list(kind.trump_words)
                                if d["extra"] == "trump" else []}
                if d["extra"] == "trump":
                    out["extra"]["cards"] = []
                    out["extra"]["word"] = d["trump"]
                number = len(replay.hands) + 1
                out["status"] = (f"Deal of {word} {number}: pick each player's cards"
                                 + (", then the stock from the top (the rest follows in pack "
                                    "order)" if d["extra"] == "stock" else
                                    f" and {self._slot_name(d['extra'])}") + ", then Deal.")
        else:
            pos = state.snapshot()
            out["hands"] = pos["hands"]
            for hand in pos["hands"]:
                used.update(hand)
            to_act = state.to_act()
            out["to_act"] = to_act
            out["legal"] = [[t, pretty(game, t)] for t in state.legal_texts()]
            out["centre"] = self._centre(pos, used)
            number = state.hand_number()
            if phase == "over":
                totals = state.totals()
                best = replay.rules.winners(totals)
                out["status"] = ("The game is over: " + names_and([replay.seats[s] for s in best])
                                 + f" {'win' if len(best) > 1 else 'wins'} with {totals[best[0]]}")
            else:
                out["status"] = f"{word.capitalize()} {number}: {replay.seats[to_act]} to act"
        hands = replay.hands
        out["moves"] = [f"{a.seat}: {pretty(game, a.act)}" for a in hands[-1].actions] \
            if hands and phase != "deal" else []
        out["sheet"] = [[number, kind, values] for number, kind, values in sheet_rows(replay)] \
            if hands else []
        out["totals"] = state.totals() if hands else [0] * len(replay.seats)
        out["chart"] = self._chart(out["sheet"], word)
        out["faces"] = {code: faces[code] for code in sorted(used) if code in faces}
        return out

    def _chart(self, sheet: list[list[Any]], word: str) -> dict[str, Any]:
        """The chart of the running totals: from 0 at the start, then the total after each
        finished hand (the sheet's lines added up), so the browser only draws numbers."""
        running = [0] * len(self.replay.seats)
        labels, points = ["start"], [running]
        for number, kind, values in sheet:
            if kind == "score":
                running = [a + b for a, b in zip(running, values, strict=True)]
                labels.append(str(number))
                points.append(running)
        low = self.replay.rules.low_score_wins  # Whot's points are points against
        return {"title": f"Total after each {word}"
                         + (f" ({self.game_type.points_word}: lower is better)" if low else ""),
                "x": word, "labels": labels, "points": points}

    def _centre(self, pos: dict[str, Any], used: set[str]) -> list[list[Any]]:
        """Lines of the centre of the table: ``[label, text, [codes]]``, as the game's
        table words say them (:meth:`cardlab.tablewords.TableWords.recorder_lines`)."""
        lines = self.replay.rules.game.table_words.recorder_lines(Context(self.replay), pos)
        for line in lines:
            used.update(line[2])
        return lines


__all__ = ["Recorder", "RecorderWidget", "rebuild"]
