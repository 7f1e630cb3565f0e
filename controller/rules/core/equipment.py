"""The table's equipment, checked in one place for every card game: what a Rules Submission may
combine (two decks, dealing from the hand, each needing an automated card shuffling device), and
when a jammed shuffler or dealing shoe may be reported.

Every Pennsylvania poker chapter we have words these alike, each in its own sections:
two decks only "if an automated card shuffling device is utilized" (§ 639a.3(b), § 647a.3(b));
dealt from the hand, "an automated shuffling device shall be used" (§ 639a.9(a)(1),
§ 647a.9(a)(1), § 659a.9(a)(1)); the shuffler that "jams, stops shuffling or fails to complete a
shuffle cycle" reshuffles the cards (§ 639a.13(e), § 647a.13(e), § 659a.13(l)); the automated
dealing shoe that jams voids the round (§ 639a.13(f), § 647a.13(f), § 659a.13(m)). A game passes
its own sections.
"""

from __future__ import annotations

from collections.abc import Iterator

from .engine import IllegalEvent

AUTOMATED: str = "automated"
AUTOMATED_SHOE: str = "automated shoe"


def two_decks_need_a_shuffler(decks: int, shuffler: str, section: str) -> Iterator[str]:
    """The Rules Submission's problem where two decks are used without an automated shuffler."""
    if decks == 2 and shuffler != AUTOMATED:
        yield (
            "decks 2 needs shuffler = 'automated': two decks only with an automated card shuffling device "
            f"({section})"
        )


def hand_dealing_needs_a_shuffler(dealing: str, shuffler: str, section: str) -> Iterator[str]:
    """The Rules Submission's problem where the cards are dealt from the hand without an automated
    shuffler."""
    if dealing == "hand" and shuffler != AUTOMATED:
        yield (
            "dealing 'hand' needs shuffler = 'automated': an automated shuffling device shall be used "
            f"({section})"
        )


def refuse_shuffler_jam(shuffler: str, dealt: bool, kind: str, section: str) -> None:
    """:class:`~.engine.IllegalEvent` unless a ``shuffler_jam`` can be reported now: the table has an
    automated shuffler and no card of the round is dealt yet (the shuffle comes before the deal)."""
    if shuffler != AUTOMATED:
        raise IllegalEvent(
            f"this table shuffles by hand (shuffler = 'manual'); {kind} needs a shuffler ({section})"
        )
    if dealt:
        raise IllegalEvent(
            f"the shuffle is over once cards are dealt; a {kind} comes before the deal ({section})"
        )


def refuse_shoe_jam(dealing: str, section: str) -> None:
    """:class:`~.engine.IllegalEvent` unless the table deals from an automated dealing shoe (a
    ``shoe_jam`` is that device's)."""
    if dealing != AUTOMATED_SHOE:
        raise IllegalEvent(f"this table deals from the {dealing}, not an automated dealing shoe ({section})")
