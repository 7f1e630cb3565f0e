"""Face-down cards stay face down: a subscriber with no role never sees a card while a round is
dealt; the dealer's screen and a signed-in floorperson do (issue 9, item 6; controller/api/face_down.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Final

import pytest

from controller.api import ApiServer
from controller.api.face_down import WITHHELD, for_no_role
from controller.api_client import ApiClient
from controller.auth import Authenticator
from sim.bench_rig import SEAT_PINS, BenchRig
from tests.test_api import FLOOR, GROUP, TableHandler, users_file, users_template

__all__ = ["users_file", "users_template"]  # fixtures from test_api, used here by name

NOBODY: Final = 65534
HANDS: Final[dict[int | str, str]] = {3: "Kh Kd 8c 8s 2h", 5: "Ac Qd Jd 6h 3s", "dealer": "As Ks 9d 6c 4h"}


NOTIFICATIONS: Final = [
    ("input", {"source": "shoe", "type": "card_read", "card": "Kh"}),
    (
        "event",
        {"seq": 7, "kind": "event", "round": "r1", "body": {"type": "cards", "to": 3, "cards": "Kh Kd"}},
    ),
    (
        "event",
        {
            "seq": 8,
            "kind": "event",
            "round": "r1",
            "body": {"type": "hole_card_reader", "result": "blackjack"},
        },
    ),
    (
        "event",
        {
            "seq": 9,
            "kind": "refused",
            "round": "r1",
            "body": {"entry": {"kind": "event", "body": {"type": "cards", "to": 9, "cards": "2c 3c"}}},
        },
    ),
]


def test_what_a_peer_with_no_role_is_shown() -> None:
    shown = [for_no_role(topic, data) for topic, data in NOTIFICATIONS]
    assert shown[0]["card"] == WITHHELD
    assert shown[1]["body"] == {"type": "cards", "to": 3, "cards": WITHHELD}
    assert shown[2]["body"] == {"type": "hole_card_reader", "result": WITHHELD}
    assert shown[3]["body"]["entry"]["body"]["cards"] == WITHHELD
    assert (
        "Kh" not in json.dumps(shown)
        and "2c" not in json.dumps(shown)
        and "blackjack" not in json.dumps(shown)
    )
    # No card, nothing changed (the same object: not even encoded again).
    status = {"seq": 10, "kind": "lock_out", "round": None, "body": {"reason": "link lost"}}
    assert for_no_role("event", status) is status
    settled = {
        "seq": 11,
        "kind": "round_settled",
        "round": "r1",
        "body": {"settlement": {"hand": "two pair"}},
    }
    assert for_no_role("event", settled) is settled  # shown down by then


def test_the_cards_in_the_tables_state_are_withheld_from_a_peer_with_no_role() -> None:
    cards = [{"type": "cards", "to": "3", "cards": "Kh Kd"}, {"type": "cards", "to": "dealer", "cards": "As"}]
    house_way = [{"to": "dealer", "cards": "As Ad 7c 3s / Ks Kd / Qh", "section": "§ 659a.11(c)"}]
    round_ = {"id": "r1", "events": 4, "cards": cards, "house_way": house_way}
    state = {"seq": 12, "round": round_, "last_rounds": []}
    shown = for_no_role("state", state)
    assert [c["cards"] for c in shown["round"]["cards"]] == [WITHHELD, WITHHELD]
    assert shown["round"]["house_way"] == [{**house_way[0], "cards": WITHHELD}]
    assert [c["to"] for c in shown["round"]["cards"]] == ["3", "dealer"]  # where, not what
    assert state["round"]["cards"] == cards  # the dealer's copy untouched
    no_round = {"seq": 13, "round": None}
    assert for_no_role("state", no_round) is no_round


def test_a_hands_total_and_the_decisions_offered_are_withheld_like_its_cards() -> None:
    # A Blackjack seat's "blackjack" total, or "even_money" offered, tells its two cards.
    totals = [{"to": "3", "hand": 0, "total": "blackjack"}, {"to": "dealer", "hand": 0, "total": "soft 11"}]
    waiting = [{"who": "player", "step": "decision", "what": "insurance", "decisions": ["even_money"]}]
    jackpot = [{"seat": 1, "wager": "progressive", "hand": "royal flush", "award": "100% of meter"}]
    state = {"seq": 14, "round": {"id": "r1", "totals": totals, "waiting": waiting, "jackpot_hands": jackpot}}
    shown = for_no_role("state", state)["round"]
    assert shown["jackpot_hands"] == [{**jackpot[0], "hand": WITHHELD, "award": WITHHELD}]
    assert "royal" not in json.dumps(shown)
    assert [(t["to"], t["total"]) for t in shown["totals"]] == [("3", WITHHELD), ("dealer", WITHHELD)]
    assert shown["waiting"][0]["decisions"] == WITHHELD and shown["waiting"][0]["step"] == "decision"
    assert "blackjack" not in json.dumps(shown) and "even_money" not in json.dumps(shown)


@pytest.mark.asyncio
async def test_subscribers_with_and_without_a_role(short_dir: Path, users_file: Path) -> None:
    server = ApiServer(TableHandler(), short_dir / "run" / "api.sock", GROUP, Authenticator(users_file))
    async with (
        server,
        await ApiClient.connect(server.socket_path) as nobody,
        await ApiClient.connect(server.socket_path) as floor,
    ):
        await nobody.subscribe(["input", "event"])
        await floor.subscribe(["input", "event"], auth=FLOOR)
        for topic, data in NOTIFICATIONS:
            server.publish(topic, data)
        seen: dict[str, list[Any]] = {"nobody": [], "floor": []}
        for name, client in (("nobody", nobody), ("floor", floor)):
            notes = client.notifications()
            async with asyncio.timeout(5):
                while len(seen[name]) < len(NOTIFICATIONS):
                    seen[name].append((await anext(notes)).data)
        assert seen["floor"] == [data for _, data in NOTIFICATIONS]
        assert seen["nobody"] == [for_no_role(topic, data) for topic, data in NOTIFICATIONS]


STATUS_ONCE: Final = """
import asyncio, sys
async def main():
    reader, writer = await asyncio.open_unix_connection(sys.argv[1], limit=2**20)
    writer.write(b'{"id": 1, "cmd": "status"}\\n')
    await writer.drain()
    sys.stdout.write((await reader.readline()).decode())
asyncio.run(main())
"""


WATCHER: Final = """
import asyncio, sys
async def main():
    reader, writer = await asyncio.open_unix_connection(sys.argv[1], limit=2**20)
    writer.write(b'{"id": 1, "cmd": "subscribe", "args": {"topics": ["input", "event", "state"]}}\\n')
    await writer.drain()
    while line := await reader.readline():
        sys.stdout.write(line.decode())
        sys.stdout.flush()
asyncio.run(main())
"""


@pytest.mark.asyncio
async def test_the_daemon_never_shows_a_peer_with_no_role_a_face_down_card() -> None:
    python = shutil.which("python3", path="/usr/bin:/bin")
    if os.geteuid() != 0 or python is None:
        pytest.skip("needs root (and /usr/bin/python3) to subscribe under another uid")
    directory = Path(tempfile.mkdtemp(prefix="face-", dir="/tmp"))
    directory.chmod(0o755)
    try:
        async with BenchRig(directory) as rig:
            watcher = await asyncio.create_subprocess_exec(
                python, "-c", WATCHER, str(rig.socket), user=NOBODY, group=os.getgid(), stdout=subprocess.PIPE
            )
            assert watcher.stdout is not None
            first = json.loads(await asyncio.wait_for(watcher.stdout.readline(), 10))
            assert first["ok"] is True  # subscribed, with no role
            async with await ApiClient.connect(rig.socket) as dealer:
                await dealer.subscribe(["input", "event"])
                for seat in (3, 5):
                    assert seat in SEAT_PINS
                    await dealer.submit_event(
                        {"type": "wager", "seat": seat, "wager": "ante", "amount": "5.00"}
                    )
                await rig.press_lock_out()
                for position, cards in HANDS.items():
                    await rig.deal(position, cards)
                reads: list[str] = []
                notes = dealer.notifications()
                async with asyncio.timeout(10):
                    while len(reads) < 15:
                        note = await anext(notes)
                        if note.topic == "input" and note.data.get("type") == "card_read":
                            reads.append(note.data["card"])
                assert sorted(reads) == sorted(" ".join(HANDS.values()).split())  # the dealer sees them
                # The round's cards in the table's state: the dealer's status has them all ...
                dealt = (await dealer.status())["round"]["cards"]
                assert {str(c["to"]): c["cards"] for c in dealt} == {str(k): v for k, v in HANDS.items()}
                # ... a status asked by a peer with no role has where they went, not what they are.
                asked = await asyncio.create_subprocess_exec(
                    python,
                    "-c",
                    STATUS_ONCE,
                    str(rig.socket),
                    user=NOBODY,
                    group=os.getgid(),
                    stdout=subprocess.PIPE,
                )
                answer = json.loads((await asked.communicate())[0])
                assert answer["ok"] is True
                assert [c["cards"] for c in answer["result"]["round"]["cards"]] == [WITHHELD] * 3
            await asyncio.sleep(0.3)
            watcher.terminate()
            out, _ = await watcher.communicate()
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    lines = [json.loads(line) for line in out.decode().splitlines()]
    card_reads = [n for n in lines if n.get("notify") == "input" and n["data"].get("type") == "card_read"]
    stacks = [n for n in lines if n.get("notify") == "event" and n["data"]["body"].get("type") == "cards"]
    assert len(card_reads) == 15 and len(stacks) == 3  # it heard every card, and was shown none
    assert {n["data"]["card"] for n in card_reads} == {WITHHELD}
    assert {n["data"]["body"]["cards"] for n in stacks} == {WITHHELD}
    states = [n["data"] for n in lines if n.get("notify") == "state" and n["data"].get("round")]
    assert states and {c["cards"] for s in states for c in s["round"].get("cards", ())} == {WITHHELD}
    text = out.decode()
    assert not any(f'"{card}' in text or f" {card}" in text for card in " ".join(HANDS.values()).split())
