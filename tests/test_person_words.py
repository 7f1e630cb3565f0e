"""A person's words journaled as said, or refused whole (issue 19: the hand pay's reason typed).

The words a person gives the table (an irregularity's ``detail``, a floorperson's ruling, a
dismissal's or a hand pay's reason, a device declared out of order) are at most
``MAX_WORDS`` characters on one printable line. Through the real daemon: longer words, a line
break or a control character are refused with the reason naming the field, and nothing is
journaled; at the bound they are taken as they are.
"""

from __future__ import annotations

import pytest

from controller.api_client import ApiError
from controller.rules.core.events import MAX_WORDS, EventError, person_words
from ui.hand_pay import MAX_TYPED, OTHER_PREFIX

from .test_daemon_poker import FLOOR, PokerTable, poker_table, submission
from .test_daemon_poker_floor import _to_the_showdown

TOO_LONG = "x" * (MAX_WORDS + 1)
BAD = (TOO_LONG, "the cards\nwere exposed", "a bell \x07", "   ", "")


def test_words_are_one_printable_line_within_the_bound() -> None:
    assert person_words("y" * MAX_WORDS, "reason") == "y" * MAX_WORDS
    assert person_words("seat 3's hand is dead: he held six cards", "detail").startswith("seat 3")
    with pytest.raises(EventError, match=f"reason: at most {MAX_WORDS} characters, not {MAX_WORDS + 1}"):
        person_words(TOO_LONG, "reason")
    with pytest.raises(EventError, match="no line breaks"):
        person_words("a\r\nb", "reason")
    with pytest.raises(EventError, match="words"):
        person_words(12, "reason")


def test_the_screens_typed_reason_stays_within_the_daemons_bound() -> None:
    assert len(OTHER_PREFIX) + MAX_TYPED <= MAX_WORDS


async def _unchanged(table: PokerTable, match: str, event: dict[str, object], floor: bool = False) -> None:
    """Refused with ``match``; the round as it was, the journal holding at most the refused command
    (a floorperson's request is journaled with its refusal, docs/local-api.md)."""
    assert table.daemon.journal is not None
    before, status = table.daemon.state.last_seq, (await table.api.status())["round"]
    with pytest.raises(ApiError, match=match):
        await table.api.submit_event(event, FLOOR if floor else None)
    assert (await table.api.status())["round"] == status
    after = await table.daemon.journal.records(before + 1, 100)
    assert [r.kind for r in after] in ([], ["command"]), f"{event['type']}: {[r.kind for r in after]}"


@pytest.mark.asyncio
async def test_words_past_the_bound_or_over_a_line_are_refused_and_nothing_journaled() -> None:
    async with poker_table(submission("omaha-high")) as table:
        await _to_the_showdown(table)
        for words in BAD:
            named = "event detail" if words.strip() else "detail"
            await _unchanged(table, named, {"type": "irregularity", "kind": "disputed_pot", "detail": words})
            await _unchanged(table, "claim_hand_pay", {
                "type": "claim_hand_pay", "seat": 1, "wager": "progressive", "meter": "10000.00",
                "reason": words,
            }, floor=True)  # fmt: skip
            await _unchanged(table, "device_out_of_order", {
                "type": "device_out_of_order", "device": "reader", "reason": words,
            }, floor=True)  # fmt: skip
        # At the bound: taken as said, whole.
        said = "w" * MAX_WORDS
        answer = await table.event(type="irregularity", kind="disputed_pot", detail=said)
        assert "floorperson" in str(answer.get("waiting_for", ""))
        await _unchanged(table, "irregularity_dismissed: reason: at most", {
            "type": "irregularity_dismissed", "reason": TOO_LONG,
        }, floor=True)  # fmt: skip
        await table.api.submit_event({"type": "irregularity_dismissed", "reason": "z" * MAX_WORDS}, FLOOR)
        assert table.daemon.journal is not None
        records = await table.daemon.journal.records(0, 10_000)
        kinds = {r.kind: r.body for r in records}
        assert kinds["irregularity_reported"]["event"]["detail"] == said, kinds["irregularity_reported"]
        assert kinds["irregularity_dismissed"]["reason"] == "z" * MAX_WORDS
