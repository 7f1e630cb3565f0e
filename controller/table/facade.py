"""The API façade: the local API's commands (``controller.api.ApiHandler``) turned into the table's.

Each command arrives with its :class:`~controller.api.Actor`; the façade checks what the table
must check (a verification names a waiting payout, lamps are tested between rounds, a device is
connected), journals the command (``command`` records, refused ones included) and asks the
:class:`.TableService`. A refusal is a :class:`~controller.api.CommandError` with the reason, never
an exception out of the loop (docs/local-api.md).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from hw.serial_device import SerialDevice

from ..api import Actor, CommandError, ErrorCode, Result
from ..journal import JournalError, Refused, UnknownRound
from ..journal.records import Command, PayoutVerified
from ..rules.events import EventError, parse_event
from . import game_hooks
from .service import TableService


def actor_name(actor: Actor) -> str:
    """Who did it, as the journal names the actor: the user, else the peer's uid."""
    if actor.user is not None:
        return actor.user
    return f"uid:{actor.peer.uid}"


def _source_of(actor: Actor) -> str:
    return "floor" if actor.role is not None and str(actor.role) == "floor" else "dealer-ui"


class TableApi:
    """Implements :class:`controller.api.ApiHandler` on a :class:`.TableService`.

    ``devices`` are the serial drivers by configured name; ``status()`` the table's state
    (:func:`.status.table_status`).
    """

    def __init__(
        self,
        service: TableService,
        devices: Mapping[str, SerialDevice],
        status: Callable[[], Mapping[str, Any]],
    ) -> None:
        self.service = service
        self.devices = devices
        self._status = status

    async def status(self, actor: Actor) -> Result:
        return self._status()

    async def subscribe(self, actor: Actor, topics: frozenset[str]) -> Result:
        return self._status()

    async def submit_event(self, actor: Actor, event: Mapping[str, Any]) -> Result:
        if event.get("type") == "verification":
            return await self._verify_payout(actor, event)
        service = self.service
        game = service.game
        try:
            parsed = parse_event(event, "event", decks=game.decks(service.submission.rules), joker=game.joker)
        except EventError as exc:
            raise CommandError(ErrorCode.BAD_ARGS, str(exc)) from None
        source, who = _source_of(actor), actor_name(actor)
        try:
            if parsed.type == "no_more_bets":
                record = await service.no_more_bets(source, who)
            else:
                record = await service.submit(parsed, source, who)
        except Refused as exc:
            raise CommandError(ErrorCode.REFUSED, str(exc)) from None
        return {"round": record.round_id, "seq": record.seq, "next_round": service.round_id}

    async def _verify_payout(self, actor: Actor, event: Mapping[str, Any]) -> Result:
        """A floorperson verifies a flagged payout: ``seat``, ``wager`` and, if more than one
        round waits, ``round`` (§ 633a.7(o)(2)(ii)(B), § 639a.11(c)(5)(iii))."""
        unknown = sorted(set(event) - {"type", "seat", "wager", "round"})
        if unknown:
            raise CommandError(
                ErrorCode.BAD_ARGS, f"verification: unknown field {unknown[0]!r} (fields: seat, wager, round)"
            )
        seat, wager, round_id = event.get("seat"), event.get("wager"), event.get("round")
        if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(wager, str):
            raise CommandError(
                ErrorCode.BAD_ARGS,
                'verification: give seat (a number) and wager (its name), such as {"type": '
                '"verification", "seat": 3, "wager": "progressive"}',
            )
        if round_id is not None and not isinstance(round_id, str):
            raise CommandError(
                ErrorCode.BAD_ARGS, f"verification: round must be a round's id, not {round_id!r}"
            )
        service = self.service
        pending = service.state.pending_payouts()
        matching = [p for p in pending if (p.seat, p.wager) == (seat, wager)]
        if round_id is not None:
            matching = [p for p in matching if p.round_id == round_id]
        if len(matching) > 1:
            rounds = ", ".join(p.round_id for p in matching)
            raise CommandError(
                ErrorCode.BAD_ARGS,
                f"verification: seat {seat} {wager} waits in rounds {rounds}; name the round",
            )
        target = round_id if round_id is not None else (matching[0].round_id if matching else "")
        if not target:
            waiting = ", ".join(f"round {p.round_id} seat {p.seat} {p.wager}" for p in pending) or "none"
            raise CommandError(
                ErrorCode.REFUSED,
                f"no payout of seat {seat} {wager} waits for a floorperson (waiting: {waiting})",
            )
        async with service.round_lock:
            entry = PayoutVerified(target, seat, wager)
            record = await service.journal_entry(entry, "floor", actor_name(actor))
        if record is None:
            raise CommandError(ErrorCode.REFUSED, service.refusals[-1])
        line = next((p for p in matching if p.round_id == target), None)
        return {
            "verified": {"round": target, "seat": seat, "wager": wager, "net": line.net if line else ""},
            "seq": record.seq,
            "pending": [p.to_json() for p in service.state.pending_payouts()],
        }

    async def settle_round(self, actor: Actor) -> Result:
        """The dealer settles a round that waits only for the players' optional decisions."""
        service = self.service
        source, who = _source_of(actor), actor_name(actor)
        async with service.round_lock:
            current = service.state.current
            if current is None:
                raise CommandError(ErrorCode.REFUSED, "no round is open")
            round_id = current.round_id
            reason = game_hooks.incomplete(current)
            if reason is not None:
                raise CommandError(ErrorCode.REFUSED, f"round {round_id} cannot be settled yet: {reason}")
            record = await service.settle(source, who)
        if record is None:
            raise CommandError(ErrorCode.REFUSED, service.refusals[-1])
        return {"round": round_id, "seq": record.seq, "next_round": service.round_id}

    async def _command(self, actor: Actor, command: str, args: Mapping[str, object]) -> None:
        role = "none" if actor.role is None else str(actor.role)
        source = {"dealer": "dealer-ui", "floor": "floor"}.get(role, "tablectl")
        async with self.service.round_lock:
            await self.service.journal_entry(Command(command, role, dict(args)), source, actor_name(actor))

    async def recall_round(self, actor: Actor, round_id: str) -> Result:
        await self._command(actor, "recall_round", {"round": round_id})
        try:
            recalled = await self.service.journal.recall(round_id)
        except UnknownRound as exc:
            raise CommandError(ErrorCode.NOT_FOUND, str(exc)) from None
        return {
            "summary": recalled.summary.to_json(),
            "records": [r.to_json() for r in recalled.records],
            "record": recalled.record,
            "replayed": None if recalled.replayed is None else recalled.replayed.to_json(),
            "consistent": recalled.consistent,
            "waiting_for": recalled.waiting_for,
            "verifications": [r.to_json() for r in recalled.verifications],
        }

    async def export_round(self, actor: Actor, round_id: str) -> Result:
        await self._command(actor, "export_round", {"round": round_id})
        try:
            return await self.service.journal.export_round(round_id)
        except UnknownRound as exc:
            raise CommandError(ErrorCode.NOT_FOUND, str(exc)) from None

    async def list_rounds(self, actor: Actor, limit: int) -> Result:
        rounds = await self.service.journal.recent_rounds(limit)
        return {"rounds": [r.to_json() for r in rounds]}

    async def toggle_lamp(self, actor: Actor, lamp: str, on: bool) -> Result:
        gpio = self.service.gpio
        if gpio is None:
            raise CommandError(ErrorCode.UNAVAILABLE, "the GPIO is not started")
        current = self.service.state.current
        if current is not None and current.events:
            raise CommandError(ErrorCode.REFUSED, "a round is being dealt; lamps are tested between rounds")
        lamps = gpio.status().lamps
        if lamp not in lamps:
            raise CommandError(ErrorCode.BAD_ARGS, f"no lamp {lamp!r} (lamps: {', '.join(sorted(lamps))})")
        await self._command(actor, "toggle_lamp", {"lamp": lamp, "on": on})
        if lamp == "floorperson_light":
            target = gpio.floorperson_light
        else:
            seat, which = int(lamp.split(".")[1]), lamp.split(".")[2]
            target = gpio.wager_lamp(seat) if which == "wager_lamp" else gpio.won_lamp(seat)
        if on:
            target.on()
        else:
            target.off()
        return {"lamp": lamp, "on": on}

    async def send_test_frame(self, actor: Actor, device: str, frame: bytes) -> Result:
        driver = self.devices.get(device)
        if driver is None or driver.state != "online":
            raise CommandError(ErrorCode.UNAVAILABLE, f"the {device} is not connected")
        await self._command(actor, "send_test_frame", {"device": device, "frame": frame.hex()})
        try:
            seconds = await driver.send_test_frame(frame.decode("ascii", "replace"))
        except Exception as exc:
            raise CommandError(ErrorCode.UNAVAILABLE, f"the {device} did not answer: {exc}") from None
        return {"device": device, "round_trip_ms": round(seconds * 1000, 3)}

    async def command_refused(self, actor: Actor, cmd: str | None, code: str, message: str) -> None:
        with contextlib.suppress(JournalError, ValueError):
            await self._command(actor, cmd or "(unreadable)", {"refused": code, "message": message})
