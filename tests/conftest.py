"""The fixtures the tests share (issue 22: written once, not per file).

- ``pki``: the certificates of a real Mosquitto and its clients (:class:`~sim.mosquitto.Pki`), one
  set per test module: the broker, the meter, the tables (``USERS``);
- ``short_dir``: a directory under /tmp whose path is short enough for a Unix socket (``sun_path``
  holds 108 bytes; pytest's ``tmp_path`` can be longer), open to the dealer's child process of
  another uid through its group;
- ``rig``: the bench rig (:class:`~sim.bench_rig.BenchRig`), its daemon running, with the bench's
  floorperson and the floorperson and technician the tests sign in as (:data:`RIG_USERS`);
- ``display``: one private Xvfb for the whole test process, Kivy's environment set before its
  first import. One per process, not per module: Kivy opens its window once a process, on the
  display it first finds, and a second module's Xvfb under the same window crashes the process
  (an xdist worker that takes two screen modules died without a word).

The broker itself is :class:`~sim.mosquitto.Broker`, started by each test on the ``pki`` it is
given (``tests/mosquitto.py``, ``tests/meter_link.py``).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Final

import pytest
import pytest_asyncio

from controller.auth import Role, load_users, make_user, save_users
from sim.bench_rig import BenchRig
from sim.mosquitto import USERS, Pki

#: The users the rig's tests sign in as, beside the bench's own floorperson: name, role, PIN.
RIG_USERS: Final = (("mfloor", Role.FLOOR, "482916"), ("tmtech", Role.TECH, "731905"))


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"), users=USERS)


@pytest.fixture
def short_dir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="t-", dir="/tmp"))
    path.chmod(0o755)  # a subscriber of another uid reaches the socket through its group
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest_asyncio.fixture
async def rig() -> AsyncIterator[BenchRig]:
    # BenchRig's own short temporary directory: the socket's path must fit 107 bytes.
    async with BenchRig() as bench:
        users_file = bench.path / "users.json"
        users = load_users(users_file)
        users.update({name: make_user(name, role, pin) for name, role, pin in RIG_USERS})
        save_users(users_file, users)
        yield bench


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """A private Xvfb for this process (see the module's docstring), at 800x480 to begin."""
    from sim.screen_display import kivy_environment, start_display

    with start_display() as name:
        kivy_environment(800, 480)
        yield name
