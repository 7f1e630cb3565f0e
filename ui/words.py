"""The dealer's words: the daemon's text without its citations and internal names.

The sections stay in the journal and in the technician's page; the dealer reads what to do
("Seat 2's decision, bet or fold", not "... (§ 639a.11(b))"), and no internal word: "hand 0" is
the only hand of the seat, an underscore a space (issue 19).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

CITATION: Final = re.compile(r"\s*\((?:§|§§)[^()]*(?:\([^()]*\)[^()]*)*\)")
FIRST_HAND: Final = re.compile(r"\s*\bhand 0\b")
#: An aside in the journal's own words ("(a meter event, or meters.progressive in the record)"):
#: how a technician or a round record says it, not what the dealer does.
RECORD_ASIDE: Final = re.compile(r"\s*\([^()]*\b(?:events?|records?)\b[^()]*\)")
#: The actor the journal names by the peer's uid when no one signed in: the dealer's station.
STATION: Final = re.compile(r"\buid:\d+\b")


def dealer_words(text: str, titles: Mapping[str, str] | None = None) -> str:
    """``text`` without its "(§ ...)" citations, asides in the journal's words ("(a meter event ...
    in the record)"), "hand 0", or underscores in names; each of the
    game's own names in ``titles`` (its vocabulary: ``accept_dice`` -> "Accept the dice",
    ``shoe_jam`` -> "Shoe jammed") in the dealer's words, and ``uid:0`` "the dealer's station"."""
    out = RECORD_ASIDE.sub("", FIRST_HAND.sub("", CITATION.sub("", text)))
    out = STATION.sub("the dealer's station", out)
    for name in sorted(titles or {}, key=len, reverse=True):
        if "_" in name:  # a one-word name ("bet", "ante") already reads as the dealer says it
            title = (titles or {})[name]
            # Mid-sentence, as the dealer says it: "the shoe jammed", "seat 4: accepts dice".
            title = title[:1].lower() + title[1:]
            out = re.sub(rf"(?<![\w']){re.escape(name)}(?![\w'])", title, out)
    return re.sub(r"(?<=[a-z])_(?=[a-z])", " ", out).strip()
