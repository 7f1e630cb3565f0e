"""The local API over real Unix sockets, with a real handler on the rules core.

``TableHandler`` is not a stand-in for the daemon: it is a small daemon of its own, without the
journal on disk or the hardware, playing Caribbean Stud Poker rounds on
:class:`controller.rules.core.engine.Round` from the example Rules Submission.
"""

from __future__ import annotations

import asyncio
import contextlib
import grp
import json
import logging
import os
import shutil
import socket
import stat
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.api import (
    COMMANDS,
    EVENT_ROLES,
    OPEN_TOPICS,
    TOPIC_ROLES,
    TOPICS,
    ApiServer,
    ApiStartError,
    Caller,
    CommandError,
    ErrorCode,
    api_server_from_config,
)
from controller.api.limits import RateLimiter
from controller.api_client import ApiClient, ApiConnectionError, ApiError, Credentials, request
from controller.auth import (
    Authenticator,
    PinError,
    Role,
    User,
    UsersFileError,
    add_user,
    load_users,
    names_of,
    remove_user,
    verify_pin,
)
from controller.config import ApiSection
from controller.rules.core.engine import IllegalEvent, Round
from controller.rules.core.events import EventError, parse_event
from controller.rules.core.options import rules_to_mapping
from controller.rules.core.record import load_record, replay
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
RULES_SUBMISSION = ROOT / "examples" / "caribbean-stud" / "rules-submission.toml"
GROUP = grp.getgrgid(os.getgid()).gr_name

FLOOR = Credentials("mfloor", "204816")
TECH = Credentials("ttech", "730152")
DEALER_USER = Credentials("ddealer", "591837")
PINS = (FLOOR.pin, TECH.pin, DEALER_USER.pin)

ROUND_EVENTS: list[dict[str, Any]] = [
    {"type": "wager", "seat": 3, "wager": "ante", "amount": "25.00"},
    {"type": "wager", "seat": 3, "wager": "bonus", "amount": "5.00"},
    {"type": "wager", "seat": 5, "wager": "ante", "amount": "15.00"},
    {"type": "no_more_bets"},
    {"type": "cards", "to": 3, "cards": "Kh Kd 8c 8s 2h"},
    {"type": "cards", "to": 5, "cards": "Ac Qd Jd 6h 3s"},
    {"type": "cards", "to": "dealer", "cards": "As Ks 9d 6c 4h"},
    {"type": "decision", "seat": 3, "action": "bet"},
    {"type": "decision", "seat": 5, "action": "bet", "amount": "30.00"},
]


class TableHandler:
    """One Caribbean Stud Poker table: rounds on the rules core, every command journaled in memory."""

    def __init__(self) -> None:
        submission = parse_submission(RULES_SUBMISSION.read_text(), GAMES, str(RULES_SUBMISSION))
        self.table = submission.table
        self.game = submission.game
        self.rules = submission.rules
        self.meters = {"progressive": 1_234_567}
        self.round_number = 1
        self.round: Round[Any, Any] = Round.begin(self.game, self.rules, self.meters)
        self.finished: dict[str, tuple[Round[Any, Any], dict[str, Any]]] = {}
        self.journal: list[dict[str, Any]] = []
        self.lamps: dict[str, bool] = {}
        self.frames: list[tuple[str, bytes]] = []
        self.server: ApiServer | None = None

    def _log(self, actor: Caller, cmd: str, **detail: Any) -> None:
        self.journal.append({"seq": len(self.journal) + 1, "cmd": cmd, "actor": actor.to_json(), **detail})

    @property
    def round_id(self) -> str:
        return f"r{self.round_number}"

    def _state(self) -> dict[str, Any]:
        lock_out = any(e.type == "no_more_bets" for e in self.round.events)
        return {
            "table": self.table,
            "game": self.game.name,
            "round": self.round_id,
            "events": len(self.round.events),
            "lock_out": lock_out,
            "seq": len(self.journal),
        }

    async def status(self, actor: Caller) -> Mapping[str, Any]:
        self._log(actor, "status")
        return self._state()

    async def submit_event(
        self, actor: Caller, event: Mapping[str, Any], idempotency_key: str | None = None
    ) -> Mapping[str, Any]:
        if event["type"] == "verification":
            self._log(actor, "verification", event=dict(event))
            return {"verified": dict(event)}
        try:
            parsed = parse_event(event, "event", self.game.decks(self.rules), self.game.joker)
            self.round.apply(parsed)
        except (EventError, IllegalEvent) as exc:
            self._log(actor, "submit_event", refused=str(exc))
            raise CommandError("refused", str(exc)) from None
        self._log(actor, "submit_event", event=parsed.to_json())
        result: dict[str, Any] = {"round": self.round_id, "seq": len(self.journal)}
        if self.server is not None:
            self.server.publish("event", {"seq": len(self.journal), "event": parsed.to_json()})
        try:
            settlement = self.round.settle().to_json()
        except IllegalEvent:
            pass
        else:
            result["settlement"] = settlement
            self._next_round(settlement)
        if self.server is not None:
            self.server.publish("state", self._state())
        return result

    def _next_round(self, settlement: dict[str, Any]) -> None:
        self.finished[self.round_id] = (self.round, settlement)
        self.round_number += 1
        self.round = Round.begin(self.game, self.rules, self.meters)

    async def settle_round(self, actor: Caller) -> Mapping[str, Any]:
        self._log(actor, "settle_round")
        round_id = self.round_id
        try:
            settlement = self.round.settle().to_json()
        except IllegalEvent as exc:
            raise CommandError("refused", f"round {round_id}: {exc}") from None
        self._next_round(settlement)
        return {"round": round_id, "seq": len(self.journal), "next_round": self.round_id}

    def _finished(self, round_id: str) -> tuple[Round[Any, Any], dict[str, Any]]:
        if round_id not in self.finished:
            raise CommandError("not_found", f"no finished round {round_id!r}")
        return self.finished[round_id]

    async def recall_round(self, actor: Caller, round_id: str) -> Mapping[str, Any]:
        self._log(actor, "recall_round", round=round_id)
        rnd, settlement = self._finished(round_id)
        return {"round": round_id, "events": [e.to_json() for e in rnd.events], "settlement": settlement}

    async def export_round(self, actor: Caller, round_id: str) -> Mapping[str, Any]:
        self._log(actor, "export_round", round=round_id)
        rnd, _ = self._finished(round_id)
        return {
            "record": "round",
            "version": 1,
            "game": self.game.name,
            "table": self.table,
            "round": round_id,
            "rules": rules_to_mapping(rnd.rules),
            "meters": {"progressive": "12345.67"},
            "events": [e.to_json() for e in rnd.events],
        }

    async def floorpersons(self, actor: Caller) -> Mapping[str, Any]:
        assert self.server is not None
        return {"floorpersons": names_of(load_users(self.server.authenticator.users_file), Role.FLOOR)}

    async def list_rounds(self, actor: Caller, limit: int) -> Mapping[str, Any]:
        ids = [self.round_id, *reversed(self.finished)]
        return {"rounds": [{"round": r, "settled": r in self.finished} for r in ids[:limit]]}

    async def toggle_lamp(self, actor: Caller, lamp: str, on: bool) -> Mapping[str, Any]:
        self._log(actor, "toggle_lamp", lamp=lamp, on=on)
        if self.round.events:
            raise CommandError("refused", "not during a round: the lamps show the players' wagers")
        self.lamps[lamp] = on
        return {"lamp": lamp, "on": on}

    async def send_test_frame(self, actor: Caller, device: str, frame: bytes) -> Mapping[str, Any]:
        self._log(actor, "send_test_frame", device=device, frame=frame.hex())
        self.frames.append((device, frame))
        return {"device": device, "sent": len(frame)}

    async def subscribe(self, actor: Caller, topics: frozenset[str]) -> Mapping[str, Any]:
        self._log(actor, "subscribe", topics=sorted(topics))
        return self._state()

    async def command_refused(self, actor: Caller, cmd: str | None, code: str, message: str) -> None:
        self._log(actor, cmd or "(unreadable)", refused=code, message=message)


# --- fixtures --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def users_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("users") / "users.json"
    add_user(path, FLOOR.user, Role.FLOOR, FLOOR.pin)
    add_user(path, TECH.user, Role.TECH, TECH.pin)
    add_user(path, DEALER_USER.user, Role.DEALER, DEALER_USER.pin)
    return path


@pytest.fixture
def users_file(short_dir: Path, users_template: Path) -> Path:
    path = short_dir / "users.json"
    shutil.copy(users_template, path)
    path.chmod(0o600)
    return path


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest_asyncio.fixture
async def table(
    short_dir: Path, users_file: Path, clock: Clock
) -> AsyncIterator[tuple[ApiServer, TableHandler]]:
    handler = TableHandler()
    server = ApiServer(
        handler,
        short_dir / "run" / "api.sock",
        GROUP,
        Authenticator(users_file, attempts=3, lockout_seconds=120, clock=clock),
        dealer_uids={os.getuid()},
        max_line_bytes=4096,
    )
    handler.server = server
    await server.start()
    try:
        yield server, handler
    finally:
        await server.close()


class Raw:
    """A client at the byte level, to send what ApiClient never would."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.received: list[bytes] = []

    @classmethod
    async def connect(cls, path: Path) -> Raw:
        reader, writer = await asyncio.open_unix_connection(str(path), limit=2**20)
        return cls(reader, writer)

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def line(self) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.reader.readline(), 5)
        assert raw.endswith(b"\n"), raw
        self.received.append(raw)
        message = json.loads(raw)
        assert isinstance(message, dict)
        return message

    async def ask(self, data: bytes | dict[str, Any]) -> dict[str, Any]:
        await self.send(data if isinstance(data, bytes) else json.dumps(data).encode() + b"\n")
        return await self.line()

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


def error(response: Mapping[str, Any]) -> tuple[str, str]:
    assert response["ok"] is False, response
    return response["error"]["code"], response["error"]["message"]


# --- the socket ------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_socket_file_is_0660_of_the_group_in_a_0750_directory(
    table: tuple[ApiServer, TableHandler],
) -> None:
    server, _ = table
    st = os.stat(server.socket_path)
    assert stat.S_ISSOCK(st.st_mode)
    assert stat.S_IMODE(st.st_mode) == 0o660
    assert st.st_gid == grp.getgrnam(GROUP).gr_gid
    dir_st = os.stat(server.socket_path.parent)
    assert stat.S_IMODE(dir_st.st_mode) == 0o750 and dir_st.st_gid == grp.getgrnam(GROUP).gr_gid
    await server.close()
    assert not server.socket_path.exists()


@pytest.mark.asyncio
async def test_stale_socket_replaced_live_one_and_other_files_refused(
    short_dir: Path, users_file: Path
) -> None:
    path = short_dir / "api.sock"
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))
    stale.close()  # a crashed daemon's file: nobody listens
    auth = Authenticator(users_file)
    first = ApiServer(TableHandler(), path, GROUP, auth)
    await first.start()
    try:
        second = ApiServer(TableHandler(), path, GROUP, auth)
        with pytest.raises(ApiStartError, match="another process is listening"):
            await second.start()
        assert (await asyncio.to_thread(request, path, "status"))["table"] == "CS-3"
    finally:
        await first.close()
    path.write_text("not a socket")
    with pytest.raises(ApiStartError, match="is not a socket; not touching it"):
        await ApiServer(TableHandler(), path, GROUP, auth).start()
    assert path.read_text() == "not a socket"
    with pytest.raises(ApiStartError, match="group 'no-such-group-x' does not exist"):
        await ApiServer(TableHandler(), short_dir / "b.sock", "no-such-group-x", auth).start()


def test_server_from_config_names_a_missing_dealer_user(short_dir: Path) -> None:
    api = ApiSection(socket=short_dir / "api.sock", group=GROUP, dealer_user="nosuchuser-x")
    with pytest.raises(ApiStartError, match="dealer_user 'nosuchuser-x': no such user"):
        api_server_from_config(api, TableHandler())
    root = api_server_from_config(
        ApiSection(socket=short_dir / "api.sock", group=GROUP, dealer_user="root"), TableHandler()
    )
    assert root.dealer_uids == {0} and root.authenticator.attempts == 5


# --- round trips -----------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_round_through_the_api_replays_to_the_same_settlement(
    table: tuple[ApiServer, TableHandler],
) -> None:
    server, handler = table
    async with await ApiClient.connect(server.socket_path) as api:
        status = await api.status()
        assert status["game"] == "caribbean-stud" and status["round"] == "r1" and not status["lock_out"]
        results = [await api.submit_event(e) for e in ROUND_EVENTS]
        settlement = results[-1]["settlement"]
        assert settlement["seats"]["3"]["ante"]["net"] == "+25.00"
        assert (await api.status())["round"] == "r2"
        with pytest.raises(ApiError) as info:
            await api.export_round("r1", auth=DEALER_USER)
        assert info.value.code == "forbidden"
        record = await api.export_round("r1", auth=FLOOR)
        recalled = await api.recall_round("r1", auth=TECH)
        assert recalled["settlement"] == settlement
        rounds = await api.list_rounds(5)
    assert rounds == {"rounds": [{"round": "r2", "settled": False}, {"round": "r1", "settled": True}]}
    replayed = replay(load_record(record, GAMES)).to_json()
    assert replayed["seats"] == settlement["seats"] and replayed["order"] == settlement["order"]
    # Every command is journaled with its actor and the peer's credentials.
    submitted = [j for j in handler.journal if j["cmd"] == "submit_event"]
    assert len(submitted) == len(ROUND_EVENTS)
    assert all(j["actor"]["role"] == "dealer" and j["actor"]["user"] is None for j in submitted)
    assert all(j["actor"]["uid"] == os.getuid() and j["actor"]["pid"] == os.getpid() for j in submitted)
    recall = next(j for j in handler.journal if j["cmd"] == "recall_round")
    assert recall["actor"]["role"] == "tech" and recall["actor"]["user"] == "ttech"


@pytest.mark.asyncio
async def test_the_rules_core_refuses_and_the_refusal_reaches_the_client(
    table: tuple[ApiServer, TableHandler],
) -> None:
    server, handler = table
    async with await ApiClient.connect(server.socket_path) as api:
        await api.submit_event(ROUND_EVENTS[0])
        await api.submit_event({"type": "no_more_bets"})
        with pytest.raises(ApiError) as info:
            await api.submit_event({"type": "wager", "seat": 2, "wager": "ante", "amount": "10.00"})
        assert info.value.code == "refused"
        assert "no more bets" in info.value.message
        assert (await api.status())["events"] == 2  # the refused wager changed nothing
        with pytest.raises(ApiError) as info:
            await api.submit_event({"type": "meter", "name": "progressive", "amount": "1.00"})
        assert info.value.code == "bad_args" and "only from the central meter" in info.value.message
        with pytest.raises(ApiError) as info:
            await api.submit_event({"type": "wagr"})
        assert info.value.code == "bad_args" and "did you mean 'wager'?" in info.value.message
    refused = [j for j in handler.journal if j.get("refused")]
    assert [j["refused"] for j in refused][-2:] == ["bad_args", "bad_args"]


@pytest.mark.asyncio
async def test_blocking_request_against_the_running_server(table: tuple[ApiServer, TableHandler]) -> None:
    server, _ = table
    status = await asyncio.to_thread(request, server.socket_path, "status")
    assert status["table"] == "CS-3"
    with pytest.raises(ApiError) as info:
        await asyncio.to_thread(request, server.socket_path, "recall_round", {"round": "r9"}, FLOOR)
    assert info.value.code == "not_found"
    with pytest.raises(ApiConnectionError, match="no such socket"):
        await asyncio.to_thread(request, server.socket_path.with_name("missing.sock"), "status")


# --- roles -----------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_roles(table: tuple[ApiServer, TableHandler]) -> None:
    server, handler = table
    async with await ApiClient.connect(server.socket_path) as api:
        # The dealer's station (its uid) may play, not recall or verify.
        with pytest.raises(ApiError) as info:
            await api.recall_round("r1")
        assert info.value.code == "auth_required"
        assert "a floorperson or a slot technician" in info.value.message
        verification = {"type": "verification", "seat": 3, "wager": "progressive"}
        with pytest.raises(ApiError) as info:
            await api.submit_event(verification)
        assert info.value.code == "auth_required" and "a verification event is for a floorperson" in str(
            info.value
        )
        # A floorperson with the right PIN verifies; a technician may not; nor may a signed-in dealer.
        assert (await api.submit_event(verification, auth=FLOOR))["verified"]["seat"] == 3
        assert (await api.verify_payout(3, "progressive", round="r1", auth=FLOOR))["verified"] == {
            **verification,
            "round": "r1",
        }
        with pytest.raises(ApiError) as info:
            await api.verify_payout(3, "progressive")
        assert info.value.code == "auth_required"
        for who in (TECH, DEALER_USER):
            with pytest.raises(ApiError) as info:
                await api.submit_event(verification, auth=who)
            assert info.value.code == "forbidden"
        assert "user 'ttech' is a slot technician; a verification event is for a floorperson" in str(
            await _refusal(api.submit_event(verification, auth=TECH))
        )
        # Diagnostics are the technician's.
        with pytest.raises(ApiError) as info:
            await api.toggle_lamp("seat3.accepted", True, auth=FLOOR)
        assert info.value.code == "forbidden"
        assert await api.toggle_lamp("seat3.accepted", True, auth=TECH) == {
            "lamp": "seat3.accepted",
            "on": True,
        }
        sent = await api.send_test_frame("shoe", b"\x02A\x03", auth=TECH)
        assert sent == {"device": "shoe", "sent": 3} and handler.frames == [("shoe", b"\x02A\x03")]
        # A floorperson may also act as the dealer.
        assert (await api.submit_event(ROUND_EVENTS[0], auth=FLOOR))["round"] == "r1"
        with pytest.raises(ApiError) as info:
            await api.toggle_lamp("seat3.accepted", False, auth=TECH)
        assert info.value.code == "refused"  # the handler's own rule: not during a round
    verify = next(j for j in handler.journal if j["cmd"] == "verification")
    assert verify["actor"]["role"] == "floor" and verify["actor"]["user"] == "mfloor"


async def _refusal(call: Any) -> ApiError:
    try:
        await call
    except ApiError as exc:
        return exc
    raise AssertionError("not refused")


@pytest.mark.asyncio
async def test_a_peer_that_is_not_the_dealers_station_only_reads(short_dir: Path, users_file: Path) -> None:
    handler = TableHandler()
    server = ApiServer(handler, short_dir / "api.sock", GROUP, Authenticator(users_file))
    async with server, await ApiClient.connect(server.socket_path) as api:
        assert (await api.status())["table"] == "CS-3"
        assert (await api.list_rounds())["rounds"][0]["round"] == "r1"
        with pytest.raises(ApiError) as info:
            await api.submit_event({"type": "no_more_bets"})
        assert info.value.code == "auth_required"
        assert "is for a dealer or a floorperson" in info.value.message
        # A dealer signed in with his own PIN may.
        assert (await api.submit_event({"type": "no_more_bets"}, auth=DEALER_USER))["round"] == "r1"
        # A refusal to a peer with no role is counted, not journaled one by one (a flood of them
        # must not slow the table or fill the journal): docs/local-api.md "Limits".
        assert server.tally.total == 1
    assert not any(j.get("refused") == "auth_required" for j in handler.journal)


def test_every_command_names_its_roles() -> None:
    assert set(COMMANDS) == {
        "status",
        "subscribe",
        "list_rounds",
        "submit_event",
        "settle_round",
        "floorpersons",
        "recall_round",
        "export_round",
        "toggle_lamp",
        "send_test_frame",
    }
    assert COMMANDS["settle_round"].roles == {Role.DEALER, Role.FLOOR}
    assert COMMANDS["toggle_lamp"].roles == {Role.TECH}
    assert COMMANDS["recall_round"].roles == {Role.FLOOR, Role.TECH}
    assert COMMANDS["floorpersons"].roles == {Role.DEALER, Role.FLOOR}
    # A technician submits only a device's service state (§ 639a.13(g)), no round event.
    assert {t for t, roles in EVENT_ROLES.items() if Role.TECH in roles} == {
        "device_out_of_order",
        "device_in_service",
    }
    assert EVENT_ROLES["verification"] == {Role.FLOOR}
    assert {c.name for c in COMMANDS.values() if c.open} == {"status", "subscribe", "list_rounds"}
    # Subscribing is open, except to the technician's frames; without topics, every open one.
    assert dict(TOPIC_ROLES) == {"frames": {Role.TECH}}
    assert set(OPEN_TOPICS) == set(TOPICS) - {"frames"}
    subscribe = COMMANDS["subscribe"]
    assert subscribe.is_open({"topics": frozenset({"state", "event"})})
    assert not subscribe.is_open({"topics": frozenset({"state", "frames"})})
    assert subscribe.allowed({"topics": frozenset({"frames"})}) == {Role.TECH}


# --- PINs and the lockout --------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_wrong_pins_are_counted_then_the_name_is_locked(
    table: tuple[ApiServer, TableHandler], clock: Clock
) -> None:
    server, _ = table
    wrong = Credentials(FLOOR.user, "111222")
    async with await ApiClient.connect(server.socket_path) as api:
        first = await _refusal(api.recall_round("r1", auth=wrong))
        assert first.code == "auth_failed" and "2 more wrong PINs lock this name for 2 min" in first.message
        second = await _refusal(api.recall_round("r1", auth=wrong))
        assert "1 more wrong PIN lock" in second.message
        third = await _refusal(api.recall_round("r1", auth=wrong))
        assert third.code == "locked_out" and "locked for 2 min more" in third.message
        # Locked: even the right PIN is refused, without being checked.
        locked = await _refusal(api.recall_round("r1", auth=FLOOR))
        assert locked.code == "locked_out"
        clock.now += 60
        assert "1 min more" in (await _refusal(api.recall_round("r1", auth=FLOOR))).message
        # Another user is not affected.
        assert (await _refusal(api.recall_round("r1", auth=TECH))).code == "not_found"
        clock.now += 61
        assert (await _refusal(api.recall_round("r1", auth=FLOOR))).code == "not_found"  # signed in
        # A right PIN resets the count.
        assert (await _refusal(api.recall_round("r1", auth=wrong))).message.startswith(
            "wrong user name or PIN; 2"
        )


@pytest.mark.asyncio
async def test_unknown_names_answer_like_known_ones(table: tuple[ApiServer, TableHandler]) -> None:
    server, _ = table
    async with await ApiClient.connect(server.socket_path) as api:
        known = await _refusal(api.recall_round("r1", auth=Credentials(FLOOR.user, "111222")))
        unknown = await _refusal(api.recall_round("r1", auth=Credentials("nobody", "111222")))
    assert (known.code, known.message) == (unknown.code, unknown.message)


@pytest.mark.asyncio
async def test_a_user_added_while_running_can_sign_in_and_one_removed_cannot(
    table: tuple[ApiServer, TableHandler], users_file: Path
) -> None:
    server, _ = table
    new = Credentials("nfloor", "860241")
    async with await ApiClient.connect(server.socket_path) as api:
        assert (await _refusal(api.recall_round("r1", auth=new))).code == "auth_failed"
        await asyncio.to_thread(add_user, users_file, new.user, "floor", new.pin)
        assert (await _refusal(api.recall_round("r1", auth=new))).code == "not_found"
        await asyncio.to_thread(remove_user, users_file, new.user)
        assert (await _refusal(api.recall_round("r1", auth=new))).code == "auth_failed"
        users_file.chmod(0o644)  # opened up by mistake: nobody signs in until it is 0600 again
        broken = await _refusal(api.recall_round("r1", auth=FLOOR))
        assert broken.code == "auth_unavailable"


@pytest.mark.asyncio
async def test_a_pin_is_never_logged_nor_echoed(
    table: tuple[ApiServer, TableHandler], caplog: pytest.LogCaptureFixture
) -> None:
    server, handler = table
    caplog.set_level(logging.DEBUG)
    raw = await Raw.connect(server.socket_path)
    responses = [
        await raw.ask({"id": 1, "cmd": "recall_round", "args": {"round": "r1"}, "auth": FLOOR.to_json()}),
        await raw.ask({"id": 2, "cmd": "recall_round", "args": {"round": "r1"}, "auth": TECH.to_json()}),
        await raw.ask(
            {"id": 3, "cmd": "status", "auth": {"user": FLOOR.user, "pin": FLOOR.pin, "x": TECH.pin}}
        ),
        await raw.ask({"id": 4, "cmd": "status", "auth": {"user": DEALER_USER.pin, "pin": DEALER_USER.pin}}),
        await raw.ask({"id": 5, "cmd": "status", "auth": [FLOOR.pin]}),
        await raw.ask(
            f'{{"id": 6, "cmd": "status", "auth": {{"user": "mfloor", "pin": "{FLOOR.pin}"'.encode() + b"\n"
        ),
        await raw.ask({"id": 7, "cmd": "recal_round", "auth": TECH.to_json()}),
    ]
    for _ in range(3):
        responses.append(
            await raw.ask({"id": 8, "cmd": "status", "auth": {"user": "ttech", "pin": "999111"}})
        )
    await raw.close()
    assert [r["ok"] for r in responses[:2]] == [False, False]  # not_found: both signed in
    assert [error(r)[0] for r in responses] == [
        "not_found",
        "not_found",
        "bad_request",
        "auth_failed",
        "bad_request",
        "bad_json",
        "unknown_command",
        "auth_failed",
        "auth_failed",
        "locked_out",
    ]
    seen = "".join(line.decode() for line in raw.received) + caplog.text + json.dumps(handler.journal)
    assert caplog.text  # there is a log, and it speaks of the sign-ins
    assert "locked out" in caplog.text and "'mfloor' (floor) signed in" in caplog.text
    for pin in PINS:
        assert pin not in seen
    assert "999111" not in seen


def test_users_file(tmp_path: Path) -> None:
    path = tmp_path / "users.json"
    assert load_users(path) == {}  # a fresh install: nobody, and no default PIN
    user = add_user(path, "mfloor", Role.FLOOR, "204816")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert "204816" not in text and '"kdf": "scrypt"' in text and '"n": 16384' in text
    assert "204816" not in repr(user) and user.hash.hex() not in repr(user)
    users = load_users(path)
    assert verify_pin(users["mfloor"], "204816") and not verify_pin(users["mfloor"], "204817")
    assert not verify_pin(None, "204816")
    other = add_user(path, "nfloor", "floor", "204816")
    assert other.salt != user.salt and other.hash != user.hash  # the same PIN, hashed apart
    with pytest.raises(UsersFileError, match="exists already"):
        add_user(path, "mfloor", Role.TECH, "730152")
    assert add_user(path, "mfloor", Role.TECH, "730152", replace=True).role is Role.TECH
    for pin, why in (
        ("12345", "6 to 12 digits, not 5"),
        ("12a456", "digits only"),
        ("777777", "one digit repeated"),
        ("456789", "consecutive"),
        ("765432", "consecutive"),
    ):
        with pytest.raises(PinError, match=why) as info:
            add_user(path, "x", Role.FLOOR, pin)
        assert pin not in str(info.value)
    with pytest.raises(UsersFileError, match="user name 'Bad Name'"):
        add_user(path, "Bad Name", Role.FLOOR, "204816")
    with pytest.raises(ValueError, match="role 'boss' is not one of dealer, floor, tech"):
        add_user(path, "boss", "boss", "204816")
    assert remove_user(path, "nfloor").name == "nfloor"
    with pytest.raises(UsersFileError, match="no user 'nfloor' \\(users: mfloor\\)"):
        remove_user(path, "nfloor")
    path.chmod(0o640)
    with pytest.raises(UsersFileError, match="mode 0640 lets others read or change it"):
        load_users(path)
    path.chmod(0o600)
    data = json.loads(path.read_text())
    data["users"]["mfloor"]["n"] = 1024
    path.write_text(json.dumps(data))
    with pytest.raises(UsersFileError, match="weaker than n=16384"):
        load_users(path)
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind
    assert isinstance(User, type)


# --- malformed and oversize lines ------------------------------------------------------------------


@pytest.mark.asyncio
async def test_malformed_lines_get_clear_errors_and_the_connection_survives(
    table: tuple[ApiServer, TableHandler],
) -> None:
    server, handler = table
    raw = await Raw.connect(server.socket_path)
    cases: list[tuple[bytes | dict[str, Any], str, str]] = [
        (b"hello\n", "bad_json", "the line is not JSON: Expecting value"),
        (b"\xff\xfe\n", "bad_json", "not UTF-8"),
        (b"[1, 2]\n", "bad_request", "a request is a JSON object"),
        (b"[" * 100_000 + b"\n", "line_too_long", "longer than 4096 bytes"),
        (b'{"id": 5}\n', "bad_request", "cmd must be the command's name"),
        ({"id": "a", "cmd": "stauts"}, "unknown_command", "did you mean 'status'?"),
        ({"id": "b", "cmd": "status", "arg": {}}, "bad_request", "unknown key 'arg'; did you mean 'args'?"),
        ({"id": "c", "cmd": "status", "args": []}, "bad_request", "args must be an object"),
        ({"id": True, "cmd": "status"}, "bad_request", "id must be a string"),
        (
            {"id": "d", "cmd": "list_rounds", "args": {"limit": 0, "limt": 3}},
            "bad_args",
            "args.limt: list_rounds has no such argument; did you mean 'limit'? (arguments: limit); "
            "args.limit 0: must be a whole number from 1 to 100",
        ),
        ({"id": "e", "cmd": "recall_round"}, "bad_args", "args.round: missing (the round's id)"),
        (
            {"id": "f", "cmd": "send_test_frame", "args": {"device": "sho", "frame": "zz"}},
            "bad_args",
            "did you mean 'shoe'?",
        ),
        ({"id": "g", "cmd": "subscribe", "args": {"topics": ["stat"]}}, "bad_args", "did you mean 'state'?"),
        (
            {"id": "h", "cmd": "submit_event", "args": {"event": "no_more_bets"}},
            "bad_args",
            "must be an event object",
        ),
    ]
    for line, code, message in cases:
        response = await raw.ask(line)
        got_code, got_message = error(response)
        assert got_code == code, (line, response)
        assert message in got_message, (line, response)
        if isinstance(line, dict) and isinstance(line["id"], str):
            assert response["id"] == line["id"]
        else:
            assert response["id"] in (None, 5)
    await raw.send(b"\n   \n")  # blank lines: no answer
    assert (await raw.ask({"id": 99, "cmd": "status"}))["result"]["table"] == "CS-3"
    # Every refusal reached the handler for its journal.
    assert sum(1 for j in handler.journal if j.get("refused")) == len(cases)
    await raw.close()


@pytest.mark.asyncio
async def test_an_oversize_line_is_discarded_as_it_streams(table: tuple[ApiServer, TableHandler]) -> None:
    server, _ = table
    raw = await Raw.connect(server.socket_path)
    # 8 MiB in pieces, then a newline; then a good request on the same connection.
    piece = b'{"id": 1, "cmd": "status", "args": {"x": "' + b"a" * 65536
    for _ in range(128):
        await raw.send(piece)
    await raw.send(b'"}}\n{"id": 2, "cmd": "status"}\n')
    assert error(await raw.line())[0] == "line_too_long"
    assert (await raw.line())["id"] == 2
    # A line exactly at the limit is read.
    request_head = b'{"id": 3, "cmd": "status", "args": {}}'
    padded = request_head + b" " * (4096 - len(request_head))
    assert (await raw.ask(padded + b"\n"))["id"] == 3
    assert error(await raw.ask(padded + b" \n"))[0] == "line_too_long"
    # A last line without a newline is still answered before the connection closes.
    await raw.send(b'{"id": 4, "cmd": "status"}')
    raw.writer.write_eof()
    assert (await raw.line())["id"] == 4
    await raw.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(garbage=st.lists(st.binary(max_size=300).map(lambda b: b.replace(b"\n", b"")), min_size=1, max_size=8))
def test_garbage_never_breaks_the_server(short_dir: Path, users_file: Path, garbage: list[bytes]) -> None:
    async def scenario() -> None:
        handler = TableHandler()
        path = short_dir / "g.sock"
        async with ApiServer(
            handler, path, GROUP, Authenticator(users_file), dealer_uids={os.getuid()}
        ) as server:
            raw = await Raw.connect(server.socket_path)
            for line in garbage:
                if not line.strip():
                    continue
                response = await raw.ask(line + b"\n")
                assert "ok" in response
            assert (await raw.ask({"id": "last", "cmd": "status"}))["ok"] is True
            await raw.close()

    asyncio.run(scenario())


# --- many clients, subscriptions -------------------------------------------------------------------


@pytest.mark.asyncio
async def test_concurrent_clients_each_get_their_own_answers(table: tuple[ApiServer, TableHandler]) -> None:
    server, _ = table
    # 200 refusals at once from one peer are past its refusals journaled one by one (a flood:
    # tests/test_api_flood.py); here the concurrency alone, every refusal journaled.
    server.journaled_refusals = RateLimiter(1000, 1000)
    clients = [await ApiClient.connect(server.socket_path) for _ in range(20)]
    try:
        for _ in range(100):
            if server.clients == 20:
                break
            await asyncio.sleep(0.01)
        assert server.clients == 20

        async def ask(n: int, api: ApiClient) -> list[str]:
            # Overlapping requests on one connection, matched by id: each refusal names its own value.
            limits = [1000 * (n + 1) + i for i in range(10)]
            answers = await asyncio.gather(
                *(_refusal(api.call("list_rounds", {"limit": limit})) for limit in limits),
                return_exceptions=False,
            )
            if n < 7:
                await api.submit_event(
                    {"type": "wager", "seat": n + 1, "wager": "ante", "amount": f"{n + 1}.00"}
                )
            assert (await api.list_rounds(3))["rounds"][0]["round"] == "r1"
            return [a.message.split(":")[0] for a in answers]

        results = await asyncio.gather(*(ask(n, api) for n, api in enumerate(clients)))
        assert results == [[f"args.limit {1000 * (n + 1) + i}" for i in range(10)] for n in range(20)]
        assert (await clients[0].status())["events"] == 7
    finally:
        for api in clients:
            await api.close()


@pytest.mark.asyncio
async def test_too_many_clients_are_told_so(short_dir: Path, users_file: Path) -> None:
    async with ApiServer(
        TableHandler(),
        short_dir / "api.sock",
        GROUP,
        Authenticator(users_file),
        max_clients=2,
        dealer_slots=0,
        tech_slots=0,  # the reserved slots: tests/test_api_abuse.py
    ) as server:
        first = await ApiClient.connect(server.socket_path)
        second = await ApiClient.connect(server.socket_path)
        await first.status()
        await second.status()
        raw = await Raw.connect(server.socket_path)
        code, message = error(await raw.line())
        assert code == "busy" and "too many clients (2)" in message
        await raw.close()
        await first.close()
        for _ in range(500):  # until the server has seen the first client go
            if server.clients < 2:
                break
            await asyncio.sleep(0.01)
        third = await ApiClient.connect(server.socket_path)
        assert (await third.status())["table"] == "CS-3"
        await second.close()
        await third.close()


@pytest.mark.asyncio
async def test_a_subscription_delivers_state_and_events(table: tuple[ApiServer, TableHandler]) -> None:
    server, _ = table
    async with (
        await ApiClient.connect(server.socket_path) as watcher,
        await ApiClient.connect(server.socket_path) as dealer,
        await ApiClient.connect(server.socket_path) as states_only,
    ):
        snapshot = await watcher.subscribe()
        assert snapshot["round"] == "r1" and snapshot["events"] == 0
        assert (await states_only.subscribe(["state"]))["events"] == 0
        for event in ROUND_EVENTS[:4]:
            await dealer.submit_event(event)
        notes = watcher.notifications()
        received = [await asyncio.wait_for(anext(notes), 5) for _ in range(8)]
        assert [n.topic for n in received] == ["event", "state"] * 4
        assert received[-2].data["event"] == {"type": "no_more_bets"}
        assert received[-1].data["lock_out"] is True
        state_notes = states_only.notifications()
        states = [await asyncio.wait_for(anext(state_notes), 5) for _ in range(4)]
        assert {n.topic for n in states} == {"state"} and states[-1].data["events"] == 4
        # The watcher still asks questions on the same connection.
        assert (await watcher.status())["events"] == 4


@pytest.mark.asyncio
async def test_a_slow_subscriber_loses_notifications_and_is_told_how_many(
    short_dir: Path, users_file: Path
) -> None:
    async with (
        ApiServer(
            TableHandler(), short_dir / "api.sock", GROUP, Authenticator(users_file), subscriber_queue=10
        ) as server,
        await ApiClient.connect(server.socket_path) as api,
    ):
        await api.subscribe(["input"])
        for i in range(500):  # all at once, without yielding: the publisher never waits
            server.publish("input", {"n": i})
        notes = api.notifications()
        got = [await asyncio.wait_for(anext(notes), 5) for _ in range(11)]
        assert [n.data.get("n") for n in got[:10]] == list(range(10))
        assert got[10].topic == "dropped" and got[10].data == {"count": 490}
        server.publish("input", {"n": 500})
        assert (await asyncio.wait_for(anext(notes), 5)).data == {"n": 500}
    with pytest.raises(ValueError, match="unknown topic 'inputs'"):
        server.publish("inputs", {})


class BrokenHandler(TableHandler):
    async def status(self, actor: Caller) -> Mapping[str, Any]:
        return {"not json": {1, 2}}


@pytest.mark.asyncio
async def test_a_handler_failure_is_an_internal_error_not_a_crash(
    short_dir: Path, users_file: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = ApiServer(BrokenHandler(), short_dir / "api.sock", GROUP, Authenticator(users_file))
    async with server, await ApiClient.connect(server.socket_path) as api:
        assert (await _refusal(api.status())).code == ErrorCode.INTERNAL
        assert (await api.list_rounds())["rounds"]
    assert "not JSON" in caplog.text


# --- shutdown --------------------------------------------------------------------------------------


class SlowHandler(TableHandler):
    """``list_rounds`` waits until released: a request in flight when the server closes."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def list_rounds(self, actor: Caller, limit: int) -> Mapping[str, Any]:
        self.entered.set()
        await self.release.wait()
        return await super().list_rounds(actor, limit)


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.asyncio
async def test_closing_with_clients_connected_is_quiet_and_answers_the_request_in_flight(
    short_dir: Path, users_file: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    handler = SlowHandler()
    server = ApiServer(handler, short_dir / "api.sock", GROUP, Authenticator(users_file))
    await server.start()
    idle = await ApiClient.connect(server.socket_path)
    watcher = await ApiClient.connect(server.socket_path)
    busy = await ApiClient.connect(server.socket_path)
    try:
        await idle.status()
        await watcher.subscribe(["state"])
        in_flight = asyncio.create_task(busy.list_rounds(3))
        await asyncio.wait_for(handler.entered.wait(), 5)
        closing = asyncio.create_task(server.close())
        await asyncio.sleep(0.05)
        assert not closing.done()  # it waits for the request being served
        handler.release.set()
        await asyncio.wait_for(closing, 5)
        await asyncio.sleep(0)  # the streams' done-callbacks run now
        assert _errors(caplog) == []
        assert (await in_flight)["rounds"][0]["round"] == "r1"
        with pytest.raises(ApiConnectionError):
            await idle.status()
        assert not server.socket_path.exists() and server.clients == 0
    finally:
        for api in (idle, watcher, busy):
            await api.close()


@pytest.mark.asyncio
async def test_closing_does_not_wait_for_a_stuck_handler_past_its_grace(
    short_dir: Path, users_file: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    handler = SlowHandler()  # never released
    server = ApiServer(handler, short_dir / "api.sock", GROUP, Authenticator(users_file), close_grace=0.1)
    await server.start()
    async with await ApiClient.connect(server.socket_path) as busy:
        in_flight = asyncio.create_task(busy.list_rounds(3))
        await asyncio.wait_for(handler.entered.wait(), 5)
        await asyncio.wait_for(server.close(), 5)
        await asyncio.sleep(0)
        with pytest.raises(ApiConnectionError):
            await in_flight
    assert _errors(caplog) == []
    assert "still busy after 0.1 s" in caplog.text


# --- settle_round, frames --------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_settle_round_is_the_dealers_and_the_rules_core_says_when(
    table: tuple[ApiServer, TableHandler],
) -> None:
    server, handler = table
    async with await ApiClient.connect(server.socket_path) as api:
        for event in ROUND_EVENTS[:4]:
            await api.submit_event(event)
        early = await _refusal(api.settle_round())
        assert early.code == "refused" and early.message.startswith("round r1: ")
        assert (await _refusal(api.settle_round(auth=TECH))).code == "forbidden"
        for event in ROUND_EVENTS[4:-1]:
            await api.submit_event(event)
        # Seat 5's decision still open: the fake table settles once every decision is in, as the
        # rules core says; the dealer's settle_round is refused until then.
        assert (await _refusal(api.settle_round(auth=FLOOR))).code == "refused"
    settles = [j for j in handler.journal if j["cmd"] == "settle_round"]
    # Each refusal reaches the handler's journal too (command_refused), the technician's only so.
    assert [(j["actor"]["role"], j.get("refused")) for j in settles] == [
        ("dealer", None),
        ("dealer", "refused"),
        ("tech", "forbidden"),
        ("floor", None),
        ("floor", "refused"),
    ]


@pytest.mark.asyncio
async def test_only_a_signed_in_technician_subscribes_to_frames(
    table: tuple[ApiServer, TableHandler], caplog: pytest.LogCaptureFixture
) -> None:
    server, handler = table
    frame = {"device": "shoe", "direction": "in", "frame": "CRD|7|As", "raw": "02", "time": 1.5}
    async with (
        await ApiClient.connect(server.socket_path) as dealer,
        await ApiClient.connect(server.socket_path) as tech,
    ):
        # The dealer's station subscribes to everything open by default, not to frames.
        await dealer.subscribe()
        assert not server.has_subscribers("frames") and server.has_subscribers("state")
        unsigned = await _refusal(dealer.subscribe(["state", "frames"]))
        assert unsigned.code == "auth_required"
        assert unsigned.message == (
            "the topic 'frames' is for a slot technician: sign in with user and PIN (auth)"
        )
        for who in (DEALER_USER, FLOOR):
            refused = await _refusal(dealer.subscribe(["frames"], auth=who))
            assert refused.code == "forbidden" and "the topic 'frames' is for a slot technician" in (
                refused.message
            )
        # Nobody listens: not even encoded (this is not JSON), and no error.
        server.publish("frames", {"not json": {1, 2}})
        assert not server.has_subscribers("frames")
        await tech.subscribe(["frames"], auth=TECH)
        assert server.has_subscribers("frames")
        server.publish("frames", frame)
        server.publish("state", {"events": 0})
        tech_note = await asyncio.wait_for(anext(tech.notifications()), 5)
        assert (tech_note.topic, tech_note.data) == ("frames", frame)
        # The refused subscriptions left the dealer's topics as they were: state, not frames.
        dealer_note = await asyncio.wait_for(anext(dealer.notifications()), 5)
        assert dealer_note.topic == "state"
    for _ in range(100):  # until the server has seen the technician go
        if not server.has_subscribers("frames"):
            break
        await asyncio.sleep(0.01)
    assert not server.has_subscribers("frames")
    refusals = [j for j in handler.journal if j["cmd"] == "subscribe" and j.get("refused")]
    assert [j["refused"] for j in refusals] == ["auth_required", "forbidden", "forbidden"]
    assert "the topic 'frames' is for a slot technician" in caplog.text
    for pin in PINS:
        assert pin not in caplog.text
