"""The poker room through the real daemon: every variant dealt from the button to the last pot.

The daemon runs on a poker table's Rules Submission (``examples/poker-room/rules-submission.toml``
with the variant and the limits of each test), with no card reader: the dealer enters the bets,
deals face down (``deal`` events, counted), burns, and keys the hands shown at the showdown, all
through the local API on a real Unix socket, into a real SQLite journal; mock pins. Every refusal
is checked to change nothing (the journal's round has the same events after it). Every amount is
worked out in the comments.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from controller.api_client import ApiClient, ApiError, Credentials, request
from controller.auth import Role, make_user, save_users
from controller.config import load_config
from controller.daemon import Daemon, load_submission
from controller.journal import Journal
from controller.rules.core.money import format_net
from sim.bench_rig import TABLE_ID, config_text

from .rounds import money

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = (REPO / "examples" / "poker-room" / "rules-submission.toml").read_text(encoding="utf-8")
FLOOR = Credentials("mfloor", "482916")


def submission(variant: str, limit: str = "pot-limit", **lines: str) -> str:
    """The example poker table's submission for ``variant`` and ``limit`` (and more ``[rules]`` lines)."""
    text = EXAMPLE.replace('table = "PR-1"', f'table = "{TABLE_ID}"')
    text = text.replace('variant = "omaha-high-low"', f'variant = "{variant}"')
    text = text.replace(
        "[rules]\n",
        f'[rules]\nbetting.limit = "{limit}"\n' + "".join(f"{k} = {v}\n" for k, v in lines.items()),
    )
    return text


@dataclass
class PokerTable:
    daemon: Daemon
    api: ApiClient
    directory: Path

    async def event(self, **event: Any) -> dict[str, Any]:
        return dict(await self.api.submit_event(event))

    async def refused(self, match: str, **event: Any) -> None:
        """The daemon refuses ``event`` with a reason matching ``match``; the round is unchanged."""
        before = (await self.api.status())["round"]
        with pytest.raises(ApiError, match=match):
            await self.api.submit_event(event)
        after = (await self.api.status())["round"]
        assert after["id"] == before["id"] and after["events"] == before["events"]

    async def round_id(self) -> str:
        return str((await self.api.status())["round"]["id"])

    async def settlement(self, round_id: str) -> dict[str, Any]:
        rounds = (await self.api.list_rounds(5))["rounds"]
        summary = next(r for r in rounds if r["round"] == round_id)
        assert summary["status"] == "settled", summary
        return dict(summary["settlement"])

    async def acts(self, *steps: tuple[Any, ...]) -> None:
        for step in steps:
            seat, action, *amount = step
            extra = {"amount": amount[0]} if amount else {}
            await self.event(type="decision", seat=seat, action=action, **extra)


@asynccontextmanager
async def poker_table(text: str) -> AsyncIterator[PokerTable]:
    directory = Path(tempfile.mkdtemp(prefix="poker-"))
    factory = MockFactory()
    daemon: Daemon | None = None
    try:
        (directory / "rules-submission.toml").write_text(text, encoding="utf-8")
        config_path = directory / "table-controller.toml"
        config_path.write_text(config_text(directory), encoding="utf-8")
        save_users(directory / "users.json", {"mfloor": make_user("mfloor", Role.FLOOR, "482916")})
        config = load_config(config_path)
        daemon = Daemon(config, load_submission(config), config_path=config_path, pin_factory=factory)
        await daemon.start()
        async with await ApiClient.connect(directory / "run" / "api.sock") as api:
            yield PokerTable(daemon, api, directory)
    finally:
        if daemon is not None:
            await daemon.stop()
        factory.close()
        shutil.rmtree(directory, ignore_errors=True)


def _nets(settlement: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    return {seat: {w: o["net"] for w, o in wagers.items()} for seat, wagers in settlement["seats"].items()}


async def _replays(table: PokerTable, round_id: str) -> None:
    """Recalled from the journal, the round replays to what was journaled; the journal verifies."""
    assert table.daemon.journal is not None
    recalled = await table.daemon.journal.recall(round_id)
    assert recalled.consistent and recalled.replayed is not None
    await table.daemon.journal.verify()


# --- one full round of every variant ------------------------------------------------------------

#: The hands shown at the showdown by seats 1 and 2; the board (Omaha); the nets.
SHOWDOWNS: dict[str, tuple[str, str, tuple[str, str, str], dict[str, str]]] = {
    # Board Kc 8d 3s 9h 2c. Seat 2: Ks Kd + Kc 9h 8d... three kings; seat 1's best is ace-high. Pot 22.00.
    "omaha-high": (
        "Ah Qh 7c 6d 4s",
        "Ks Kd 5c 5h Jd",
        ("Kc 8d 3s", "9h", "2c"),
        {"1": "-8.00", "2": "+14.00"},
    ),
    # The high to seat 2 (three kings), the low to seat 1 (Ah 4h + 8d 3s 2c: eight-four-three-two-ace):
    # 11.00 each; seats 1 and 2 put in 8.00 each: +3.00.
    "omaha-high-low": (
        "Ah 4h 7c 6d Qs",
        "Ks Kd 5c 5h Jd",
        ("Kc 8d 3s", "9h", "2c"),
        {"1": "+3.00", "2": "+3.00"},
    ),
    # Seat 1 seven-five-four-three-two beats eight-six: the pot.
    "triple-draw-2-7": ("7c 5d 4h 3s 2c", "8c 6d 5h 4s 3c", ("", "", ""), {"1": "+14.00", "2": "-8.00"}),
    "triple-draw-a-5": ("7c 5d 4h 3s Ac", "8c 6d 5h 4s 3c", ("", "", ""), {"1": "+14.00", "2": "-8.00"}),
    # The 2-7 half (11.00) to seat 1; the Badugi half ties five-four-three-two (2c 5d 4h 3s and 5c 2d 3h 4s):
    # 5.00 each and the excess 1.00 to the first tied player left of the button (4): seat 1.
    # Seat 1 receives 11.00 + 6.00 = 17.00 (+9.00), seat 2 5.00 (-3.00).
    "badeucey": ("7c 5d 4h 3s 2c", "Kc 2d 3h 4s 5c", ("", "", ""), {"1": "+9.00", "2": "-3.00"}),
    # Seat 1 wins both halves: A-5 seven-five against king-five, Badugi five-four-three-ace against
    # five-four-three-two.
    "badacey": ("7c 5d 4h 3s Ac", "Kc 2d 3h 4s 5c", ("", "", ""), {"1": "+14.00", "2": "-8.00"}),
    "badugi": ("Ac 2d 3h 4s", "2c 3d 4h 5s", ("", "", ""), {"1": "+14.00", "2": "-8.00"}),
}


async def _street(table: PokerTable, board: str, drawers: tuple[int, ...], discard: bool) -> None:
    """The burn, then the board (Omaha) or the draw: each of ``drawers`` in turn stands pat, but seat 1
    discards two and receives two when ``discard``."""
    await table.event(type="deal", to="burn", value=1)
    if board:
        await table.event(type="cards", to="board", cards=board)
        return
    await table.refused("it is seat 1's turn to draw", type="decision", seat=drawers[1], action="stand_pat")
    for seat in drawers:
        if seat == 1 and discard:
            await table.event(type="deal", to="dealer", value=2)
            await table.refused("2 discarded cards to replace, not 3", type="deal", to="1", value=3)
            await table.event(type="deal", to="1", value=2)
        else:
            await table.event(type="decision", seat=seat, action="stand_pat")


@pytest.mark.parametrize("variant", list(SHOWDOWNS))
@pytest.mark.asyncio
async def test_a_round_of_every_variant_from_the_button_to_the_pots(variant: str) -> None:
    """Button at 4 (the dealer places it: the table's first round); seats 1-4 with 100.00; Blind Bets 1.00
    by seat 1 and 2.00 by seat 2 (§ 637a.19(d)); pot-limit. First round: 3, 4, 1 call, 2 checks (8.00).
    Second: 1 bets 2.00, 2 calls, 3 folds, 4 calls (14.00). Third: all check. Fourth: 1 checks, 2 bets
    4.00, 4 folds, 1 calls (22.00). Seats 1 and 2 show. Then the button moves to seat 1."""
    hand_1, hand_2, boards, nets = SHOWDOWNS[variant]
    hand_size = len(hand_1.split())
    async with poker_table(submission(variant)) as table:
        round_id = await table.round_id()
        await table.refused(
            "begins with the button", type="decision", seat=1, action="participate", amount="100.00"
        )
        await table.event(type="position", value=4)
        await table.refused("the players join first", type="wager", seat=1, wager="bet", amount="2.00")
        for seat in (1, 2, 3, 4):
            await table.event(type="decision", seat=seat, action="participate", amount="100.00")
        await table.refused(
            "immediate left of the button, seat 1", type="wager", seat=2, wager="blind", amount="1.00"
        )
        await table.event(type="wager", seat=1, wager="blind", amount="1.00")
        await table.event(type="wager", seat=2, wager="blind", amount="2.00")
        await table.event(type="deal", value=hand_size)
        # § 637a.19(g): the player left of the Blind Bets acts first.
        await table.refused("it is seat 3's turn, not seat 4's", type="decision", seat=4, action="call")
        await table.refused("below the minimum", type="decision", seat=3, action="raise", amount="3.00")
        # Pot-limit: the pot 3.00 after his call of 2.00: a raise to at most 7.00.
        await table.refused(
            "the pot limit is a raise to 7.00", type="decision", seat=3, action="raise", amount="8.00"
        )
        await table.refused("a poker table has no 'no more bets'", type="no_more_bets")
        await table.acts((3, "call"), (4, "call"), (1, "call"), (2, "check"))
        await _street(table, boards[0], (1, 2, 3, 4), discard=True)
        await table.acts((1, "bet", "2.00"), (2, "call"), (3, "fold"), (4, "call"))
        await _street(table, boards[1], (1, 2, 4), discard=False)
        await table.acts((1, "check"), (2, "check"), (4, "check"))
        await _street(table, boards[2], (1, 2, 4), discard=False)
        await table.acts((1, "check"), (2, "bet", "4.00"), (4, "fold"), (1, "call"))
        status = (await table.api.status())["round"]
        assert status["waiting"][0]["who"] == "player" and status["waiting"][0]["seat"] == 1
        await table.event(type="cards", to="1", cards=hand_1)
        # A card dealt twice: seat 1 showed it.
        twice = " ".join([hand_1.split()[0], *hand_2.split()[1:]])
        await table.refused("is not in the deck: seat 1 holds it", type="cards", to="2", cards=twice)
        await table.event(type="cards", to="2", cards=hand_2)
        assert await table.round_id() != round_id
        settled = _nets(await table.settlement(round_id))
        assert {s: sum_net(w) for s, w in settled.items() if s in ("1", "2")} == nets
        # Seat 3 put in 2.00, seat 4 4.00, both folded.
        assert sum_net(settled["3"]) == "-2.00" and sum_net(settled["4"]) == "-4.00"
        await _replays(table, round_id)
        # § 637a.19(c)(2): the button moves clockwise; the table journaled it at the next round's start.
        assert table.daemon.state.current is not None
        first = table.daemon.state.current.events[0]
        assert (first.type, first.value) == ("position", 1)
        await table.refused("the button is placed before", type="position", value=3)


def sum_net(wagers: Mapping[str, str]) -> str:
    """A player's net over his pots, as the settlement writes a net ("+14.00")."""
    total = sum(-money(v[1:]) if v.startswith("-") else money(v.lstrip("+")) for v in wagers.values())
    return format_net(total)


# --- all in, side pots, the reshuffle, the misdeal, the kill --------------------------------------


@pytest.mark.asyncio
async def test_an_all_in_with_two_side_pots() -> None:
    """Omaha High, no-limit. Button 4, blinds 1 and 2. Seat 3 (10.00) all in, seat 4 (30.00) all in, 1 and 2
    (100.00) call 30.00; on the flop 1 bets 10.00, 2 calls; then checks. Main pot 40.00 (seat 3's three
    aces), side pot 1 60.00 (seat 4's three kings), side pot 2 20.00 (seat 1's ace-king-queen-jack)."""
    async with poker_table(submission("omaha-high", "no-limit")) as table:
        round_id = await table.round_id()
        await table.event(type="position", value=4)
        for seat, chips in ((1, "100.00"), (2, "100.00"), (3, "10.00"), (4, "30.00")):
            await table.event(type="decision", seat=seat, action="participate", amount=chips)
        await table.event(type="wager", seat=1, wager="blind", amount="1.00")
        await table.event(type="wager", seat=2, wager="blind", amount="2.00")
        await table.event(type="deal", value=5)
        await table.refused(
            "seat 3 has 10.00 in chips", type="decision", seat=3, action="raise", amount="20.00"
        )
        await table.acts((3, "all_in"), (4, "all_in"), (1, "call"), (2, "call"))
        await table.event(type="deal", to="burn", value=1)
        await table.event(type="cards", to="board", cards="Ad Kd 7s")
        await table.acts((1, "bet", "10.00"), (2, "call"))
        for card in ("4c", "5d"):
            await table.event(type="deal", to="burn", value=1)
            await table.event(type="cards", to="board", cards=card)
            await table.acts((1, "check"), (2, "check"))
        for seat, hand in (
            (1, "Qc Jc 9h 8h 2s"),
            (2, "Qs Ts 9s 8c 2d"),
            (3, "As Ah Kc Qd Jh"),
            (4, "Ks Kh 9c 9d Tc"),
        ):
            await table.event(type="cards", to=str(seat), cards=hand)
        nets = _nets(await table.settlement(round_id))
        assert nets == {
            "4": {"main_pot": "-10.00", "side_pot_1": "+40.00"},
            "3": {"main_pot": "+30.00"},
            "2": {"main_pot": "-10.00", "side_pot_1": "-20.00", "side_pot_2": "-10.00"},
            "1": {"main_pot": "-10.00", "side_pot_1": "-20.00", "side_pot_2": "+10.00"},
        }
        await _replays(table, round_id)


@pytest.mark.asyncio
async def test_the_draws_reshuffle_when_the_deck_runs_short() -> None:
    """Triple Draw, seven players: 35 dealt, one burned, 16 left. Seats 1, 2, 3 draw five each (15); seat 4
    draws five: one from the deck, four from the 15 discards of 1-3 reshuffled (§ 637a.20(h))."""
    async with poker_table(submission("triple-draw-2-7", "fixed")) as table:
        await table.event(type="position", value=7)
        for seat in range(1, 8):
            await table.event(type="decision", seat=seat, action="participate", amount="20.00")
        await table.event(type="wager", seat=1, wager="blind", amount="1.00")
        await table.event(type="wager", seat=2, wager="blind", amount="2.00")
        await table.event(type="deal", value=5)
        await table.acts(*((s, "call") for s in (3, 4, 5, 6, 7, 1)), (2, "check"))
        await table.event(type="deal", to="burn", value=1)
        for seat in (1, 2, 3, 4):
            await table.event(type="deal", to="dealer", value=5)
            await table.event(type="deal", to=str(seat), value=5)
        assert table.daemon.state.current is not None
        notes = table.daemon.state.current.round.state.notes
        assert "the other players' 15 discards were reshuffled and 4 dealt from them" in notes[-1]


@pytest.mark.asyncio
async def test_a_misdeal_waits_for_the_floorperson_and_returns_every_bet() -> None:
    """No irregularity in §§ 637a.19-637a.21: a misdeal is the floorperson's decision (his PIN); every bet
    is returned and the button stays."""
    async with poker_table(submission("badugi")) as table:
        round_id = await table.round_id()
        await table.event(type="position", value=2)
        for seat in (1, 2, 3):
            await table.event(type="decision", seat=seat, action="participate", amount="50.00")
        await table.event(type="wager", seat=3, wager="blind", amount="1.00")
        await table.event(type="wager", seat=1, wager="blind", amount="2.00")
        misdeal = {"type": "irregularity", "kind": "misdeal", "detail": "a card exposed in the deal"}
        await table.api.submit_event(misdeal)
        assert (await table.api.status())["round"]["id"] == round_id  # waits for the floorperson
        await table.api.submit_event(misdeal, FLOOR)
        assert await table.round_id() != round_id
        settlement = await table.settlement(round_id)
        assert settlement["void"].startswith("misdeal")
        assert table.daemon.state.current is not None
        first = table.daemon.state.current.events[0]
        assert (first.type, first.value) == ("position", 2)


@pytest.mark.asyncio
async def test_the_half_kill_is_carried_to_the_next_round() -> None:
    """Half-kill, qualifying pot 100.00 (the example's). Seat 3 wins the whole pot of 120.00 (each of 1, 2,
    3 put in 40.00, no-limit): the next round is killed by seat 3, who posts the kill blind of 3.00 (one
    and a half times the 2.00 blind)."""
    async with poker_table(submission("triple-draw-a-5", "no-limit")) as table:
        round_id = await table.round_id()
        await table.event(type="position", value=3)
        for seat in (1, 2, 3):
            await table.event(type="decision", seat=seat, action="participate", amount="100.00")
        await table.event(type="wager", seat=1, wager="blind", amount="1.00")
        await table.event(type="wager", seat=2, wager="blind", amount="2.00")
        await table.event(type="deal", value=5)
        await table.acts((3, "raise", "40.00"), (1, "call"), (2, "call"))
        for _ in range(3):
            await table.event(type="deal", to="burn", value=1)
            for seat in (1, 2, 3):
                await table.event(type="decision", seat=seat, action="stand_pat")
            await table.acts((1, "check"), (2, "check"), (3, "check"))
        await table.event(type="decision", seat=1, action="fold")  # mucks at the showdown
        await table.event(type="cards", to="3", cards="5c 4d 3h 2s Ac")
        await table.event(type="cards", to="2", cards="Kc Qd Jh 9s 8c")
        settlement = await table.settlement(round_id)
        assert settlement["seats"]["3"]["main_pot"]["flags"] == ["kill_pot"]
        assert table.daemon.state.current is not None
        carried = [e.to_json() for e in table.daemon.state.current.events]
        assert carried == [
            {"type": "position", "value": 1},
            {"type": "decision", "seat": 3, "action": "kill"},
        ]
        for seat in (1, 2, 3):
            await table.event(type="decision", seat=seat, action="participate", amount="50.00")
        await table.event(type="wager", seat=2, wager="blind", amount="1.00")
        await table.event(type="wager", seat=3, wager="blind", amount="2.00")
        await table.refused(
            "the winner of the last qualifying pot: seat 3", type="wager", seat=2, wager="kill", amount="3.00"
        )
        await table.refused("posts the kill blind before the deal", type="deal", value=5)


# --- kill -9 at any action: recovery equals replay ----------------------------------------------------

CHILD = """
import asyncio, sys
from pathlib import Path
from gpiozero.pins.mock import MockFactory
from controller.config import load_config
from controller.daemon import Daemon, load_submission

async def main() -> None:
    config_path = Path(sys.argv[1])
    config = load_config(config_path)
    daemon = Daemon(config, load_submission(config), config_path=config_path, pin_factory=MockFactory())
    await daemon.start()
    print("ready", flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""

#: A Badeucey round's script, as the dealer keys it.
SCRIPT: list[dict[str, Any]] = [
    {"type": "position", "value": 3},
    *({"type": "decision", "seat": s, "action": "participate", "amount": "30.00"} for s in (1, 2, 3)),
    {"type": "wager", "seat": 1, "wager": "blind", "amount": "1.00"},
    {"type": "wager", "seat": 2, "wager": "blind", "amount": "2.00"},
    {"type": "deal", "value": 5},
    {"type": "decision", "seat": 3, "action": "call"},
    {"type": "decision", "seat": 1, "action": "call"},
    {"type": "decision", "seat": 2, "action": "check"},
    *(
        step
        for _ in range(3)
        for step in (
            {"type": "deal", "to": "burn", "value": 1},
            {"type": "deal", "to": "dealer", "value": 1},
            {"type": "deal", "to": "1", "value": 1},
            {"type": "decision", "seat": 2, "action": "stand_pat"},
            {"type": "decision", "seat": 3, "action": "stand_pat"},
            {"type": "decision", "seat": 1, "action": "check"},
            {"type": "decision", "seat": 2, "action": "check"},
            {"type": "decision", "seat": 3, "action": "check"},
        )
    ),
    {"type": "cards", "to": "1", "cards": "7c 5d 4h 3s 2c"},
    {"type": "cards", "to": "2", "cards": "Kc 2d 3h 4s 5c"},
    {"type": "cards", "to": "3", "cards": "Kd Qd Jh 9s 8c"},
]


def _quietly(sock: Path, args: dict[str, Any]) -> None:
    """A request the kill may cut off: whatever it gets (an answer, a broken socket) is ignored."""
    with contextlib.suppress(ApiError, OSError):
        request(sock, "submit_event", args, timeout=5)


def _spawn(config: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(config)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


async def _full_replay_equals_recovery(path: Path) -> None:
    journal = await Journal.open(path, TABLE_ID, create=False, full_replay=True)
    await journal.close()


def test_kill_9_at_any_action_of_a_poker_round_loses_nothing() -> None:
    """The real daemon in a process of its own, killed with SIGKILL after random actions of a Badeucey
    round; each restart opens the journal with a full replay (it must equal the recovered state), and the
    dealer goes on from where the journal says, retrying with the same idempotency key. The round settles
    once, as without the kills: pot 6.00, the 2-7 half 3.00 to seat 1, the Badugi half 3.00 tied (2c 5d 4h
    3s, 5c 2d 3h 4s): 1.00 each and the excess 1.00 to the first tied player left of the button (3), seat
    1: seat 1 +3.00, seat 2 -1.00, seat 3 -2.00. Half of the kills come while a request is in flight."""
    directory = Path(tempfile.mkdtemp(prefix="pkill-"))
    try:
        (directory / "rules-submission.toml").write_text(submission("badeucey", "fixed"), encoding="utf-8")
        config = directory / "table-controller.toml"
        config.write_text(config_text(directory), encoding="utf-8")
        save_users(directory / "users.json", {"mfloor": make_user("mfloor", Role.FLOOR, "482916")})
        sock = directory / "run" / "api.sock"
        kills = [4, 17, 30, len(SCRIPT) - 1]
        step = 0
        round_id = ""
        while step < len(SCRIPT):
            proc = _spawn(config)
            try:
                if not round_id:
                    round_id = request(sock, "status")["round"]["id"]
                while step < len(SCRIPT):
                    if kills and step == kills[0]:
                        in_flight = len(kills) % 2 == 0
                        kills.pop(0)
                        if in_flight:
                            args = {"event": SCRIPT[step], "idempotency_key": f"poker-round-{step:03d}"}
                            threading.Thread(target=_quietly, args=(sock, args), daemon=True).start()
                        proc.send_signal(signal.SIGKILL)
                        proc.wait(timeout=20)
                        asyncio.run(_full_replay_equals_recovery(directory / "journal.sqlite"))
                        break
                    args = {"event": SCRIPT[step], "idempotency_key": f"poker-round-{step:03d}"}
                    result = request(sock, "submit_event", args)
                    assert result["round"] == round_id, (step, result)
                    step += 1
            finally:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(timeout=20)
        proc = _spawn(config)
        try:
            rounds = request(sock, "list_rounds", {"limit": 5})["rounds"]
            settled = [r for r in rounds if r["round"] == round_id]
            assert len(settled) == 1 and settled[0]["status"] == "settled"
            assert _nets(settled[0]["settlement"]) == {
                "3": {"main_pot": "-2.00"},
                "2": {"main_pot": "-1.00"},
                "1": {"main_pot": "+3.00"},
            }
            recalled = request(sock, "recall_round", {"round": round_id}, FLOOR)
            assert recalled["consistent"] is True
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=20)
        asyncio.run(_full_replay_equals_recovery(directory / "journal.sqlite"))
    finally:
        shutil.rmtree(directory, ignore_errors=True)
