"""One request, one meaning (issue 18, point 1): an idempotency key is bound to its command and
body, and the lock-out's pins follow its committed transaction.

The daemon runs on the bench rig (mock pins, the shoe on a pseudo-terminal, the local API on a real
socket), as in ``tests/test_trust_table.py``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from controller.api_client import ApiClient, ApiError
from controller.daemon import Daemon
from sim.bench_rig import BenchRig

ANTE_1 = {"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"}
NMB = {"type": "no_more_bets"}
ANTE_3 = {"type": "wager", "seat": 3, "wager": "ante", "amount": "100.00"}


def _daemon(rig: BenchRig) -> Daemon:
    assert rig.daemon is not None
    return rig.daemon


async def _refused(call: Any) -> ApiError:
    with pytest.raises(ApiError) as refused:
        await call
    return refused.value


@pytest.mark.asyncio
async def test_a_key_reused_for_no_more_bets_is_a_conflict_and_locks_nothing(rig: BenchRig) -> None:
    """Forbids: "A `wager` sent with key K, then `no_more_bets` with the same K: the answer is
    `repeated: true`, the pins lock, the journal is not locked out; a $100 API wager is accepted
    after it, and a chip placed after the "lock-out" is journaled at the next one as an accepted
    progressive wager."""
    daemon = _daemon(rig)
    gpio = daemon.gpio
    assert gpio is not None
    async with await ApiClient.connect(rig.socket) as api:
        first = await api.submit_event(ANTE_1, idempotency_key="req-0001-key-k")
        seq = daemon.state.last_seq
        conflict = await _refused(api.submit_event(NMB, idempotency_key="req-0001-key-k"))
        assert conflict.code == "idempotency_conflict"
        assert "req-0001-key-k" in conflict.message and "another request" in conflict.message
        # Nothing changed: not the pins, not the round; the journal holds only the refused command.
        assert not gpio.locked
        since = await daemon.journal.records(seq)  # type: ignore[union-attr]
        assert {r.kind for r in since} <= {"command"}
        current = daemon.state.current
        assert current is not None and not current.no_more_bets and not daemon.state.locked_out
        # The same key and the same body is still the first answer, repeated.
        again = await api.submit_event(ANTE_1, idempotency_key="req-0001-key-k")
        assert again == {**first, "repeated": True}
        # A body that differs in one field is another request too.
        more = {**ANTE_1, "amount": "25.00"}
        other = await _refused(api.submit_event(more, idempotency_key="req-0001-key-k"))
        assert other.code == "idempotency_conflict"
        # The real lock-out, then a chip: the chip is not a wager, the API wager is refused.
        await api.submit_event(NMB, idempotency_key="req-0002-lockout")
        assert gpio.locked and daemon.state.locked_out
        await rig.place_chip(3)
        late = await _refused(api.submit_event(ANTE_3))
        assert late.code == "refused"
        current = daemon.state.current
        assert current is not None and [(w.seat, w.wager) for w in current.wagers()] == [(1, "ante")]
        # A retry of the lock-out's own key is its first answer; the key on a wager is a conflict.
        assert (await api.submit_event(NMB, idempotency_key="req-0002-lockout"))["repeated"]
        assert (await _refused(api.submit_event(ANTE_3, idempotency_key="req-0002-lockout"))).code == (
            "idempotency_conflict"
        )


@pytest.mark.asyncio
async def test_the_binding_survives_a_restart(rig: BenchRig) -> None:
    """The key's binding is journaled with the key: a restart does not make it match another body."""
    async with await ApiClient.connect(rig.socket) as api:
        first = await api.submit_event(ANTE_1, idempotency_key="req-0003-restart")
    await rig.stop_daemon()
    daemon = await rig.start_daemon()
    async with await ApiClient.connect(rig.socket) as api:
        again = await api.submit_event(ANTE_1, idempotency_key="req-0003-restart")
        assert again == {**first, "repeated": True}
        conflict = await _refused(api.submit_event(NMB, idempotency_key="req-0003-restart"))
        assert conflict.code == "idempotency_conflict"
    assert daemon.gpio is not None and not daemon.gpio.locked
    requests = [r for r in await daemon.journal.records(0) if r.kind == "request"]  # type: ignore[union-attr]
    assert len(requests) == 1 and len(str(requests[0].body["binding"])) == 64


@pytest.mark.asyncio
async def test_a_lock_out_whose_key_turns_out_taken_leaves_the_pins_open(rig: BenchRig) -> None:
    """Pins and journal change together or not at all: the dealer's ``no_more_bets`` locks the pins
    at once, before it waits for the round; if its key then turns out to be another request's
    (the first is committed while it waited), nothing is journaled and the pins open again."""
    daemon = _daemon(rig)
    gpio, service = daemon.gpio, daemon.service
    assert gpio is not None and service is not None
    async with await ApiClient.connect(rig.socket) as first, await ApiClient.connect(rig.socket) as second:
        async with service.round_lock:  # the round is busy: both requests wait for it
            wager = asyncio.create_task(first.submit_event(ANTE_1, idempotency_key="req-0004-raced"))
            await asyncio.sleep(0.05)
            lock_out = asyncio.create_task(
                second.submit_event({"type": "no_more_bets"}, idempotency_key="req-0004-raced")
            )
            await rig.wait_for(lambda: gpio.locked)
        assert (await wager)["round"] == daemon.state.current.round_id  # type: ignore[union-attr]
        assert (await _refused(lock_out)).code == "idempotency_conflict"
        assert not gpio.locked and not daemon.state.locked_out
        await rig.place_chip(1)
        await first.submit_event({"type": "no_more_bets"})
        current = daemon.state.current
        assert current is not None and [(w.seat, w.wager) for w in current.wagers()] == [
            (1, "ante"),
            (1, "progressive"),
        ]
