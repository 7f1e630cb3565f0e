"""The floorpersons' names for the dealer's screen (issue 19): the local API's ``floorpersons``
command answers the dealer's screen (and a floorperson) with the names of the users who hold the
floorperson role, names only, and refuses a peer with no role (docs/local-api.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.api_client import ApiClient, ApiError
from controller.auth import Role, add_user
from sim.bench_rig import BenchRig
from tests.test_api import FLOOR, TECH, Raw
from tests.test_api_abuse import serving

__all__ = ["users_file", "users_template"]
from tests.test_api import users_file, users_template


@pytest.mark.asyncio
async def test_a_peer_with_no_role_is_refused_the_floorpersons_names(
    short_dir: Path, users_file: Path
) -> None:
    """The test is neither the dealer's screen nor signed in: refused, no name in the answer; a
    slot technician signed in is refused too; a floorperson signed in has the names."""
    async with serving(short_dir, users_file) as (server, _):
        peer = await Raw.connect(server.socket_path)
        answer = await peer.ask({"id": 1, "cmd": "floorpersons"})
        assert answer["ok"] is False and answer["error"]["code"] == "auth_required", answer
        assert FLOOR.user not in json.dumps(answer)
        as_tech = {"id": 2, "cmd": "floorpersons", "auth": {"user": TECH.user, "pin": TECH.pin}}
        refused = await peer.ask(as_tech)
        assert refused["error"]["code"] == "forbidden" and FLOOR.user not in json.dumps(refused)
        as_floor = {"id": 3, "cmd": "floorpersons", "auth": {"user": FLOOR.user, "pin": FLOOR.pin}}
        assert (await peer.ask(as_floor))["result"] == {"floorpersons": [FLOOR.user]}
        await peer.close()


@pytest.mark.asyncio
async def test_the_dealers_screen_has_the_floorpersons_names_from_the_daemon() -> None:
    """The real daemon: the names of the users with the floorperson role, sorted, and nothing else
    of them (no PIN, hash, salt or count); a technician's name is not among them."""
    async with BenchRig() as rig:
        users = rig.path / "users.json"
        add_user(users, "zfloor", Role.FLOOR, "550123")
        add_user(users, "afloor", Role.FLOOR, "550124")
        add_user(users, "ttech", Role.TECH, "730152")
        async with await ApiClient.connect(rig.socket) as api:
            raw = await api.call("floorpersons", {})
            names = await api.floorpersons()
        assert list(raw) == ["floorpersons"]
        assert names == sorted(names) and {"zfloor", "afloor"} <= set(names) and "ttech" not in names
        assert all(isinstance(n, str) for n in names)
        with pytest.raises(ApiError) as bad:
            async with await ApiClient.connect(rig.socket) as api:
                await api.call("floorpersons", {"role": "tech"})
        assert bad.value.code == "bad_args"
