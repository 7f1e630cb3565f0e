"""The poker room dealt from a card-reading shoe through the real daemon, every variant.

The table of ``tests/test_daemon_poker.py`` with an automated dealing shoe on a real pseudo-terminal
(``sim.devices.ShoeSimulator``, the ``[shoe]`` of the daemon's config): every card of the round is
read as it is dealt, one stack a card to each player in turn (§ 637a.19(f): "Starting with the player
to the immediate left of the button ... The player with the button shall be the last player to
receive a card each time"), the burn before each draw and each part of the board a stack of its own
(§ 637a.19(h)-(j), § 637a.20(h)-(j), § 637a.21(h)-(j): "The dealer shall then burn the top card of
the deck"), the board (Omaha) and each player's new cards (the draws) stacks too. The bets are the
dealer's entries through the local API, and so are the discards: the player chooses which of his
cards (already read) he gives up (§ 637a.20(h): "Each player may keep his original hand or discard as
many cards as he chooses"). With every card known, the pots are awarded as soon as the final betting
round is complete: nobody keys a hand at the showdown.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from controller.api_client import ApiClient, ApiError
from controller.auth import Role, make_user, save_users
from controller.config import load_config
from controller.daemon import Daemon, load_submission
from sim.bench_rig import config_text
from sim.devices import ShoeSimulator

from .test_daemon_poker import SHOWDOWNS, PokerTable, _nets, _replays, submission, sum_net

WAIT_SECONDS = 5.0
RANKS = "23456789TJQKA"
SUITS = "cdhs"


@dataclass
class ShoeTable(PokerTable):
    shoe: ShoeSimulator

    async def wait_for(self, condition: Callable[[], bool], timeout: float = WAIT_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError("the daemon did not get there in time")
            await asyncio.sleep(0.01)

    async def deal(self, position: str | int, cards: str) -> None:
        """The shoe reads ``cards`` and dispenses them as one stack for ``position``; the daemon
        journals it (accepted)."""
        round_id = self.daemon.round_id
        before = self._cards()
        await self._stack(position, cards)
        assert self.daemon.round_id != round_id or self._cards() == before + 1, (
            position,
            cards,
            list(self.daemon.refusals)[-1:],
        )

    async def misdealt(self, match: str, position: str | int, cards: str) -> None:
        """The shoe's stack is refused by the rules with a reason matching ``match``: the round is
        unchanged, the refusal reported."""
        before = [e.to_json() for e in self._events()]
        refused = len(self.daemon.refusals)
        await self._stack(position, cards)
        assert [e.to_json() for e in self._events()] == before
        said = list(self.daemon.refusals)[refused:]
        assert any(match in str(r) for r in said), said

    def _events(self) -> list[Any]:
        current = self.daemon.state.current
        return [] if current is None else list(current.events)

    def _cards(self) -> int:
        return sum(1 for e in self._events() if e.type == "cards")

    async def _stack(self, position: str | int, cards: str) -> None:
        daemon = self.daemon
        seq = daemon.state.last_seq
        await self.wait_for(lambda: daemon.devices["shoe"].state == "online")
        await self.shoe.deal(position, cards)
        await self.wait_for(lambda: daemon.state.last_seq > seq)
        await daemon.drain()


@asynccontextmanager
async def shoe_table(text: str) -> AsyncIterator[ShoeTable]:
    directory = Path(tempfile.mkdtemp(prefix="pshoe-"))
    shoe = ShoeSimulator(directory / "dev" / "shoe")
    factory = MockFactory()
    daemon: Daemon | None = None
    try:
        await shoe.start()
        (directory / "rules-submission.toml").write_text(text, encoding="utf-8")
        config_path = directory / "table-controller.toml"
        config_path.write_text(config_text(directory, shoe.path), encoding="utf-8")
        save_users(directory / "users.json", {"mfloor": make_user("mfloor", Role.FLOOR, "482916")})
        config = load_config(config_path)
        daemon = Daemon(config, load_submission(config), config_path=config_path, pin_factory=factory)
        await daemon.start()
        async with await ApiClient.connect(directory / "run" / "api.sock") as api:
            table = ShoeTable(daemon, api, directory, shoe)
            await table.wait_for(lambda: daemon.devices["shoe"].state == "online")
            yield table
    finally:
        if daemon is not None:
            await daemon.stop()
        await shoe.stop()
        factory.close()
        shutil.rmtree(directory, ignore_errors=True)


@dataclass(frozen=True)
class Plan:
    """The cards of one round: each seat's hand as dealt, seat 1's discards and new cards (the draw
    games), the board (Omaha), the burns."""

    dealt: dict[int, list[str]]
    discards: str
    drawn: str
    board: tuple[str, str, str]
    burns: tuple[str, str, str]


def plan(variant: str) -> Plan:
    """Seats 1 and 2 end with the hands of ``SHOWDOWNS`` (the same pots as without the shoe); in the
    draw games seat 1 is dealt two cards of no use in place of his last two and draws them at the
    first draw; seats 3 and 4 (who fold) and the burns take the next unused cards of the deck."""
    hand_1, hand_2, board, _ = SHOWDOWNS[variant]
    used = set(hand_1.split()) | set(hand_2.split()) | set(" ".join(board).split())
    spare = iter(r + s for r in RANKS for s in SUITS if r + s not in used)
    size = len(hand_1.split())
    first = hand_1.split()
    discards = drawn = ""
    if not board[0]:
        drawn = " ".join(first[-2:])
        first = [*first[:-2], next(spare), next(spare)]
        discards = " ".join(first[-2:])
    dealt = {1: first, 2: hand_2.split(), 3: [next(spare) for _ in range(size)]}
    dealt[4] = [next(spare) for _ in range(size)]
    burns = (next(spare), next(spare), next(spare))
    return Plan(dealt, discards, drawn, board, burns)


async def _street(table: ShoeTable, p: Plan, street: int, drawers: tuple[int, ...]) -> None:
    """The burn from the shoe, then the board's cards (Omaha) or the draw: seat 1 discards two and
    receives two from the shoe at the first draw, every other player stands pat."""
    await table.deal("burn", p.burns[street])
    if p.board[street]:
        await table.deal("board", p.board[street])
        return
    for seat in drawers:
        if seat == 1 and street == 0:
            await table.refused(
                "seat 1 is drawing, and does not hold", type="cards", to="dealer", cards=p.dealt[2][0]
            )
            await table.event(type="cards", to="dealer", cards=p.discards)
            await table.misdealt("seat 2 holds it", 1, f"{p.dealt[2][0]} {p.drawn.split()[1]}")
            await table.deal(1, p.drawn)
        else:
            await table.event(type="decision", seat=seat, action="stand_pat")


@pytest.mark.parametrize("variant", list(SHOWDOWNS))
@pytest.mark.asyncio
async def test_a_round_of_every_variant_read_by_the_shoe(variant: str) -> None:
    """The round of ``test_daemon_poker``'s first test (button 4, seats 1-4 with 100.00, blinds 1.00 and
    2.00, pot-limit; the same bets), every card from the shoe: the same nets, the burns journaled as
    cards to ``burn``, a card out of the deal's order and a card dealt twice refused, the pots awarded
    at the end of the final betting round; the round replays; the button moves to seat 1."""
    p = plan(variant)
    nets = SHOWDOWNS[variant][3]
    async with shoe_table(submission(variant)) as table:
        round_id = await table.round_id()
        await table.event(type="position", value=4)
        for seat in (1, 2, 3, 4):
            await table.event(type="decision", seat=seat, action="participate", amount="100.00")
        await table.event(type="wager", seat=1, wager="blind", amount="1.00")
        await table.event(type="wager", seat=2, wager="blind", amount="2.00")
        # The shoe works: its cards are not keyed by hand, nor dealt face down and counted.
        with pytest.raises(ApiError, match="the shoe works"):
            await table.api.submit_event({"type": "cards", "to": "1", "cards": p.dealt[1][0]})
        await table.refused("the shoe reads the cards it deals", type="deal", value=len(p.dealt[1]))
        await table.misdealt("the next card goes to seat 1, not seat 2", 2, p.dealt[2][0])
        for card in range(len(p.dealt[1])):
            for seat in (1, 2, 3, 4):
                await table.deal(seat, p.dealt[seat][card])
        # The screen's table: seat 3's turn, 2.00 to call, a raise to 4.00-7.00 (pot-limit).
        view = (await table.api.status())["round"]["table_view"]
        assert (view["button"], view["turn"], view["to_call"]) == (4, 3, "2.00")
        assert {"action": "raise", "least": "4.00", "most": "7.00"} in view["actions"]
        await table.acts((3, "call"), (4, "call"), (1, "call"), (2, "check"))
        await _street(table, p, 0, (1, 2, 3, 4))
        await table.acts((1, "bet", "2.00"), (2, "call"), (3, "fold"), (4, "call"))
        await _street(table, p, 1, (1, 2, 4))
        await table.acts((1, "check"), (2, "check"), (4, "check"))
        await _street(table, p, 2, (1, 2, 4))
        await table.acts((1, "check"), (2, "bet", "4.00"), (4, "fold"), (1, "call"))
        # Every hand was read: the pots are awarded at once.
        assert await table.round_id() != round_id
        settled = _nets(await table.settlement(round_id))
        assert {s: sum_net(w) for s, w in settled.items() if s in ("1", "2")} == nets
        assert sum_net(settled["3"]) == "-2.00" and sum_net(settled["4"]) == "-4.00"
        assert table.daemon.journal is not None
        recalled = await table.daemon.journal.recall(round_id)
        events: list[dict[str, Any]] = recalled.record["events"]  # type: ignore[assignment]
        burned = [e for e in events if e.get("type") == "cards" and e.get("to") == "burn"]
        assert [b["cards"] for b in burned] == list(p.burns)
        await _replays(table, round_id)
        assert table.daemon.state.current is not None
        first = table.daemon.state.current.events[0]
        assert (first.type, first.value) == ("position", 1)


@pytest.mark.asyncio
async def test_a_house_banked_games_burn_is_still_no_event() -> None:
    """The burn is an event only where the game's round takes it (``Devices.burns``, the poker room): a
    Three Card Poker shoe's burn stack mid-round is neither journaled nor refused, and the round goes on
    to the same settlement."""
    from .test_daemon_games import TCP_DEAL, TCP_DECISIONS, TCP_NETS, _tcp_wagers, game_table

    async with game_table("three-card-poker") as table:
        round_id = await table.round_id()
        await _tcp_wagers(table)
        await table.event(type="no_more_bets")
        seq, refused = table.daemon.state.last_seq, len(table.daemon.refusals)
        bridge = table.daemon.bridge
        assert bridge is not None
        before = bridge.handled
        await table.shoe.deal("burn", "2c")
        await table.wait_for(lambda: bridge.handled >= before + 2)  # the card read, the stack
        await table.daemon.drain()
        assert table.daemon.state.last_seq == seq and len(table.daemon.refusals) == refused
        for position, cards in TCP_DEAL:
            assert await table.deal(position, cards)
        for seat, action in TCP_DECISIONS:
            await table.event(type="decision", seat=seat, action=action)
        assert _nets(await table.settlement(round_id)) == TCP_NETS
