"""The search for codes and slips in texts a person reads (tests/test_words.py, the handouts'
tests): a game's card codes outside quotes, a count with the wrong noun, a number with the
wrong article, a seat's name run into an action's verb; and the games' message templates,
read from their code, so that a test can show it rendered every one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import cardlab

NOUNS = ("hand", "card", "trick", "action", "decision", "game", "time", "seat", "player",
         "bid", "point", "deal", "rollout", "move", "step", "chunk", "round", "bot", "sample",
         "counter", "rubber", "note", "variation", "re-cut")
# "1 hands", but not a number that names something ("hand 1 deals 5 cards each": a verb)
NAMED = "".join(f"(?<!{word} )" for word in ("hand", "game", "trick", "step", "round", "action",
                                              "seat", "deal", "rubber"))
ONE_MANY = re.compile(r"(?<![\w.,+\-−/])" + NAMED + "1 (?:" + "|".join(NOUNS) + r")s\b")
OPEN_PLURAL = re.compile(r"\w\(s\)")  # "time(s)"
ARTICLE = re.compile(r"\ba (?:8\d*|11|18)\b")  # "a 11": an 11
QUOTED = re.compile(r"(?<!\w)'[^']*'(?!\w)")  # what is typed: 'play blue14'


def codes_of(name: str) -> re.Pattern[str]:
    """A pattern that finds any card code of the game ``name`` as a word."""
    codes = set(cardlab.get_game(name).rules_class.deck.codes)
    ordered = sorted(codes, key=len, reverse=True)
    return re.compile(r"(?<![\w/])(?:" + "|".join(re.escape(c) for c in ordered) + r")(?![\w/])")


def slips(texts: set[str], name: str) -> list[str]:
    """The texts with a card code (outside quotes), a count with the wrong noun or a number
    with the wrong article."""
    pattern = codes_of(name)
    found = []
    for text in sorted(texts):
        bare = QUOTED.sub("''", text)
        if pattern.search(bare) or ONE_MANY.search(text) or OPEN_PLURAL.search(text) or \
                ARTICLE.search(text):
            found.append(text)
    return found


# -- the games' message templates, read from their code ---------------------------------------

GAMES = Path(cardlab.__file__).parent / "games"
# functions whose statements write a refusal's or a rule's words, by a part of their name
BUILDERS = ("problem", "refusal", "_wrong", "_follow_rule", "score_rule", "explain_score",
            "trick_rule")
# calls whose arguments are a refusal's words (the reason, a fallback, the rule)
REFUSING = ("refuse", "_refusal", "_refuse_play", "IllegalActionError")
ANY = ".*?"


def _pattern(node: ast.expr) -> str:
    """A pattern of the text an expression makes: its literal parts as they are, anything in
    place of what is computed (a name, a card, a number)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(_pattern(v) if isinstance(v, ast.Constant) else ANY for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _pattern(node.left) + _pattern(node.right)
    if isinstance(node, ast.IfExp):
        return f"(?:{_pattern(node.body)}|{_pattern(node.orelse)})"
    return ANY


def _words(node: ast.expr) -> str:
    """The literal words of an expression (what its pattern matches for certain)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_words(v) for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp):
        return _words(node.left) + _words(node.right)
    return ""


def templates() -> dict[str, str]:
    """Every message template of the registered games' code: pattern → where it is written
    (``bobs_hat/engine.py _wrong_phase: is not the time``: no line number, so an edit
    elsewhere in the file leaves it as it was). A template is the text given to a refusal
    (:data:`REFUSING`), or returned or assigned in a function that writes refusals or rules
    (:data:`BUILDERS`), when it has at least six characters of words of its own."""
    found: dict[str, str] = {}
    for path in sorted(GAMES.rglob("*.py")):
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(function, ast.FunctionDef):
                continue
            builder = any(part in function.name for part in BUILDERS)
            for node in ast.walk(function):
                values: list[ast.expr] = []
                if isinstance(node, ast.Call):
                    func = node.func
                    name = func.attr if isinstance(func, ast.Attribute) else \
                        getattr(func, "id", "")
                    if name in REFUSING:
                        values = [*node.args, *(k.value for k in node.keywords
                                                if k.arg == "rule")]
                elif builder and isinstance(node, (ast.Return, ast.Assign)) and node.value:
                    value = node.value
                    values = list(value.elts) if isinstance(value, ast.Tuple) else [value]
                for value in values:
                    if len(_words(value).strip()) >= 6 and not isinstance(value, ast.Call):
                        found.setdefault(_pattern(value), f"{path.relative_to(GAMES)} "
                                                          f"{function.name}: {_words(value)}")
    return found


def grammar_slips(texts: set[str], seats: list[str], verbs: set[str]) -> list[str]:
    """The texts where a seat's name runs into an action's verb ("Brad play black 12": an
    action is told "Brad: play black 12"), or a word is doubled ("play play")."""
    if not seats or not verbs:
        return []
    names = "|".join(re.escape(s) for s in sorted(seats, key=len, reverse=True))
    # not after a word that takes the verb's bare form: "Which may East play?"
    modal = "".join(f"(?<!\\b{word} )" for word in MODALS)
    told = re.compile(rf"(?<![\w']){modal}(?:{names}) (?:{'|'.join(sorted(verbs))})\b")
    doubled = re.compile(r"\b([A-Za-z]{2,}) \1\b")
    return sorted(t for t in texts if told.search(t) or doubled.search(t))


MODALS = ("may", "can", "could", "must", "should", "will", "would", "does", "did", "to",
          "let", "lets")
