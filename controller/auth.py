"""Who may do what over the local API: roles, users and their PINs, and the lockout.

Three roles (:class:`Role`): the **dealer** runs the round, the **floorperson** verifies and
validates payouts ("a floorperson or above", e.g. § 639a.11(c)(5)(iii), § 633a.7(o)(2)(ii)(B)),
the **slot technician** services the controller. A floorperson or a technician proves who he is
with a user name and a PIN; the dealer's touchscreen is recognised by its Unix user (see
``docs/local-api.md``).

PINs are kept only as scrypt hashes (:func:`hashlib.scrypt`) with a random salt per user, in a
users file of mode 0600 that the daemon refuses to read if anyone else may read it. A fresh
install has *no* users and no default PIN: root adds them with ``tablectl user add``
(:func:`add_user`). The parameters (``docs/local-api.md`` explains the choice):

========  =====================  ===============================================================
``n``     2**14 (16384)          CPU/memory cost; 16 MiB and about 50 ms a check on a desktop,
                                 a few hundred on a Raspberry Pi: slow for a guesser, not for a
                                 floorperson's tap
``r``     8                      block size
``p``     1                      parallelism
salt      16 random bytes        per user (``secrets.token_bytes``), so equal PINs hash apart
dklen     32 bytes               the stored hash
========  =====================  ===============================================================

The parameters are stored with each user, so they can be raised later without losing users; a
file with weaker ones than these is refused.

A PIN is a secret: no function here logs it, puts it in a message or keeps it after the check.
A wrong PIN is counted per user name; after ``attempts`` wrong ones in a row the name is locked
for ``lockout_seconds``, during which even the right PIN is refused (:class:`Authenticator`). The
count of every name in the users file is kept for as long as the name is there: no number of
sign-ins under made-up names can push it out (they are kept apart, see :class:`Authenticator`).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import fcntl
import hashlib
import hmac
import itertools
import json
import logging
import os
import re
import secrets
import stat
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Final

log = logging.getLogger(__name__)


class Role(StrEnum):
    DEALER = "dealer"
    FLOOR = "floor"
    TECH = "tech"


#: How each role is named in messages.
ROLE_WORDS: Final[Mapping[Role, str]] = {
    Role.DEALER: "a dealer",
    Role.FLOOR: "a floorperson",
    Role.TECH: "a slot technician",
}

SCRYPT_N: Final = 2**14
SCRYPT_R: Final = 8
SCRYPT_P: Final = 1
SCRYPT_DKLEN: Final = 32
SALT_BYTES: Final = 16
# scrypt needs 128 * r * n bytes (16 MiB here); the default limit of 32 MiB leaves no room to raise n.
SCRYPT_MAXMEM: Final = 128 * 2**20

PIN_MIN_DIGITS: Final = 6
PIN_MAX_DIGITS: Final = 12
USERS_FILE_VERSION: Final = 1
USER_NAME = re.compile(r"[a-z][a-z0-9._-]{0,31}")

DEFAULT_ATTEMPTS: Final = 5
DEFAULT_LOCKOUT_SECONDS: Final = 300
# Made-up names tried and failed are remembered (so that they answer like real ones) up to this
# many, oldest forgotten first, so a flood of them cannot grow the daemon's memory. They are kept
# apart from the users' own counts, which a flood can therefore never push out.
DEFAULT_MAX_UNKNOWN_NAMES: Final = 1024


class UsersFileError(ValueError):
    """The users file cannot be used; the message names the file and what is wrong."""


class PinError(ValueError):
    """A PIN that does not meet the rules for a new PIN; the message never contains it."""


@dataclass(frozen=True, slots=True)
class User:
    """One user of the users file. The salt and hash are kept out of ``repr``."""

    name: str
    role: Role
    n: int
    r: int
    p: int
    salt: bytes = field(repr=False)
    hash: bytes = field(repr=False)

    def to_json(self) -> dict[str, object]:
        return {
            "role": str(self.role),
            "kdf": "scrypt",
            "n": self.n,
            "r": self.r,
            "p": self.p,
            "salt": base64.b64encode(self.salt).decode("ascii"),
            "hash": base64.b64encode(self.hash).decode("ascii"),
        }


def check_new_pin(pin: str) -> None:
    """Refuse a PIN too easy to guess; raises :class:`PinError` (without the PIN)."""
    if not isinstance(pin, str) or not pin.isascii() or not pin.isdigit():
        raise PinError("a PIN is digits only")
    if not PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS:
        raise PinError(f"a PIN has {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits, not {len(pin)}")
    if len(set(pin)) == 1:
        raise PinError("a PIN of one digit repeated is too easy to guess")
    steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(pin)}
    if steps in ({1}, {9}):
        raise PinError("a PIN of consecutive digits (123456, 987654) is too easy to guess")


def check_user_name(name: str) -> None:
    if not isinstance(name, str) or not USER_NAME.fullmatch(name):
        raise UsersFileError(
            f"user name {name!r}: lower-case letters, digits, '.', '_' or '-', starting with a letter, "
            "at most 32 characters"
        )


def hash_pin(pin: str, salt: bytes, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P) -> bytes:
    return hashlib.scrypt(
        pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=SCRYPT_MAXMEM, dklen=SCRYPT_DKLEN
    )


def make_user(name: str, role: Role, pin: str) -> User:
    """A new user with a fresh salt; checks the name and the PIN."""
    check_user_name(name)
    check_new_pin(pin)
    salt = secrets.token_bytes(SALT_BYTES)
    return User(name, Role(role), SCRYPT_N, SCRYPT_R, SCRYPT_P, salt, hash_pin(pin, salt))


# A user no one has, checked when the name is unknown, so an unknown name takes as long as a known one.
_NOBODY: Final = User("", Role.DEALER, SCRYPT_N, SCRYPT_R, SCRYPT_P, b"\0" * SALT_BYTES, b"\0" * SCRYPT_DKLEN)


def verify_pin(user: User | None, pin: str) -> bool:
    """Whether ``pin`` is ``user``'s PIN, compared in constant time; ``None`` takes as long and fails."""
    ref = user or _NOBODY
    candidate = hash_pin(pin, ref.salt, ref.n, ref.r, ref.p)
    return hmac.compare_digest(candidate, ref.hash) and user is not None


# --- the users file -------------------------------------------------------------------------------


def load_users(path: Path) -> dict[str, User]:
    """The users in ``path``; a missing file is a fresh install: no users.

    Refused (:class:`UsersFileError`): a file others may read or write (it must be 0600, as ssh
    insists of a private key), malformed JSON, an unknown role, weak scrypt parameters.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise UsersFileError(f"{path}: cannot read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise UsersFileError(f"{path}: not a regular file")
        if st.st_mode & 0o077:
            raise UsersFileError(
                f"{path}: mode {stat.S_IMODE(st.st_mode):04o} lets others read or change it; "
                f"it must be 0600 (chmod 600 {path})"
            )
        raw = f.read()
    return _parse_users(raw, path)


def _parse_users(raw: bytes, path: Path) -> dict[str, User]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise UsersFileError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("version") != USERS_FILE_VERSION:
        raise UsersFileError(
            f'{path}: not a users file of version {USERS_FILE_VERSION} ({{"version": 1, ...}})'
        )
    entries = data.get("users")
    if not isinstance(entries, dict):
        raise UsersFileError(f'{path}: "users" must be an object of user name to user')
    users: dict[str, User] = {}
    for name, entry in entries.items():
        where = f"{path}: user {name!r}"
        try:
            check_user_name(name)
        except UsersFileError as exc:
            raise UsersFileError(f"{path}: {exc}") from None
        if not isinstance(entry, dict) or entry.get("kdf") != "scrypt":
            raise UsersFileError(f'{where}: must be an object with "kdf": "scrypt"')
        try:
            role = Role(str(entry.get("role")))
        except ValueError:
            raise UsersFileError(
                f"{where}: role {entry.get('role')!r} is not one of {', '.join(r.value for r in Role)}"
            ) from None
        n, r, p = entry.get("n"), entry.get("r"), entry.get("p")
        if not (isinstance(n, int) and isinstance(r, int) and isinstance(p, int)):
            raise UsersFileError(f"{where}: n, r and p must be whole numbers")
        if n < SCRYPT_N or r < SCRYPT_R or p < SCRYPT_P or n & (n - 1):
            raise UsersFileError(
                f"{where}: scrypt n={n} r={r} p={p} is weaker than n={SCRYPT_N} r={SCRYPT_R} p={SCRYPT_P}; "
                "set the PIN again with tablectl user add"
            )
        try:
            salt = base64.b64decode(str(entry.get("salt")), validate=True)
            digest = base64.b64decode(str(entry.get("hash")), validate=True)
        except (binascii.Error, ValueError):
            raise UsersFileError(f"{where}: salt and hash must be base64") from None
        if len(salt) < SALT_BYTES or len(digest) != SCRYPT_DKLEN:
            raise UsersFileError(f"{where}: salt or hash of the wrong length")
        users[name] = User(name, role, n, r, p, salt, digest)
    return users


def names_of(users: Mapping[str, User], role: Role) -> list[str]:
    """The names of the users who hold ``role``, sorted: names only, never a PIN, a hash or a
    count (the dealer's screen offers the floorpersons as keys to choose, docs/local-api.md)."""
    return sorted(name for name, user in users.items() if user.role is role)


def save_users(path: Path, users: Mapping[str, User], owner: tuple[int, int] | None = None) -> None:
    """Write the users file atomically, mode 0600, durable when this returns.

    The file keeps its owner; a new file gets ``owner`` (uid, gid), e.g. the daemon's user when
    root runs ``tablectl user add``, or else the caller's.
    """
    data = {"version": USERS_FILE_VERSION, "users": {n: users[n].to_json() for n in sorted(users)}}
    body = (json.dumps(data, indent=2) + "\n").encode("utf-8")
    if path.exists():
        st = os.stat(path)
        owner = (st.st_uid, st.st_gid)  # an existing file keeps its owner
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    # O_EXCL with mode 0600: the file is never readable by others, not even for a moment.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(body)
            f.flush()
            os.fchmod(f.fileno(), 0o600)
            if owner is not None and owner != (os.geteuid(), os.getegid()):
                os.fchown(f.fileno(), owner[0], owner[1])
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the users file's directory, so two ``tablectl user`` runs do not race."""
    dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(dir_fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(dir_fd)


def add_user(
    path: Path,
    name: str,
    role: Role | str,
    pin: str,
    *,
    replace: bool = False,
    owner: tuple[int, int] | None = None,
) -> User:
    """Add ``name`` with ``role`` and ``pin`` (or, with ``replace``, set a new role and PIN).

    Raises :class:`UsersFileError` for a bad name or an existing user, :class:`PinError` for a weak
    PIN, :class:`ValueError` for an unknown role.
    """
    try:
        role = Role(role)
    except ValueError:
        raise ValueError(f"role {role!r} is not one of {', '.join(r.value for r in Role)}") from None
    user = make_user(name, role, pin)
    with _locked(path):
        users = load_users(path)
        if name in users and not replace:
            raise UsersFileError(f"{path}: user {name!r} exists already (replace it to set a new PIN)")
        users[name] = user
        save_users(path, users, owner)
    return user


def remove_user(path: Path, name: str) -> User:
    """Remove ``name``; :class:`UsersFileError` if there is no such user."""
    with _locked(path):
        users = load_users(path)
        if name not in users:
            raise UsersFileError(f"{path}: no user {name!r} (users: {', '.join(sorted(users)) or 'none'})")
        user = users.pop(name)
        save_users(path, users)
    return user


# --- checking PINs in the daemon ---------------------------------------------------------------


class AuthError(Exception):
    """A refused sign-in: ``code`` is ``auth_failed``, ``locked_out`` or ``auth_unavailable``."""

    def __init__(self, code: str, message: str, began_lockout: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.began_lockout = began_lockout
        """This wrong PIN locked the name (journaled once, at once; docs/local-api.md "Limits")."""


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0


@dataclass
class _BackOff:
    """A name's wrong PINs from every peer, and when an untrusted peer may try it again."""

    count: int = 0
    next_try: float = 0.0


class Authenticator:
    """Checks user names and PINs for the local API, with a lockout after repeated wrong PINs.

    The users file is read again whenever it changes (``tablectl user add`` needs no restart).
    The file read and the scrypt run in a worker thread, one check at a time (a check needs 16 MiB
    and a core for a moment; the loop never waits on it). Wrong PINs are counted per name in
    memory: a restart of the daemon clears them.

    Counted **per peer and per name** (``peer``: the peer's Unix user, as ``SO_PEERCRED`` gives
    it): a peer that makes a name's wrong PINs locks that name for itself only, so a peer with no
    role in the API group cannot lock a floorperson's name for the dealer's screen. Guessing stays
    bounded across peers: once a name's wrong PINs from all peers reach ``attempts``, an
    untrusted peer (not the dealer's screen) may try that name again only after a back-off that
    doubles with each further wrong PIN, up to ``lockout_seconds`` (docs/local-api.md, "Limits").

    Two tables, so that made-up names cannot clear a user's lockout: the counts of the names in the
    users file (one entry per user at most, never evicted; dropped when the name leaves the file),
    and the counts of unknown names (bounded by ``max_unknown_names``, the oldest forgotten
    first). An unknown name costs the same scrypt run as a known one, is counted and locked the
    same way and answers in the same words, so the API does not tell which names exist; evicting
    one unknown name only ever makes room for another.
    """

    def __init__(
        self,
        users_file: Path,
        attempts: int = DEFAULT_ATTEMPTS,
        lockout_seconds: float = DEFAULT_LOCKOUT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        max_unknown_names: int = DEFAULT_MAX_UNKNOWN_NAMES,
    ) -> None:
        if attempts < 1 or lockout_seconds <= 0 or max_unknown_names < 1:
            raise ValueError(
                "attempts and max_unknown_names must be at least 1 and lockout_seconds more than 0"
            )
        self.users_file = users_file
        self.attempts = attempts
        self.lockout_seconds = lockout_seconds
        self.max_unknown_names = max_unknown_names
        self._clock = clock
        self._lock = asyncio.Lock()
        self._users: dict[str, User] = {}
        self._stamp: tuple[int, ...] | None = None
        # (peer, name): the names in the users file, and every other name (bounded).
        self._failures: dict[tuple[str, str], _Failures] = {}
        self._unknown: OrderedDict[tuple[str, str], _Failures] = OrderedDict()
        self._back_off: OrderedDict[str, _BackOff] = OrderedDict()  # by name, every peer's

    def _failures_of(self, key: tuple[str, str]) -> _Failures | None:
        table = self._failures if key[1] in self._users else self._unknown
        return table.get(key)

    def _count_failure(self, key: tuple[str, str]) -> _Failures:
        if key[1] in self._users:
            return self._failures.setdefault(key, _Failures())
        failures = self._unknown.setdefault(key, _Failures())
        self._unknown.move_to_end(key)
        while len(self._unknown) > self.max_unknown_names:
            self._unknown.popitem(last=False)
        return failures

    def _count_back_off(self, name: str) -> None:
        """One more wrong PIN for ``name`` from any peer: past ``attempts``, the untrusted peers'
        next try waits ``lockout_seconds / 2**(attempts + 4 - count)``, at most ``lockout_seconds``."""
        back_off = self._back_off.setdefault(name, _BackOff())
        self._back_off.move_to_end(name)
        while len(self._back_off) > self.max_unknown_names + len(self._users):
            self._back_off.popitem(last=False)
        back_off.count += 1
        if back_off.count >= self.attempts:
            wait = self.lockout_seconds / 2 ** max(0, self.attempts + 4 - back_off.count)
            back_off.next_try = self._clock() + wait

    def _follow_users_file(self) -> None:
        """After a read of the users file: a removed user's count goes, a new user's starts anew."""
        for key in [k for k in self._failures if k[1] not in self._users]:
            del self._failures[key]
        for key in [k for k in self._unknown if k[1] in self._users]:
            del self._unknown[key]

    def tracked(self) -> tuple[int, int]:
        """How many (peer, name) pairs have a count: (users, unknown names); for status and tests."""
        return len(self._failures), len(self._unknown)

    async def authenticate(
        self, name: str, pin: str, who: str = "", *, peer: str = "", trusted: bool = True
    ) -> User:
        """The user, if ``pin`` is ``name``'s PIN and the name is not locked for ``peer``; else
        :class:`AuthError`.

        ``who`` is for the log only; ``peer`` (the peer's Unix user) keys the count; an untrusted
        peer (``trusted`` false: not the dealer's screen) also waits out the name's back-off.
        """
        async with self._lock:
            key = (peer, name)
            failures = self._failures_of(key)
            now = self._clock()
            if failures is not None and failures.locked_until > now:
                raise AuthError("locked_out", self._locked_message(failures.locked_until - now))
            back_off = self._back_off.get(name)
            if not trusted and back_off is not None and back_off.next_try > now:
                raise AuthError(
                    "locked_out",
                    f"too many wrong PINs for this name from any peer: try again in "
                    f"{_duration(back_off.next_try - now)}",
                )
            try:
                user = await asyncio.to_thread(self._check, name, pin)
            except UsersFileError as exc:
                log.error("local API sign-in refused: %s", exc)
                raise AuthError(
                    "auth_unavailable", "the users file cannot be used; see the daemon's log"
                ) from None
            self._follow_users_file()
            # A name is logged only if it is a user's: an unknown one may be a PIN typed in the wrong box.
            shown = repr(name) if name in self._users else "(an unknown name, not logged)"
            if user is not None:
                self._failures.pop(key, None)
                self._back_off.pop(name, None)
                log.info("local API: user %s (%s) signed in %s", shown, user.role, who)
                return user
            self._count_back_off(name)
            failures = self._count_failure(key)
            failures.count += 1
            if failures.count >= self.attempts:
                failures.count = 0
                failures.locked_until = self._clock() + self.lockout_seconds
                log.warning(
                    "local API: user %s locked out for %d s after %d wrong PINs from %s",
                    shown,
                    self.lockout_seconds,
                    self.attempts,
                    who,
                )
                raise AuthError("locked_out", self._locked_message(self.lockout_seconds), began_lockout=True)
            left = self.attempts - failures.count
            log.warning(
                "local API: wrong PIN for user %s (%d of %d) %s", shown, failures.count, self.attempts, who
            )
            raise AuthError(
                "auth_failed",
                f"wrong user name or PIN; {left} more wrong PIN{'s' if left != 1 else ''} "
                f"lock this name for {_duration(self.lockout_seconds)} (from this peer)",
            )

    def _locked_message(self, remaining: float) -> str:
        return (
            f"too many wrong PINs: this name is locked for {_duration(remaining)} more "
            f"(after {self.attempts} wrong PINs in a row)"
        )

    def _check(self, name: str, pin: str) -> User | None:
        """In the worker thread: read the users file if it changed, then the scrypt check."""
        try:
            st = os.stat(self.users_file)
            # ctime and mode too: a chmod that opens the file up must be noticed at once.
            stamp: tuple[int, ...] | None = (
                st.st_ino,
                st.st_mtime_ns,
                st.st_ctime_ns,
                st.st_size,
                st.st_mode,
            )
        except FileNotFoundError:
            stamp = None
        if stamp is None:
            self._users = {}  # a fresh install: nobody may sign in until root adds a user
        elif stamp != self._stamp:
            self._users = load_users(self.users_file)
        self._stamp = stamp
        user = self._users.get(name)
        return user if verify_pin(user, pin) else None


class SavedFailures:
    """Wrong PINs of a sign-in on the command line (``tablectl journal new``), kept in a file so
    that the next run sees them: each run is a new process, so a count in memory would start
    again at every run. Per name, wall-clock times (the count survives a reboot), mode 0600."""

    def __init__(
        self,
        path: Path,
        attempts: int = DEFAULT_ATTEMPTS,
        lockout_seconds: float = DEFAULT_LOCKOUT_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self.attempts = attempts
        self.lockout_seconds = lockout_seconds
        self._clock = clock

    def _load(self) -> dict[str, dict[str, float]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            # A damaged count must not open the door: treat every name as locked until it is removed.
            raise AuthError(
                "auth_unavailable", f"{self.path}: the count of wrong PINs cannot be read ({exc}); remove it"
            ) from None
        return data if isinstance(data, dict) else {}

    def check(self, name: str) -> None:
        """:class:`AuthError` ``locked_out`` if ``name`` is locked by earlier runs' wrong PINs."""
        entry = self._load().get(name, {})
        remaining = float(entry.get("locked_until", 0)) - self._clock()
        if remaining > 0:
            raise AuthError(
                "locked_out",
                f"too many wrong PINs: this name is locked for {_duration(remaining)} more "
                f"(after {self.attempts} wrong PINs in a row)",
            )

    def failed(self, name: str) -> AuthError:
        """Count one more wrong PIN of ``name`` (saved); the error to answer with."""
        data = self._load()
        entry = data.setdefault(name, {"count": 0, "locked_until": 0})
        entry["count"] = int(entry.get("count", 0)) + 1
        error: AuthError
        if entry["count"] >= self.attempts:
            entry["count"], entry["locked_until"] = 0, self._clock() + self.lockout_seconds
            error = AuthError(
                "locked_out",
                f"too many wrong PINs: this name is locked for {_duration(self.lockout_seconds)}",
                began_lockout=True,
            )
        else:
            left = self.attempts - int(entry["count"])
            error = AuthError(
                "auth_failed",
                f"wrong user name or PIN; {left} more wrong PIN{'s' if left != 1 else ''} lock this name "
                f"for {_duration(self.lockout_seconds)}",
            )
        self._save(data)
        return error

    def succeeded(self, name: str) -> None:
        data = self._load()
        if data.pop(name, None) is not None:
            self._save(data)

    def _save(self, data: dict[str, dict[str, float]]) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)


def _duration(seconds: float) -> str:
    s = max(1, int(seconds + 0.999))
    minutes, s = divmod(s, 60)
    if not minutes:
        return f"{s} s"
    return f"{minutes} min" + (f" {s} s" if s else "")
