"""The meter judges a claim: the seat is one of the table's, the cards make the row claimed, and
the row's pay is the meter's own, from the filed Rules Submission (docs/progressive-link.md,
"What the meter checks").

A progressive's paytable is configured at the meter (``[progressives.<id>] ranking`` and
``rows``), never taken from a message: § 639a.12(d)(1)-(4) and § 601a.2 (the paytable is filed
with the Rules Submission), § 639a.11(c)(5) (the Progressive Payout Wager pays on the player's
five-card hand). The hand is ranked with the project's own rankings (controller/rules/rankings/,
the one part of the controller the meter may import: pyproject.toml's import contracts), so the
meter and the table read the same cards the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from controller.rules.core.cards import Card, CardError, check_cards, parse_card
from controller.rules.rankings.high import CATEGORY_NAMES, category_of, code_best
from wire import AwardTerms, Hit


def _high(cards: Sequence[Card]) -> str:
    """Five-card high poker (§ 639a.6(b), § 647a.6(b)): the best five of five to seven cards."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"{len(cards)} cards: five-card high poker ranks five to seven cards")
    return CATEGORY_NAMES[category_of(code_best(cards))]


#: Each ranking a paytable may name: the row its cards make, and every row it has.
RANKINGS: Final[Mapping[str, tuple[Callable[[Sequence[Card]], str], tuple[str, ...]]]] = {
    "high": (_high, CATEGORY_NAMES),
}


def row_problems(ranking: str, rows: Mapping[str, AwardTerms]) -> list[str]:
    """A row the ranking does not name (a paytable must say its rows in the ranking's words)."""
    names = RANKINGS[ranking][1]
    return [
        f"{row!r} is not a hand of the {ranking!r} ranking (its hands: {', '.join(names)})"
        for row in rows
        if row not in names
    ]


def row_named(ranking: str, hand: str) -> str:
    """The row a claim's words name: the ranking's hand they begin with ("straight flush, king
    high", "royal flush (As Ks Qs Js Ts)": the table's words for the seat's hand), else the words."""
    for name in sorted(RANKINGS[ranking][1], key=len, reverse=True):
        if hand == name or hand.startswith((name + ",", name + " (")):
            return name
    return hand


@dataclass(frozen=True)
class Refused:
    """A claim the meter does not pay: the field and why."""

    field: str
    reason: str


def judge(
    ranking: str, rows: Mapping[str, AwardTerms], seats: int, table: str, hit: Hit
) -> AwardTerms | Refused:
    """The meter's terms for ``hit`` (its own row's), or why it refuses it."""
    if not 1 <= hit.seat <= seats:
        return Refused("payload.seat", f"seat {hit.seat} is not at table {table!r} (its seats: 1 to {seats})")
    claimed = row_named(ranking, hit.hand)
    row = rows.get(claimed)
    if row is None:
        return Refused(
            "payload.hand",
            f"{claimed!r} is not a row of this progressive's paytable (its rows: {', '.join(rows)})",
        )
    if not hit.cards:
        return Refused(
            "payload.cards", "a claim carries the seat's cards; the meter checks they make the row"
        )
    try:
        cards = [parse_card(c) for c in hit.cards]
        check_cards(cards, allow_joker=False)
        made = RANKINGS[ranking][0](cards)
    except (CardError, ValueError) as exc:
        return Refused("payload.cards", f"{' '.join(hit.cards)}: {exc}")
    if made != claimed:
        return Refused("payload.cards", f"{' '.join(hit.cards)} make {made}, not {claimed}: the row claimed")
    if row != hit.award:
        # The meter pays its own row; a table that claims other terms disagrees with the filing.
        return Refused(
            "payload.award",
            f"{claimed} pays {_terms(row)} in the meter's paytable, the claim says {_terms(hit.award)}",
        )
    return row


def _terms(t: AwardTerms) -> str:
    j = t.to_json()
    return f"{j['share']}% of the meter" if "share" in j else j["fixed"]
