"""The PIN lockout has no bypass (issue 9, item 5): sign-ins under made-up names cannot clear a
floorperson's lockout, however many, and an unknown name answers like a known one.

Real users file, real scrypt (about 80 ms a check here): the default test floods with more made-up
names than the unknown-name table holds; the slow one sends 2,000 at the daemon's own defaults.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from controller.auth import DEFAULT_MAX_UNKNOWN_NAMES, Authenticator, AuthError, Role, add_user

PIN = "246813"
WRONG = "135792"


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def users_file(tmp_path: Path) -> Path:
    path = tmp_path / "users.json"
    add_user(path, "mara", Role.FLOOR, PIN)
    add_user(path, "tech.joe", Role.TECH, "802461")
    return path


async def refused(auth: Authenticator, name: str, pin: str) -> AuthError:
    with pytest.raises(AuthError) as info:
        await auth.authenticate(name, pin)
    return info.value


async def lock(auth: Authenticator, name: str) -> None:
    for _ in range(auth.attempts - 1):
        assert (await refused(auth, name, WRONG)).code == "auth_failed"
    assert (await refused(auth, name, WRONG)).code == "locked_out"


async def flood_then_check(auth: Authenticator, made_up: int) -> None:
    await lock(auth, "mara")
    for i in range(made_up):
        # Each made-up name fails as often as it takes to be locked: the most state it can hold.
        assert (await refused(auth, f"guess{i:05d}", WRONG)).code == "auth_failed"
    assert auth.tracked() == (1, min(made_up, auth.max_unknown_names))
    # The real name is still locked: even the right PIN is refused.
    error = await refused(auth, "mara", PIN)
    assert error.code == "locked_out", error.message


@pytest.mark.asyncio
async def test_made_up_names_cannot_clear_a_lockout(users_file: Path) -> None:
    auth = Authenticator(users_file, attempts=3, lockout_seconds=600, clock=Clock(), max_unknown_names=8)
    await flood_then_check(auth, made_up=40)  # five times what the unknown-name table holds


@pytest.mark.slow
@pytest.mark.asyncio
async def test_two_thousand_made_up_names_at_the_defaults(users_file: Path) -> None:
    auth = Authenticator(users_file, clock=Clock())
    assert auth.max_unknown_names == DEFAULT_MAX_UNKNOWN_NAMES < 2000
    await flood_then_check(auth, made_up=2000)


@pytest.mark.asyncio
async def test_the_lockout_ends_after_its_time_and_the_right_pin_then_signs_in(users_file: Path) -> None:
    clock = Clock()
    auth = Authenticator(users_file, attempts=3, lockout_seconds=600, clock=clock)
    await lock(auth, "mara")
    clock.now += 599
    assert (await refused(auth, "mara", PIN)).code == "locked_out"
    clock.now += 2
    assert (await auth.authenticate("mara", PIN)).role is Role.FLOOR
    assert auth.tracked() == (0, 0)


@pytest.mark.asyncio
async def test_an_unknown_name_answers_like_a_known_one(users_file: Path) -> None:
    auth = Authenticator(users_file, attempts=3, lockout_seconds=600, clock=Clock())
    digits = re.compile(r"\d+")
    for step in range(3):
        known, unknown = await refused(auth, "mara", WRONG), await refused(auth, "nobody", WRONG)
        assert (known.code, digits.sub("#", known.message)) == (
            unknown.code,
            digits.sub("#", unknown.message),
        ), step
    assert known.code == "locked_out"


@pytest.mark.asyncio
async def test_an_unknown_name_costs_the_same_scrypt_run(users_file: Path) -> None:
    auth = Authenticator(users_file, attempts=100, lockout_seconds=600, clock=Clock())

    async def seconds(name: str) -> float:
        start = time.perf_counter()
        for _ in range(3):
            await refused(auth, name, WRONG)
        return time.perf_counter() - start

    await seconds("mara")  # the users file is read on the first check
    known, unknown = await seconds("mara"), await seconds("nobody")
    assert 0.5 < unknown / known < 2.0, (known, unknown)


@pytest.mark.asyncio
async def test_a_user_removed_from_the_file_loses_his_count_and_a_new_one_starts_clean(
    users_file: Path,
) -> None:
    auth = Authenticator(users_file, attempts=3, lockout_seconds=600, clock=Clock())
    await refused(auth, "newbie", WRONG)  # not a user yet: counted with the unknown names
    assert auth.tracked() == (0, 1)
    await asyncio.sleep(0.01)  # a later mtime for the users file
    add_user(users_file, "newbie", Role.FLOOR, "975310")
    assert (await auth.authenticate("newbie", "975310")).name == "newbie"
    assert auth.tracked() == (0, 0)
