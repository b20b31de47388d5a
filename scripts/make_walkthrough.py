"""Enter the Norwegian review's walkthrough of Where's Bob's Hat? as a replay.

The review follows Tone, Remo, Kathrine and Brad through two hands (Brad deals the first).
Its house rules: the player left of the dealer bids first and leads; the hat's value is
shown at once; hands go on until the deck runs out. The deal below is what each player is
seen to play; every action goes through the recording API, which checks it at once.

Run: python scripts/make_walkthrough.py [OUT]  (default replays/norwegian-review.json)
"""

from __future__ import annotations

import sys
from pathlib import Path

import cardlab

SEATS = ["Tone", "Remo", "Kathrine", "Brad"]
OPTIONS = {"players": 4, "until_deck_runs_out": True, "first_dealer": 3,
           "opening": "left-of-dealer", "hat_reveal": "at-once"}

# Each step: (action, note in Norwegian, note in English); notes are optional.
HAND_1 = {
    "deal": {"trump": "black", "hands": [
        ["blue20", "blue4", "red6", "red14", "red2"],
        ["blue14", "red9", "black15", "red12", "red7"],
        ["blue9", "blue15", "red11", "red20", "blue17"],
        ["blue5", "blue18", "black14", "black3", "black12"],
    ]},
    "note": ("Brad gir fem kort til hver. Trumfkortet han snur er svart.",
             "Brad deals five cards each. The trump card he turns up is black."),
    "steps": [
        ("hat -10", "Brad gjør hatten verdt −10 denne runden, og etter husregelen vises den "
                    "med en gang.",
         "Brad makes the hat worth −10 this hand; by the house rule everyone sees it at once."),
        ("bid most-blue", "Tone sitter til venstre for given og melder først: flest blå.",
         "Tone sits left of the dealer, so she bids first: most blue."),
        ("bid most-red", None, None),
        ("bid most-blue", "Kathrine melder også flest blå – bare én av dem kan klare det.",
         "Kathrine also bids most blue: at most one of the two can make it."),
        ("bid most-black", "Brad melder flest svarte, altså i trumf.",
         "Brad bids most black, the trump suit."),
        ("play blue20", "Tone spiller ut. Hun åpner med sitt høyeste blå kort.",
         "Tone leads the first trick with her highest blue."),
        ("play blue14", None, None),
        ("play blue9", None, None),
        ("play blue5", "Tones blå 20 vinner. Remos blå 14 ligger i stikket, så Tone får hatten.",
         "Tone's blue 20 wins, and Remo's blue 14 is in the trick, so Tone takes the hat."),
        ("play blue4", None, None),
        ("play red9", "Remo har ikke flere blå og kan kaste hva han vil.",
         "Remo has no blue left, so he may play any card."),
        ("play blue15", None, None),
        ("play blue18", "Brads blå 18 tar stikket, og med Kathrines blå 15 går hatten til Brad.",
         "Brad's blue 18 takes it; with Kathrine's blue 15 in the trick the hat moves to Brad."),
        ("play black14", None, None),
        ("play red6", None, None),
        ("play black15", None, None),
        ("play red11", "Remos svarte 15 er høyeste trumf. Han vinner stikket og hatten.",
         "Remo's black 15 is the highest trump: he wins the trick and the hat."),
        ("play red12", None, None),
        ("play red20", None, None),
        ("play black3", "Brad er tom for rødt og trumfer med svart 3.",
         "Brad is out of red and trumps with the black 3."),
        ("play red14", "Tones røde 14 havner i Brads stikk – og hatten på −10 går tilbake til "
                       "ham, til hans store ergrelse.",
         "Tone's red 14 falls into Brad's trick, so the −10 hat goes back to him, much to his "
         "annoyance."),
        ("play black12", None, None),
        ("play red2", None, None),
        ("play red7", None, None),
        ("play blue17", "Brad tar også siste stikk. Oppgjør: Tone og Brad har fire blå hver, så "
                        "ingen av de to blå-melderne klarer det (−5 til Tone og Kathrine). Brad "
                        "har seks røde mot Remos to (−5 til Remo). Brad og Remo har to svarte "
                        "hver, så Brad bommer også, og med hatten blir det −15.",
         "Brad takes the last trick too. Scoring: Tone and Brad took four blue each, so neither "
         "blue bidder makes it (−5 for Tone and Kathrine). Brad took six red to Remo's two "
         "(−5 for Remo). Brad and Remo took two black each, so Brad misses as well: with the "
         "hat that is −15."),
    ],
}

HAND_2 = {
    "deal": {"trump": "red", "hands": [
        ["blue7", "black20", "red12", "black5", "black16", "red16"],
        ["blue13", "black18", "red10", "black19", "black15", "red18"],
        ["blue19", "red2", "red20", "blue10", "red7", "blue5"],
        ["red5", "black17", "red15", "red19", "black1", "black10"],
    ]},
    "note": ("Nå gir Tone, seks kort hver, og rød er trumf.",
             "Now Tone deals, six cards each, and red is trump."),
    "steps": [
        ("hat +10", "Denne gangen er hatten verdt +10.", "This time the hat is worth +10."),
        ("bid most-black", "Remo melder først: flest svarte.", "Remo bids first: most black."),
        ("bid most-red", None, None),
        ("bid most-red,most-black", "Brad melder både flest røde og flest svarte.",
         "Brad makes two bids at once: most red and most black."),
        ("bid most-red,most-black", "Tone har sett alle de andre meldingene og gjør som Brad: "
                                    "flest røde og flest svarte. Et vågestykke.",
         "Tone has seen every other bid and copies Brad: most red and most black. A gamble."),
        ("play blue13", None, None),
        ("play blue19", None, None),
        ("play red5", "Brad har ingen blå og trumfer med rød 5.",
         "Brad has no blue and trumps with the red 5."),
        ("play blue7", "Brad vinner stikket.", "Brad wins the trick."),
        ("play black17", None, None),
        ("play black20", None, None),
        ("play black18", None, None),
        ("play red2", "Kathrine har ikke svart og trumfer med rød 2. Hun tar stikket og tre "
                      "svarte kort fra dem som meldte svart.",
         "Kathrine has no black and trumps with the red 2, taking three black cards away from "
         "the black bidders."),
        ("play red20", None, None),
        ("play red15", None, None),
        ("play red12", None, None),
        ("play red10", "Kathrines røde 20 vinner, og Brads røde 15 gir henne hatten.",
         "Kathrine's red 20 wins, and Brad's red 15 in the trick gives her the hat."),
        ("play blue10", None, None),
        ("play red19", None, None),
        ("play black5", None, None),
        ("play black19", "Brads røde 19 er eneste trumf og tar stikket.",
         "Brad's red 19 is the only trump and takes the trick."),
        ("play black1", None, None),
        ("play black16", None, None),
        ("play black15", None, None),
        ("play red7", "Kathrine trumfer igjen, og Remo, som håpet på svart, ser stikket "
                      "forsvinne. Hatten blir hos Kathrine.",
         "Kathrine trumps again; Remo, who hoped to do well in black, watches the trick go. "
         "The hat stays with her."),
        ("play blue5", None, None),
        ("play black10", None, None),
        ("play red16", None, None),
        ("play red18", "Remo tar siste stikk, men det endrer ingenting. Oppgjør: Tone bommer på "
                       "begge meldinger uten et eneste stikk (−10). Remo bommer på svart (−5). "
                       "Kathrine klarer flest røde med seks kort og har hatten: 5 + 6 + 10 = 21. "
                       "Brad bommer på begge (−10).",
         "Remo takes the last trick, but it changes nothing. Scoring: Tone misses both bids "
         "without taking a trick (−10). Remo misses black (−5). Kathrine makes most red with "
         "six red cards and holds the hat: 5 + 6 + 10 = 21. Brad misses both (−10)."),
    ],
}


def note(no: str | None, en: str | None) -> dict[str, str] | None:
    return None if no is None or en is None else {"no": no, "en": en}


def build() -> cardlab.Replay:
    table = cardlab.new_game(
        "bobs-hat", seats=SEATS,
        meta={"title": "Where's Bob's Hat? — the Norwegian review's two sample hands",
              "source": "A Norwegian review of Where's Bob's Hat? (walkthrough of two hands)",
              "languages": ["no", "en"]},
        **OPTIONS)
    for hand in (HAND_1, HAND_2):
        table.deal(hand["deal"], note=note(*hand["note"]))
        for act, no, en in hand["steps"]:
            table.act(act, note=note(no, en))
    return table.replay


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "replays/norwegian-review.json")
    build().save(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
