"""The table's API: the local API's commands (``controller.api.ApiHandler``) turned into the table's.

Each command arrives with its :class:`~controller.api.Caller`; it checks what the table
must check (a verification names a waiting payout, lamps are tested between rounds, a device is
connected), journals the command (``command`` records, refused ones included) and asks the
:class:`.TableService`. A refusal is a :class:`~controller.api.CommandError` with the reason, never
an exception out of the loop (docs/local-api.md).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hw.gpio_devices import LampState
from hw.serial_device import SerialDevice

from ..api import Caller, CommandError, ErrorCode, Result
from ..auth import Role, UsersFileError, load_users, names_of
from ..journal import JournalError, Refused, UnknownRound
from ..journal.records import (
    Command,
    DeviceService,
    IrregularityDismissed,
    PayoutVerified,
    WagerChanged,
    request_binding,
)
from ..journal.state import RequestOutcome, TableState
from ..rules.core.events import EventError, parse_event, person_words
from ..rules.core.money import MoneyError, parse_money
from . import game_hooks
from .authority import NotAuthorized
from .lamps import payout_lamps
from .service import IdempotencyConflict, Repeated, RequestKey, TableService

#: Table entries (not rules events) that ``submit_event`` takes, by ``type``.
SERVICE_EVENTS = ("device_out_of_order", "device_in_service")


def actor_name(actor: Caller) -> str:
    """Who did it, as the journal names the actor: the user, else the peer's uid."""
    if actor.user is not None:
        return actor.user
    return f"uid:{actor.peer.uid}"


def _words(raw: object, where: str) -> str:
    """A person's words (:func:`~..rules.core.events.person_words`), or the request's refusal."""
    try:
        return person_words(raw, where)
    except EventError as exc:
        raise CommandError(ErrorCode.BAD_ARGS, str(exc)) from None


def _source_of(actor: Caller) -> str:
    role = "" if actor.role is None else str(actor.role)
    return {"floor": "floor", "tech": "tablectl"}.get(role, "dealer-ui")


class TableApi:
    """Implements :class:`controller.api.ApiHandler` on a :class:`.TableService`.

    ``devices`` are the serial drivers by configured name; ``status()`` the table's state
    (:func:`.status.table_status`); ``users_file`` the API's users (``[api] users_file``), whose
    floorpersons' names the dealer's screen offers.
    """

    def __init__(
        self,
        service: TableService,
        devices: Mapping[str, SerialDevice],
        status: Callable[[], Mapping[str, Any]],
        users_file: Path,
    ) -> None:
        self.service = service
        self.devices = devices
        self._status = status
        self.users_file = users_file

    async def status(self, actor: Caller) -> Result:
        return self._status()

    async def subscribe(self, actor: Caller, topics: frozenset[str]) -> Result:
        return self._status()

    async def submit_event(
        self, actor: Caller, event: Mapping[str, Any], idempotency_key: str | None = None
    ) -> Result:
        """An event from the dealer's screen or a floorperson; with ``idempotency_key`` a retry is
        answered with the first result and applied once (the key is journaled with the records,
        bound to the event: the same key with another event is ``idempotency_conflict``)."""
        try:
            return await self._submit_event(actor, event, idempotency_key)
        except Repeated as repeated:
            return await self._answer_again(repeated.outcome)
        except IdempotencyConflict as conflict:
            raise CommandError(ErrorCode.IDEMPOTENCY_CONFLICT, str(conflict)) from None

    async def _submit_event(self, actor: Caller, event: Mapping[str, Any], key: str | None) -> Result:
        kind = event.get("type")
        if key is not None and kind in (
            "verification",
            "irregularity_dismissed",
            "claim_hand_pay",
            "wager_changed",
            *SERVICE_EVENTS,
        ):
            # These answer a retry by themselves (already verified, not declared...): no key.
            raise CommandError(ErrorCode.BAD_ARGS, f"idempotency_key: a {kind} takes none")
        if kind == "verification":
            return await self._verify_payout(actor, event)
        if kind in SERVICE_EVENTS:
            return await self._device_service(actor, event)
        if kind == "irregularity_dismissed":
            return await self._dismiss(actor, event)
        if kind == "claim_hand_pay":
            return await self._claim_hand_pay(actor, event)
        if kind == "wager_changed":
            return await self._change_wager(actor, event)
        service = self.service
        game = service.game
        try:
            if "detail" in event:
                person_words(event["detail"], "event detail")
            parsed = parse_event(event, "event", decks=game.decks(service.submission.rules), joker=game.joker)
        except EventError as exc:
            raise CommandError(ErrorCode.BAD_ARGS, str(exc)) from None
        source, who = _source_of(actor), actor_name(actor)
        # Bound to the event as parsed: one meaning ("10" and "10.00" are the same wager).
        request = None if key is None else RequestKey(key, request_binding("submit_event", parsed.to_json()))
        try:
            if parsed.type == "no_more_bets":
                record = await service.no_more_bets(source, who, request=request)
            else:
                record = await service.submit(parsed, source, who, request=request)
        except NotAuthorized as exc:
            raise CommandError(ErrorCode.FORBIDDEN, str(exc)) from None
        except Refused as exc:
            raise CommandError(ErrorCode.REFUSED, str(exc)) from None
        result: dict[str, Any] = {"round": record.round_id, "seq": record.seq, "next_round": service.round_id}
        if record.kind == "irregularity_reported":
            result["waiting_for"] = f"a floorperson to confirm it: {record.body.get('why')}"
        return result

    async def _answer_again(self, outcome: RequestOutcome) -> Result:
        """The first answer to a request, from the journal (a retry with the same key)."""
        if not outcome.accepted:
            code = ErrorCode.FORBIDDEN if "; who may: " in outcome.reason else ErrorCode.REFUSED
            raise CommandError(code, outcome.reason)
        seq = outcome.seqs[-1]
        # The request's records, its ``request`` record, then (if it completed the round) the
        # settlement and, maybe after a restart's records, the next round's beginning.
        record, _request, *after = await self.service.journal.records(seq - 1, 24)
        next_round = record.round_id
        if after and after[0].kind == "round_settled" and after[0].round_id == record.round_id:
            begun = next((r for r in after if r.kind == "round_begin"), None)
            next_round = begun.round_id if begun is not None else self.service.round_id
        result: dict[str, Any] = {
            "round": record.round_id,
            "seq": record.seq,
            "next_round": next_round,
            "repeated": True,
        }
        if record.kind == "irregularity_reported":
            result["waiting_for"] = f"a floorperson to confirm it: {record.body.get('why')}"
        return result

    async def _device_service(self, actor: Caller, event: Mapping[str, Any]) -> Result:
        """A floorperson or technician declares a device out of order, or returns it to service
        (§ 639a.13(g)): cards are keyed by hand while the shoe is out of order."""
        kind = str(event.get("type"))
        unknown = sorted(set(event) - {"type", "device", "reason"})
        device, reason = event.get("device"), event.get("reason")
        if (
            unknown
            or device not in ("shoe", "shuffler", "reader")
            or not isinstance(reason, str)
            or not reason.strip()
        ):
            raise CommandError(
                ErrorCode.BAD_ARGS,
                f'{kind}: give device ("shoe", "shuffler" or "reader") and reason (words), such as '
                f'{{"type": "{kind}", "device": "shoe", "reason": "jammed, covered"}}',
            )
        in_service = kind == "device_in_service"
        service = self.service

        def declared_as_said(state: TableState) -> None:
            if in_service != (device in state.out_of_order):
                what = "is not declared out of order" if in_service else "is already declared out of order"
                raise CommandError(ErrorCode.REFUSED, f"the {device} {what}")

        entry = DeviceService(str(device), in_service, _words(reason, f"{kind}: reason"))
        record = await service.journal_entry(
            entry, _source_of(actor), actor_name(actor), check=declared_as_said
        )
        if record is None:
            raise CommandError(ErrorCode.REFUSED, service.refusals[-1])
        return {"device": device, "in_service": in_service, "seq": record.seq}

    async def _change_wager(self, actor: Caller, event: Mapping[str, Any]) -> Result:
        """The dealer changes a seat's wager to ``amount``, or removes it (``amount`` null), before
        "no more bets" (§ 639a.7(c)): journaled with the actor (:class:`~..journal.records.WagerChanged`)."""
        seat, wager, amount = event.get("seat"), event.get("wager"), event.get("amount")
        usage = (
            'wager_changed: give seat, wager and amount (money, or null to remove), such as {"type": '
            '"wager_changed", "seat": 3, "wager": "ante", "amount": "25.00"}'
        )
        if (
            set(event) - {"type", "seat", "wager", "amount"}
            or isinstance(seat, bool)
            or not isinstance(seat, int)
            or seat < 1
            or not isinstance(wager, str)
            or not wager
            or not (amount is None or isinstance(amount, str))
        ):
            raise CommandError(ErrorCode.BAD_ARGS, usage)
        try:
            cents = None if amount is None else parse_money(amount, "amount")
        except MoneyError as exc:
            raise CommandError(ErrorCode.BAD_ARGS, f"wager_changed: {exc}") from None
        if cents is not None and cents <= 0:
            raise CommandError(
                ErrorCode.BAD_ARGS, "wager_changed: amount is more than 0.00 (null removes it)"
            )
        service = self.service
        beyond = None if cents is None else service.limit_refusal(seat, wager, cents)
        if beyond is not None:
            raise CommandError(ErrorCode.REFUSED, beyond)
        entry = WagerChanged(seat, wager, cents)
        record = await service.journal_entry(entry, _source_of(actor), actor_name(actor))
        if record is None:
            raise CommandError(ErrorCode.REFUSED, service.refusals[-1])
        return {"round": record.round_id, "seq": record.seq, "removed" if cents is None else "changed": True}

    async def _dismiss(self, actor: Caller, event: Mapping[str, Any]) -> Result:
        """A floorperson dismisses the reported irregularity the round waits on."""
        reason = event.get("reason")
        if set(event) - {"type", "reason"} or not isinstance(reason, str) or not reason.strip():
            raise CommandError(
                ErrorCode.BAD_ARGS,
                'irregularity_dismissed: give reason (words), such as {"type": "irregularity_dismissed", '
                '"reason": "the shoe was not jammed"}',
            )
        service = self.service

        def reported(state: TableState) -> None:
            if state.awaiting_floor is None:
                raise CommandError(ErrorCode.REFUSED, "no reported irregularity waits for a floorperson")

        entry = IrregularityDismissed(_words(reason, "irregularity_dismissed: reason"))
        record = await service.journal_entry(entry, "floor", actor_name(actor), check=reported)
        if record is None:
            raise CommandError(ErrorCode.REFUSED, service.refusals[-1])
        return {"round": record.round_id, "seq": record.seq, "dismissed": True}

    async def _claim_hand_pay(self, actor: Caller, event: Mapping[str, Any]) -> Result:
        """A floorperson settles a claim the meter refused or did not award within its award
        timeout: ``seat``, ``wager``, the ``meter`` amount verified, and the ``reason`` (journaled
        on the seat's ``meter`` event, source ``floor``; the table's ``paid`` goes to the meter).
        A void is the round's irregularity, as any other (docs/progressive-link.md)."""
        fields = {"type", "seat", "wager", "meter", "reason"}
        unknown = sorted(set(event) - fields)
        seat, wager, reason = event.get("seat"), event.get("wager"), event.get("reason")
        if (
            unknown
            or isinstance(seat, bool)
            or not isinstance(seat, int)
            or not isinstance(wager, str)
            or not isinstance(reason, str)
            or not reason.strip()
        ):
            raise CommandError(
                ErrorCode.BAD_ARGS,
                'claim_hand_pay: give seat, wager, meter and reason, such as {"type": "claim_hand_pay", '
                '"seat": 1, "wager": "progressive", "meter": "12345.67", "reason": "meter display read '
                'by floorperson F-17; claim refused: ..."}'
                + (f" (unknown field {unknown[0]!r})" if unknown else ""),
            )
        reason = _words(reason, "claim_hand_pay: reason")
        meter = event.get("meter")
        try:
            if not isinstance(meter, str):
                raise ValueError(f'{meter!r}: the meter verified, a decimal string such as "12345.67"')
            verified = parse_money(meter, "meter")
        except ValueError as exc:
            raise CommandError(ErrorCode.BAD_ARGS, f"claim_hand_pay: meter: {exc}") from None
        if _source_of(actor) != "floor":
            raise CommandError(
                ErrorCode.FORBIDDEN,
                "claim_hand_pay: a floorperson signed in with a PIN settles a claim the meter refused "
                "or did not award in time (§ 639a.11(c)(5)(iii))",
            )
        link = self.service.link
        if link is None:
            raise CommandError(ErrorCode.REFUSED, "claim_hand_pay: the table is not linked to a meter")
        try:
            await link.hand_pay(seat, wager, verified, reason.strip(), actor_name(actor))
        except Refused as exc:
            raise CommandError(ErrorCode.REFUSED, str(exc)) from None
        except ValueError as exc:
            raise CommandError(ErrorCode.REFUSED, f"claim_hand_pay: {exc}") from None
        return {
            "settled": {"seat": seat, "wager": wager, "meter": event.get("meter")},
            "next_round": self.service.round_id,
        }

    async def _verify_payout(self, actor: Caller, event: Mapping[str, Any]) -> Result:
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
        known = [r.round_id for r in service.state.recent]
        if round_id is not None and round_id not in known:
            raise CommandError(
                ErrorCode.NOT_FOUND,
                f"verification: no round {round_id!r} among the last rounds ({', '.join(known) or 'none'})",
            )
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
        line = next((p for p in matching if p.round_id == target), None)
        # A linked progressive's hand pay verified: the table's ``paid`` to the meter, committed
        # with the verification (the award handshake, docs/progressive-link.md).
        link = service.link
        paid = [] if link is None or line is None else await link.paid_for(target, seat, wager, line.award)
        record = await service.journal_entry(
            PayoutVerified(target, seat, wager), "floor", actor_name(actor), outbox=paid
        )
        if record is None:
            raise CommandError(ErrorCode.REFUSED, service.refusals[-1])
        return {
            "verified": {"round": target, "seat": seat, "wager": wager, "net": line.net if line else ""},
            "seq": record.seq,
            "pending": [p.to_json() for p in service.state.pending_payouts()],
        }

    async def settle_round(self, actor: Caller) -> Result:
        """The dealer settles a round that waits only for the players' optional decisions."""
        service = self.service
        source, who = _source_of(actor), actor_name(actor)
        settled: list[str] = []

        def complete(state: TableState) -> None:
            current = state.current
            if current is None:
                raise CommandError(ErrorCode.REFUSED, "no round is open")
            reason = game_hooks.incomplete(current)
            if reason is not None:
                raise CommandError(
                    ErrorCode.REFUSED, f"round {current.round_id} cannot be settled yet: {reason}"
                )
            settled.append(current.round_id)

        record = await service.settle_when(source, who, complete)
        if record is None:
            raise CommandError(ErrorCode.REFUSED, service.refusals[-1])
        return {"round": settled[0], "seq": record.seq, "next_round": service.round_id}

    async def _command(self, actor: Caller, command: str, args: Mapping[str, object]) -> None:
        role = "none" if actor.role is None else str(actor.role)
        source = {"dealer": "dealer-ui", "floor": "floor"}.get(role, "tablectl")
        await self.service.journal_entry(Command(command, role, dict(args)), source, actor_name(actor))

    async def recall_round(self, actor: Caller, round_id: str) -> Result:
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

    async def export_round(self, actor: Caller, round_id: str) -> Result:
        await self._command(actor, "export_round", {"round": round_id})
        try:
            return await self.service.journal.export_round(round_id)
        except UnknownRound as exc:
            raise CommandError(ErrorCode.NOT_FOUND, str(exc)) from None

    async def floorpersons(self, actor: Caller) -> Result:
        """The floorpersons' names, for the dealer's screen to offer before the PIN: names only,
        never a PIN, a hash or a count (the API's roles keep it from a peer with no role)."""
        try:
            users = await asyncio.to_thread(load_users, self.users_file)
        except UsersFileError as exc:
            raise CommandError(ErrorCode.AUTH_UNAVAILABLE, f"the users file cannot be used: {exc}") from None
        return {"floorpersons": names_of(users, Role.FLOOR)}

    async def list_rounds(self, actor: Caller, limit: int) -> Result:
        rounds = await self.service.journal.recent_rounds(limit)
        return {"rounds": [r.to_json() for r in rounds]}

    async def toggle_lamp(self, actor: Caller, lamp: str, on: bool) -> Result:
        gpio = self.service.gpio
        if gpio is None:
            raise CommandError(ErrorCode.UNAVAILABLE, "the GPIO is not started")
        current = self.service.state.current
        if current is not None and current.events:
            raise CommandError(ErrorCode.REFUSED, "a round is being dealt; lamps are tested between rounds")
        lamps = gpio.status().lamps
        if lamp not in lamps:
            raise CommandError(ErrorCode.BAD_ARGS, f"no lamp {lamp!r} (lamps: {', '.join(sorted(lamps))})")
        shown = payout_lamps(self.service.state, gpio.seats)
        showing = (
            shown.floorperson_light != LampState.OFF
            if lamp == "floorperson_light"
            else lamp.endswith(".won_lamp") and shown.won.get(int(lamp.split(".")[1])) != LampState.OFF
        )
        if lamp.endswith(".wager_lamp") and gpio.progressive_unavailable:
            # N.J.A.C. 13:69E-1.39B: the wager lamps tell the players the progressive is unavailable.
            raise CommandError(
                ErrorCode.REFUSED,
                f"{lamp} shows the progressive unavailable (N.J.A.C. 13:69E-1.39B); it is tested once "
                "the progressive link is back",
            )
        if showing:
            # § 639a.11(c)(5)(ii), (iii): the lamp shows a payout; a test would hide it from the dealer.
            raise CommandError(
                ErrorCode.REFUSED,
                f"{lamp} shows a payout (§ 639a.11(c)(5)); it is tested once no payout is shown",
            )
        await self._command(actor, "toggle_lamp", {"lamp": lamp, "on": on})
        target = gpio.lamp(lamp)
        if on:
            target.on()
        else:
            target.off()
        return {"lamp": lamp, "on": on}

    async def send_test_frame(self, actor: Caller, device: str, frame: bytes) -> Result:
        driver = self.devices.get(device)
        if driver is None or driver.state != "online":
            raise CommandError(ErrorCode.UNAVAILABLE, f"the {device} is not connected")
        await self._command(actor, "send_test_frame", {"device": device, "frame": frame.hex()})
        try:
            seconds = await driver.send_test_frame(frame.decode("ascii", "replace"))
        except Exception as exc:
            raise CommandError(ErrorCode.UNAVAILABLE, f"the {device} did not answer: {exc}") from None
        return {"device": device, "round_trip_ms": round(seconds * 1000, 3)}

    async def command_refused(self, actor: Caller, cmd: str | None, code: str, message: str) -> None:
        with contextlib.suppress(JournalError, ValueError):
            await self._command(actor, cmd or "(unreadable)", {"refused": code, "message": message})
