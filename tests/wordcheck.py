"""The search for codes and slips in texts a person reads (tests/test_words.py, the handouts'
tests): a game's card codes outside quotes, a count with the wrong noun, a number with the
wrong article."""

from __future__ import annotations

import re

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
