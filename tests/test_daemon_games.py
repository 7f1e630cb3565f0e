"""Every other house-banked game through the real daemon: real pseudo-terminals for the shoe, the
shuffler and the hole-card reader (``sim.devices``), gpiozero's MockFactory pins, a real SQLite
journal and the local API on a real Unix socket. Each game's table runs on the example Rules
Submission in ``examples/<game>/rules-submission.toml`` as it stands (the daemon's ``[table] id`` is
set to the submission's ``table``).

The cards come out of the shoe as stacks (``CRD`` … ``STK``), the reader's answer as ``HCR``;
wagers and decisions come through the local API as the dealer's touchscreen sends them. Every
expected amount is worked out by hand from the paytables, in the comments beside it.

The last test throws garbage bytes and damaged frames at the three devices at random moments of
Three Card Poker rounds (hypothesis): the daemon stays up, answers ``status``, the journal's
rounds replay to what was journaled, and the frames after the garbage are still taken.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
import tomllib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.api_client import ApiClient, ApiError
from controller.config import load_config
from controller.daemon import Daemon, load_submission
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES
from controller.table import game_hooks
from sim.bench_rig import TABLE_ID, config_text
from sim.devices import HoleCardReaderSimulator, ShoeSimulator, ShufflerSimulator, SimulatedDevice

REPO = Path(__file__).resolve().parent.parent
WAIT_SECONDS = 5.0

Net = dict[str, dict[str, str]]
"""seat -> wager -> net, as the settlement writes them."""


@dataclass
class GameTable:
    """The daemon on one game's example Rules Submission with its three devices on ptys."""

    daemon: Daemon
    api: ApiClient
    shoe: ShoeSimulator
    shuffler: ShufflerSimulator
    reader: HoleCardReaderSimulator
    socket: Path
    #: A damaged shoe frame was sent since the last stack: its lost sequence number shows on the
    #: shoe's next valid frame, so the next stack (even the next round's) may be suspect.
    shoe_damaged: bool = False

    async def wait_for(self, condition: Callable[[], bool], timeout: float = WAIT_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError("the daemon did not get there in time")
            await asyncio.sleep(0.01)

    def _cards_events(self) -> int:
        current = self.daemon.state.current
        return 0 if current is None else sum(1 for e in current.events if e.type == "cards")

    async def deal(
        self, position: str | int, cards: str, between: Callable[[], Awaitable[None]] | None = None
    ) -> bool:
        """The shoe reads ``cards`` and dispenses them for ``position``. True once journaled as
        ``cards``; False if the daemon did not use the stack (a frame of it was lost), and then the
        dealer keys the cards in through the API (§ 639a.13(g)), as docs/daemon.md says.
        ``between``: what else happens on the lines after the cards are read, before the stack."""
        daemon = self.daemon
        round_id, before, refused = daemon.round_id, self._cards_events(), len(daemon.refusals)
        await self.wait_for(lambda: daemon.devices["shoe"].state == "online")
        read = await self.shoe.read_cards(cards)
        if between is not None:
            await between()
        await self.shoe.deliver(position, len(read))
        await self.wait_for(
            lambda: (
                daemon.round_id != round_id
                or self._cards_events() > before
                or any("incomplete" in r for r in daemon.refusals[refused:])
            )
        )
        await daemon.drain()
        if daemon.round_id != round_id or self._cards_events() > before:
            return True
        await self.api.submit_event({"type": "cards", "to": str(position), "cards": cards})
        return False

    async def read_hole_card(self, blackjack: bool) -> None:
        """The dealer slides the hole card into the reader; it answers ``BJ`` or ``NO``."""
        daemon = self.daemon
        before = daemon.state.last_seq
        await self.wait_for(lambda: daemon.devices["reader"].state == "online")
        await self.reader.read(blackjack)
        await self.wait_for(lambda: daemon.state.last_seq > before)
        await daemon.drain()

    async def event(self, **event: Any) -> dict[str, Any]:
        return dict(await self.api.submit_event(event))

    async def settlement(self, round_id: str) -> dict[str, Any]:
        rounds = (await self.api.list_rounds(5))["rounds"]
        summary = next(r for r in rounds if r["round"] == round_id)
        assert summary["status"] == "settled", summary
        settlement: dict[str, Any] = summary["settlement"]
        return settlement

    async def round_id(self) -> str:
        round_id: str = (await self.api.status())["round"]["id"]
        return round_id


def _nets(settlement: Mapping[str, Any]) -> Net:
    return {
        seat: {wager: outcome["net"] for wager, outcome in wagers.items()}
        for seat, wagers in settlement["seats"].items()
    }


@asynccontextmanager
async def game_table(game: str) -> AsyncIterator[GameTable]:
    """The daemon on ``examples/<game>/rules-submission.toml`` with shoe, shuffler and reader."""
    # Short: a Unix socket path is at most 107 bytes.
    directory = Path(tempfile.mkdtemp(prefix="games-"))
    shoe = ShoeSimulator(directory / "dev" / "shoe")
    shuffler = ShufflerSimulator(directory / "dev" / "shuffler")
    reader = HoleCardReaderSimulator(directory / "dev" / "reader")
    devices: list[SimulatedDevice] = [shoe, shuffler, reader]
    factory = MockFactory()
    daemon: Daemon | None = None
    try:
        for device in devices:
            await device.start()
        submission = (REPO / "examples" / game / "rules-submission.toml").read_text(encoding="utf-8")
        table = tomllib.loads(submission)["table"]
        (directory / "rules-submission.toml").write_text(submission, encoding="utf-8")
        config_path = directory / "table-controller.toml"
        parsed = parse_submission(submission, GAMES, game)
        sensed = [p.name for p in parsed.game.progressives(parsed.rules) if p.sensor]
        text = config_text(directory, shoe.path, shuffler.path, progressives=sensed).replace(
            f'id = "{TABLE_ID}"', f'id = "{table}"'
        )
        text += f'\n[reader]\nport = "{reader.path}"\nbaud = 115200\n'
        config_path.write_text(text, encoding="utf-8")
        config = load_config(config_path)
        daemon = Daemon(config, load_submission(config), config_path=config_path, pin_factory=factory)
        await daemon.start()
        started = daemon
        deadline = time.monotonic() + WAIT_SECONDS
        while not all(d.state == "online" for d in started.devices.values()):
            assert time.monotonic() < deadline, "the devices did not come online"
            await asyncio.sleep(0.01)
        sock = directory / "run" / "api.sock"
        async with await ApiClient.connect(sock) as api:
            yield GameTable(daemon, api, shoe, shuffler, reader, sock)
    finally:
        if daemon is not None:
            await daemon.stop()
        for device in devices:
            await device.stop()
        factory.close()
        shutil.rmtree(directory, ignore_errors=True)


async def _journal_verifies(daemon: Daemon, round_id: str) -> None:
    """The round recalled from the journal replays through the rules core to what was journaled,
    and the whole file verifies (integrity check, no gap, recovery is the full replay)."""
    assert daemon.journal is not None
    recalled = await daemon.journal.recall(round_id)
    assert recalled.consistent and recalled.replayed is not None
    # The devices' facts (frames lost, ...) may still be journaled while it verifies.
    assert (await daemon.journal.verify()).last_seq <= daemon.state.last_seq


# --- Texas Hold 'Em Bonus (ch. 647a) ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_holdem_bonus_round_with_the_board_from_the_shoe() -> None:
    async with game_table("holdem-bonus") as table:
        round_id = await table.round_id()
        await table.event(type="wager", seat=1, wager="ante", amount="10.00")
        await table.event(type="wager", seat=1, wager="bonus", amount="5.00")
        await table.event(type="wager", seat=4, wager="ante", amount="10.00")
        await table.event(type="wager", seat=4, wager="bonus", amount="5.00")
        await table.event(type="wager", seat=5, wager="ante", amount="15.00")
        await table.event(type="no_more_bets")
        for position, cards in ((1, "9h 4c"), (4, "8s 8c"), (5, "Ah 5s"), ("dealer", "Js Tc")):
            assert await table.deal(position, cards)
        await table.event(type="decision", seat=1, action="fold")
        await table.event(type="decision", seat=4, action="bet")  # the Flop Wager, twice the Ante
        await table.event(type="decision", seat=5, action="bet")
        assert await table.deal("board", "Qs 7d 2h")  # the flop
        await table.event(type="decision", seat=4, action="check")
        await table.event(type="decision", seat=5, action="bet")  # the Turn Wager, the Ante
        assert await table.deal("board", "3c")  # the turn
        await table.event(type="decision", seat=4, action="check")
        await table.event(type="decision", seat=5, action="check")
        assert await table.deal("board", "4d")  # the river: the round is complete
        assert await table.round_id() != round_id

        settlement = await table.settlement(round_id)
        # Board Qs 7d 2h 3c 4d; the dealer Js Tc: high card, queen-jack-ten-seven-four.
        assert _nets(settlement) == {
            # Folded: the Ante is lost; the Bonus (9-4 offsuit) pays nothing.
            "1": {"ante": "-10.00", "bonus": "-5.00"},
            # Eights beat queen-high, but the Ante pays only on a straight or higher (§ 647a.11(h)(2)(ii)):
            # Ante pushes; Flop 20.00 at 1 to 1; the Bonus pair 8-8 pays 3 to 1 (paytable A): 15.00.
            "4": {"ante": "0.00", "flop": "+20.00", "bonus": "+15.00"},
            # A-2-3-4-5, a straight, five high: Ante 15.00 at 1 to 1, Flop 30.00 and Turn 15.00 at 1 to 1.
            "5": {"ante": "+15.00", "flop": "+30.00", "turn": "+15.00"},
        }
        await _journal_verifies(table.daemon, round_id)
        # The board came from the shoe.
        assert table.daemon.journal is not None
        recalled = await table.daemon.journal.recall(round_id)
        boards = [r for r in recalled.records if r.kind == "event" and r.body.get("to") == "board"]
        assert [r.source for r in boards] == ["shoe", "shoe", "shoe"]


# --- Three Card Poker (ch. 641a) ----------------------------------------------------------------------


TCP_WAGERS: list[tuple[int, str, str]] = [
    (1, "ante", "10.00"),
    (1, "pair_plus", "5.00"),
    (2, "ante", "25.00"),
    (4, "ante", "10.00"),
    (4, "pair_plus", "10.00"),
    (4, "six_card_bonus", "5.00"),
    (6, "pair_plus", "5.00"),
]
TCP_DEAL: list[tuple[str | int, str]] = [
    (1, "Kh Kd 4c"),
    (2, "9s 8s 7d"),
    (4, "Jc 6d 2h"),
    (6, "Th 9h 4h"),
    ("dealer", "Qd Jd 3s"),
]
TCP_DECISIONS: list[tuple[int, str]] = [(1, "play"), (2, "play"), (4, "fold")]
#: The dealer Qd Jd 3s: queen-high, qualifies.
TCP_NETS: Net = {
    # Kings beat queen-high: Ante and Play (10.00 each) 1 to 1; Pair Plus, a pair, 1 to 1 on 5.00.
    "1": {"ante": "+10.00", "play": "+10.00", "pair_plus": "+5.00"},
    # A straight (9-8-7): Ante and Play 1 to 1 on 25.00; the Ante Bonus pays a straight 1 to 1.
    "2": {"ante": "+25.00", "play": "+25.00", "ante_bonus": "+25.00"},
    # Folded: Ante and Pair Plus lost; the Six Card Bonus (Jc 6d 2h + Qd Jd 3s: a pair of
    # jacks) is below three of a kind, lost.
    "4": {"ante": "-10.00", "pair_plus": "-10.00", "six_card_bonus": "-5.00"},
    # Pair Plus alone: a flush (Th 9h 4h) pays 4 to 1 on 5.00.
    "6": {"pair_plus": "+20.00"},
}


async def _tcp_wagers(table: GameTable) -> None:
    for seat, wager, amount in TCP_WAGERS:
        await table.event(type="wager", seat=seat, wager=wager, amount=amount)


@pytest.mark.asyncio
async def test_three_card_poker_round() -> None:
    async with game_table("three-card-poker") as table:
        round_id = await table.round_id()
        await _tcp_wagers(table)
        await table.event(type="no_more_bets")
        for position, cards in TCP_DEAL:
            assert await table.deal(position, cards)
        for seat, action in TCP_DECISIONS:
            await table.event(type="decision", seat=seat, action=action)
        assert await table.round_id() != round_id
        assert _nets(await table.settlement(round_id)) == TCP_NETS
        await _journal_verifies(table.daemon, round_id)


# --- Blackjack (ch. 633a) -------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_blackjack_round_with_the_hole_card_reader() -> None:
    async with game_table("blackjack") as table:
        round_id = await table.round_id()
        await table.event(type="wager", seat=1, wager="blackjack", amount="10.00")
        await table.event(type="wager", seat=1, wager="three_card_poker", amount="5.00")
        await table.event(type="wager", seat=3, wager="blackjack", amount="20.00")
        await table.event(type="no_more_bets")
        # One card a stack, in dealing order; the up card is a ten.
        for position, card in ((1, "9s"), (3, "Kh"), ("dealer", "Th"), (1, "8d"), (3, "6c")):
            assert await table.deal(position, card)
        # A 10-count up card: the reader looks at the hole card first (§ 633a.7(h)).
        await table.read_hole_card(blackjack=False)
        current = table.daemon.state.current
        assert current is not None and current.events[-1].type == "hole_card_reader"
        await table.event(type="decision", seat=1, action="hit")
        assert await table.deal(1, "3c")  # 9 + 8 + 3 = 20
        await table.event(type="decision", seat=1, action="stand")
        await table.event(type="decision", seat=3, action="stand")  # 16
        assert await table.deal("dealer", "8h")  # the hole card: 18, the dealer stands
        assert await table.round_id() != round_id

        assert _nets(await table.settlement(round_id)) == {
            # 20 beats 18: 1 to 1 on 10.00. Three Card Poker Wager: 9s 8d with the up card Th,
            # a straight, 10 to 1 on 5.00 (the submission's paytable).
            "1": {"blackjack": "+10.00", "three_card_poker": "+50.00"},
            # 16 loses to 18.
            "3": {"blackjack": "-20.00"},
        }
        await _journal_verifies(table.daemon, round_id)


@pytest.mark.asyncio
async def test_blackjack_split_hands_take_the_shoes_cards_in_turn() -> None:
    """The shoe deals to a seat, not to a hand: after a split each card goes to the hand in play
    (§ 633a.11), the first hand until it stands, then the second."""
    async with game_table("blackjack") as table:
        round_id = await table.round_id()
        await table.event(type="wager", seat=2, wager="blackjack", amount="10.00")
        await table.event(type="no_more_bets")
        for position, card in ((2, "8s"), ("dealer", "6h"), (2, "8d")):
            assert await table.deal(position, card)
        await table.event(type="decision", seat=2, action="split")
        assert await table.deal(2, "3c")  # the first hand: 8s 3c
        await table.event(type="decision", seat=2, hand=0, action="hit")
        assert await table.deal(2, "9h")  # 8s 3c 9h: 20
        await table.event(type="decision", seat=2, hand=0, action="stand")
        assert await table.deal(2, "Tc")  # the second hand: 8d Tc, 18
        await table.event(type="decision", seat=2, hand=1, action="stand")
        assert await table.deal("dealer", "Ts")  # the hole card: 16, the dealer draws
        assert await table.deal("dealer", "Kd")  # 26: the dealer busts
        assert await table.round_id() != round_id

        settlement = await table.settlement(round_id)
        assert table.daemon.journal is not None
        recalled = await table.daemon.journal.recall(round_id)
        shoe_cards = [
            (dict(r.body).get("to"), dict(r.body).get("hand", 0), dict(r.body)["cards"])
            for r in recalled.records
            if r.kind == "event" and r.source == "shoe"
        ]
        assert shoe_cards[3:] == [
            ("2", 0, "3c"),
            ("2", 0, "9h"),
            ("2", 1, "Tc"),
            ("dealer", 0, "Ts"),
            ("dealer", 0, "Kd"),
        ]
        # Both hands beat a busted dealer: 1 to 1 on each (the split pair's matching wager).
        assert _nets(settlement) == {"2": {"blackjack": "+10.00", "blackjack.1": "+10.00"}}
        hands = {w: o["hand"] for w, o in settlement["seats"]["2"].items()}
        assert hands == {"blackjack": "hard 20", "blackjack.1": "hard 18"}
        await _journal_verifies(table.daemon, round_id)


# --- Asia Poker (ch. 659a) --------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_asia_poker_round_with_seven_card_stacks() -> None:
    async with game_table("asia-poker") as table:
        round_id = await table.round_id()
        for seat, amount in ((2, "25.00"), (4, "15.00"), (5, "20.00"), (6, "10.00")):
            await table.event(type="wager", seat=seat, wager="asia_poker", amount=amount)
        await table.event(type="no_more_bets")
        await table.event(type="dice", dice=[2, 3, 3])  # 8: counting round, the dealer first
        for position, cards in (
            ("dealer", "Kc Kd Ac Qd 9s 4h 7s"),
            (2, "Tc Ts 9h 9c 5h 4c 3d"),
            (4, "Ad Qc 8d 8s 2s 2d 3h"),
            (5, "Ah Qh 9d 6h 6s 5c 5d"),
            (6, "As Ks Qs Js 7c 7d 2h"),
        ):
            assert await table.deal(position, cards)
        await table.event(type="decision", seat=6, action="set As Ks Qs Js / 7c 7d / 2h")
        await table.event(type="decision", seat=5, action="set 6h 6s 5c 5d / Ah Qh / 9d")
        await table.event(type="decision", seat=4, action="set 8d 8s 2s 2d / Ad Qc / 3h")
        await table.event(type="decision", seat=2, action="set Tc Ts 5h 4c / 9h 9c / 3d")
        # The dealer's hands are set: a player without a Bonus Wager may still surrender
        # (§ 659a.11(d)), so the round waits for the dealer to settle it.
        status = await table.api.status()
        assert status["round"]["id"] == round_id
        assert (
            "the dealer to settle the round; seats 2, 4, 5, 6 may still surrender"
            in (status["round"]["waiting_for"])
        )
        # The same as data: the dealer is the one to act (the screen's SETTLE key reads it).
        assert [(w["who"], w["command"]) for w in status["round"]["waiting"]] == [("dealer", "settle_round")]
        assert status["round"]["waiting"][0]["what"] == status["round"]["waiting_for"]
        await table.event(type="decision", seat=4, action="surrender")
        assert "seats 2, 5, 6 may still surrender" in (await table.api.status())["round"]["waiting_for"]
        settled = await table.api.call("settle_round")
        assert settled["round"] == round_id and settled["next_round"] != round_id
        with pytest.raises(ApiError, match="cannot be settled yet"):
            await table.api.call("settle_round")
        assert await table.round_id() != round_id

        # The dealer sets the house way: high Kd Kc 7s 4h (a pair of kings), medium Ac Qd, low 9s.
        # Two hands higher than the dealer's win 1 to 1 (§ 659a.11(f)(2), § 659a.12(a)); otherwise the
        # wager loses, a copy counting for the dealer (§ 659a.6(c)).
        assert _nets(await table.settlement(round_id)) == {
            # High T-T loses to K-K; medium 9-9 beats A-Q; low 3 loses to 9: lost.
            "2": {"asia_poker": "-25.00"},
            # Surrendered: the Asia Poker Wager collected, the hands never exposed (§ 659a.11(d)).
            "4": {"asia_poker": "-15.00"},
            # High 6-6-5-5 beats K-K; medium A-Q and low 9 copy the dealer's: lost.
            "5": {"asia_poker": "-20.00"},
            # High A-K-Q-J of spades beats K-K; medium 7-7 beats A-Q; low 2 loses: won, 1 to 1.
            "6": {"asia_poker": "+10.00"},
        }
        await _journal_verifies(table.daemon, round_id)


# --- garbage on the lines ----------------------------------------------------------------------------

DEVICES = ("shoe", "shuffler", "reader")
#: The moments of a Three Card Poker round at which noise can arrive: 0 before the wagers, 1 after
#: them, 2 after "no more bets", 3 + n after stack n, AFTER_DECISIONS, then MID_STACK + n between
#: the cards of stack n and its ``STK``.
AFTER_DECISIONS = 3 + len(TCP_DEAL)
MID_STACK = AFTER_DECISIONS + 1
MOMENTS = MID_STACK + len(TCP_DEAL)

noise = st.one_of(
    st.tuples(st.just("garbage"), st.binary(min_size=1, max_size=300)),
    st.tuples(
        st.just("corrupted"),
        st.sampled_from(["CRD", "STK", "STS", "FLT", "HCR", "CNT", "XYZ"]),
    ),
)
bursts = st.lists(
    st.tuples(st.integers(0, MOMENTS - 1), st.sampled_from(DEVICES), noise), min_size=1, max_size=6
)


async def _send_noise(table: GameTable, device: str, item: tuple[str, Any]) -> None:
    sim: SimulatedDevice = {"shoe": table.shoe, "shuffler": table.shuffler, "reader": table.reader}[device]
    kind, payload = item
    if kind == "garbage":
        await sim.send_garbage(payload)
    else:
        # A well-framed frame with a damaged byte: the checksum no longer matches.
        fields = {"CRD": ("As",), "STK": (1, 3), "STS": ("ready", "X", "1"), "FLT": ("jam", "")}
        await sim.send_corrupted(payload, *fields.get(payload, ("BJ",)))
        table.shoe_damaged = table.shoe_damaged or device == "shoe"


async def _noisy_round(table: GameTable, plan: list[tuple[int, str, tuple[str, Any]]]) -> None:
    async def moment(n: int) -> None:
        for at, device, item in plan:
            if at == n:
                await _send_noise(table, device, item)
        await asyncio.sleep(0)

    drivers = table.daemon.devices
    bytes_before = {name: driver.stats.bytes_in for name, driver in drivers.items()}
    round_id = await table.round_id()
    await moment(0)
    await _tcp_wagers(table)
    await moment(1)
    await table.event(type="no_more_bets")
    await moment(2)
    for n, (position, cards) in enumerate(TCP_DEAL):
        taken = await table.deal(position, cards, between=partial(moment, MID_STACK + n))
        # Only a damaged shoe frame since the stack before (it used up a sequence number, so a
        # card of this stack may be the one lost) makes the daemon leave a stack to the dealer's
        # keys; garbage bytes, and anything on the other lines, never do: the frames after them
        # are taken.
        assert taken or table.shoe_damaged, (n, plan)
        table.shoe_damaged = False
        await moment(3 + n)
    for seat, action in TCP_DECISIONS:
        await table.event(type="decision", seat=seat, action=action)
    await moment(AFTER_DECISIONS)

    # The noise reached the drivers.
    sent = {
        name: sum(len(item[1]) for _, device, item in plan if device == name and item[0] == "garbage")
        for name in drivers
    }
    await table.wait_for(
        lambda: all(d.stats.bytes_in - bytes_before[n] >= sent[n] for n, d in drivers.items())
    )

    assert await table.round_id() != round_id
    assert _nets(await table.settlement(round_id)) == TCP_NETS
    await _journal_verifies(table.daemon, round_id)
    # Nothing the noise said became a rules event: the round is only the dealer's and the shoe's.
    assert table.daemon.journal is not None
    recalled = await table.daemon.journal.recall(round_id)
    sources = {r.source for r in recalled.records if r.kind == "event"}
    assert sources <= {"dealer-ui", "shoe"}, sources


def test_garbage_and_damaged_frames_never_crash_the_daemon() -> None:
    with asyncio.Runner() as runner:
        manager = game_table("three-card-poker")
        table = runner.run(manager.__aenter__())
        try:

            @settings(
                max_examples=50,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow],
            )
            @given(plan=bursts)
            def noisy(plan: list[tuple[int, str, tuple[str, Any]]]) -> None:
                runner.run(_noisy_round(table, plan))
                daemon = table.daemon
                assert daemon.healthy()
                status = runner.run(table.api.status())
                assert status["round"]["events"] == 0 and status["round"]["no_more_bets"] is False

            noisy()
        finally:
            runner.run(manager.__aexit__(None, None, None))


# --- the progressives the game declares, through the daemon ----------------------------------------


@pytest.mark.asyncio
async def test_a_fortune_asia_poker_round_begins_with_its_meter() -> None:
    """The game declares its progressive (§ 659a.11(h)(3)) with the meter's reset amount and no
    initial one (§ 659a.12(d)): the table's first round begins there, and the sensor's chip is
    the declared wager."""
    async with game_table("fortune-asia-poker") as table:
        (progressive,) = game_hooks.progressives(table.daemon.submission)
        assert progressive.sensor and progressive.initial == progressive.reset
        status = await table.api.status()
        assert status["round"]["meters"] == {progressive.name: "10000.00"}
        assert table.daemon.progressive_wager == progressive.wager == 100
        # The round waits for the wagers: the words, and the data beside them.
        assert status["round"]["waiting_for"]
        assert status["round"]["waiting"] and {"who", "what"} <= set(status["round"]["waiting"][0])


@pytest.mark.asyncio
async def test_blackjacks_three_progressives_are_in_its_rounds_meters() -> None:
    """Bad Beat, Hit and Run and Straight Jack (§ 633a.6(e)(8), (10), (11)): each declared with
    its meter, each in the round's meters from the first round, and the next round begins with
    the meters the last one journaled."""
    async with game_table("blackjack") as table:
        names = {p.name: p.initial for p in game_hooks.progressives(table.daemon.submission)}
        assert len(names) == 3
        first = (await table.api.status())["round"]
        # From the example submission: 5,000.00, 1,000.00, 2,500.00 (initial amounts).
        assert sorted(first["meters"].values()) == ["1000.00", "2500.00", "5000.00"]
        assert set(first["meters"]) == set(names)
        await table.event(type="wager", seat=1, wager="blackjack", amount="10.00")
        await table.event(type="no_more_bets")
        for position, card in ((1, "9s"), ("dealer", "7h"), (1, "8d")):
            assert await table.deal(position, card)
        await table.event(type="decision", seat=1, action="stand")
        assert await table.deal("dealer", "Th")  # 17 stands; 9 + 8 = 17: a push
        assert (await table.round_id()) != first["id"]
        settlement = await table.settlement(first["id"])
        second = (await table.api.status())["round"]
        assert second["meters"] == settlement["meters"] == first["meters"]
