"""Card tiles as small HTML: Bob's Hat's blue, red and black cards, ♠♥♦♣, Whot's symbols.

A tile is a ``<span>`` styled by the classes in :data:`CSS`; suit and rank come from the
game's own deck (``get_game(game).rules_class.deck``), so nothing here knows a rule. Bob's
Hat's 14s and 15s show the little hat printed on the real cards (the engine's ``HAT_RANKS``).
No third-party imports: this module works without the notebook extras.

>>> card_html("bobs-hat", "blue14")
'<span class="cl-card cl-blue" title="blue14">14<i class="cl-hat-mark"><svg ...></i></span>'
>>> card_html("teds-game", "QH")
'<span class="cl-card cl-hearts" title="QH">Q<b>♥</b></span>'
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

from ..errors import CardlabError
from ..game import get_game

CSS = """
.cl-felt{background:radial-gradient(ellipse at center,#2f7d4a 0%,#1d5632 100%);
 border-radius:28px;padding:10px;box-shadow:inset 0 0 18px rgba(0,0,0,.45);color:#f4f1e8;
 font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:13px}
.cl-seat{background:rgba(0,0,0,.18);border-radius:10px;padding:4px 6px;min-height:58px}
.cl-seat.cl-acting{background:rgba(255,214,102,.22);box-shadow:0 0 0 2px #ffd666}
.cl-name{font-weight:600;font-size:14px}
.cl-badge{display:inline-block;border-radius:8px;padding:0 5px;margin-left:4px;font-size:11px;
 background:#f4f1e8;color:#1d5632;font-weight:600}
.cl-badge.cl-turn{background:#ffd666;color:#222}
.cl-badge.cl-hat{background:#f4e3c8;color:#3e2a14}
.cl-badge.cl-win{background:#ffd666;color:#222}
.cl-line{margin-top:2px;font-size:12px;opacity:.95}
.cl-chip{display:inline-block;border-radius:6px;padding:0 5px;margin:1px 2px;font-size:11px;
 background:rgba(255,255,255,.85);color:#222}
.cl-chip.cl-legal{background:#ffd666;font-weight:600}
.cl-chip.cl-bad{background:#f8d0cc;color:#7a1b12}
.cl-card{display:inline-block;position:relative;min-width:22px;height:32px;line-height:32px;
 padding:0 3px;margin:1px;border-radius:4px;background:#fffdf6;border:1px solid #888;
 text-align:center;font-weight:700;font-size:14px;color:#222;vertical-align:middle}
.cl-card b{font-weight:400;margin-left:1px}
.cl-card i.cl-hat-mark{position:absolute;top:-7px;right:-6px;font-style:normal;line-height:0}
.cl-card.cl-blue{color:#1f5fbf;border-color:#1f5fbf}
.cl-card.cl-red,.cl-card.cl-orange{color:#c0392b;border-color:#c0392b}
.cl-card.cl-black{color:#111;border-color:#111}
.cl-card.cl-hearts,.cl-card.cl-diamonds{color:#c0392b}
.cl-card.cl-clubs,.cl-card.cl-spades{color:#111}
.cl-card.cl-whot{color:#7b1e3b;border-color:#7b1e3b}
.cl-card.cl-back{background:repeating-linear-gradient(45deg,#24448a,#24448a 3px,#3a5fb0 3px,
 #3a5fb0 6px);border-color:#fff;min-width:18px;color:transparent}
.cl-card.cl-legal{box-shadow:0 0 0 2px #ffd666;transform:translateY(-3px)}
.cl-card.cl-won{box-shadow:0 0 0 3px #ffd666,0 0 8px #ffd666}
.cl-card.cl-bigcard{height:44px;line-height:44px;min-width:34px;font-size:18px}
.cl-swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin:0 2px 0 6px;
 border:1px solid #fff;vertical-align:middle}
.cl-centre{text-align:center;padding:4px}
.cl-centre .cl-info{font-size:12px;margin-bottom:4px}
.cl-played{display:inline-block;margin:0 4px;text-align:center;font-size:11px}
.cl-played.cl-leader .cl-who{text-decoration:underline}
.cl-reason{margin-top:4px;font-size:12px;color:#ffe7a0}
.cl-explain{margin-top:4px;font-size:12px;background:rgba(0,0,0,.25);border-radius:6px;
 padding:2px 6px;display:inline-block}
.cl-note{background:#fffbe6;border-left:4px solid #e0b400;padding:4px 8px;color:#333;
 font-size:13px;min-height:20px}
.cl-last{font-size:13px;color:var(--jp-ui-font-color1,#333)}
.cl-sheet{border-collapse:collapse;font-size:12px;color:#222;background:#fff}
.cl-sheet th,.cl-sheet td{border:1px solid #ccc;padding:1px 6px;text-align:right}
.cl-sheet tr.cl-sub-total,.cl-sheet tr.cl-total{font-weight:700;background:#f2f2f2}
.cl-sheet tr.cl-current{background:#fff3b0}
.cl-sheet tr.cl-variation td{font-style:italic}
.cl-compare{border-collapse:collapse;font-size:12px;color:#222;background:#fff}
.cl-compare th,.cl-compare td{border:1px solid #ccc;padding:1px 6px;text-align:right}
.cl-error{color:#9b1c1c;font-size:12px}
"""

# Bob's Hat is a cap; drawn rather than an emoji, which not every browser has a font for.
HAT_SVG = ('<svg width="13" height="10" viewBox="0 0 13 10" aria-label="hat">'
           '<path d="M2 7.5C2 2.5 4 1 6.5 1S11 2.5 11 7.5Z" fill="#6b4b2a"/>'
           '<rect x="1" y="7" width="11.5" height="2.2" rx="1.1" fill="#3e2a14"/></svg>')

# Colours of a suit's swatch (for the trump and the cards-taken counters).
SWATCH = {"blue": "#1f5fbf", "red": "#c0392b", "orange": "#e67e22", "black": "#111",
          "clubs": "#111", "spades": "#111", "hearts": "#c0392b", "diamonds": "#c0392b"}
SUIT_SYMBOL = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
# Whot's symbols (by the first letters of the suit name the deck uses)
WHOT_SYMBOL = {"cir": "●", "tri": "▲", "cro": "✚", "squ": "■", "sta": "★"}


def symbol(suit: str) -> str:
    """The printed symbol of a suit or Whot shape (empty for Bob's Hat's colours)."""
    key = suit.lower()
    if key in SUIT_SYMBOL:
        return SUIT_SYMBOL[key]
    for prefix, sign in WHOT_SYMBOL.items():
        if key.startswith(prefix):
            return sign
    if len(key) == 1 and key in "cdhs":
        return SUIT_SYMBOL[{"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}[key]]
    return ""


@lru_cache(maxsize=8)
def _deck(game: str) -> Any:
    try:
        return getattr(get_game(game).rules_class, "deck", None)
    except CardlabError:
        return None


@lru_cache(maxsize=8)
def _marked_ranks(game: str) -> frozenset[int]:
    """Ranks that carry a printed mark: Bob's Hat's hat cards, from the engine itself."""
    if game != "bobs-hat":
        return frozenset()
    from ..games.bobs_hat import HAT_RANKS

    return frozenset(HAT_RANKS)


@lru_cache(maxsize=512)
def card_parts(game: str, code: str) -> tuple[str, str, str, bool]:
    """(suit class, rank label, symbol, marked) of a card code, from the game's deck."""
    if game == "whot":
        return _whot_parts(code)
    deck = _deck(game)
    if deck is None:
        return "plain", code, "", False
    try:
        card = deck.parse(code)
    except CardlabError:
        return "plain", code, "", False
    suits = getattr(deck, "suits", None)
    if suits is None:  # a deck without suit tables: show the code itself
        return "plain", code, "", False
    suit = suits[deck.suit_of[card]]
    rank = deck.rank_of[card]
    label = getattr(deck, "rank_names", {}).get(rank, str(rank))
    sign = symbol(suit)
    css = suit.lower().replace(" ", "-")
    if game == "whot":
        css = "whot"
    return css, label, sign, rank in _marked_ranks(game)


def _whot_parts(code: str) -> tuple[str, str, str, bool]:
    # Whot's deck has no suit tables (two packs, WHOT cards); its codes spell the face:
    # symbol then number ("circle7"), a later copy of a face with "/k" ("whot20/2").
    deck = _deck("whot")
    try:
        face = deck.codes[deck.parse(code)].split("/")[0]
    except (CardlabError, AttributeError):
        return "plain", code, "", False
    name = face.rstrip("0123456789")
    number = face[len(name):]
    if name == "whot":
        return "whot", "WHOT", "", False
    return "whot", number, symbol(name), False


@lru_cache(maxsize=4096)
def card_html(game: str, code: str, legal: bool = False, won: bool = False,
              big: bool = False) -> str:
    """One face-up card tile; ``legal`` highlights a playable card, ``won`` the trick winner."""
    css, label, sign, marked = card_parts(game, code)
    classes = ["cl-card", f"cl-{css}"]
    if legal:
        classes.append("cl-legal")
    if won:
        classes.append("cl-won")
    if big:
        classes.append("cl-bigcard")
    inner = escape(label) + (f"<b>{sign}</b>" if sign else "")
    if marked:
        inner += f'<i class="cl-hat-mark">{HAT_SVG}</i>'
    return f'<span class="{" ".join(classes)}" title="{escape(code)}">{inner}</span>'


def back_html(count: int) -> str:
    """``count`` face-down cards (another seat's hidden hand)."""
    return '<span class="cl-card cl-back" title="hidden">?</span>' * count


def swatch(suit: str) -> str:
    colour = SWATCH.get(suit, "#888")
    return f'<span class="cl-swatch" style="background:{colour}"></span>'


def style_tag() -> str:
    return f"<style>{CSS}</style>"


__all__ = ["CSS", "card_html", "back_html", "card_parts", "swatch", "style_tag", "symbol"]
