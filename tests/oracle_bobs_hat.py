"""An independent re-computation of Where's Bob's Hat? scores from a hand's final position.

Written from the rulebook, not from the engine: it reads only the bids, the tricks as
played, the hat's value and the options.
"""

GAME = "bobs-hat"
MOST = {"most-blue": "blue", "most-red": "red", "most-black": "black"}


def hand_scores(pos: dict, options: dict) -> list[int]:
    n = len(pos["seats"])
    scores = [0] * n
    if pos["renege"] is not None:
        scores[pos["renege"]["seat"]] = -15
        return scores
    taken = [{"blue": 0, "red": 0, "black": 0} for _ in range(n)]
    hat_holder = None
    for trick in pos["tricks"]:
        for _, code in trick["cards"]:
            suit = code.rstrip("0123456789")
            taken[trick["winner"]][suit] += 1
            if int(code[len(suit):]) in (14, 15):
                hat_holder = trick["winner"]
    dealt = {s: sum(t[s] for t in taken) for s in ("blue", "red", "black")}
    totals = [sum(t.values()) for t in taken]
    size = pos["hand_size"]
    for seat, bid in enumerate(pos["bids"]):
        if bid == ["none"]:
            continue
        for word in bid:
            if word in MOST:
                suit = MOST[word]
                mine = taken[seat][suit]
                others = [taken[o][suit] for o in range(n) if o != seat]
                if dealt[suit] == 0 or mine > max(others):
                    scores[seat] += 5 + mine
                else:
                    scores[seat] -= 5 + (mine if options["negative_scoring"] else 0)
            else:
                factor = 2 if word == "double-fewest" else 1
                made = all(totals[seat] < totals[o] for o in range(n) if o != seat)
                scores[seat] += factor * size * (1 if made else -1)
    if hat_holder is not None and pos["bids"][hat_holder] != ["none"]:
        scores[hat_holder] += pos["hat"]["value"]
    return scores
