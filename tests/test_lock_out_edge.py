"""The lock-out's edge: what a progressive wagering device counts as at "no more bets".

§ 639a.2(c)(2): the lock-out "prevents the recognition of any Progressive Payout Wager that a
player attempts to place after the dealer has announced 'no more bets'"; § 639a.8(b): the dealer
counts the chips against "the number of Progressive Payout Wagers accepted by the progressive
table game system". The rule (docs/gpio.md, "The lock-out's edge"; hw/lock_out_edge.py): what
counts is the debounced state at the lock-out's edge; a chip that arrives after it never counts,
one that was there never goes missing.

Issue 18 found, on the leading-edge debounce alone: "Chatter on a progressive sensor that ends
within 20 ms of the lock-out: 10 of 660 chips missed and 7 phantom chips counted". Here: the
pure rule under hypothesis, then the real daemon (the bench rig, gpiozero's MockFactory on a clock
the test sets) with a chip put down or taken off 0, 1, 2, 5, 10 and 20 ms before and after the
button's edge, clean and chattering, each answer as the rule says and the journal agreeing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.journal.records import JournalRecord
from hw.lock_out_edge import ContactHistory
from sim.bench_rig import LOCK_OUT_PIN, BenchRig
from tests.clocked_pins import ClockedMockFactory

WINDOW = 0.020  # the bench rig's debounce_ms = 20
MS = 0.001
OFFSETS_MS = (0, 1, 2, 5, 10, 20)
T = 100.0  # the lock-out's edge, in ticks (seconds), for the pure rule


# --- the rule on its own (ticks given) ---------------------------------------------------------


def chatter(start: float, to: bool, gaps: list[float]) -> list[tuple[float, bool]]:
    """A contact going to ``to`` at ``start``, bouncing back and forth at ``gaps`` after it, and
    ending at ``to``: the edges of a chip put down (``True``) or taken off, its chatter included."""
    edges = [(start, to)]
    t, level = start, to
    for gap in gaps:
        t, level = t + gap, not level
        edges.append((t, level))
    if level != to:
        edges.append((t + MS / 10, to))
    return edges


def judged(edges: list[tuple[float, bool]], was: bool) -> tuple[bool, list[bool]]:
    """What the rule counts at ``T`` for a contact that ``was`` at a level, then ``edges``: the
    count, and the movements begun from the edge (``True``: a chip put down, refused)."""
    history = ContactHistory(WINDOW, was)
    for ticks, level in edges:
        history.edge(ticks, level)
    at = history.at(T)
    if at.moving_since is None:
        return at.level, history.begun_from(T)
    assert history.settled(at.moving_since, T + WINDOW)
    return history.settled_level(at.moving_since), history.begun_from(T, past=at.moving_since)


# Chatter that ends well inside the window (a sensor's contact settles in a few ms).
bounces = st.lists(st.floats(0.05 * MS, 1.5 * MS), max_size=8)


@settings(max_examples=300, deadline=None)
@given(before=st.floats(0.01 * MS, 30 * MS), gaps=bounces)
def test_a_chip_put_down_before_the_edge_counts_however_it_chatters(before: float, gaps: list[float]) -> None:
    count, begun = judged(chatter(T - before, True, gaps), was=False)
    assert count is True and begun == []


@settings(max_examples=300, deadline=None)
@given(after=st.floats(0, 30 * MS), gaps=bounces)
def test_a_chip_put_down_at_or_after_the_edge_never_counts_and_is_refused_once(
    after: float, gaps: list[float]
) -> None:
    count, begun = judged(chatter(T + after, True, gaps), was=False)
    assert count is False and begun == [True]


@settings(max_examples=300, deadline=None)
@given(before=st.floats(0.01 * MS, 30 * MS), gaps=bounces)
def test_a_chip_taken_off_before_the_edge_does_not_count(before: float, gaps: list[float]) -> None:
    count, begun = judged(chatter(T - before, False, gaps), was=True)
    assert count is False and True not in begun


@settings(max_examples=300, deadline=None)
@given(after=st.floats(0, 30 * MS), gaps=bounces)
def test_a_chip_taken_off_at_or_after_the_edge_never_goes_missing(after: float, gaps: list[float]) -> None:
    count, begun = judged(chatter(T + after, False, gaps), was=True)
    assert count is True and begun == [False]  # one movement, a chip taken off: nothing refused


@settings(max_examples=300, deadline=None)
@given(
    before=st.floats(0.01 * MS, 19 * MS),
    gaps=st.lists(st.floats(0.05 * MS, 1.5 * MS), min_size=1, max_size=8),
)
def test_a_chip_jostled_before_the_edge_stays_counted(before: float, gaps: list[float]) -> None:
    """A chip that was there, its contact chattering open and shut across the edge, ending shut."""
    edges = chatter(T - before, False, gaps)
    if edges[-1][1] is False:
        edges.append((edges[-1][0] + MS / 10, True))
    count, begun = judged(edges, was=True)
    assert count is True and begun == []


def test_the_lock_out_wins_a_tie() -> None:
    """An edge at the very tick of the lock-out's is after it: a chip put down then is refused,
    one taken off then is counted."""
    assert judged([(T, True)], was=False) == (False, [True])
    assert judged([(T, False)], was=True) == (True, [False])


# --- the daemon: the pins, the count and the journal ----------------------------------------------


@dataclass(frozen=True)
class Case:
    action: str  # "put down", "taken off", "jostled" (off and back), "brushed" (on and off)
    offset_ms: float  # the chip's first edge, from the lock-out's edge (negative: before)
    chattering: bool
    chip_first: bool = True  # at offset 0: the chip's edge handled before the button's

    @property
    def expected(self) -> tuple[bool, int]:
        """The rule's answer: counted at the lock-out, and how many refusals after it."""
        before = self.offset_ms < 0
        return {
            "put down": (True, 0) if before else (False, 1),
            "taken off": (False, 0) if before else (True, 0),
            # A chip that was there stays counted; the contact opened and shut again is one
            # movement, nothing put down after the edge.
            "jostled": (True, 0),
            # Put down and taken away within the window: not there at the edge, or, begun after
            # it, a chip put down after "no more bets" (refused once, never counted).
            "brushed": (False, 0) if before else (False, 1),
        }[self.action]

    @property
    def chip_before(self) -> bool:
        """Whether a chip is on the device before the case begins."""
        return self.action in ("taken off", "jostled")

    def __str__(self) -> str:
        side = "at" if self.offset_ms == 0 else "before" if self.offset_ms < 0 else "after"
        tie = "" if self.offset_ms else (", chip handled first" if self.chip_first else ", button first")
        shake = ", chattering" if self.chattering else ""
        return f"{self.action} {abs(self.offset_ms):g} ms {side} the edge{shake}{tie}"


def cases() -> list[Case]:
    out: list[Case] = []
    shaken = {"put down": (False, True), "taken off": (False, True), "jostled": (False,), "brushed": (False,)}
    for action, shakes in shaken.items():
        for chattering in shakes:
            for ms in OFFSETS_MS:
                if ms == 0:
                    out += [Case(action, 0, chattering, True), Case(action, 0, chattering, False)]
                else:
                    out += [Case(action, -ms, chattering), Case(action, ms, chattering)]
    return out


CHATTER_GAPS = [0.3 * MS, 0.4 * MS, 0.2 * MS, 0.5 * MS, 0.3 * MS]


def schedule(rig: BenchRig, case: Case, edge: float) -> list[tuple[float, Callable[[], None]]]:
    """The pin changes of one case at their ticks, the lock-out's press at ``edge``."""
    factory = rig.factory
    sensor = factory.pin(rig.sensor_pin(1))
    button = factory.pin(LOCK_OUT_PIN)
    start = edge + case.offset_ms * MS
    if case.action in ("jostled", "brushed"):
        to = case.action == "brushed"
        edges = [(start, to), (start + 2 * MS, not to)]
    else:
        edges = chatter(start, case.action == "put down", CHATTER_GAPS if case.chattering else [])
    # Active low (the rig's sensors are pulled up): a chip on the device drives the pin low.
    steps: list[tuple[float, Callable[[], None]]] = [
        (t, sensor.drive_low if level else sensor.drive_high) for t, level in edges
    ]
    press = (edge, button.drive_low)
    # Seat 2's contact brushed just before the edge (shut and open again: no chip): a movement in
    # progress at the edge, so the lock-out's count waits for the clock, which moves on only once
    # every edge of the case is in; so no edge of the case can come after the next round opened.
    seat_2 = factory.pin(rig.sensor_pin(2))
    brush = [(edge - 0.5 * MS, seat_2.drive_low), (edge - 0.4 * MS, seat_2.drive_high)]
    # Sorted by tick; at the same tick the order the case says (stable sort keeps it).
    ordered = [*steps, press] if case.chip_first else [press, *steps]
    return sorted([*brush, *ordered], key=lambda step: step[0])


def progressive_records(records: list[JournalRecord], seat: int) -> list[tuple[int, str, str]]:
    """The seat's progressive wagers the journal holds, accepted or refused: ``(seq, kind, why)``."""
    out = []
    for r in records:
        body = r.body if r.kind == "event" else r.body.get("entry", {}).get("body", {})
        wager = (body.get("type"), body.get("wager"), body.get("seat"))
        if r.kind in ("event", "refused") and wager == ("wager", "progressive", seat):
            out.append((r.seq, r.kind, str(r.body.get("reason", ""))))
    return out


async def run_case(rig: BenchRig, case: Case) -> tuple[bool, int]:
    """Play one case; the journal's answer: counted at the lock-out, refusals after it."""
    daemon = rig.daemon
    assert daemon is not None and daemon.gpio is not None and daemon.journal is not None
    journal = daemon.journal
    factory = rig.factory
    gpio = daemon.gpio
    sensor = factory.pin(rig.sensor_pin(1))
    if case.chip_before:
        factory.advance(1.0)
        await asyncio.to_thread(sensor.drive_low)  # the chip, put down long before
    factory.advance(1.0)
    await rig.wait_for(lambda: gpio.accepted_total == (1 if case.chip_before else 0))
    seq0 = daemon.state.last_seq
    edge = factory.now + 0.1

    def play() -> None:
        for ticks, step in schedule(rig, case, edge):
            factory.now = ticks
            step()

    await asyncio.to_thread(play)
    await asyncio.sleep(0.01)
    factory.now = edge + 0.1  # every movement's window over
    await rig.wait_for(lambda: not gpio.locked)  # journaled, the empty round settled, reopened
    factory.advance(0.1)
    await asyncio.to_thread(factory.pin(LOCK_OUT_PIN).drive_high)
    await daemon.drain()
    records = await journal.records(seq0)
    nmb = next(r.seq for r in records if r.kind == "event" and r.body.get("type") == "no_more_bets")
    mine = progressive_records(records, 1)
    counted = [m for m in mine if m[0] < nmb]
    refused_after = [m for m in mine if m[0] > nmb]
    # The chip still on the device opens the next round with it: take it off, for the next case.
    factory.advance(1.0)
    await asyncio.to_thread(sensor.drive_high)
    await rig.wait_for(lambda: gpio.accepted_total == 0)
    return bool(counted), len(refused_after)


@pytest.mark.asyncio
async def test_a_chip_at_the_lock_out_s_edge_counts_as_the_rule_says_and_the_journal_agrees() -> None:
    """72 cases: put down or taken off 0, 1, 2, 5, 10, 20 ms before and after the button's edge,
    clean and chattering across it, a chip jostled (off and back in 2 ms) and one brushed (on and
    off), at 0 ms both ways round in gpiozero's thread. Each: counted
    at the lock-out (a wager journaled in its transaction, before ``no_more_bets``) exactly when
    the rule says, and a chip put down at or after the edge journaled once as refused (§ 639a.7(c))."""
    wrong: list[str] = []
    async with BenchRig(factory=ClockedMockFactory()) as rig:
        table = cases()
        assert len(table) == 72
        for case in table:
            counted, refusals = await run_case(rig, case)
            if (counted, refusals) != case.expected:
                wrong.append(f"{case}: counted {counted}, {refusals} refused; the rule says {case.expected}")
    assert wrong == [], "\n".join(wrong)
