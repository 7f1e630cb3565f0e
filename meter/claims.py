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
from controller.rules.rankings.fortune import FORTUNE_HANDS, fortune_hand
from controller.rules.rankings.high import CATEGORY_NAMES, category_of, code_best
from wire import AwardTerms, Hit


def _high(cards: Sequence[Card]) -> str:
    """Five-card high poker (§ 639a.6(b), § 647a.6(b)): the best five of five to seven cards."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"{len(cards)} cards: five-card high poker ranks five to seven cards")
    return CATEGORY_NAMES[category_of(code_best(cards))]


def _fortune(cards: Sequence[Card]) -> str:
    """The Fortune hands of seven cards, the joker as § 659a.6(a) allows (§ 659a.11(h))."""
    return fortune_hand(cards).row or "no Fortune hand"


@dataclass(frozen=True)
class Ranking:
    """A hand ranking a paytable's rows may name: the row ``cards`` make (``None``: the meter
    reads the row from the claim's words alone, the cards unchecked), every row it has (empty:
    any words), and whether its deck has the joker."""

    made: Callable[[Sequence[Card]], str] | None
    rows: tuple[str, ...]
    joker: bool = False


#: Each ranking a paytable may name (``[progressives.<id>] ranking``, docs/meter.md).
RANKINGS: Final[Mapping[str, Ranking]] = {
    "high": Ranking(_high, CATEGORY_NAMES),
    "fortune": Ranking(_fortune, FORTUNE_HANDS, joker=True),
    # A progressive whose hands the meter cannot rank alone (Blackjack's Bad Beat: the dealer's
    # hand and the player's total): the rows are the Rules Submission's words, the meter pays its
    # own row's terms and checks the seat; it does not check the cards.
    "named": Ranking(None, ()),
}


def row_problems(ranking: str, rows: Mapping[str, AwardTerms]) -> list[str]:
    """A row the ranking does not name (a paytable must say its rows in the ranking's words)."""
    names = RANKINGS[ranking].rows
    if not names:
        return []
    return [
        f"{row!r} is not a hand of the {ranking!r} ranking (its hands: {', '.join(names)})"
        for row in rows
        if row not in names
    ]


def row_named(ranking: str, hand: str, rows: Mapping[str, AwardTerms] | None = None) -> str:
    """The row a claim's words name: the ranking's hand (or, for ``named``, the paytable's row)
    they begin with ("straight flush, king high", "royal flush (As Ks Qs Js Ts)": the table's
    words for the seat's hand), else the words."""
    names = RANKINGS[ranking].rows or tuple(rows or ())
    for name in sorted(names, key=len, reverse=True):
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
    claimed = row_named(ranking, hit.hand, rows)
    row = rows.get(claimed)
    if row is None:
        return Refused(
            "payload.hand",
            f"{claimed!r} is not a row of this progressive's paytable (its rows: {', '.join(rows)})",
        )
    rank = RANKINGS[ranking]
    if rank.made is not None and not hit.cards:
        return Refused(
            "payload.cards", "a claim carries the seat's cards; the meter checks they make the row"
        )
    try:
        cards = [parse_card(c) for c in hit.cards]
        check_cards(cards, allow_joker=rank.joker)
        made = claimed if rank.made is None else rank.made(cards)
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
