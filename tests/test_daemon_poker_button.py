"""The poker room's button through the real daemon: placed by the draw at the commencement of play,
journaled, and carried from round to round across ``kill -9``.

§ 637a.20(c) (§ 637a.19(c), § 637a.21(c) say the same): "(1) At commencement of play, the button shall
be placed in front of either: (i) The first player to the right of the dealer. (ii) The player randomly
determined by rank of a single card dealt. (2) Thereafter, the button shall rotate around the table in a
clockwise manner after each round of play." The Rules Submission's ``button.start = "high_card"`` is
(ii): the players join, each is dealt one card (from the shoe, or keyed by the dealer at a table
without one), the highest takes the button (a tie of rank broken by suit), and the cards go back to the
deck. Every card of the draw is a ``cards`` event of the first round, so the journal holds the draw
and the round replays to the same button; after it the table journals the button itself at the
beginning of each round (source ``daemon``).
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

import pytest

from controller.api_client import request
from controller.auth import Role, make_user, save_users
from controller.journal import Journal
from sim.bench_rig import TABLE_ID, config_text

from .test_daemon_poker import FLOOR, _nets, _replays, _spawn, submission
from .test_daemon_poker_shoe import shoe_table


def high_card(variant: str, limit: str = "pot-limit") -> str:
    """The example's submission for ``variant`` with the button placed by the draw, (c)(1)(ii)."""
    text = submission(variant, limit)
    assert 'button.start = "right_of_dealer"' in text
    return text.replace('button.start = "right_of_dealer"', 'button.start = "high_card"')


@pytest.mark.asyncio
async def test_the_shoe_deals_the_draw_for_the_button_and_the_journal_holds_it() -> None:
    """Badugi, seats 1-4. The shoe deals one card each: 7c, Kd, Ks, 2h: the king of spades is above the
    king of diamonds by suit: the button to seat 3. The Blind Bets then from seat 4 (1.00) and seat 1
    (2.00); the deal from seat 4, the button last; seat 2 acts first and folds, 3 and 4 fold: seat 1
    takes the pot (+1.00; seat 4 -1.00). The Ks of the draw went back to the deck: seat 3 is dealt it.
    The next round begins with the button at seat 4."""
    async with shoe_table(high_card("badugi")) as table:
        round_id = await table.round_id()
        await table.refused("places the button by the draw", type="position", value=4)
        for seat in (1, 2, 3, 4):
            await table.event(type="decision", seat=seat, action="participate", amount="50.00")
        status = (await table.api.status())["round"]
        assert "the draw for the button: a single card to each player" in status["waiting"][0]["what"]
        await table.refused("the shoe works", type="cards", to="1", cards="7c")
        for seat, card in ((1, "7c"), (2, "Kd"), (3, "Ks")):
            await table.deal(seat, card)
        await table.misdealt("Kd was dealt to seat 2", 4, "Kd")
        await table.deal(4, "2h")
        assert table.daemon.state.current is not None
        assert table.daemon.state.current.round.state.button == 3
        await table.refused(
            "immediate left of the button, seat 4", type="wager", seat=1, wager="blind", amount="1.00"
        )
        await table.event(type="wager", seat=4, wager="blind", amount="1.00")
        await table.event(type="wager", seat=1, wager="blind", amount="2.00")
        hands = {4: "2c 3d 4h 5s", 1: "Ac 2d 3h 4s", 2: "5c 6d 7h 8s", 3: "Ks Qd Jh 9c"}
        for i in range(4):
            for seat in (4, 1, 2, 3):
                await table.deal(seat, hands[seat].split()[i])
        await table.acts((2, "fold"), (3, "fold"), (4, "fold"))
        assert await table.round_id() != round_id
        assert _nets(await table.settlement(round_id)) == {
            "4": {"main_pot": "-1.00"},
            "1": {"main_pot": "+1.00"},
        }
        assert table.daemon.journal is not None
        recalled = await table.daemon.journal.recall(round_id)
        events: list[dict[str, Any]] = recalled.record["events"]  # type: ignore[assignment]
        assert events[4:8] == [
            {"type": "cards", "to": str(seat), "cards": card}
            for seat, card in ((1, "7c"), (2, "Kd"), (3, "Ks"), (4, "2h"))
        ]
        assert recalled.replayed is not None
        words = str(recalled.replayed.to_json()["dealer"])
        assert "the button to seat 3, the highest card (§ 637a.21(c)(1)(ii)" in words, words
        await _replays(table, round_id)
        current = table.daemon.state.current
        assert current is not None
        assert [e.to_json() for e in current.events] == [{"type": "position", "value": 4}]


#: Badugi at a table without a reader, button by the draw. Round 1: the draw (9c, Td, Ah: the button to
#: seat 3), blinds by 1 and 2, the deal, 3 and 1 fold: seat 2 takes the pot. Round 2 (the button carried
#: to seat 1): blinds by 2 and 3, 1 and 2 fold: seat 3. Round 3 begins with the button at seat 2.
ROUND_1: list[dict[str, Any]] = [
    *({"type": "decision", "seat": s, "action": "participate", "amount": "20.00"} for s in (1, 2, 3)),
    *({"type": "cards", "to": str(s), "cards": c} for s, c in ((1, "9c"), (2, "Td"), (3, "Ah"))),
    {"type": "wager", "seat": 1, "wager": "blind", "amount": "1.00"},
    {"type": "wager", "seat": 2, "wager": "blind", "amount": "2.00"},
    {"type": "deal", "value": 4},
    {"type": "decision", "seat": 3, "action": "fold"},
    {"type": "decision", "seat": 1, "action": "fold"},
]
ROUND_2: list[dict[str, Any]] = [
    *({"type": "decision", "seat": s, "action": "participate", "amount": "20.00"} for s in (1, 2, 3)),
    {"type": "wager", "seat": 2, "wager": "blind", "amount": "1.00"},
    {"type": "wager", "seat": 3, "wager": "blind", "amount": "2.00"},
    {"type": "deal", "value": 4},
    {"type": "decision", "seat": 1, "action": "fold"},
    {"type": "decision", "seat": 2, "action": "fold"},
]


async def _recovered(path: Path) -> list[dict[str, object]]:
    """The open round's events after a full replay of the journal (which must equal recovery)."""
    journal = await Journal.open(path, TABLE_ID, create=False, full_replay=True)
    try:
        current = journal.state.current
        return [] if current is None else [e.to_json() for e in current.events]
    finally:
        await journal.close()


def test_the_button_survives_kill_9_from_the_draw_to_the_third_round() -> None:
    """The real daemon in a process of its own, killed with SIGKILL in the middle of the draw for the
    button, right after the first round's last fold, and in the middle of the second round. Each time
    the journal, replayed from seq 1, is the recovered state: the draw's cards so far; then the second
    round begun with the button carried to seat 1; the third with it at seat 2."""
    directory = Path(tempfile.mkdtemp(prefix="pbtn-"))
    try:
        text = high_card("badugi", "fixed")
        (directory / "rules-submission.toml").write_text(text, encoding="utf-8")
        config = directory / "table-controller.toml"
        config.write_text(config_text(directory), encoding="utf-8")
        save_users(directory / "users.json", {"mfloor": make_user("mfloor", Role.FLOOR, "482916")})
        sock, journal = directory / "run" / "api.sock", directory / "journal.sqlite"
        script = [*ROUND_1, *ROUND_2]
        #: The step after which the daemon is killed -> the open round's events recovery must give.
        kills: dict[int, list[dict[str, object]]] = {
            5: [e for e in ROUND_1[:5]],
            len(ROUND_1): [{"type": "position", "value": 1}],
            len(ROUND_1) + 4: [{"type": "position", "value": 1}, *ROUND_2[:4]],
        }
        rounds: list[str] = []
        proc = _spawn(config)
        try:
            for step, event in enumerate(script, start=1):
                round_id = request(sock, "status")["round"]["id"]
                if not rounds or rounds[-1] != round_id:
                    rounds.append(round_id)
                request(sock, "submit_event", {"event": event, "idempotency_key": f"button-{step:03d}"})
                if step in kills:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(timeout=20)
                    assert asyncio.run(_recovered(journal)) == kills[step], step
                    proc = _spawn(config)
            settled = {r["round"]: r for r in request(sock, "list_rounds", {"limit": 5})["rounds"]}
            assert _nets(settled[rounds[0]]["settlement"]) == {
                "1": {"main_pot": "-1.00"},
                "2": {"main_pot": "+1.00"},
            }
            assert _nets(settled[rounds[1]]["settlement"]) == {
                "2": {"main_pot": "-1.00"},
                "3": {"main_pot": "+1.00"},
            }
            for round_id in rounds:
                assert request(sock, "recall_round", {"round": round_id}, FLOOR)["consistent"] is True
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=20)
        assert asyncio.run(_recovered(journal)) == [{"type": "position", "value": 2}]
    finally:
        shutil.rmtree(directory, ignore_errors=True)
