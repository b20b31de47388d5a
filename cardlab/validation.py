"""Checking a replay against its game's rules: the options, every deal, every action of every
line (variations included) with its seat, the stored scores, and the advisor's eval records.

:func:`validate` replays a :class:`~cardlab.replay.Replay` through the engine, each refusal
naming the file, the JSON path, the hand, the step and the seat (:mod:`cardlab.loader` calls
it on every replay it reads). :func:`play_line` plays one line's actions in the engine's
spelling; :func:`eval_problem` checks one eval record against the ranges the format gives its
numbers (:data:`EVAL_VALUE_MAX` and the rest), which :func:`check_rollouts` also holds the
advisor's options to.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from . import strictjson
from .errors import CardlabError, IllegalActionError, OptionError, ReplayError, brief
from .game import Rules, State, get_game
from .replay import Action, Replay, index_of_hand, kind_of
from .seats import seat_name_problem
from .strictjson import DUPLICATE

EVAL_KEYS = ("seat", "rollouts", "seed", "bot", "values", "exact", "note")
EVAL_REQUIRED = ("seat", "rollouts", "seed", "bot", "values")
# The rollout policies an eval record may name (cardlab.advisor.evaluate takes the same).
EVAL_BOTS = ("random", "heuristic", "exact")
# The range of an eval record's numbers (docs/replay-format.md). No game's expected score
# comes near a billion, and within these bounds every sum the views take over a replay at
# the limits (a loss per decision, a million decisions a hand, a thousand hands) stays an
# ordinary float; the seed stays a whole number JavaScript reads exactly (the viewer's).
EVAL_VALUE_MAX = 1e9  # |mean|
EVAL_STDERR_MAX = 1e9
EVAL_ROLLOUTS_MAX = 10**9
EVAL_SEED_MAX = 2**53 - 1  # |seed|
EVAL_NOTE_MAX = 1000  # characters of a note (what fell back, in words)


def check_rollouts(rollouts: object) -> int:
    """The ``rollouts`` option of the advisor (``evaluate``, ``analyse``, the bidding lab):
    a whole number from 1 to :data:`EVAL_ROLLOUTS_MAX`, what an eval record may say; else an
    :class:`~cardlab.errors.OptionError`.

    >>> check_rollouts(200)
    200
    >>> check_rollouts(0)
    Traceback (most recent call last):
        ...
    cardlab.errors.OptionError: rollouts is a whole number of at least 1, not 0
    """
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise OptionError(f"rollouts is a whole number of at least 1, not {brief(rollouts)}")
    if rollouts > EVAL_ROLLOUTS_MAX:
        raise OptionError(f"rollouts is at most {EVAL_ROLLOUTS_MAX:,}, not {rollouts:,}")
    return rollouts


# -- the rules ------------------------------------------------------------------------------

def checked_rules(replay: Replay, file: str | None, lenient: bool) -> Rules:
    """The replay's rules, every option written out with a value of its own JSON type
    (lenient: missing options defaulted, strings coerced, each repair noted)."""
    try:
        info = get_game(replay.game)
    except CardlabError as err:
        raise ReplayError(str(err), file=file, path="$.game") from None
    options = replay.options
    known = {opt.name: opt for opt in info.options}
    for name in options:
        if name not in known:
            raise ReplayError(f"{info.name} has no option {name!r}; it has "
                              f"{', '.join(known)}", file=file, path="$.options")
    if not lenient:
        for name, opt in known.items():
            if name not in options:
                continue
            value = options[name]
            if not _of_kind(value, opt.kind):
                word = {bool: "true or false", int: "a whole number", str: "text"}[opt.kind]
                raise ReplayError(f"{info.name} option {name} is {word}, not {kind_of(value)}",
                                  file=file, path=f"$.options.{name}")
    try:
        rules = info.rules(**{k: v for k, v in options.items() if v is not None})
    except CardlabError as err:
        raise ReplayError(str(err), file=file, path="$.options") from None
    for name in known:
        written = options.get(name, _MISSING)
        value = rules.options[name]
        if written is not _MISSING and written == value and type(written) is type(value):
            continue
        if not lenient:
            said = "is missing" if written is _MISSING else f"is written as {kind_of(written)}"
            raise ReplayError(f"option {name} {said}: a replay writes out every option with "
                              f"its value (here: \"{name}\": {strictjson.dumps(value)})",
                              file=file,
                              path=f"$.options.{name}" if written is not _MISSING
                              else "$.options")
        replay.repairs.append(
            f"$.options.{name}: " + ("missing, the default " if written is _MISSING
                                     else f"{strictjson.dumps(written)} read as ")
            + strictjson.dumps(value))
    replay.options = dict(rules.options)
    return rules


_MISSING = object()


def _of_kind(value: Any, kind: type) -> bool:
    if kind is bool:
        return type(value) is bool
    if kind is int:
        return type(value) is int
    return isinstance(value, str)


def validate(replay: Replay, file: str | None = None, *, lenient: bool = False) -> State:
    """Replay every line through the engine; return the state at the end of the main line.

    Checks the options, the seats, the setup record, every deal, every action of every line
    (variations included) with its seat, and the stored scores and totals (which a finished
    hand and a finished game must carry).
    """
    rules = checked_rules(replay, file, lenient)
    title = rules.title
    if len(replay.seats) != rules.players:
        raise ReplayError(f"{rules.players} players need {rules.players} seats, not "
                          f"{len(replay.seats)}", file=file, path="$.seats")
    problem = seat_name_problem(replay.seats)
    if problem is not None:
        raise ReplayError(problem[1], file=file, path=f"$.seats[{problem[0]}]")
    state = rules.new_state(replay.seats)
    if state.chance_kind() == "setup":
        if replay.setup is None:
            raise ReplayError(f"{title} needs its setup record (see docs/replay-format.md)",
                              file=file, path="$.setup")
        try:
            state.apply_chance(replay.setup)
        except CardlabError as err:
            raise ReplayError(f"setup: {reason_of(err)}", file=file, path="$.setup") from None
    elif replay.setup is not None:
        if not lenient:
            raise ReplayError(f"{title} has no setup record", file=file, path="$.setup")
        replay.repairs.append("$.setup: dropped (the game has no setup record)")
        replay.setup = None
    for h, hand in enumerate(replay.hands):
        base = f"$.hands[{h}]"
        if state.chance_kind() != "deal":
            raise ReplayError("a hand is dealt, but no deal is due: the game is over or the "
                              "previous hand unfinished", file=file, path=base, hand=h + 1)
        before = state.totals()
        try:
            state.apply_chance(hand.deal)
        except CardlabError as err:
            raise ReplayError(reason_of(err), file=file, path=base + ".deal",
                              hand=h + 1) from None
        branches = any(a.variations for a in hand.actions)
        start = state.clone() if branches else None
        play_line(replay, state, h, hand.actions, file, base + ".actions")
        if start is not None:
            _validate_variations(replay, start, h, hand.actions, file, base + ".actions")
        ended = state.chance_kind() == "deal" or state.is_game_over()
        scores = [a - b for a, b in zip(state.totals(), before, strict=True)]
        if hand.scores is not None and (not ended or hand.scores != scores):
            raise ReplayError(
                f"the stored scores {hand.scores} do not match the play, which gives "
                f"{scores if ended else 'no scores yet (the hand is unfinished)'}",
                file=file, path=base + ".scores", hand=h + 1)
        if hand.scores is None and ended:
            if not lenient:
                raise ReplayError(f"the hand is over, so it carries its scores: {scores}",
                                  file=file, path=base, hand=h + 1)
            replay.repairs.append(f"{base}.scores: missing, computed from the play: {scores}")
            hand.scores = scores
    totals = state.totals()
    if state.is_game_over():
        if replay.totals is None:
            if not lenient:
                raise ReplayError(f"the game is over, so the replay carries its totals: "
                                  f"{totals}", file=file, path="$")
            replay.repairs.append(f"$.totals: missing, computed from the play: {totals}")
            replay.totals = totals
        elif replay.totals != totals:
            raise ReplayError(f"the stored totals {replay.totals} do not match the play, which "
                              f"gives {totals}", file=file, path="$.totals")
    elif replay.totals is not None:
        if not lenient:
            raise ReplayError("the game is not over, so there are no totals yet",
                              file=file, path="$.totals")
        replay.repairs.append("$.totals: dropped (the game is not over)")
        replay.totals = None
    return state


def reason_of(err: CardlabError) -> str:
    """The reason alone, without the hand or seat the engine named (the caller says where)."""
    return err.reason if isinstance(err, IllegalActionError) else str(err)


def play_line(replay: Replay, state: State, hand_index: int, actions: list[Action],
              file: str | None, base: str, first_step: int = 1, start: int = 0,
              stop: int | None = None) -> None:
    """Apply ``actions[start:stop]`` to ``state``, checking each one's seat: the seat that
    makes the action (``State.actor``: a bid change in Ted's Game is the last bidder's).
    ``actions[0]`` is step ``first_step``, at JSON path ``base[0]``; ``hand_index`` is the
    0-based index into ``replay.hands`` (messages count hands from 1).

    An action spelt otherwise than the engine writes it (``PLAY CIRCLE5``, bids in another
    order) is stored in the engine's spelling: once loaded, an action has one text, the one
    its eval record's keys use."""
    seats = replay.seats
    to_act, parse, actor, apply = state.to_act, state.parse_action, state.actor, state.apply
    text_of = state.action_text
    spelt: dict[str, str] = {}  # the texts respelt, shared as the parser shares equal texts
    out_of_turn = type(state).actor is not State.actor  # only then may the actor differ
    for k in range(start, len(actions) if stop is None else stop):
        action = actions[k]
        seat = to_act()
        if seat < 0:
            raise _located(f"{brief(action.act)} comes after the hand has ended", hand_index,
                           first_step, k, None, file, f"{base}[{k}]")
        try:
            move = parse(action.act)
        except CardlabError as err:
            raise _located(reason_of(err), hand_index, first_step, k, seats[seat], file,
                           f"{base}[{k}].act") from None
        who = seat
        if out_of_turn:
            who = actor(move)
            if who < 0:
                who = seat
        if action.seat != seats[who]:
            reason = (f"it is {seats[seat]}'s turn, not {action.seat}'s" if who == seat else
                      f"{action.act!r} is {seats[who]}'s to make (the rules let {seats[who]} "
                      f"act out of turn here), not {action.seat}'s")
            raise _located(reason, hand_index, first_step, k, None, file, f"{base}[{k}].seat")
        record = action.eval
        if record is not None:  # the position before the action, for its eval record
            legal = state.legal_texts() if who == seat else None
        try:
            apply(move)
        except CardlabError as err:
            raise _located(reason_of(err), hand_index, first_step, k, action.seat, file,
                           f"{base}[{k}].act") from None
        canonical = text_of(move)
        if canonical != action.act:
            action.act = spelt.setdefault(canonical, canonical)
        if record is not None:
            problem = eval_problem(record, seats, action.seat, canonical, legal)
            if problem is not None:
                raise _located(problem[1], hand_index, first_step, k, action.seat, file,
                               f"{base}[{k}].eval{problem[0]}")


def replay_line(replay: Replay, state: State, hand: int, actions: Sequence[Action],
                file: str | None = None, base: str = "", first_step: int = 1
                ) -> Iterator[State]:
    """Apply ``actions`` to ``state`` (a position of ``replay``), yielding the state after
    each one; each action is checked (its seat too) as :func:`load` checks it. ``hand``
    counts from 1; ``base`` is the JSON path of the action list and ``first_step`` the step
    number of its first action, for error messages.

    >>> import cardlab
    >>> review = cardlab.example("norwegian-review")
    >>> state = review.new_state()
    >>> state.apply_chance(review.hands[0].deal)
    >>> [s.to_act() for s in replay_line(review, state, 1, review.hands[0].actions[:2])]
    [0, 1]
    """
    index = index_of_hand(replay, hand)  # the hand is checked now, not at the first step
    return _replay_line(replay, state, index, list(actions), file, base, first_step)


def _replay_line(replay: Replay, state: State, index: int, line: list[Action],
                 file: str | None, base: str, first_step: int) -> Iterator[State]:
    for k in range(len(line)):
        play_line(replay, state, index, line, file, base, first_step, start=k, stop=k + 1)
        yield state


def eval_problem(record: Any, seats: list[str], actor: str, played: str,
                 legal: list[str] | None) -> tuple[str, str] | None:
    """What is wrong with an action's eval record, as (JSON path below ``.eval``, reason), or
    None. ``actor`` made the action, ``played`` is its text as the engine writes it, and
    ``legal`` the legal action texts of the position (None: the action was made out of
    turn, so it is no decision of the seat to act). Looks at a fixed depth, never recurses.

    >>> record = {"seat": "Ann", "rollouts": 0, "seed": 1, "bot": "random",
    ...           "values": {"bid 0": [1.5, 0.2], "bid 1": [-2.0, 0.3]}}
    >>> eval_problem(record, ["Ann", "Bo"], "Ann", "bid 1", ["bid 0", "bid 1"])
    ('.rollouts', "an eval's rollouts are a whole number of at least 1, not the number 0")
    >>> record["rollouts"], record["values"]["bid 1"] = 200, [-2e300, 0.3]
    >>> eval_problem(record, ["Ann", "Bo"], "Ann", "bid 1", ["bid 0", "bid 1"])[1]
    "a value's mean is a finite number from -1,000,000,000 to 1,000,000,000 (an expected \
score), not -2e+300"
    """
    if type(record) is not dict:
        return "", f"an eval record is an object with the keys {', '.join(EVAL_REQUIRED)}, " \
                   f"not {kind_of(record)}"
    if DUPLICATE in record:
        return "", f"the key {record[DUPLICATE]!r} is given twice in this object"
    for key in record:
        if key not in EVAL_KEYS:
            return "", f"an eval record has no key {brief(key)}; its keys are " \
                       f"{', '.join(EVAL_KEYS)}"
    for key in EVAL_REQUIRED:
        if key not in record:
            return "", f"an eval record needs the key {key!r}"
    seat = record["seat"]
    if not isinstance(seat, str) or seat not in seats:
        return ".seat", f"an eval's seat is a seat name ({', '.join(seats)}), not {kind_of(seat)}"
    if legal is None:
        return "", "an eval is of a decision of the seat to act, and this action is made out " \
                   "of turn"
    if seat != actor:
        return ".seat", f"the eval is {seat}'s, but this action is {actor}'s: an eval is of " \
                        "the decision of the seat that acts"
    rollouts = record["rollouts"]
    if type(rollouts) is not int or rollouts < 1:
        return ".rollouts", f"an eval's rollouts are a whole number of at least 1, not " \
                            f"{kind_of(rollouts)}"
    if rollouts > EVAL_ROLLOUTS_MAX:
        return ".rollouts", f"an eval's rollouts are at most {EVAL_ROLLOUTS_MAX:,}, not " \
                            f"{brief(rollouts)}"
    seed = record["seed"]
    if type(seed) is not int or abs(seed) > EVAL_SEED_MAX:
        return ".seed", f"an eval's seed is a whole number from -{EVAL_SEED_MAX:,} to " \
                        f"{EVAL_SEED_MAX:,} (2**53 - 1), not {kind_of(seed)}"
    bot = record["bot"]
    if not isinstance(bot, str) or bot not in EVAL_BOTS:
        return ".bot", f"an eval's bot is one of {', '.join(EVAL_BOTS)}, not {kind_of(bot)}"
    if "exact" in record and type(record["exact"]) is not bool:
        return ".exact", f"an eval's exact is true or false, not {kind_of(record['exact'])}"
    if "note" in record and (type(record["note"]) is not str
                             or not 0 < len(record["note"]) <= EVAL_NOTE_MAX):
        return ".note", f"an eval's note is a text of 1 to {EVAL_NOTE_MAX:,} characters, not " \
                        f"{kind_of(record['note'])}"
    values = record["values"]
    if type(values) is not dict:
        return ".values", "an eval's values are an object of [mean, stderr] by action text, " \
                          f"not {kind_of(values)}"
    if DUPLICATE in values:
        return ".values", f"the key {values[DUPLICATE]!r} is given twice in this object"
    known = set(legal)
    for text, pair in values.items():  # a hostile map of many keys stops at its first bad one
        where = ".values" + _key_step(text)
        if text not in known:
            return where, f"{brief(text)} is not a legal action here; the eval's values are " \
                          f"the legal actions: {brief(legal)}"
        if type(pair) is not list or len(pair) != 2 or \
                any(type(x) not in (int, float) for x in pair):
            return where, f"a value is [mean, stderr], two numbers, not {kind_of(pair)}"
        mean, stderr = pair
        # compared as written: an int too large for a float (10**400) is out of range too
        if not -EVAL_VALUE_MAX <= mean <= EVAL_VALUE_MAX:  # false for NaN
            return where, f"a value's mean is a finite number from -{EVAL_VALUE_MAX:,.0f} to " \
                          f"{EVAL_VALUE_MAX:,.0f} (an expected score), not {brief(mean)}"
        if stderr < 0:
            return where, f"a standard error is at least 0, not {stderr!r}"
        if not stderr <= EVAL_STDERR_MAX:
            return where, f"a standard error is a finite number of at most " \
                          f"{EVAL_STDERR_MAX:,.0f}, not {brief(stderr)}"
    if played not in values:
        return ".values", f"the eval has no value for the action played, {played!r}"
    for text in legal:
        if text not in values:
            return ".values", f"the eval has no value for the legal action {text!r}"
    return None


def _key_step(key: str) -> str:
    return strictjson.children({key: None}).__next__()[0]  # the parser's own path spelling


def _located(reason: str, hand_index: int, first_step: int, k: int, seat: str | None,
             file: str | None, path: str) -> ReplayError:
    return ReplayError(reason, file=file, path=path, hand=hand_index + 1, step=first_step + k,
                       seat=seat)


def _validate_variations(replay: Replay, start: State, hand_index: int, actions: list[Action],
                         file: str | None, base: str) -> None:
    """Every variation of a hand, depth first, each replayed from the position where it
    branches: the line it branches off is stepped up to there (a clone per line)."""
    work: list[tuple[State, list[Action], str, int]] = [(start, actions, base, 1)]
    while work:
        state, line, where, first_step = work.pop()
        for i, action in enumerate(line):
            for v, variation in enumerate(action.variations):
                vbase = f"{where}[{i}].variations[{v}]"
                branch = state.clone()
                origin = branch.clone()
                play_line(replay, branch, hand_index, variation, file, vbase, first_step + i)
                if any(a.variations for a in variation):
                    work.append((origin, variation, vbase, first_step + i))
            state.act(action.act)  # this line was checked already
