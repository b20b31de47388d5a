"""The game contract every cardlab game follows, and the registry.

A game is one package, ``cardlab/games/<game>/``: a :class:`Rules` subclass (validated
options, declared as :class:`~cardlab.options.Option` values, the deck, the deal), a
:class:`State` subclass (whose turn, legal actions, apply, scores, one seat's view, a state
built at a position) and one registered :class:`Game`, which declares the rest as data and
hooks: its :class:`GameType` (information, chance, tricks, an exact solver, its words), its
card faces, bots, the advisor's sampler, figures and outcome, its solver hooks and its
simulation records. The layers above read these; none of them tests a game's name
(``docs/adding-a-game.md`` walks through one). Inside the engine actions and cards are small
ints; ``action_text``/``parse_action`` translate to the readable strings stored in replays.

A game runs through *chance* steps and *decisions*. Chance steps are the game ``setup``
(e.g. the draw for first dealer) and each hand's ``deal``; each is a JSON-able record that a
seeded run computes with :meth:`State.seeded_chance` and a recording enters by hand. Between
them, players act.

>>> import cardlab
>>> sorted(cardlab.list_games())[:1]
['bobs-hat']
>>> rules = cardlab.get_game("bobs-hat").rules(players=4)
>>> rules.options["hands"]
10
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, runtime_checkable

from .cards import Deck
from .errors import (
    ActionTextError,
    CardCodeError,
    CardlabError,
    IllegalActionError,
    OptionError,
    UnknownGameError,
)
from .options import Option
from .records import Records
from .tablewords import TableWords

if TYPE_CHECKING:
    from .solvekernel import Search

JSON = Any


class Rules:
    """A game's rules with every option written out. Immutable once made.

    Subclasses set ``name``, ``title``, ``OPTIONS`` (``players`` always among them), ``deck``
    and ``state_class``, and may override :meth:`_finish` to derive or cross-check options.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    OPTIONS: ClassVar[tuple[Option, ...]]
    deck: ClassVar[Deck]
    state_class: ClassVar[type[State]]
    low_score_wins: ClassVar[bool] = False  # Whot: the lowest total wins the rubber
    # Options bots and simulations use unless told otherwise (Whot: its safety cap); a game
    # recorded at the table takes the plain defaults, as the rules have no such thing.
    SIMULATION_OPTIONS: ClassVar[dict[str, Any]] = {}

    def winners(self, totals: list[int]) -> list[int]:
        """The seats with the best total."""
        best = min(totals) if self.low_score_wins else max(totals)
        return [seat for seat, total in enumerate(totals) if total == best]

    def __init__(self, **options: Any) -> None:
        known = {opt.name: opt for opt in self.OPTIONS}
        for key in options:
            if key not in known:
                raise OptionError(
                    f"{self.name} has no option {key!r}; it has {', '.join(known)}"
                )
        values: dict[str, Any] = {}
        for opt in self.OPTIONS:
            raw = options.get(opt.name)
            values[opt.name] = opt.default if raw is None else opt.coerce(raw, self.name)
        self.options: dict[str, Any] = self._finish(values, given=set(options))
        self.players: int = self.options["players"]

    def _finish(self, values: dict[str, Any], given: set[str]) -> dict[str, Any]:
        """Fill options whose default depends on others, and refuse contradictions."""
        return values

    @classmethod
    def conformance_option_sets(cls) -> list[dict[str, Any]]:
        """Option sets the generic conformance test plays (keep games short: few hands)."""
        return [{}]

    def hands_in_game(self) -> int | None:
        """How many hands (by number: a redeal keeps its number) a game of these rules
        has, or None when play decides (a game that ends when one player is left).

        >>> import cardlab
        >>> [cardlab.get_game(name).rules(players=4).hands_in_game()
        ...  for name in ("bobs-hat", "teds-game", "whot")]
        [10, 19, 5]
        """
        return None

    def card_codes(self) -> list[str]:
        """The codes of the cards these rules play with, in deck order: the whole deck,
        unless the options leave part of it out (Whot's second pack).

        >>> import cardlab
        >>> len(cardlab.get_game("whot").rules(players=4).card_codes())
        54
        """
        return list(self.deck.codes)

    def new_state(self, names: Sequence[str] | None = None) -> State:
        """A fresh state at the start of a game, before the setup chance step; with
        ``names``, it calls the seats by them (a replay's seats) in what it says.

        >>> import cardlab
        >>> state = cardlab.get_game("whot").rules(players=2).new_state(["Ada", "Bo"])
        >>> state.names
        ['Ada', 'Bo']
        """
        state = self.state_class(self)
        if names is not None:
            state.names = list(names)
        return state

    @property
    def game(self) -> Game:
        """The registered :class:`Game` these are the rules of (its type and hooks)."""
        return get_game(self.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and (self.name, self.options) == (other.name, other.options)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"


class State:
    """A position in a game. Mutable for speed; :meth:`clone` is cheap.

    Seats are ints ``0..players-1``. ``to_act()`` is -1 while a chance step is due or the
    game is over. Every subclass implements the methods below that raise
    ``NotImplementedError``.
    """

    rules: Rules
    names: list[str]  # the seats' names, for the state's refusals ("seat 1"... by default)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    # -- chance steps --------------------------------------------------------------------
    def chance_kind(self) -> str | None:
        """``"setup"`` or ``"deal"`` when a chance step is due, else None."""
        raise NotImplementedError

    def seeded_chance(self, seed: int | str) -> JSON:
        """The record of the due chance step, computed from the seed and hand number alone."""
        raise NotImplementedError

    def apply_chance(self, record: JSON) -> None:
        """Enter a chance record (a seeded one, or a real deal typed in); checks it fully."""
        raise NotImplementedError

    def deal_seeded(self, seed: int | str) -> None:
        """Enter the chance step that is due from ``seed`` (the setup, or the deal of the
        next hand): the same state as ``apply_chance(seeded_chance(seed))``, which a game may
        reach faster, without the round trip through card codes (simulations and benchmarks
        deal this way)."""
        self.apply_chance(self.seeded_chance(seed))

    # -- decisions -----------------------------------------------------------------------
    def to_act(self) -> int:
        raise NotImplementedError

    def actor(self, action: int) -> int:
        """The seat that makes ``action``: the seat to act, unless the rules let another seat
        act out of turn (Ted's Game: the last bidder changing a bid before the next one bids).
        Such actions are not in ``legal_actions()``, which lists the choices of ``to_act()``."""
        return self.to_act()

    def legal_actions(self) -> list[int]:
        raise NotImplementedError

    def apply(self, action: int) -> None:
        """Apply ``action`` for the seat to act; raises :class:`IllegalActionError`."""
        raise NotImplementedError

    def action_text(self, action: int) -> str:
        """The text a replay stores for ``action`` (``"play QS"``, ``"bid 2"``).

        It depends on the action alone, never on the position, and for a legal action
        :meth:`parse_action` of it gives the action back: a recorder keeps each text once
        (a simulation's replays), and :meth:`cardlab.table.Table.apply` records a legal
        action without parsing its text again (the conformance test checks both).
        """
        raise NotImplementedError

    def parse_action(self, text: str) -> int:
        """The action a readable string names (e.g. ``"play blue14"``), in this position."""
        raise NotImplementedError

    # -- progress and scores -------------------------------------------------------------
    def is_game_over(self) -> bool:
        raise NotImplementedError

    def hand_number(self) -> int:
        """The 1-based number of the current (or last) hand, 0 before the first deal."""
        raise NotImplementedError

    def hand_over(self) -> bool:
        """True once the current hand has ended (its scores are final)."""
        raise NotImplementedError

    def hand_scores(self) -> list[int]:
        """The current hand's scores per seat so far (final once ``hand_over``)."""
        raise NotImplementedError

    def totals(self) -> list[int]:
        """Each seat's cumulative score, including every finished hand."""
        raise NotImplementedError

    def clone(self) -> State:
        raise NotImplementedError

    def dealt_cards(self) -> list[int]:
        """Every card brought into play by the setup and deals of the current hand."""
        raise NotImplementedError

    def accounted_cards(self) -> list[int]:
        """Every card the state knows where it is (hands, tricks, stock, pile...).

        Conservation: ``sorted(accounted_cards()) == sorted(dealt_cards())`` at every step.
        """
        raise NotImplementedError

    def snapshot(self, seat: int | None = None) -> dict[str, Any]:
        """The whole position as JSON-able data; with ``seat``, only what that seat sees.

        Games build it as the public keys plus :meth:`seat_fields`, the keys whose values
        depend on who looks (hands, legal actions, hidden values).
        """
        raise NotImplementedError

    def seat_fields(self, seat: int | None) -> dict[str, Any]:
        """The keys of :meth:`snapshot` that depend on the seat looking, as that seat sees
        them. A game that has them lets :meth:`snapshots` compute the rest once."""
        raise NotImplementedError

    def snapshots(self, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """``[self.snapshot(seat) for seat in seats]``, with the public part computed once
        and shared between the positions (treat them as read-only).

        >>> import cardlab
        >>> state = cardlab.new_game("teds-game", players=3, seed=1).state
        >>> [len(p["hands"][0] or []) for p in state.snapshots([None, 0, 1])]
        [10, 10, 0]
        """
        if not seats:
            return []
        first = self.snapshot(seats[0])
        out = [first]
        for seat in seats[1:]:
            pos = dict(first)
            pos.update(self.seat_fields(seat))
            out.append(pos)
        return out

    # -- what a seat may see (used by cardlab.seatview; not on the playout path) ------------
    def redact_action(self, actor: int, text: str, seat: int) -> str:
        """How action ``text``, made by ``actor`` earlier in this hand, reads to ``seat`` now.

        The default shows every action as it is; a game whose rules hide an action for a
        while (a face-down choice, a secret bid) returns what ``seat`` may see of it.
        :func:`cardlab.seatview.visible_action` calls this for every seat but the actor.
        """
        return text

    def hidden_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` cannot see now: other hands, the stock, undealt cards."""
        raise NotImplementedError

    def hidden_texts(self, seat: int) -> list[tuple[int, str]]:
        """``(actor, text)`` pairs of action texts that :meth:`redact_action` hides from
        ``seat`` now (every text the hidden action could have been; for tests)."""
        return []

    @classmethod
    def at_position(cls, rules: Rules, position: dict[str, Any], hands: list[list[int]],
                    public: dict[str, Any]) -> State:
        """A state at the start of the hand that ``position`` (a :meth:`snapshot`, whole or
        as one seat sees it) shows: just after its deal, before its first action, the seat
        ``s`` dealt ``hands[s]`` (cards as ints). What came before the hand is taken from
        ``position`` and ``public`` (:attr:`SeatView.public`): the score sheet, the deal's
        place in the game, the facts of earlier hands. A game builds it inside its own state
        class, by its own rules (the dealer passes as the rules say); the advisor's samplers
        make their states with it, never by writing a state's fields from outside.

        >>> import cardlab
        >>> state = cardlab.new_game("teds-game", players=3, seed=1).state
        >>> again = type(state).at_position(state.rules, state.snapshot(1), state.dealt_hands, {})
        >>> again.snapshot() == state.snapshot()
        True
        """
        raise NotImplementedError

    def random_playout(self, rand: Callable[[], float],
                       record: list[int] | None = None) -> None:
        """Finish the current hand with uniformly random legal actions.

        Each choice is ``legal_actions()[int(rand() * len(...))]``. Stops when nobody is to
        act (a deal is due, or the game is over). With ``record`` (a list), each action made
        is appended to it as ``action * players + seat`` (a replay's record of the hand).
        Games may do this faster, but must make the very same choices and record the same
        actions (the conformance test checks).
        """
        legal = self.legal_actions
        apply = self.apply
        n = self.rules.players
        while (seat := self.to_act()) >= 0:
            actions = legal()
            action = actions[int(rand() * len(actions))]
            apply(action)
            if record is not None:
                record.append(action * n + seat)

    # -- helpers shared by all games ---------------------------------------------------
    def legal_texts(self) -> list[str]:
        return [self.action_text(a) for a in self.legal_actions()]

    def legal_texts_for(self, seat: int | None) -> list[str]:
        """The legal actions as ``seat`` may see them: all of them for everyone's view
        (``None``) or for the seat to act, none for another seat (they would show its cards)."""
        to_act = self.to_act()
        return self.legal_texts() if to_act >= 0 and (seat is None or seat == to_act) else []

    def act(self, text: str) -> None:
        """Apply an action given as readable text. Text that names no action of the game
        raises :class:`~cardlab.errors.ActionTextError` naming the hand and the seat to act."""
        try:
            action = self.parse_action(text)
        except CardCodeError as err:
            if isinstance(err, IllegalActionError):
                raise
            seat = self.to_act()
            raise ActionTextError(str(err), hand=self.hand_number() or None,
                                  seat=None if seat < 0 else seat) from None
        self.apply(action)

    def refuse(self, reason: str, action: str | None = None,
               rule: str | None = None) -> IllegalActionError:
        """The refusal of ``action``: ``reason`` in the words of the rules, naming cards as
        people do; ``rule``, the same rule without the facts that would give an answer away
        (see :class:`~cardlab.errors.IllegalActionError`)."""
        seat = self.to_act()
        return IllegalActionError(
            reason,
            hand=self.hand_number() or None,
            seat=None if seat < 0 else seat,
            action=action,
            rule=rule,
        )


# -- what kind of game it is, and what the layers above ask of it ---------------------------

@dataclasses.dataclass(frozen=True)
class GameType:
    """What kind of game a game is, as data (after OpenSpiel's ``GameType``): the layers
    above read these instead of testing the game's name.

    ``hand_word`` is what one entry of ``replay.hands`` is called (a Whot rubber is played in
    games), ``whole_word`` what all of them together are; ``tricks`` says that a hand is
    played in tricks (following suit, trumps: the trick exercises); ``exact_solver`` that the
    open-hand solver (:mod:`cardlab.advisor.solver`) plays it (:meth:`Game.solver_search`);
    ``bids_tricks`` that each seat bids how many tricks it will take, so that the bidding lab
    (:mod:`cardlab.advisor.bidding`) weighs its bids (:meth:`Game.trick_bid`). Whether the
    lowest total wins is the rules' :attr:`Rules.low_score_wins`.

    >>> import cardlab
    >>> kind = cardlab.get_game("whot").game_type
    >>> kind.hand_word, kind.whole_word, kind.tricks, kind.exact_solver
    ('game', 'rubber', False, False)
    >>> kind.points_word, kind.setup_word, kind.sheet_label, kind.shedding
    ('points against', 'cut', 'game ', True)
    """

    information: Literal["hidden", "open"] = "hidden"  # does a seat see every card?
    chance: Literal["seeded deals", "none"] = "seeded deals"
    tricks: bool = False
    exact_solver: bool = False
    hand_word: str = "hand"
    whole_word: str = "game"
    # The dealer bids last and may not bid the number that makes the bids add up to the
    # tricks (Ted's Game's hook): the position's "forbidden_bid" says which.
    hook: bool = False
    # A hand is won by the first seat out of cards ("winner", how it "ended" in the
    # position), and the others score what they hold against them.
    shedding: bool = False
    # A turn may draw the stock's top card, which a recording names as it is drawn at the
    # table ("draw star7"): the deal's "stock" is entered as far as it is known.
    draws_at_table: bool = False
    points_word: str = "points"  # what a hand's score counts
    setup_word: str = "draw"  # the chance step for first dealer
    sheet_label: str = "#"  # before a hand's number on the score sheet
    # The words a deal's "trump" takes, when the deal names the trump rather than turning a
    # card up (Bob's Hat's four trump cards; the last means no trump).
    trump_words: tuple[str, ...] = ()
    bids_tricks: bool = False
    # The question a decision asks (the quiz's), by the first words of its choices, sorted
    # and joined by a space ("bid", "draw play"): see :meth:`question`.
    questions: tuple[tuple[str, str], ...] = (("bid", "What do you bid?"),
                                              ("play", "Which card do you play?"))

    def question(self, choices: Sequence[str]) -> str:
        """The question of a decision whose choices are the action texts ``choices``: the
        game's question for the kinds of action among them, else "What do you do next?".

        >>> GameType().question(["bid 0", "bid 1"]), GameType().question(["play 5H", "draw"])
        ('What do you bid?', 'What do you do next?')
        """
        kinds = " ".join(sorted({text.split(" ", 1)[0] for text in choices}))
        return dict(self.questions).get(kinds, "What do you do next?")


Bot = Callable[["State", int], int]
"""A bot: ``bot(state, seat) -> action``, an int among ``state.legal_actions()``."""


class RolloutBot(Protocol):
    """A bot that reads its random numbers from ``rng.random()`` only, so that the advisor's
    rollouts can hand it each sample's own numbers (``rng``: anything with a ``random()``):
    every action is then played out on the same numbers. A game's heuristic bot is one.
    """

    rng: Any

    def __call__(self, state: State, seat: int) -> int:
        ...


@runtime_checkable
class CardPlayer(RolloutBot, Protocol):
    """A trick game's :class:`RolloutBot` whose card play can be called on its own:
    ``play_card(state, seat, legal)`` (``legal``: the state's legal cards) chooses the card
    that calling the bot would, without its dispatch on the phase. The advisor's fast
    rollouts (:class:`Outcome`) call it at every card."""

    def play_card(self, state: Any, seat: int, legal: list[int]) -> int:
        ...


Figures = Callable[["State", int, "State"], dict[str, float]]
"""The advisor's figures of a sample: ``figures(end_of_hand, seat, start) -> {name: value}``."""

Scored = tuple[int, dict[str, float]]
"""A seat's hand score and the advisor's figures with it (as :data:`Figures` gives them)."""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A trick game's fast path for the advisor's rollouts in the play of a hand: the playout
    runs on a state of class ``stopped(type(sample))``, whose end of play scores nothing, and
    ``score(end_of_play, seat)`` then scores the hand once, for the seat's hand score and its
    figures both: the numbers the engine's end of hand and :meth:`Game.figures` give.

    >>> import cardlab
    >>> outcome = cardlab.get_game("teds-game").outcome()
    >>> outcome.stopped(cardlab.get_game("teds-game").rules_class.state_class).__name__
    'TedsGameStateAtEndOfPlay'
    """

    score: Callable[[Any, int], Scored]
    stopped: Callable[[type], type]


class Sampler(Protocol):
    """Draws whole states consistent with one :class:`SeatView`."""

    def sample(self, rng: random.Random) -> State:
        """A full engine State at this step, drawn uniformly among the hidden-card layouts
        consistent with the view. Any hidden action (a face-down hat value, a secret bid)
        is drawn too (documented). The State is a fresh object the caller may mutate."""
        ...


@runtime_checkable
class HandsSampler(Sampler, Protocol):
    """A :class:`Sampler` of a trick game that can draw the other hands alone: where a sample
    differs from ``template`` only by the cards of the seats ``others`` (and a face-down
    value), :meth:`draw_hands` gives just those, for the random playouts on bit masks
    (:mod:`cardlab.advisor.randomplay`)."""

    @property
    def template(self) -> State:
        """The state every sample is a copy of, with other hands (and face-down value)."""
        ...

    @property
    def others(self) -> list[int]:
        """The seats whose cards are drawn, in the order :meth:`draw_hands` gives them."""
        ...

    def plays_on_masks(self) -> bool:
        """True when a sample differs from the template only by what :meth:`draw_hands`
        draws (the play phase, with no hidden decision left to draw)."""
        ...

    def draw_hands(self, rng: random.Random) -> tuple[list[list[int]], int]:
        """The cards of each of :attr:`others` and the face-down value (0: none) of one
        sample, reading ``rng`` as :meth:`Sampler.sample` does."""
        ...


@dataclasses.dataclass(frozen=True)
class TrickBid:
    """A seat's decision on how many tricks it will take (Oh Hell's family of games), as the
    bidding lab (:mod:`cardlab.advisor.bidding`) reads it: bids run from 0 to ``tricks``."""

    tricks: int  # the tricks of the hand (the cards dealt to each)
    offered: dict[int, str]  # each bid the seat may make -> its action text, legal order
    forbidden: int | None  # a bid the rules forbid the seat here (Ted's Game's hook), or None


CardFace = list[Any]
"""How a card is drawn and named: ``[rank, mark, colour, hat, name]`` (see
:func:`cardlab.view.wording.card_faces`)."""


@dataclasses.dataclass(frozen=True)
class HandParts:
    """What a hand's score was made of, seat by seat, as the score frames read it
    (:func:`cardlab.dataframes.score_components`, :func:`~cardlab.dataframes.bid_results`).

    ``components`` gives each seat's points by part, adding up to its hand score (one part,
    ``score``, in a game that names none); ``bids`` gives each bid a seat made and whether it
    was made, in the game's words (empty in a game without bids, or before the hand ends).
    """

    components: list[dict[str, int]]
    bids: list[list[tuple[str, bool]]]


@dataclasses.dataclass(frozen=True)
class SeatView:
    """Everything one seat knows at one step of one hand, and nothing else.

    Made from a true state by :func:`cardlab.advisor.sample.seat_view` only (through
    :mod:`cardlab.seatview`); a game's :class:`Sampler` is built from it alone, so it cannot
    peek. ``public`` holds the few facts of earlier hands the seat saw that the position does
    not carry (:meth:`Game.seat_public`).
    """

    rules: Rules
    seat: int  # 0-based inside the engine
    position: dict[str, Any]  # cardlab.seatview.seat_position(state, seat)
    actions: tuple[tuple[int, str], ...]  # this hand's actions so far, as `seat` reads them
    public: dict[str, Any] = dataclasses.field(default_factory=dict)


class Game:
    """Everything about one game that the layers above ask for, in one declared place.

    A game's package (``cardlab/games/<game>/``) subclasses it, sets the class attributes
    and registers one instance (:func:`register`). Other modules read these attributes and
    call these methods; none of them tests a game's name (python-chess's variants are the
    model: ``aliases``, ``uci_variant``, ``tbw_suffix`` are read, never compared).

    >>> import cardlab
    >>> game = cardlab.get_game("teds-game")
    >>> game.title, game.game_type.exact_solver, game.rules(players=3).players
    ("Ted's Game", True, 3)
    """

    rules_class: ClassVar[type[Rules]]
    game_type: ClassVar[GameType] = GameType()
    # Words the game prints with a mark in action texts (Whot's "call circle" as "● circle").
    marks: ClassVar[dict[str, str]] = {}
    # What its table says of a position in every view (the seat boxes, the centre, the
    # teaching lines, a hand's title and result): the game's own things in its own words.
    table_words: ClassVar[TableWords] = TableWords()

    @property
    def name(self) -> str:
        return self.rules_class.name

    @property
    def title(self) -> str:
        return self.rules_class.title

    def rules(self, **options: Any) -> Rules:
        return self.rules_class(**options)

    @property
    def options(self) -> tuple[Option, ...]:
        return self.rules_class.OPTIONS

    def __repr__(self) -> str:
        return f"<game {self.name}: {self.title}>"

    # -- bots and faces ----------------------------------------------------------------------
    def heuristic_bot(self, seed: int | str) -> RolloutBot:
        """The game's heuristic bot, seeded (:func:`cardlab.bots.make_bot`)."""
        raise OptionError(f"there is no heuristic bot for {self.name} yet")

    def card_faces(self) -> dict[str, CardFace]:
        """Every card code of the deck → its face (:data:`CardFace`)."""
        raise NotImplementedError

    # -- the words of the lessons ------------------------------------------------------------
    def score_rule(self, rules: Rules) -> str:
        """How a hand is scored under ``rules``, in one sentence that names no card and no
        seat: what an exercise's hint on a hand's score says ("": the game says none)."""
        return ""

    def trick_rule(self, state: State) -> str:
        """Who takes a trick in ``state``'s hand, naming no card (a trick game's: the trick
        exercise's hint); "" for a game with no tricks."""
        return ""

    def explain_score(self, position: dict[str, Any], seat: int, name: str) -> str | None:
        """Why ``seat`` (called ``name``) scores what it does in the finished hand of
        ``position`` (a snapshot that shows the seat's cards), with numbers that add up to
        its hand score; None where the position's own parts say it (the lessons then write
        them out: :class:`cardlab.lessons.exercises.HandScore`)."""
        return None

    # -- the advisor ---------------------------------------------------------------------------
    def seat_public(self, state: State) -> dict[str, Any]:
        """What ``state``'s seats saw of earlier hands that its position does not carry
        (:attr:`SeatView.public`); shown to every seat alike."""
        return {}

    def sampler(self, view: SeatView) -> Sampler:
        """The blind sampler of the hidden cards consistent with ``view``."""
        raise CardlabError(f"the advisor has no sampler for {self.name}")

    def figures(self, end: State, seat: int, start: State) -> dict[str, float]:
        """The advisor's figures of one sample (0/1 or numbers, averaged over samples)."""
        return {}

    def outcome(self) -> Outcome | None:
        """A fresh fast-path outcome hook for one evaluation (each with its own memo, if it
        keeps one), or None (the figures hook and the engine's score are used)."""
        return None

    # -- simulations ---------------------------------------------------------------------------
    def records(self) -> Records:
        """What a simulation records of each hand of this game: its own columns of the hands
        table and the recorder that reads them off the engine (:mod:`cardlab.records`)."""
        raise CardlabError(f"{self.name} declares no simulation records, so it cannot be "
                           "simulated")

    # -- the exact solver (game_type.exact_solver) -------------------------------------------
    def solver_search(self, state: State, seat: int, bounded: bool) -> Search:
        """The open-hand search (:class:`cardlab.solvekernel.Search`) of ``state``, in the
        play of a hand, for ``seat``: the cards, the trump, the summary of the cards taken
        that the seat's score depends on and the leaf that scores it by the game's own
        scoring; with ``bounded``, the game's bounds for pruning too. A search whose summary
        can change nothing (``key_mask`` 0, no hat that matters) scores ``leaf(0, 0)``."""
        raise CardlabError(f"the exact solver does not play {self.title}")

    def summary_outcomes(self, state: State, seat: int, value: int, keys: set[int]
                         ) -> dict[int, Scored]:
        """The seat's hand score and figures for each final key of the random walks down
        :meth:`solver_search`'s search from ``state`` (:meth:`~cardlab.solvekernel.Search.
        random_walk`), ``value`` the sample's face-down value (:meth:`HandsSampler.
        draw_hands`): by the game's own scoring, once per key."""
        raise CardlabError(f"the exact solver does not play {self.title}")

    # -- the frames ------------------------------------------------------------------------------
    def play_facts(self, position: dict[str, Any]) -> dict[str, Any]:
        """The game's own columns of a row of the plays frame, in a game without tricks,
        read off the position after the play (:func:`cardlab.dataframes.play_rows`)."""
        return {}

    def trick_facts(self, position: dict[str, Any], seats: Sequence[str]) -> dict[str, Any]:
        """The game's own columns of a row of the tricks frame, read off the position after
        the trick (:func:`cardlab.dataframes.trick_rows`)."""
        return {}

    def seat_facts(self, position: dict[str, Any], seat: int) -> dict[str, Any]:
        """The game's own columns of a row of the seat-steps frame, for ``seat`` at the
        position (:func:`cardlab.dataframes.seat_step_rows`)."""
        return {}

    def hand_parts(self, end: dict[str, Any], scores: list[int], ended: bool) -> HandParts:
        """The parts of each seat's ``scores`` in the hand whose line stops at the position
        ``end`` (:meth:`State.snapshot`), and, if the hand ``ended`` there, the bids made and
        missed.

        By default each score is one part, and in a game whose players bid a number of
        tricks (``game_type.bids_tricks``) a bid is made when the seat took exactly as many.

        >>> import cardlab
        >>> end = {"bids": [1, 0, 2], "tricks_won": [1, 1, 1]}
        >>> cardlab.get_game("teds-game").hand_parts(end, [11, 0, 0], ended=True).bids
        [[('1', True)], [('0', False)], [('2', False)]]
        """
        components = [{"score": score} for score in scores]
        bids: list[list[tuple[str, bool]]] = [[] for _ in scores]
        if self.game_type.bids_tricks and ended and isinstance(end.get("bids"), list) and \
                "tricks_won" in end:
            for seat, bid in enumerate(end["bids"]):
                if isinstance(bid, int):
                    bids[seat].append((str(bid), end["tricks_won"][seat] == bid))
        return HandParts(components, bids)

    # -- the bidding lab (game_type.bids_tricks) ---------------------------------------------
    def trick_bid(self, state: State) -> TrickBid | None:
        """At a decision where the seat to act bids how many tricks it will take, what it may
        bid; None anywhere else."""
        return None

    def bid_score(self, bid: int, taken: int, tricks: int) -> int:
        """The hand score of a seat that bid ``bid`` tricks and took ``taken`` of the hand's
        ``tricks``, by the game's own scoring."""
        raise CardlabError(f"the players of {self.title} do not bid a number of tricks")


# The registry, kept by the functions below: each game's package registers its Game as it
# is imported (:func:`register`). cardlab's own games are registered when ``cardlab`` is
# imported (its ``__init__`` imports :mod:`cardlab.games`, the one place that names them),
# so this module imports no game: the contract stays below the games that follow it.
_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry (a game's package registers its :class:`Game` on import;
    a test registers a game of its own the same way)."""
    _REGISTRY[game.name] = game
    return game


def unregister(name: str) -> Game:
    """Take the game called ``name`` out of the registry again, and return it: for a game
    registered for a while only (a test's own game, e.g. ``tests/knockout_whist/``).

    >>> game = unregister("whot")
    >>> "whot" in list_games()
    False
    >>> register(game).name in list_games()
    True
    """
    try:
        return _REGISTRY.pop(name)
    except KeyError:
        raise UnknownGameError(f"no game called {name!r} is registered") from None


def get_game(name: str) -> Game:
    """The registered game called ``name``; an :class:`~cardlab.errors.UnknownGameError`
    lists the games.

    >>> get_game("whot").title
    'Whot'
    >>> get_game("chess")
    Traceback (most recent call last):
    ...
    cardlab.errors.UnknownGameError: no game called 'chess'; cardlab has bobs-hat, teds-game, whot
    """
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGameError(
            f"no game called {name!r}; cardlab has {', '.join(sorted(_REGISTRY))}"
        ) from None


def list_games() -> dict[str, Game]:
    """Every registered game by name."""
    return dict(_REGISTRY)
