"""The daemon's small parts on their own: the bounded refusal log and the hardware bridge's handler
table (``controller.table.refusals``, ``controller.table.bridge``)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import pytest

from controller.table.bridge import HardwareBridge
from controller.table.refusals import RefusalLog
from hw.device_events import DeviceEvent, DeviceState

# --- the refusal log ----------------------------------------------------------------------------


def test_the_refusal_log_keeps_the_last_ones_and_counts_every_one() -> None:
    log = RefusalLog(keep=3)
    for n in range(5):
        log.add(f"refused {n}")
    assert list(log) == ["refused 2", "refused 3", "refused 4"]
    assert (len(log), log.total, log.dropped) == (3, 5, 2)
    assert log[-1] == "refused 4" and log[0] == "refused 2" and log[1:] == ["refused 3", "refused 4"]
    assert log.get_status() == {"total": 5, "dropped": 2, "last": "refused 4"}


def test_since_a_mark_sees_what_came_after_it_even_once_old_ones_are_dropped() -> None:
    log = RefusalLog(keep=2)
    log.add("a")
    mark = log.total
    assert log.since(mark) == []
    log.add("b")
    assert log.since(mark) == ["b"]
    log.add("c")
    log.add("d")  # "a" and "b" are dropped now
    assert log.since(mark) == ["c", "d"]  # "b" is forgotten: as far as kept
    assert log.since(log.total) == []
    assert log.since(0) == ["c", "d"]


def test_an_empty_log_is_falsy_and_a_log_keeps_at_least_one() -> None:
    assert not RefusalLog() and RefusalLog().get_status() == {"total": 0, "dropped": 0, "last": None}
    with pytest.raises(ValueError, match="at least 1"):
        RefusalLog(keep=0)


# --- the handler table --------------------------------------------------------------------------


@dataclass(frozen=True)
class Ping:
    n: int


@dataclass(frozen=True)
class LoudPing(Ping):
    pass


@dataclass(frozen=True)
class Unheard:
    pass


def bridge() -> HardwareBridge:
    # The service is only reached by the default handlers; these tests send other events.
    return HardwareBridge(service=None, publish=lambda topic, data: None)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_each_event_goes_to_the_handler_of_its_type_in_the_order_it_came() -> None:
    b = bridge()
    seen: list[Any] = []

    async def on_ping(event: Ping) -> None:
        await asyncio.sleep(0)  # a handler that awaits does not let the next event overtake it
        seen.append(event)

    b.register_handler(Ping, on_ping)
    b.start()
    try:
        for n in range(5):
            b.on_event(Ping(n))  # type: ignore[arg-type]
        await b.drain()
        assert seen == [Ping(n) for n in range(5)]
        assert b.get_status() == {
            "running": True,
            "queued": 0,
            "handled": 5,
            "coalesced": 0,
            "faults_coalesced": 0,
            "fault_storms": 0,
        }
    finally:
        await b.stop()
    assert not b.running


@pytest.mark.asyncio
async def test_a_subclass_goes_to_its_bases_handler_and_an_unknown_type_is_dropped() -> None:
    b = bridge()
    seen: list[Any] = []

    async def on_ping(event: Ping) -> None:
        seen.append(event)

    b.register_handler(Ping, on_ping)
    b.start()
    try:
        b.on_event(Unheard())  # type: ignore[arg-type]
        b.on_event(LoudPing(1))  # type: ignore[arg-type]
        await b.drain()
        assert seen == [LoudPing(1)]
    finally:
        await b.stop()


@pytest.mark.asyncio
async def test_a_handler_that_fails_is_logged_and_the_next_event_is_handled(
    caplog: pytest.LogCaptureFixture,
) -> None:
    b = bridge()
    seen: list[int] = []

    async def on_ping(event: Ping) -> None:
        if event.n == 1:
            raise RuntimeError("a driver's bug")
        seen.append(event.n)

    b.register_handler(Ping, on_ping)
    b.start()
    try:
        with caplog.at_level(logging.ERROR, logger="controller.table.bridge"):
            for n in range(3):
                b.on_event(Ping(n))  # type: ignore[arg-type]
            await b.drain()
        assert seen == [0, 2]
        assert "failed to handle Ping(n=1)" in caplog.text and "a driver's bug" in caplog.text
        assert b.running
    finally:
        await b.stop()


def test_one_handler_a_type() -> None:
    b = bridge()

    async def other(event: DeviceEvent) -> None:
        return None

    with pytest.raises(ValueError, match="DeviceState already has a handler"):
        b.register_handler(DeviceState, other)
    b.register_handler(DeviceEvent, other)  # a base without a handler of its own: allowed
