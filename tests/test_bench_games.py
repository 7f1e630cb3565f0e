"""``tablectl bench --game NAME``: every house-banked game's scripted dealer through the real daemon.

Each game plays a few rounds with a fixed seed on ``sim.bench_rig.BenchRig`` (real pseudo-terminals
for the shoe, the shuffler and, at Blackjack, the hole-card reader; gpiozero's MockFactory pins; a
real SQLite journal; the local API on a real Unix socket). Every round must be settled, nothing
refused, and each round recalled from the journal must replay to what was journaled.
"""

from __future__ import annotations

import contextlib
import io
import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from controller.api_client import ApiClient
from controller.daemon import Daemon
from controller.rules.games.poker_room.button import next_button
from controller.tablectl import main
from sim.bench_command import BENCH_GAMES, POKER_VARIANTS
from sim.bench_games import ThreeCardPokerDealer, dealt_games, game_dealer, rules_submission
from sim.bench_rig import BenchRig, run_bench

from .rounds import money

REPO = Path(__file__).resolve().parent.parent


async def _journal_verifies(daemon: Daemon, round_id: str) -> None:
    """As tests/test_daemon_games.py: the recalled round replays through the rules core to what was
    journaled, and the whole file verifies."""
    assert daemon.journal is not None
    recalled = await daemon.journal.recall(round_id)
    assert recalled.consistent and recalled.replayed is not None
    assert (await daemon.journal.verify()).last_seq == daemon.state.last_seq


async def _play(game: str, rounds: int, seed: int) -> tuple[list[dict[str, Any]], str]:
    """``rounds`` rounds of ``game``: their summaries and what the dealer printed."""
    lines: list[str] = []
    async with BenchRig(game=game) as rig:
        async with await ApiClient.connect(rig.socket) as api:
            dealer = game_dealer(game, rig, api, random.Random(seed), lines.append)
            summaries = [await dealer.play_round() for _ in range(rounds)]
        daemon = rig.daemon
        assert daemon is not None
        assert list(daemon.refusals) == [], daemon.refusals
        assert daemon.game.name == game
        for summary in summaries:
            assert summary["status"] == "settled", summary
            assert summary["settlement"]["seats"], summary
            await _journal_verifies(daemon, summary["round"])
    assert len([line for line in lines if line.startswith("--- round")]) == rounds
    return summaries, "\n".join(lines)


def _wager_names(summaries: list[dict[str, Any]]) -> set[str]:
    return {w for s in summaries for seat in s["settlement"]["seats"].values() for w in seat}


@pytest.mark.asyncio
async def test_three_card_poker_rounds() -> None:
    summaries, said = await _play("three-card-poker", 3, seed=1)
    # Every seat's lines are the ch. 649a wagers.
    assert _wager_names(summaries) <= {"ante", "play", "ante_bonus", "pair_plus", "six_card_bonus"}
    assert ": play" in said and ": fold" in said


@pytest.mark.asyncio
async def test_holdem_bonus_rounds() -> None:
    summaries, said = await _play("holdem-bonus", 3, seed=1)
    names = _wager_names(summaries)
    assert "flop" in names and names <= {"ante", "flop", "turn", "river", "bonus"}
    assert "for the board" in said


@pytest.mark.asyncio
async def test_blackjack_rounds_with_the_hole_card_reader() -> None:
    # Seed 73: the reader looks at a hole card, a pair is split, a hand doubled, one surrendered;
    # chips on the Bad Beat, Hit and Run and Straight Jack devices (§ 633a.2(c), (d)), each
    # counted at the lock-out and settled with the round.
    summaries, said = await _play("blackjack", 3, seed=73)
    for what in ("hole-card reader: no Blackjack", ": split", "double down", "surrender"):
        assert what in said, what
    for progressive in ("bad_beat", "hit_and_run", "straight_jack"):
        assert f"{progressive} chip sensed" in said, progressive
        assert f"({progressive})" in said  # accepted at the lock-out
    assert {"blackjack", "blackjack.1", "double_down", "bad_beat", "hit_and_run", "straight_jack"} <= (
        _wager_names(summaries)
    )


@pytest.mark.asyncio
async def test_asia_poker_rounds_settled_by_the_dealer() -> None:
    summaries, said = await _play("asia-poker", 3, seed=1)
    # The dealer settles once no one else surrenders (§ 659a.11(d)); a seat surrendered.
    assert "dealer: settles the round" in said
    assert any(
        outcome["hand"] == "surrendered"
        for s in summaries
        for seat in s["settlement"]["seats"].values()
        for outcome in seat.values()
    )


@pytest.mark.asyncio
async def test_fortune_asia_poker_rounds_with_progressive_chips() -> None:
    summaries, said = await _play("fortune-asia-poker", 3, seed=1)
    # Seed 1 puts progressive chips on the sensors: journaled as Progressive Payout Wagers.
    assert {"progressive", "fortune_asia_poker"} <= _wager_names(summaries)
    assert "progressive wagers accepted at seats" in said


@pytest.mark.asyncio
async def test_three_dice_football_games() -> None:
    _, said = await _play("three-dice-football", 3, seed=1)
    # A game ended without a score, so the dice moved on; a Trips TD, so they were retained.
    assert "accepts the dice" in said and "retains the dice" in said


@pytest.mark.asyncio
async def test_caribbean_studs_shoe_jam_is_voided_on_the_floorpersons_pin() -> None:
    lines: list[str] = []
    assert await run_bench(3, 1, lines.append) == 0
    said = "\n".join(lines)
    assert "floorperson bench-floor: shoe jam confirmed" in said
    assert "settled (open)" not in said and "all wagers returned" in said


@pytest.mark.asyncio
async def test_caribbean_stud_still_plays_with_the_late_chip_refused_on_purpose() -> None:
    lines: list[str] = []
    assert await run_bench(1, 7, lines.append) == 0
    assert any("refused: " in line for line in lines)  # the chip after the lock-out
    assert not any(line.startswith("FAILED") for line in lines)


@dataclass
class _WrongCountDealer(ThreeCardPokerDealer):
    """Deals the dealer four cards instead of three: the daemon refuses the stack."""

    async def deal(self, position: str | int, cards: str) -> None:
        if position == "dealer":
            cards += " " + next(c for c in ("2c", "2d", "2h", "2s") if c not in self.dealt)
        self.dealt.extend(cards.split())
        await super().deal(position, cards)

    dealt: list[str] = field(default_factory=list)


@pytest.mark.asyncio
async def test_a_refused_stack_fails_the_bench_and_says_what_was_refused() -> None:
    lines: list[str] = []
    code = await run_bench(1, 1, lines.append, game="three-card-poker", make_dealer=_WrongCountDealer)
    said = "\n".join(lines)
    assert code == 1
    assert "FAILED" in said and "BenchError" in said and "the daemon refused" in said


@dataclass
class _SecondLockOutDealer(ThreeCardPokerDealer):
    """Sends "no more bets" through the API after the button: refused by the rules."""

    async def lock_out(self) -> None:
        await super().lock_out()
        await self.event(type="no_more_bets")


@pytest.mark.asyncio
async def test_an_api_refusal_fails_the_bench() -> None:
    lines: list[str] = []
    code = await run_bench(1, 1, lines.append, game="three-card-poker", make_dealer=_SecondLockOutDealer)
    said = "\n".join(lines)
    assert code == 1
    assert "FAILED" in said and "ApiError: refused" in said


def test_every_bench_game_has_a_dealer_and_a_rules_submission() -> None:
    assert set(dealt_games()) == set(BENCH_GAMES)
    for game in BENCH_GAMES:
        assert f'game = "{game}"' in rules_submission(game)
    with pytest.raises(ValueError, match="roulette"):
        rules_submission("roulette")
    assert 'variant = "badugi"' in rules_submission("poker-room", "badugi")
    with pytest.raises(ValueError, match="--variant is the poker room's"):
        rules_submission("blackjack", "badugi")


def test_tablectl_bench_three_dice_football_prints_a_settlement() -> None:
    tablectl = [sys.executable, "-m", "controller.tablectl"]
    done = subprocess.run(
        [*tablectl, "bench", "--game", "three-dice-football", "--rounds", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "settled (settled)" in done.stdout
    assert "accepts the dice" in done.stdout or "retains the dice" in done.stdout
    assert "0 refusal(s) journaled" in done.stdout


def test_an_unknown_game_is_refused_with_a_did_you_mean() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exited:
        main(["bench", "--game", "blackjak", "--rounds", "1"])
    assert exited.value.code != 0
    assert "did you mean 'blackjack'?" in err.getvalue()


# --- the poker room (§§ 637a.19-637a.21): every variant from the shoe -----------------------------


@pytest.mark.parametrize("variant", POKER_VARIANTS)
@pytest.mark.asyncio
async def test_the_poker_room_deals_rounds_of_every_variant(variant: str) -> None:
    """Three rounds of each variant: the button placed at the first (the highest seat, "the first player
    to the right of the dealer", § 637a.19(c)(1)(i)) and carried by the table to the next player
    clockwise after each (c)(2); every card from the shoe, the burns journaled; nothing refused; every
    round settled and replayed; the chips conserved (the nets of each round add up to zero)."""
    lines: list[str] = []
    async with BenchRig(game="poker-room", variant=variant) as rig:
        async with await ApiClient.connect(rig.socket) as api:
            dealer = game_dealer("poker-room", rig, api, random.Random(1), lines.append)
            summaries = [await dealer.play_round() for _ in range(3)]
        daemon = rig.daemon
        assert daemon is not None and daemon.journal is not None
        assert list(daemon.refusals) == [], daemon.refusals
        buttons, burns = [], 0
        for summary in summaries:
            assert summary["status"] == "settled", summary
            nets = [
                _cents(o["net"]) for seat in summary["settlement"]["seats"].values() for o in seat.values()
            ]
            assert sum(nets) == 0, summary
            await _journal_verifies(daemon, summary["round"])
            events = (await daemon.journal.recall(summary["round"])).record["events"]
            assert isinstance(events, list)
            assert events[0]["type"] == "position"
            buttons.append(events[0]["value"])
            burns += sum(1 for e in events if e["type"] == "cards" and e["to"] == "burn")
        seats = sorted(int(s) for s in summaries[0]["settlement"]["seats"])
        assert burns >= 1 and buttons[0] == max(seats)
        assert buttons[1:] == [next_button(b, seats) for b in buttons[:-1]]
    said = "\n".join(lines)
    assert "shoe dealt" in said and "the table carries the button" in said


def _cents(net: str) -> int:
    return -money(net[1:]) if net.startswith("-") else money(net.lstrip("+"))


BENCH = (sys.executable, "-m", "sim.bench_command")


def test_table_bench_plays_a_poker_room_variant() -> None:
    done = subprocess.run(
        [
            *BENCH,
            "--game",
            "poker-room",
            "--variant",
            "badugi",
            "--rounds",
            "2",
            "--seed",
            "5",
            "--console",
            "no",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "bench rig: poker-room badugi" in done.stdout
    assert "Badugi Poker" in done.stdout and "0 refusal(s) journaled" in done.stdout


def test_a_variant_is_the_poker_rooms_and_a_wrong_one_has_a_did_you_mean() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exited:
        main(["bench", "--game", "poker-room", "--variant", "badugy"])
    assert exited.value.code != 0 and "did you mean 'badugi'?" in err.getvalue()
    with contextlib.redirect_stderr(err):
        assert main(["bench", "--game", "blackjack", "--variant", "badugi"]) == 2
    assert "--variant is the poker room's" in err.getvalue()
    with contextlib.redirect_stderr(err):
        assert main(["bench", "--game", "blackjack", "--no-reader"]) == 2
    assert "--no-reader is the poker room's" in err.getvalue()


@pytest.mark.parametrize("variant", POKER_VARIANTS)
@pytest.mark.asyncio
async def test_the_poker_room_without_a_reader_deals_face_down_and_keys_the_showdown(variant: str) -> None:
    """Three rounds of each variant at a table without a card reader (``BenchRig(card_reader=False)``: no
    shoe in the daemon's configuration): the hands dealt face down and counted (one ``deal`` event, the
    button last, § 637a.19(f)), each burn and each draw counted (``deal`` to ``burn``, ``dealer``, a
    seat), the board keyed (``cards`` to ``board``), at the showdown each hand shown keyed (``cards`` to
    his seat) or mucked; nothing refused; every round settled and replayed; the chips conserved."""
    lines: list[str] = []
    async with BenchRig(game="poker-room", variant=variant, card_reader=False) as rig:
        assert rig.shoe is None and "[shoe]" not in rig.config_path.read_text("utf-8")
        async with await ApiClient.connect(rig.socket) as api:
            dealer = game_dealer("poker-room", rig, api, random.Random(1), lines.append)
            summaries = [await dealer.play_round() for _ in range(3)]
        daemon = rig.daemon
        assert daemon is not None and daemon.journal is not None
        assert list(daemon.refusals) == [], daemon.refusals
        kinds: set[tuple[str, str]] = set()
        for summary in summaries:
            assert summary["status"] == "settled", summary
            nets = [
                _cents(o["net"]) for seat in summary["settlement"]["seats"].values() for o in seat.values()
            ]
            assert sum(nets) == 0, summary
            await _journal_verifies(daemon, summary["round"])
            events = (await daemon.journal.recall(summary["round"])).record["events"]
            assert isinstance(events, list)
            kinds |= {
                (e["type"], "seat" if str(e.get("to", "")).isdigit() else e.get("to", "")) for e in events
            }
        assert {("deal", ""), ("deal", "burn")} <= kinds and ("cards", "burn") not in kinds
        assert ("cards", "board") in kinds if variant.startswith("omaha") else ("deal", "dealer") in kinds
    said = "\n".join(lines)
    assert "face down, counted" in said and "shows" in said
