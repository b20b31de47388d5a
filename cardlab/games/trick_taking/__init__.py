"""Trick-taking mechanics shared by the trick games: the state every trick game's state
inherits (:mod:`.state`: hands per suit, following suit, the trick's winner), the cards'
faces of a suited deck (:func:`suited_faces`), the blind sampler of a seat's view
(:mod:`.sampler`), the trick games' :class:`~cardlab.game.Game` whose hooks it reads
(:mod:`.advice`: ``TrickGame``) and the exact solver's search of the cards (:mod:`.solving`).
Written once here; a game's package adds its own phases and scoring.
"""

from __future__ import annotations

from ...game import CardFace
from .state import COLOUR_MARK, PLAY, SUIT_MARK, SuitedDeck, TrickTaking


def suited_faces(deck: SuitedDeck, marked_ranks: tuple[int, ...] = ()) -> dict[str, CardFace]:
    """Every card of a suited deck → ``[rank, mark, colour, hat, name]``: the standard
    suits by their signs (red or black), coloured suits by a shape and their colour;
    ``marked_ranks`` get the ``hat`` flag (Bob's Hat's 14s and 15s). The name is the deck's
    (:attr:`SuitedDeck.names`), the one the engine's refusals say too.

    >>> from cardlab.games.teds_game.engine import DECK
    >>> suited_faces(DECK)["10S"]
    ['10', '♠', 'black', 0, '10♠']
    """
    out: dict[str, CardFace] = {}
    for card, code in enumerate(deck.codes):
        suit = deck.suits[deck.suit_of[card]]
        rank = deck.rank_of[card]
        label = deck.rank_names.get(rank, str(rank))
        name = deck.names[card]
        if suit in SUIT_MARK:
            colour = "red" if suit in ("hearts", "diamonds") else "black"
            out[code] = [label, SUIT_MARK[suit], colour, 0, name]
        else:
            out[code] = [label, COLOUR_MARK.get(suit, ""), suit, int(rank in marked_ranks), name]
    return out


__all__ = ["COLOUR_MARK", "PLAY", "SUIT_MARK", "SuitedDeck", "TrickTaking", "suited_faces"]
