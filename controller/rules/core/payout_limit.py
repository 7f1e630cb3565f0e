"""The payout limit of a Rules Submission, one object for every game that has one.

The texts put the limit in two ways, and a game says which by the method it calls:

- on one hand, all its winning wagers together (Asia Poker, § 659a.12(c); Texas Hold 'Em Bonus
  Poker, § 647a.12(c)): :meth:`PayoutLimit.pay` takes the hand's outcomes in settlement order and
  holds each to what the limit has left;
- on each wager alone (Three Card Poker, § 601a.2): :meth:`PayoutLimit.hold` holds one payout
  to the limit.

Blackjack declares the option (the layout's inscription, § 633a.2(b)(16)) but holds nothing with
it: "Any maximum payout limit established by the certificate holder shall apply only to payouts of
Royal Match 21 Wagers and King's Bounty Wagers" (§ 633a.13(o)), which its table does not offer.

A held payout carries :data:`~.settlement.PAYOUT_LIMITED`; a limit of ``None`` holds nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .money import Cents, format_money
from .options import money, option
from .settlement import PAYOUT_LIMITED, Outcome, Result


class PayoutLimit:
    """A payout limit (``None``: none) and the section that sets it."""

    def __init__(self, limit: Cents | None, section: str, words: str = "the payout limit") -> None:
        self.limit = limit
        self.section = section
        self.words = words
        """How the notes name it: ``"the payout limit"``, ``"the aggregate payout limit"``."""
        self.left = limit
        """What the limit has left for the hand's next winning wager (:meth:`pay`)."""

    def hold(self, payout: Cents) -> tuple[Cents, bool]:
        """One wager's ``payout`` held to the limit, and whether it was."""
        if self.limit is not None and payout > self.limit:
            return self.limit, True
        return payout, False

    def pay(self, o: Outcome) -> Outcome:
        """The hand's next outcome, its win held to what the limit has left (a win held to
        nothing is a push)."""
        if o.result is not Result.WIN or self.left is None:
            return o
        paid = min(o.net, self.left)
        self.left -= paid
        if paid == o.net:
            return o
        note = f"{self.words} of {self.section} holds the payout to {format_money(paid)}"
        if paid == 0:
            return replace(o, result=Result.PUSH, net=0, note=note, flags=(*o.flags, PAYOUT_LIMITED))
        return replace(o, net=paid, note=note, flags=(*o.flags, PAYOUT_LIMITED))


def payout_limit_option(
    section: str,
    help: str,
    *,
    default: str | None = None,
    minimum: Cents | None = None,
    minimum_rule: str = "",
) -> Any:
    """The Rules Submission's ``payout_limit`` option, the same key in every game that has one:
    money, at least ``minimum`` where the text sets one; optional (none) unless ``default`` is an
    amount."""
    optional = default is None or default == ""
    return option(
        "payout_limit", money(minimum, minimum_rule, optional=optional), default, section=section, help=help
    )
