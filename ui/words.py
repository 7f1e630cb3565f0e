"""The dealer's words: the daemon's text without its citations and internal names.

The sections stay in the journal and in the technician's page; the dealer reads what to do
("Seat 2's decision, bet or fold", not "... (§ 639a.11(b))"), and no internal word: "hand 0" is
the only hand of the seat, an underscore a space (issue 19).
"""

from __future__ import annotations

import re
from typing import Final

CITATION: Final = re.compile(r"\s*\((?:§|§§)[^()]*(?:\([^()]*\)[^()]*)*\)")
FIRST_HAND: Final = re.compile(r"\s*\bhand 0\b")


def dealer_words(text: str) -> str:
    """``text`` without its "(§ ...)" citations, "hand 0", or underscores in names."""
    out = FIRST_HAND.sub("", CITATION.sub("", text))
    return re.sub(r"(?<=[a-z])_(?=[a-z])", " ", out).strip()
