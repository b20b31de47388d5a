"""An independent re-computation of one Whot game's scores from its final position.

Written from the rule text, not from the engine: the score against each player is the total
of the numbers on the cards he still holds, stars counting double and a WHOT 20; the winner
holds nothing and scores 0. It reads only the final hands (card codes) of the position.
"""

GAME = "whot"
SYMBOLS = ("circle", "triangle", "cross", "square", "star")


def card_value(code: str) -> int:
    face = code.split("/")[0]  # "circle7/2" is the second copy of circle7
    if face == "whot20":
        return 20
    symbol = face.rstrip("0123456789")
    assert symbol in SYMBOLS, code
    number = int(face[len(symbol):])
    assert 1 <= number <= 14 and number not in (6, 9), code
    return 2 * number if symbol == "star" else number


def hand_scores(pos: dict, options: dict) -> list[int]:
    assert pos["hand_over"], "scores are taken when the game has ended"
    scores = [sum(card_value(code) for code in held) for held in pos["hands"]]
    if pos["ended"] == "won":
        assert scores[pos["winner"]] == 0, "the winner has played his last card"
    return scores
