"""What a Blackjack round waits for (ch. 633a), as :class:`~.hooks.Waiting` data and in words:
the wagers, the cards, the card reader, a decision, a progressive's meter (the claims of
:mod:`.optional_settle`)."""

from __future__ import annotations

from ...core.cards import ACE
from ...core.hooks import Actor, Step, Waiting, in_words
from ...rankings.blackjack import blackjack_value
from .optional_settle import unknown_meters
from .state import (
    BETTING,
    CARD,
    CHECK,
    COMPLETE,
    DEALER,
    DEALER_BLACKJACK,
    DEALING,
    PLAY,
    RESCUE_SECTION,
    BlackjackState,
)


def waiting_for(state: BlackjackState) -> str:
    """What the round waits for, in words (``"nothing"`` once it can be settled)."""
    return in_words(waiting(state)) or "nothing"


def waiting(state: BlackjackState) -> tuple[Waiting, ...]:
    """What the round waits for, as :class:`~.hooks.Waiting` data; empty once it can be settled."""
    if state.phase == BETTING:
        return (Waiting(Actor.DEALER, "wagers and 'no more bets'", "§ 633a.6", step=Step.BETS),)
    if state.phase == DEALING:
        short = [n for n, s in sorted(state.seats.items()) if len(s.initial) < 2]
        out = []
        if short:
            seats = f"seat{'s' if len(short) > 1 else ''} {', '.join(map(str, short))}"
            seat = short[0] if len(short) == 1 else None
            out.append(
                Waiting(Actor.SHOE, f"the initial two cards of {seats}", "§ 633a.7", seat, step=Step.CARDS)
            )
        if not state.dealer:
            out.append(Waiting(Actor.SHOE, "the dealer's up card", "§ 633a.7", step=Step.CARDS))
        return (
            Waiting(Actor.SHOE, " and ".join(w.what for w in out), "§ 633a.7", out[0].seat, step=Step.CARDS),
        )
    if state.phase == CHECK:
        reader = "the card reader (hole_card_reader, § 633a.7(h))"
        if state.up_card is not None and state.up_card.rank == ACE:
            return (
                Waiting(
                    Actor.PLAYER,
                    f"insurance decisions, then {reader}",
                    "§ 633a.8, § 633a.7(h)",
                    step=Step.DECISION,
                ),
            )
        return (Waiting(Actor.READER, reader, "§ 633a.7(h)", step=Step.READER),)
    if state.phase == DEALER_BLACKJACK:
        return (
            Waiting(
                Actor.SHOE,
                "the dealer's hole card (the card reader found a Blackjack)",
                "§ 633a.7(h)",
                step=Step.CARDS,
            ),
        )
    if state.phase == PLAY:
        turn = state.turn
        assert turn is not None
        seat, index = turn
        hand = state.seats[seat].hands[index]
        if hand.status == CARD:
            return (
                Waiting(
                    Actor.SHOE,
                    f"a card to seat {seat} hand {index}",
                    "§ 633a.7",
                    seat,
                    step=Step.CARDS,
                    hand=index,
                ),
            )
        if hand.double:
            what = f"seat {seat} hand {index} to stand or rescue ({hand.value.words}, doubled down)"
            return (Waiting(Actor.PLAYER, what, RESCUE_SECTION, seat, step=Step.DECISION, hand=index),)
        return (
            Waiting(
                Actor.PLAYER,
                f"seat {seat} hand {index} to decide ({hand.value.words})",
                "§ 633a.7",
                seat,
                step=Step.DECISION,
                hand=index,
            ),
        )
    if state.phase == DEALER:
        if len(state.dealer) < 2:
            return (Waiting(Actor.SHOE, "the dealer's hole card", "§ 633a.7", step=Step.CARDS),)
        what = f"the dealer's next card (the dealer has {blackjack_value(state.dealer).words})"
        return (Waiting(Actor.SHOE, what, "§ 633a.7", step=Step.CARDS),)
    if state.phase == COMPLETE:
        return tuple(
            Waiting(
                Actor.METER,
                f"the {wager} meter: seat {seat} won {award} (a meter event, or the record's meters)",
                "§ 633a.7(o)",
                seat,
                step=Step.METER,
            )
            for wager, seat, award in unknown_meters(state)
        )
    return ()
