"""A disputed pot at a poker table, decided by a floorperson with his PIN, through the real daemon.

§§ 637a.19-637a.21 give no irregularity for the poker room: who receives a pot, when the players
dispute it, is the floorperson's decision (docs/games/poker-room.md, "Irregularities";
docs/authority.md). The dealer reports ``disputed_pot``; the table journals it as
``irregularity_reported`` and the round waits: nothing else is taken until a floorperson signed in
rules (``disputed_pot`` with his ruling in ``detail``, and at the showdown the ``seat`` whose hand he
rules dead) or dismisses it (``irregularity_dismissed``). Both are journaled with the floorperson as
the actor, and the round replays to the same pots.
"""

from __future__ import annotations

import pytest

from controller.api_client import ApiError, Credentials

from .test_daemon_poker import FLOOR, PokerTable, _nets, _replays, poker_table, submission

#: Omaha High, seats 1-3, button 3, blinds 1.00 and 2.00: 3 and 1 call, 2 checks (6.00); every later
#: betting round checked. Board Kc 8d 3s 9h 2c.
BOARD = ("Kc 8d 3s", "9h", "2c")


async def _to_the_showdown(table: PokerTable) -> None:
    await table.event(type="position", value=3)
    for seat in (1, 2, 3):
        await table.event(type="decision", seat=seat, action="participate", amount="50.00")
    await table.event(type="wager", seat=1, wager="blind", amount="1.00")
    await table.event(type="wager", seat=2, wager="blind", amount="2.00")
    await table.event(type="deal", value=5)
    await table.acts((3, "call"), (1, "call"), (2, "check"))
    for cards in BOARD:
        await table.event(type="deal", to="burn", value=1)
        await table.event(type="cards", to="board", cards=cards)
        await table.acts((1, "check"), (2, "check"), (3, "check"))


async def _dispute(table: PokerTable) -> str:
    """The dealer calls the floor: the round waits for a floorperson, and refuses the dealer's next step."""
    round_id = await table.round_id()
    answer = await table.event(
        type="irregularity", kind="disputed_pot", detail="seat 3 says seat 1 showed six cards"
    )
    assert "floorperson" in str(answer.get("waiting_for", "")), answer
    status = (await table.api.status())["round"]
    assert status["id"] == round_id and status["waiting"][0]["who"] == "floorperson", status
    await table.refused("waits for a floorperson", type="cards", to="2", cards="Ks Kd 5c 5h Jd")
    return round_id


@pytest.mark.asyncio
async def test_a_disputed_pot_is_the_floorpersons_ruling_a_dead_hand() -> None:
    """Seat 1 shows Ah Qh 7c 6d 4s (ace high), seat 3 disputes it; the floorperson rules seat 1's hand
    dead. His ruling without words is refused; the dealer cannot rule for him. Seat 2 shows three kings,
    seat 3 mucks: seat 2 takes the pot of 6.00 (+4.00), seats 1 and 3 lose their 2.00 each."""
    async with poker_table(submission("omaha-high")) as table:
        await _to_the_showdown(table)
        await table.event(type="cards", to="1", cards="Ah Qh 7c 6d 4s")
        round_id = await _dispute(table)
        ruling = {"type": "irregularity", "kind": "disputed_pot", "seat": 1}
        with pytest.raises(ApiError, match="waits for a floorperson"):
            await table.api.submit_event({**ruling, "detail": "seat 1's hand is dead"})
        with pytest.raises(ApiError, match="give the floorperson's ruling in words"):
            await table.api.submit_event(ruling, FLOOR)
        with pytest.raises(ApiError):
            await table.api.submit_event({**ruling, "detail": "dead"}, Credentials("mfloor", "000000"))
        await table.api.submit_event({**ruling, "detail": "seat 1's hand is dead: he held six cards"}, FLOOR)
        await table.event(type="cards", to="2", cards="Ks Kd 5c 5h Jd")
        await table.event(type="decision", seat=3, action="fold")
        assert await table.round_id() != round_id
        summary = next(r for r in (await table.api.list_rounds(3))["rounds"] if r["round"] == round_id)
        assert _nets(summary["settlement"]) == {
            "3": {"main_pot": "-2.00"},
            "2": {"main_pot": "+4.00"},
            "1": {"main_pot": "-2.00"},
        }
        assert "seat 1's hand is dead: he held six cards" in summary["settlement"]["dealer"]
        assert table.daemon.journal is not None
        recalled = await table.daemon.journal.recall(round_id)
        kinds = [
            (r.kind, r.source, r.actor)
            for r in recalled.records
            if r.kind in ("irregularity_reported", "event")
        ]
        assert ("irregularity_reported", "dealer-ui", kinds[0][2]) in kinds
        ruled = [r for r in recalled.records if r.kind == "event" and r.body.get("kind") == "disputed_pot"]
        assert [(r.source, r.actor) for r in ruled] == [("floor", "mfloor")]
        await _replays(table, round_id)


@pytest.mark.asyncio
async def test_a_disputed_pot_dismissed_by_the_floorperson_goes_on_as_it_was() -> None:
    """The floorperson dismisses the dispute (his reason journaled); the showdown goes on: seat 1 ace high,
    seat 2 three kings, seat 3 mucks: seat 2 +4.00."""
    async with poker_table(submission("omaha-high")) as table:
        await _to_the_showdown(table)
        await table.event(type="cards", to="1", cards="Ah Qh 7c 6d 4s")
        round_id = await _dispute(table)
        with pytest.raises(ApiError):
            await table.api.submit_event({"type": "irregularity_dismissed", "reason": "no"})
        await table.api.submit_event(
            {"type": "irregularity_dismissed", "reason": "the cameras show five cards"}, FLOOR
        )
        await table.event(type="cards", to="2", cards="Ks Kd 5c 5h Jd")
        await table.event(type="decision", seat=3, action="fold")
        summary = next(r for r in (await table.api.list_rounds(3))["rounds"] if r["round"] == round_id)
        assert _nets(summary["settlement"])["2"] == {"main_pot": "+4.00"}
        assert table.daemon.journal is not None
        recalled = await table.daemon.journal.recall(round_id)
        dismissed = [r for r in recalled.records if r.kind == "irregularity_dismissed"]
        assert len(dismissed) == 1 and dismissed[0].actor == "mfloor"
        await _replays(table, round_id)
