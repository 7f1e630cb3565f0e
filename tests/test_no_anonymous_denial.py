"""No anonymous denial (issue 18, point 3): wrong PINs counted per peer and per name, guessing
bounded across peers, the reserved slots only for the peers whose Unix user fits, ``tablectl journal
new``'s count kept across runs, and a RAM clear of a journal the daemon ran."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.auth import Authenticator, AuthError, Role, add_user, make_user, save_users
from controller.journal import JournalReader
from controller.journal.records import RAM_CLEAR
from controller.tablectl import EXIT_FAILED, EXIT_OK
from controller.tablectl import main as tablectl
from sim.bench_rig import BenchRig
from tests.test_api import TECH, Clock, Raw
from tests.test_api_abuse import NOBODY, serving

__all__ = ["users_file", "users_template"]
from tests.test_api import users_file, users_template

FLOOR_PIN = "482916"


@pytest.fixture
def floor_users(tmp_path: Path) -> Path:
    path = tmp_path / "users.json"
    save_users(path, {"mfloor": make_user("mfloor", Role.FLOOR, FLOOR_PIN)})
    return path


async def _wrong(auth: Authenticator, peer: str, trusted: bool, n: int = 1) -> list[str]:
    codes = []
    for _ in range(n):
        with pytest.raises(AuthError) as refused:
            await auth.authenticate("mfloor", "111112", peer=peer, trusted=trusted)
        codes.append(refused.value.code)
    return codes


@pytest.mark.asyncio
async def test_a_peer_with_no_role_cannot_lock_a_name_for_the_dealers_screen(floor_users: Path) -> None:
    """Forbids: "A peer in the API group with no role locks a floorperson's name with 5 wrong PINs
    in 0.23 s (the right PIN is then `locked_out` for 5 minutes)"."""
    auth = Authenticator(floor_users, attempts=5, lockout_seconds=300, clock=Clock())
    assert await _wrong(auth, "uid:1001", False, 5) == ["auth_failed"] * 4 + ["locked_out"]
    assert await _wrong(auth, "uid:1001", False) == ["locked_out"]  # that peer is locked out
    user = await auth.authenticate("mfloor", FLOOR_PIN, peer="uid:1000", trusted=True)
    assert user.name == "mfloor"  # the dealer's screen signs the floorperson in


@pytest.mark.asyncio
async def test_guessing_stays_bounded_across_peers(floor_users: Path) -> None:
    """Many peers, each under its own count, still meet the name's back-off: past ``attempts``
    wrong PINs from all of them, an untrusted peer waits, doubling, at most ``lockout_seconds``."""
    clock = Clock()
    auth = Authenticator(floor_users, attempts=5, lockout_seconds=300, clock=clock)
    for peer in range(5):
        assert await _wrong(auth, f"uid:{2000 + peer}", False) == ["auth_failed"]
    # A sixth peer, fresh to its own count, must wait the back-off: 300 / 2**4 s.
    assert await _wrong(auth, "uid:2100", False) == ["locked_out"]
    clock.now += 300 / 16 + 0.1
    assert await _wrong(auth, "uid:2100", False) == ["auth_failed"]
    waits = []
    for peer in range(10):
        remaining = auth._back_off["mfloor"].next_try - clock.now
        waits.append(remaining)
        clock.now += remaining + 0.1
        await _wrong(auth, f"uid:{2200 + peer}", False)
    assert waits == sorted(waits) and max(waits) <= 300  # doubling, bounded
    # The dealer's screen is not held back by the others' guesses; its right PIN clears the back-off.
    assert (await auth.authenticate("mfloor", FLOOR_PIN, peer="uid:1000", trusted=True)).name == "mfloor"
    assert "mfloor" not in auth._back_off


@pytest.mark.asyncio
async def test_idle_peers_of_another_user_cannot_take_the_technicians_slot(
    short_dir: Path, users_file: Path
) -> None:
    """Forbids: "34 idle connections from such a peer take the technician's reserved slots"."""
    python = shutil.which("python3", path="/usr/bin:/bin")
    if os.geteuid() != 0 or python is None:
        pytest.skip("needs root (and /usr/bin/python3) to connect as another Unix user")
    limits = {"max_clients": 2, "tech_slots": 1, "dealer_slots": 0, "tech_uids": {0}}
    async with serving(short_dir, users_file, **limits) as (server, _):
        holders = [await Raw.connect(server.socket_path) for _ in range(2)]
        for _ in range(200):
            if server.clients == 2:
                break
            await asyncio.sleep(0.01)
        # A peer of another user than root (nobody; its own reserved slots are none here): no slot.
        script = (
            "import asyncio, sys\n"
            "async def main():\n"
            "    r, w = await asyncio.open_unix_connection(sys.argv[1])\n"
            "    print((await asyncio.wait_for(r.readline(), 5)).decode().strip())\n"
            "asyncio.run(main())\n"
        )
        proc = await asyncio.create_subprocess_exec(
            python,
            "-c",
            script,
            str(server.socket_path),
            user=NOBODY,
            group=os.getgid(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 20)
        assert '"busy"' in out.decode(), (out, err)
        # The technician (root, SO_PEERCRED uid 0) still has the slot.
        tech = await Raw.connect(server.socket_path)
        answer = await tech.ask({"id": 2, "cmd": "status", "auth": {"user": TECH.user, "pin": TECH.pin}})
        assert answer["ok"] is True, answer
        for raw in (*holders, tech):
            await raw.close()


def test_tablectl_journal_new_keeps_its_wrong_pins_across_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Forbids: "`tablectl journal new` starts a fresh PIN count at every run (12 wrong PINs in 12
    runs, never locked)"."""
    users = tmp_path / "users.json"
    add_user(users, "ttech", Role.TECH, "730152")
    users.chmod(0o600)
    journal = tmp_path / "journal.sqlite3"
    codes = []
    for _ in range(12):
        monkeypatch.setattr("sys.stdin", io.StringIO("111112\n"))
        assert (
            tablectl(
                ["journal", "new", "--journal", str(journal), "--user", "ttech", "--users-file", str(users)]
            )
            == EXIT_FAILED
        )
        codes.append("locked" if "locked" in capsys.readouterr().err else "wrong")
    assert codes == ["wrong"] * 4 + ["locked"] * 8
    saved = journal.with_name(journal.name + ".pin-failures")
    assert saved.exists() and (saved.stat().st_mode & 0o777) == 0o600


@pytest.mark.asyncio
async def test_a_ram_clear_works_on_a_journal_the_daemon_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forbids: "A RAM clear is impossible on any journal the daemon has run: the empty round the
    daemon begins after each settlement blocks `tablectl journal new` ("round ... is open")"."""
    async with BenchRig() as rig:
        users = rig.path / "users.json"
        save_users(users, {"ttech": make_user("ttech", Role.TECH, "730152")})
        daemon = rig.daemon
        assert daemon is not None and daemon.state.current is not None  # the round it began
        await rig.stop_daemon()
        journal = rig.path / "journal.sqlite"
        monkeypatch.setattr("sys.stdin", io.StringIO("730152\n"))
        code = await asyncio.to_thread(
            tablectl,
            ["journal", "new", "--journal", str(journal), "--user", "ttech", "--users-file", str(users)],
        )
        assert code == EXIT_OK
        (archive,) = rig.path.glob("*.archived")
        with JournalReader(archive) as old:
            last = old.records()[-1]
            assert last.kind == "round_cancelled" and last.actor == "ttech"
            assert old.verify().current is None
        with JournalReader(journal) as new:
            assert new.records()[0].kind == RAM_CLEAR
