"""Fortune Asia Poker on the progressive link: its Progressive Payout Wager (§ 659a.11(h)(3))
declared to the real central meter with the rate of progression its Rules Submission files
(``progressive.rate_of_progression``, § 601a.2; our text of § 659a.12(d) gives none), counted
by the sensors at the lock-out, a hit awarded by the meter and settled with the award. The
real daemon (the bench rig's), a real Mosquitto with the shipped configuration, the meter."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from controller.api_client import ApiClient
from controller.daemon import Daemon, main
from controller.journal.state import PROGRESSIVE_LINK
from controller.rules.core.cards import parse_card
from controller.rules.games.asia_poker.game import clockwise_from, setting_action, starting_position
from controller.rules.games.asia_poker.house_way import set_hands
from controller.rules.games.fortune_asia_poker.game import FortuneAsiaPokerRules
from meter.config import load
from sim.bench_rig import TABLE_ID, BenchRig, config_text, example_submission
from sim.link_rig import link_section, meter_config
from wire import Parameters

from .meter_link import Link, running_link
from .mosquitto import Broker, Pki
from .table_link import daemon_of, linked_rig, until, wagering_open

pytestmark = pytest.mark.asyncio

GAME = "fortune-asia-poker"
FAP = "fap-floor"
"""The meter's id of the table's Progressive Payout Wager (``[progressive_link] progressives``)."""
METER_IDS = {"progressive": FAP}
#: examples/fortune-asia-poker/rules-submission.toml: reset 10,000.00 (the first round's too), 15%.
FORTUNE = Parameters(initial=1_000_000, reset=1_000_000, rate=Fraction(15))

#: Seven cards a position, none twice in a round (a 53-card deck with the joker, § 659a.3).
DEALER = "Tc Td 9c 6d Kh 3c 8h"
NO_FULL_HOUSE = {1: "Ah Kd Jc 9d 7h 4c 3h", 3: "2d 5h 8c Jd Ks 7c 9h"}
#: A natural seven-card straight flush: "100% of meter" in the example's progressive paytable.
SEVEN_CARD_STRAIGHT_FLUSH = "2s 3s 4s 5s 6s 7s 8s"


def money_text(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def rules_of(daemon: Daemon) -> FortuneAsiaPokerRules:
    rules = daemon.submission.rules
    assert isinstance(rules, FortuneAsiaPokerRules)
    return rules


async def deal_round(api: ApiClient, rig: BenchRig, hands: dict[int, str], chips: Sequence[int]) -> str:
    """Each of ``hands``' seats wagers 10.00 on the Fortune Asia Poker Wager through the API,
    ``chips`` seats put a chip on their progressive sensor, the lock-out button, the button's
    count 1 (§ 659a.5(g)(3)), the stacks clockwise from the starting position. The round's id."""
    round_id = str((await api.status())["round"]["id"])
    for seat in hands:
        await api.submit_event(
            {"type": "wager", "seat": seat, "wager": "fortune_asia_poker", "amount": "10.00"}
        )
    for seat in chips:
        await rig.place_chip(seat)
    await rig.press_lock_out()
    await api.submit_event({"type": "position", "value": 1})
    sevens = {"dealer": DEALER, **{str(seat): cards for seat, cards in hands.items()}}
    for position in clockwise_from(starting_position("button", 1)):
        if position in sevens:
            await rig.deal(position, sevens[position])
    for seat in chips:
        await rig.lift_chip(seat)  # the dealer collects them: not recognized while locked
    return round_id


async def set_hands_house_way(api: ApiClient, hands: dict[int, str]) -> None:
    """Every player sets the house way, counterclockwise from the dealer's right."""
    for seat in sorted(hands, reverse=True):
        setting = set_hands([parse_card(c) for c in hands[seat].split()], "standard")
        await api.submit_event({"type": "decision", "seat": seat, "action": setting_action(setting)})


async def fortune_round(api: ApiClient, rig: BenchRig, hands: dict[int, str], chips: Sequence[int]) -> str:
    """A whole round (:func:`deal_round`, the house way, the dealer settling if asked)."""
    round_id = await deal_round(api, rig, hands, chips)
    await set_hands_house_way(api, hands)
    await settle_if_asked(api, round_id)
    return round_id


async def settle_if_asked(api: ApiClient, round_id: str) -> None:
    """A player without an optional wager could still surrender: the dealer settles the round."""
    status = (await api.status())["round"]
    if status["id"] == round_id and str(status["waiting_for"]).startswith("the dealer to settle"):
        await api.call("settle_round")


#: The example filing's Progressive rows paid from the meter (§ 659a.11(h)(3)), at the meter.
FORTUNE_PAYTABLE = (
    'ranking = "fortune"',
    'rows = { "seven-card straight flush" = "100%", "seven-card straight flush with a joker" = "10%" }',
)


async def linked_fortune(link: Link, tmp_path: Path, pki: Pki, table: str, meter: Parameters) -> None:
    link.config_path = meter_config(
        tmp_path / "meter", link.broker, pki, {table: "site-a"}, {FAP: meter}, paytable=FORTUNE_PAYTABLE
    )
    link.config = load(link.config_path)
    await link.start_meter()


def meter_amount(link: Link) -> int:
    assert link.store is not None
    return link.store.ledger.progressives[FAP].amount


async def test_contributions_at_the_lock_out_raise_the_meter_and_a_hit_is_settled_with_the_award(
    tmp_path: Path, pki: Pki
) -> None:
    """The declaration accepted (reset 10,000.00, 15%); each lock-out's sensed chips go out as a
    contribution and the meter grows by 15% of them exactly; a natural seven-card straight flush
    claims 100% of the meter, the round is PENDING until the meter's award, settles with it (not
    paid from the table inventory, § 659a.11(h)(3)(ii)(D)), replays the same, and the meter resets."""
    async with running_link(tmp_path, pki, {"t1": "site-a"}, meter=False) as link:
        await linked_fortune(link, tmp_path, pki, "t1", FORTUNE)
        async with linked_rig(tmp_path, pki, link.broker, "t1", game=GAME, meter_ids=METER_IDS) as rig:
            daemon = daemon_of(rig)
            assert rules_of(daemon).progressive_rate == "15%"
            await until(lambda: daemon.snapshot()["link"]["verdict"] is not None, 10, "the meter's verdict")
            assert daemon.snapshot()["link"]["verdict"]["accepted"] is True
            await wagering_open(rig)
            async with await ApiClient.connect(rig.socket) as api:
                wagers = 0
                for chips in ((1, 3), (3,), (1, 3), ()):
                    round_id = await fortune_round(api, rig, NO_FULL_HOUSE, chips)
                    assert daemon.round_id != round_id
                    wagers += len(chips)
                expected = FORTUNE.initial + int(Fraction(wagers * 100) * FORTUNE.rate / 100)
                await until(
                    lambda: link.store is not None and meter_amount(link) == expected, 10, "the meter"
                )
                await until(
                    lambda: daemon.snapshot()["link"]["amounts"].get(FAP) == money_text(expected),
                    10,
                    "the meter's amount on the table's API",
                )
                # The hit: seat 1's chip on its sensor, its seven cards a natural straight flush
                # (alone at the table: with an optional wager no one may surrender, § 659a.11(d),
                # so the meter's award is all the round waits for).
                hands = {1: SEVEN_CARD_STRAIGHT_FLUSH}
                round_id = await deal_round(api, rig, hands, (1,))
                meter = expected + int(Fraction(100) * FORTUNE.rate / 100)  # and this round's chip
                await link.stop_meter()
                await until(lambda: daemon.state.progressive_link_down is not None, 10, "the link down")
                await set_hands_house_way(api, hands)
                await until(lambda: bool(daemon.snapshot()["link"]["pending"]), 20, "PENDING")
                status = await api.status()
                assert status["round"]["id"] == round_id
                assert [w["who"] for w in status["round"]["waiting"]] == ["meter"]
                (pending,) = status["link"]["pending"]
                assert pending["status"] == "PENDING" and pending["seat"] == 1
                assert pending["award"] == {"share": "100"}
                await link.start_meter()
                await until(lambda: daemon.round_id != round_id, 15, "the award settling the round")
                rounds = (await api.list_rounds(5))["rounds"]
                summary = next(r for r in rounds if r["round"] == round_id)
                assert summary["status"] == "settled", summary
                line = summary["settlement"]["seats"]["1"]["progressive"]
                # The example's meter_share_returns_wager is true: the share is paid beside the
                # 1.00 wager returned, so the net is the meter as it stood.
                assert rules_of(daemon).progressive_share_returns_wager is True
                assert line["result"] == "win" and line["net"] == f"+{money_text(meter)}"
                assert "not_paid_from_inventory" in line["flags"]
                (award,) = daemon_of(rig).link.publisher.state.awards.values()  # type: ignore[union-attr]
                assert (award.paid, award.meter_before, award.meter_after) == (meter, meter, FORTUNE.reset)
                assert daemon.journal is not None
                recalled = await daemon.journal.recall(round_id)
                assert recalled.consistent and recalled.replayed is not None
                meter_events = [r for r in recalled.records if r.body.get("type") == "meter"]
                # From the link, the meter as it stood when seat 1 was paid (§ 659a.11(h)(3)(ii)(D)):
                # the round's meter, and (where the table journals it) seat 1's own.
                assert meter_events and {(r.source, r.body["amount"]) for r in meter_events} == {
                    ("link", money_text(meter))
                }
                assert {r.body.get("seat") for r in meter_events} <= {None, 1}
                assert meter_amount(link) == FORTUNE.reset
                await until(
                    lambda: daemon.snapshot()["link"]["amounts"].get(FAP) == money_text(FORTUNE.reset),
                    10,
                    "the reset meter on the table's API",
                )


async def test_a_linked_fortune_table_without_a_rate_of_progression_is_refused(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Rules Submission without ``progressive.rate_of_progression`` on a linked table: the
    daemon refuses to start (exit 78: systemd does not restart it), naming the option and the
    sections it is filed under; the same table not linked starts."""
    submission = example_submission(GAME).replace(f'table = "{TABLE_ID}"', 'table = "t2"')
    lines = [line for line in submission.splitlines(keepends=True) if "rate_of_progression" not in line]
    assert len(lines) == len(submission.splitlines()) - 1
    (tmp_path / "rules-submission.toml").write_text("".join(lines), encoding="utf-8")
    unlinked = config_text(tmp_path).replace(f'id = "{TABLE_ID}"', 'id = "t2"')
    (tmp_path / "unlinked.toml").write_text(unlinked, encoding="utf-8")
    broker = Broker(tmp_path, pki)  # its address only: the daemon refuses before it connects
    linked = unlinked + link_section(tmp_path, pki, broker, "t2", meter_ids=METER_IDS)
    (tmp_path / "linked.toml").write_text(linked, encoding="utf-8")
    assert main(["--config", str(tmp_path / "unlinked.toml"), "--check"]) == 0
    capsys.readouterr()
    assert main(["--config", str(tmp_path / "linked.toml"), "--check"]) == 78
    err = capsys.readouterr().err
    assert "[progressive_link]: progressive.rate_of_progression: missing" in err
    assert "(§ 659a.12(d), § 601a.2)" in err and "Progressive Payout Wager" in err
    assert main(["--config", str(tmp_path / "linked.toml")]) == 78  # not only under --check


async def test_the_meter_refuses_a_fortune_table_whose_rate_disagrees(tmp_path: Path, pki: Pki) -> None:
    """The meter's link configuration says 12%, the table's Rules Submission 15%: the meter
    refuses the declaration naming the field; the table journals it and recognizes no
    Progressive Payout Wager (a chip at the lock-out is refused, the base game goes on)."""
    other = Parameters(FORTUNE.initial, FORTUNE.reset, Fraction(12))
    async with running_link(tmp_path, pki, {"t4": "site-a"}, meter=False) as link:
        await linked_fortune(link, tmp_path, pki, "t4", other)
        async with linked_rig(tmp_path, pki, link.broker, "t4", game=GAME, meter_ids=METER_IDS) as rig:
            daemon = daemon_of(rig)
            await until(
                lambda: "rate_of_progression" in (daemon.state.progressive_link_down or ""),
                10,
                "the refusal journaled",
            )
            down = daemon.state.progressive_link_down
            assert down is not None and "rate_of_progression" in down and "12%" in down and "15%" in down
            verdict = daemon.snapshot()["link"]["verdict"]
            assert verdict["accepted"] is False
            assert verdict["field"] == f"payload.progressives.{FAP}.rate_of_progression"
            assert daemon.state.devices[PROGRESSIVE_LINK].online is False
            async with await ApiClient.connect(rig.socket) as api:
                before = len(daemon.refusals)
                round_id = await fortune_round(api, rig, {1: NO_FULL_HOUSE[1]}, (1,))
                assert any("seat 1 progressive" in r for r in daemon.refusals.since(before))
                assert daemon.round_id != round_id  # the base game settled without it
            assert link.store is not None
            assert meter_amount(link) == other.initial  # nothing of the table applied
