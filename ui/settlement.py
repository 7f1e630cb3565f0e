"""Settlement: what the dealer pays or collects at each seat, in the rules' order, and the
floorperson's steps that must be done before the round is closed.

From the daemon's ``status``: ``last_rounds[0]`` (the round just settled, with its
``settlement.order``: from the dealer's right, counterclockwise, as the texts prescribe) and
``pending_payouts`` (payouts a floorperson must verify, § 633a.7(o)(2)(ii)(B), or validate,
§ 639a.11(c)(5)(iii)). A payout not paid from the table inventory container is a hand pay
(§ 639a.11(c)(5)(iv)).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .money import amount, dollars

NOT_FROM_INVENTORY = "not_paid_from_inventory"
PROGRESSIVE = "progressive"
"""The Progressive Payout Wager's chips are collected at "no more bets" and put in the table
inventory container (§ 639a.8(b)): a losing one is not collected again, a winning one is paid in
full (the stake is in the rack already), a void one is given back from the rack."""
FLOORPERSON_FLAGS = ("floorperson_verification", "floorperson_validation")


@dataclass(frozen=True)
class PayLine:
    """One wager of one seat: ``action`` is PAY, COLLECT, PUSH or RETURN, with the amount."""

    seat: int
    wager: str
    result: str
    net: Decimal
    stake: Decimal
    hand: str
    flags: tuple[str, ...]
    waits_for_floorperson: bool

    @property
    def collected_at_lock_out(self) -> bool:
        return self.wager == PROGRESSIVE

    @property
    def action(self) -> str:
        if self.result == "win":
            return "PAY"
        if self.result == "lose":
            return "COLLECTED" if self.collected_at_lock_out else "COLLECT"
        if self.result == "void":
            return "RETURN"
        return "PUSH"

    @property
    def to_pay(self) -> Decimal:
        """What the dealer hands over (or takes, for COLLECT): the net, and for a winning
        progressive also its stake, which went to the rack at the lock-out (§ 639a.8(b))."""
        if self.result == "win":
            return self.net + self.stake if self.collected_at_lock_out else self.net
        if self.result == "lose":
            return -self.net
        return self.stake

    @property
    def amount_text(self) -> str:
        return dollars(self.to_pay)

    @property
    def hand_pay(self) -> bool:
        return NOT_FROM_INVENTORY in self.flags

    @property
    def steps(self) -> str:
        """The extra steps in the dealer's words."""
        out = []
        if self.collected_at_lock_out and self.result == "lose":
            out.append("chip taken at no more bets (§ 639a.8(b))")
        if self.hand_pay:
            out.append("HAND PAY: not from the rack (§ 639a.11(c)(5)(iv))")
        if self.waits_for_floorperson:
            out.append("FLOORPERSON: PIN to verify")
        elif any(f in FLOORPERSON_FLAGS for f in self.flags):
            out.append("verified by floorperson")
        return "; ".join(out)


@dataclass(frozen=True)
class SeatSettlement:
    """One seat's settlement at a glance: its stake, one total from the rack (PAY, COLLECT or
    PUSH) and a hand pay apart (§ 639a.11(c)(5)(iv)); ``details`` the wagers in small print."""

    seat: int
    lines: tuple[PayLine, ...]

    @property
    def stake(self) -> Decimal:
        return sum((line.stake for line in self.lines), Decimal("0.00"))

    @property
    def total(self) -> Decimal:
        """What the dealer hands over from the rack (positive) or takes (negative)."""
        signs = {"PAY": 1, "COLLECT": -1}
        return sum(
            (signs.get(line.action, 0) * line.to_pay for line in self.lines if not line.hand_pay),
            Decimal("0.00"),
        )

    @property
    def action(self) -> str:
        return "PAY" if self.total > 0 else "COLLECT" if self.total < 0 else "PUSH"

    @property
    def amount_text(self) -> str:
        return dollars(abs(self.total))

    @property
    def net_text(self) -> str:
        """The seat's total from the rack with its sign, the player's side: "+$210.00" paid,
        "-$35.00" collected, "$0.00" a push (the word, the sign and the colour say it together)."""
        sign = "+" if self.total > 0 else "-" if self.total < 0 else ""
        return sign + self.amount_text

    @property
    def hand_pay(self) -> Decimal:
        return sum((line.to_pay for line in self.lines if line.hand_pay), Decimal("0.00"))

    @property
    def waits_for_floorperson(self) -> bool:
        return any(line.waits_for_floorperson for line in self.lines)

    @property
    def wagers(self) -> tuple[str, ...]:
        """Each wager in the dealer's words, in the rules' order: what the seat's details show."""
        words = []
        for line in self.lines:
            if line.action == "COLLECTED":
                words.append(f"{line.wager.replace('_', ' ')} chip taken at no more bets")
            else:
                action = "HAND PAY" if line.hand_pay else line.action
                hand = f" ({line.hand.replace('_', ' ')})" if line.hand_pay and line.hand else ""
                words.append(f"{line.wager.replace('_', ' ')} {action} {line.amount_text}{hand}")
        return tuple(words)

    @property
    def details(self) -> str:
        return " · ".join(self.wagers)


@dataclass(frozen=True)
class SettlementView:
    """The last round's settlement: ``lines`` in the rules' order; ``void`` if it was voided."""

    round_id: str
    dealer: str
    void: str
    lines: tuple[PayLine, ...]

    @property
    def waiting(self) -> tuple[PayLine, ...]:
        """The payouts a floorperson must still verify: the round cannot be closed until none."""
        return tuple(line for line in self.lines if line.waits_for_floorperson)

    @property
    def can_close(self) -> bool:
        return not self.waiting

    @property
    def seats(self) -> tuple[SeatSettlement, ...]:
        """One block per seat, in the rules' order of each seat's first wager."""
        order: list[int] = []
        for line in self.lines:
            if line.seat not in order:
                order.append(line.seat)
        return tuple(
            SeatSettlement(seat, tuple(line for line in self.lines if line.seat == seat)) for seat in order
        )


def settlement_view(
    summary: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]
) -> SettlementView | None:
    """From one of ``status``'s ``last_rounds``; ``None`` if it has no settlement."""
    settlement = summary.get("settlement")
    if not isinstance(settlement, Mapping):
        return None
    round_id = str(summary.get("round", ""))
    waiting = {(p.get("seat"), p.get("wager")) for p in pending if p.get("round") == round_id}
    seats = settlement.get("seats", {})
    order = settlement.get("order")
    if not isinstance(order, list):
        # A settlement without its order: from the highest seat down (the dealer's right first).
        order = [[int(s), w] for s in sorted(seats, key=int, reverse=True) for w in seats[s]]
    lines = []
    for seat, wager in order:
        line = seats[str(seat)][wager]
        where = f"round {round_id} seat {seat} {wager}"
        lines.append(
            PayLine(
                int(seat),
                str(wager),
                str(line.get("result")),
                amount(line.get("net", "0.00"), f"{where} net"),
                amount(line.get("stake", "0.00"), f"{where} stake"),
                str(line.get("hand", "")),
                tuple(str(f) for f in line.get("flags", ())),
                (seat, wager) in waiting,
            )
        )
    return SettlementView(
        round_id, str(settlement.get("dealer", "")), str(settlement.get("void", "")), tuple(lines)
    )
